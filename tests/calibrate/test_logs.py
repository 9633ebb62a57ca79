"""Tests of ``interconnect_lab.calibrate.logs``: real tool output shipped with the library, each file
exactly as it was printed.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

from fuzzing import Case, choice, make_tests

from interconnect_lab import calibrate


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES = [
    Case(calibrate.shipped_log, dict(name=choice(tuple(calibrate.SHIPPED_LOGS)))),
    Case(calibrate.shipped_text, dict(name=choice(tuple(calibrate.SHIPPED_LOGS)))),
    Case(calibrate.shipped_system, dict(name=choice(tuple(calibrate.SHIPPED_LOGS)))),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
