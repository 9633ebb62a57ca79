"""Tests of ``interconnect_lab.moe.models``: mixture-of-experts architectures: the shapes the
expert-parallel model of :mod:`interconnect_lab.moe` runs.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import pytest

from fuzzing import Case, choice, make_tests

from interconnect_lab import moe


@pytest.mark.parametrize(("name", "total", "activated", "tolerance"), [
    # DeepSeek-V3 technical report, abstract and §4.2: "671B total parameters with 37B activated".
    ("DeepSeek-V3", 671e9, 37e9, 0.02),
    # Mixtral of Experts, §2: "47B parameters", "13B active parameters" (46.7B / 12.9B in Mistral's release).
    ("Mixtral 8x7B", 46.7e9, 12.9e9, 0.01),
])
def test_parameter_counts_match_the_papers(name, total, activated, tolerance):
    model = moe.moe_model(name)
    assert model.total_parameters == pytest.approx(total, rel=tolerance)
    assert model.activated_parameters == pytest.approx(activated, rel=tolerance)


def test_unknown_model_lists_the_valid_names():
    with pytest.raises(ValueError, match="DeepSeek-V3"):
        moe.moe_model("GPT-5")


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

MOE_MODELS = tuple(moe.MOE_MODELS)

FUZZ_CASES = [
    Case(moe.moe_model, dict(name=choice(MOE_MODELS))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
