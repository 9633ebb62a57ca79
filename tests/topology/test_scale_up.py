"""Tests of ``interconnect_lab.topology.scale_up``: scale-up domains: GPUs joined through NVSwitch
chips by point-to-point links.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest

from fuzzing import Case, choice, count, make_tests

from interconnect_lab import catalog, topology, units as u
from interconnect_lab.published import NVLINK_DOMAIN_FIGURES
from interconnect_lab.topology import nvlink_domain, scale_up_domain


def test_dgx_h100_domain():
    dgx = nvlink_domain("DGX H100")
    assert dgx.gpus == 8 and dgx.switch_chips == 4 and dgx.links_per_gpu == 18
    assert dgx.links == 144
    assert dgx.per_gpu_per_direction_bytes_per_s == pytest.approx(450 * u.GB_per_s)
    assert max(dgx.switch_ports_used) <= catalog.switch("NVSwitch 3").ports


def test_gb200_nvl72_domain():
    nvl72 = nvlink_domain("GB200 NVL72")
    assert (nvl72.gpus, nvl72.switch_chips, nvl72.links) == (72, 18, 1296)
    assert nvl72.per_gpu_per_direction_bytes_per_s == pytest.approx(900 * u.GB_per_s)
    assert nvl72.total_per_direction_bytes_per_s == pytest.approx(64.8 * u.TB_per_s)
    assert nvl72.switch_ports_used == (catalog.switch("NVLink Switch chip").ports,) * 18


@pytest.mark.parametrize("figure", NVLINK_DOMAIN_FIGURES, ids=lambda f: f.system)
def test_nvidia_headline_nvlink_figures(figure):
    # DGX H100 bisection 3.6 TB/s (exact); NVL72 "130 TB/s" is 72 x 1.8 TB/s = 129.6, rounded.
    domain = nvlink_domain(figure.system)
    per_direction = {"bisection": domain.bisection_per_direction_bytes_per_s,
                     "total": domain.total_per_direction_bytes_per_s}[figure.quantity]
    assert u.both_directions(per_direction) == pytest.approx(figure.both_directions_bytes_per_s, rel=0.005)


def test_scale_up_domain_checks_its_wiring():
    with pytest.raises(ValueError, match=r"gives 20 links per GPU, but a NVLink 4 GPU has 18"):
        scale_up_domain(8, (5, 5, 5, 5), "NVLink 4")
    with pytest.raises(ValueError, match=r"links_per_gpu_per_chip\[1\] = 0 is not valid"):
        scale_up_domain(8, (5, 0), "NVLink 4")
    with pytest.raises(TypeError, match="sequence of whole numbers"):
        scale_up_domain(8, 18, "NVLink 4")
    with pytest.raises(ValueError, match="unknown NVLink domain 'DGX A100'"):
        nvlink_domain("DGX A100")


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(topology.scale_up_domain, dict(gpus=count(1, 1024), links_per_gpu_per_chip=count(1, 32),
                                        link=choice(tuple(catalog.LINKS)))),
    Case(topology.nvlink_domain, dict(system=choice(tuple(catalog.SYSTEMS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
