"""What :mod:`interconnect_lab.moe` deprecated when its all-to-alls moved to the collective model.

Until this release ``moe`` priced dispatch and combine with its own α-β model
and a table of two *communication paths*; it now asks the collective model
for one of its expert-parallel kernels
(:data:`interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS`). The old names
(``COMMUNICATION_PATHS``, ``communication_path``, ``CommunicationPath``) and
keywords (``path=``, ``hierarchical=``, ``scale_up_bandwidth_bytes_per_s=``,
``network_bandwidth_bytes_per_s=``) keep working, with a ``DeprecationWarning``,
for one release; each path maps to the kernel that does what it described.
Nothing in the library, the tests or the book uses them.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from types import MappingProxyType

from .._validation import check_choice, check_flag

__all__ = ["CommunicationPath", "COMMUNICATION_PATHS", "communication_path", "legacy_kernel", "LEGACY_KEYWORDS"]


@dataclass(frozen=True, kw_only=True)
class CommunicationPath:
    """Deprecated: how an all-to-all was started; now a kernel of the collective model.

    Attributes
    ----------
    name : str
    description : str
    kernel : str
        The kernel of :data:`interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS` it maps to
        (for a hierarchical all-to-all, host-initiated maps to ``"normal"``).
    """

    name: str
    description: str
    kernel: str


#: Deprecated: the two paths of the old model, each with the kernel that replaces it.
COMMUNICATION_PATHS = MappingProxyType({
    "host-initiated (NCCL)": CommunicationPath(
        name="host-initiated (NCCL)", description="the CPU launches a collective; a proxy thread posts the writes",
        kernel="nccl"),
    "GPU-initiated (IBGDA)": CommunicationPath(
        name="GPU-initiated (IBGDA)", description="GPU threads post the writes inside the kernel",
        kernel="low_latency"),
})


def communication_path(name):
    """Deprecated: the communication path called ``name``; choose a kernel instead.

    Parameters
    ----------
    name : str
        A key of :data:`COMMUNICATION_PATHS`.
    """
    check_choice("communication path", name, COMMUNICATION_PATHS)
    return COMMUNICATION_PATHS[name]


#: Keywords the pricing functions of ``moe`` accept for one release, with what replaces each.
LEGACY_KEYWORDS = MappingProxyType({
    "path": "kernel=",
    "hierarchical": "kernel= ('normal' is hierarchical, 'nccl' is flat)",
    "scale_up_bandwidth_bytes_per_s": "a CollectiveSystem (system=) with its nvlink_bytes_per_s",
    "network_bandwidth_bytes_per_s": "a CollectiveSystem (system=) with its nic_bytes_per_s",
})


def legacy_kernel(function, kernel, legacy, *, accepted=tuple(LEGACY_KEYWORDS), stacklevel=3):
    """The kernel name, the NVLink and port overrides from deprecated keywords (warning for each).

    Parameters
    ----------
    function : str
        The public function called, for the messages.
    kernel : str or None
        The ``kernel`` the caller passed (None: not passed).
    legacy : dict
        The other keywords the caller passed.
    accepted : tuple of str
        The deprecated keywords ``function`` used to take.
    stacklevel : int
        Where the warning points (the caller's caller).

    Returns
    -------
    (str or None, float or None, float or None)
        Kernel, NVLink bandwidth override, port bandwidth override [B/s].
    """
    unknown = sorted(set(legacy) - set(accepted))
    if unknown:
        raise TypeError(f"{function}() got an unexpected keyword argument {unknown[0]!r}")
    path, hierarchical = legacy.get("path"), legacy.get("hierarchical")
    if kernel is not None and (path is not None or hierarchical is not None):
        raise TypeError(f"{function}() got both 'kernel' and the deprecated {'path' if path else 'hierarchical'!r}: "
                        "pass only 'kernel'")
    for name in legacy:
        warnings.warn(f"{function}({name}=...) is deprecated and will be removed in the next release: use "
                      f"{LEGACY_KEYWORDS[name]} instead", DeprecationWarning, stacklevel=stacklevel)
    if path is not None or hierarchical is not None:
        hierarchical = True if hierarchical is None else check_flag("hierarchical", hierarchical)
        kernel = communication_path(path).kernel if path is not None else "nccl"
        if kernel == "nccl" and hierarchical:
            kernel = "normal"
    return kernel, legacy.get("scale_up_bandwidth_bytes_per_s"), legacy.get("network_bandwidth_bytes_per_s")
