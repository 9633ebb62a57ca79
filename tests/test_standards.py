"""Standards, consortia and claims: the recorded facts, the timer formula, and bad input.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest

from fuzzing import Case, count, make_tests, optional

from interconnect_lab import standards
from interconnect_lab.sources import Source
from interconnect_lab.standards import (
    NCCL_IB_RETRY_CNT_DEFAULT, NCCL_IB_TIMEOUT_DEFAULT, ROCE_V2, SMARTT_CLAIM, SPECTRUM_X_CLAIM,
    ULTRA_ETHERNET_1_0, ULTRA_ETHERNET_CONSORTIUM, Consortium, PerformanceClaim, Specification,
    local_ack_timeout_s,
)


def test_uec_facts_as_published():
    uec = ULTRA_ETHERNET_CONSORTIUM
    assert uec.founded == "2023-07-19" and uec.year == 2023
    assert set(uec.founders) == {"AMD", "Arista", "Broadcom", "Cisco", "Eviden", "HPE", "Intel", "Meta", "Microsoft"}
    assert "NVIDIA" not in uec.founders and "NVIDIA" in uec.joined_later
    assert uec.endpoint_target == 1_000_000
    assert ULTRA_ETHERNET_1_0.year == 2025 and ULTRA_ETHERNET_1_0.released == "2025-06"
    assert ROCE_V2.released == "2014-09-02"


def test_nccl_timeout_table():
    # NCCL's documentation: 18 -> 1.1 s, 20 -> 4.3 s, 20 x 7 retries -> about 30 s.
    assert local_ack_timeout_s(18) == pytest.approx(1.1, abs=0.05)
    assert local_ack_timeout_s(NCCL_IB_TIMEOUT_DEFAULT) == pytest.approx(4.3, abs=0.05)
    assert NCCL_IB_RETRY_CNT_DEFAULT * local_ack_timeout_s(NCCL_IB_TIMEOUT_DEFAULT) == pytest.approx(30, abs=0.1)
    assert local_ack_timeout_s(1) == pytest.approx(8.192e-6)
    assert math.isinf(local_ack_timeout_s(0))


def test_timeout_doubles_per_step():
    for n in range(1, 31):
        assert local_ack_timeout_s(n + 1) == pytest.approx(2 * local_ack_timeout_s(n))


@pytest.mark.parametrize("bad", [-1, 32, 2.5])
def test_timeout_exponent_checked(bad):
    with pytest.raises((ValueError, TypeError), match="exponent"):
        local_ack_timeout_s(bad)


def test_claims_are_labelled_claims():
    for claim in (SPECTRUM_X_CLAIM, SMARTT_CLAIM):
        assert not claim.independent
        assert claim.sources and all(isinstance(s, Source) for s in claim.sources)
    assert SPECTRUM_X_CLAIM.value == 1.6
    assert SMARTT_CLAIM.value == 0.5
    assert "Sender-based Marked Rapidly-adapting Trimmed & Timed Transport" in SMARTT_CLAIM.sources[0].title


def test_every_record_has_a_source():
    for name in standards.__all__:
        value = getattr(standards, name)
        if isinstance(value, (Specification, Consortium, PerformanceClaim)):
            assert value.sources, name


def test_bad_records_are_refused():
    source = Source(title="t", year=2024, url="https://example.org")
    with pytest.raises(ValueError, match="ISO date"):
        Specification(name="x", body="y", released="June 2025", scope="z", sources=(source,))
    with pytest.raises(ValueError, match="Source"):
        Consortium(name="x", host="y", founded="2023", founders=("a",), sources=())
    with pytest.raises(ValueError, match="endpoint_target"):
        Consortium(name="x", host="y", founded="2023", founders=("a",), endpoint_target=0, sources=(source,))


def test_nccl_and_jericho_records():
    assert standards.NCCL_IB_QPS_PER_CONNECTION_DEFAULT == 1
    assert standards.JERICHO3_AI_CLAIM.value == 32_768 and not standards.JERICHO3_AI_CLAIM.independent


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def timeout_infinite_only_for_zero(result, kwargs):
    assert (result == np.inf) == (kwargs["exponent"] == 0) and result > 0, (result, kwargs)


FUZZ_CASES = [
    # standards, utilization, silicon
    Case(standards.local_ack_timeout_s, dict(exponent=count(0, 40)), check=timeout_infinite_only_for_zero,
         infinite=("result",)),
    Case(standards.worst_case_loss_stall_s, dict(exponent=optional(count(0, 40)), retries=optional(count(0, 9)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
