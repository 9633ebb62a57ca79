"""Export variants: parts built from a catalog part with fewer of something, each with its source.

NVIDIA sold cut-down Hopper GPUs for markets under US export rules. The H800 is
an H100 SXM whose NVLink 4 has 8 links instead of 18: 400 GB/s per GPU with
both directions added (200 GB/s per direction) instead of 900 GB/s; compute and
memory are the H100's. DeepSeek trained DeepSeek-V3 on it, and DeepEP measured
its all-to-all kernels on it.

The variants are kept out of ``catalog.GPUS`` and ``catalog.LINKS``, whose tables list *generations*: a
variant is the same generation with fewer links. Look them up here.

Examples
--------
>>> from interconnect_lab.catalog.variants import variant_gpu, variant_link
>>> variant_link("NVLink 4 (H800)").per_gpu_per_direction_bytes_per_s / 1e9
200.0
>>> variant_gpu("H800 SXM").bf16_flop_per_s == 989.4e12
True
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from .. import units as u
from ..sources import Source
from .gpus import gpu
from .links import link

__all__ = ["H800_SOURCES", "VARIANT_LINKS", "VARIANT_GPUS", "variant_link", "variant_gpu"]

#: Where the H800's NVLink figure comes from.
H800_SOURCES = (
    Source(title="AI Wiki, NVIDIA H800", year=2026, url="https://aiwiki.ai/wiki/nvidia_h800",
           note="secondary: same GH100 die as the H100; NVLink cut to 400 GB/s aggregate bidirectional "
                "(from 900 GB/s) to meet the October 2022 export rules; launched March 2023"),
    Source(title="DeepSeek-AI, DeepSeek-V3 Technical Report", year=2024, url="https://arxiv.org/abs/2412.19437",
           locator="§3.2.1",
           note="H800 cluster: NVLink offers 160 GB/s, about 3.2 times InfiniBand's 50 GB/s (achievable rates, "
                "one direction); 132 SMs per H800"),
)

_NVLINK4 = link("NVLink 4")

#: Link variants by name: NVLink 4 with the H800's 8 links.
VARIANT_LINKS = MappingProxyType({
    "NVLink 4 (H800)": dataclasses.replace(
        _NVLINK4, name="NVLink 4 (H800)", year=2023, links_per_gpu=8, sources=H800_SOURCES),
})

# 8 links of 25 GB/s per direction: the 400 GB/s "both directions" figure.
assert VARIANT_LINKS["NVLink 4 (H800)"].per_gpu_per_direction_bytes_per_s == u.per_direction(400 * u.GB_per_s)

#: GPU variants by name: the H800 SXM, an H100 SXM with the H800's NVLink.
VARIANT_GPUS = MappingProxyType({
    "H800 SXM": dataclasses.replace(
        gpu("H100 SXM"), name="H800 SXM", year=2023, scale_up_link="NVLink 4 (H800)",
        sources=gpu("H100 SXM").sources + H800_SOURCES),
})


def variant_link(name):
    """The link variant called ``name`` (see :data:`VARIANT_LINKS`); an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of :data:`VARIANT_LINKS`.
    """
    if name not in VARIANT_LINKS:
        raise ValueError(f"unknown link variant {name!r}; valid link variants are: "
                         f"{', '.join(map(repr, VARIANT_LINKS))}")
    return VARIANT_LINKS[name]


def variant_gpu(name):
    """The GPU variant called ``name`` (see :data:`VARIANT_GPUS`); an unknown name lists the valid ones.

    Parameters
    ----------
    name : str
        A key of :data:`VARIANT_GPUS`.
    """
    if name not in VARIANT_GPUS:
        raise ValueError(f"unknown GPU variant {name!r}; valid GPU variants are: "
                         f"{', '.join(map(repr, VARIANT_GPUS))}")
    return VARIANT_GPUS[name]
