"""Chapter 9, stragglers, failures and the tail: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import fabric, reliability
from ... import units as u
from ._common import choice, numeric


def _mtbf_16k():
    return reliability.system_mtbf(16384, 50_000 * u.hour)


ENTRIES = [
    numeric("ch9.ex1", "A big job's MTBF",
            "Assume each GPU fails on average once in 50,000 hours, independently. How often does a job on "
            "16,384 GPUs see a failure: what is its mean time between failures?",
            lambda: _mtbf_16k(), unit="hours", scale=u.hour, hint="`reliability.system_mtbf`."),
    numeric("ch9.ex2", "How often to checkpoint",
            "For that job, with 60 s checkpoints, what is Daly's optimal checkpoint interval?",
            lambda: reliability.daly_interval(60, _mtbf_16k()), unit="minutes", scale=u.minute,
            hint="`reliability.daly_interval`; close to √(2 δ M)."),
    numeric("ch9.ex3", "Time that counts",
            "At that interval, with restarts of 10 minutes, what share of wall-clock time trains the model?",
            lambda: reliability.effective_training_fraction(reliability.daly_interval(60, _mtbf_16k()), 60,
                                                            _mtbf_16k(), restart_s=10 * u.minute),
            unit="%", scale=0.01, hint="`reliability.effective_training_fraction`."),
    numeric("ch9.ex4", "The slowest of a thousand",
            "1,000 workers each take 1 s plus exponential jitter of standard deviation 10 ms (mean zero). "
            "What is the expected time of a synchronous step?",
            lambda: float(fabric.step_times(1000, 1.0, jitter="exponential", jitter_s=0.010)
                          .expected_step_s[0]), unit="s", rtol=0.001,
            hint="The expected maximum: t₀ + σ (H_N − 1); `fabric.step_times`."),
    choice("ch9.q1", "Who sets the pace",
           "In synchronous data-parallel training the step time is set by ...",
           ["the average worker", "the slowest worker", "the fastest worker"], "b"),
    choice("ch9.q2", "More workers, same jitter",
           "Each worker's jitter stays the same while the job grows from 1,000 to 100,000 workers. The "
           "expected step time ...",
           ["grows", "stays the same", "shrinks"],
           lambda: "a" if float(fabric.step_times(100_000, 1.0, jitter="exponential", jitter_s=0.01)
                                .expected_step_s[0]) > float(fabric.step_times(
                                    1000, 1.0, jitter="exponential", jitter_s=0.01).expected_step_s[0])
           else "b"),
    choice("ch9.q3", "Faster checkpoints",
           "Halving the checkpoint time changes Young's optimal interval by a factor of about ...",
           ["1/2", "1/√2", "1"],
           lambda: min((("a", 0.5), ("b", 2**-0.5), ("c", 1.0)), key=lambda o: abs(
               reliability.young_interval(30, 3 * u.hour) / reliability.young_interval(60, 3 * u.hour)
               - o[1]))[0]),
    choice("ch9.q4", "Twice the GPUs",
           "Doubling a job's GPUs (same per-GPU failure rate) changes its MTBF by a factor of ...",
           ["1/2", "1/√2", "2"],
           lambda: "a" if abs(reliability.system_mtbf(2000, 1e6) / reliability.system_mtbf(1000, 1e6) - 0.5)
           < 1e-12 else "b"),
    numeric("ch9.q5", "Young's interval",
            "What is Young's optimal checkpoint interval for 60 s checkpoints and a 3-hour MTBF?",
            lambda: reliability.young_interval(60, 3 * u.hour), unit="minutes", scale=u.minute,
            hint="√(2 δ M)."),
]
