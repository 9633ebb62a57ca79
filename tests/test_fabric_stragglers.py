"""Stragglers (fabric.stragglers): the max over N workers, closed forms, detection, one bad link."""

import numpy as np
import pytest
from scipy.special import digamma

from interconnect_lab.fabric import (
    JITTERS, Network, degraded_link_effect, detect_slow_ranks, hierarchical_all_reduce_traffic, lagging_worker_cost,
    rank_placement, rank_timings, ring_all_reduce_traffic, sample_step_times, step_times,
)
from interconnect_lab.published import MEGASCALE_STRAGGLERS
from interconnect_lab.topology import fat_tree


def harmonic(n):
    return digamma(n + 1) + np.euler_gamma


@pytest.mark.parametrize("n", [1, 2, 10, 1000, 100_000])
def test_exponential_jitter_gives_the_harmonic_number(n):
    # Shifted exponential of mean 0 and standard deviation sigma: E[max] = t0 - sigma + sigma H_N.
    expected = step_times(n, 1.0, jitter="exponential", jitter_s=0.05).expected_step_s[0]
    assert expected == pytest.approx(1 - 0.05 + 0.05 * harmonic(n), rel=1e-6)


def test_quantiles_of_the_max_follow_one_worker_far_out():
    # Exponential: P(max <= x) = (1 - exp(-(x - t0 + sigma) / sigma))^N.
    n, sigma = 1000, 0.05
    result = step_times(n, 1.0, jitter_s=sigma)
    for q, value in ((0.5, result.median_step_s[0]), (0.99, result.p99_step_s[0])):
        assert value == pytest.approx(1 - sigma - sigma * np.log(1 - q ** (1 / n)), rel=1e-9)


def test_rare_slow_machines_without_jitter():
    # The step is slow if any worker is: E = t0 (1 + s (1 - (1 - p)^N)).
    counts = np.array([1, 100, 10_000, 100_000])
    result = step_times(counts, 2.0, slow_fraction=0.005, slowdown=0.1)
    assert result.expected_step_s == pytest.approx(2.0 * (1 + 0.1 * (1 - 0.995 ** counts)), rel=1e-12)


def test_megascale_half_percent_slow_machines_set_the_pace_at_ten_thousand_gpus():
    # MegaScale §5: about 0.5 % of machines ~10 % slower; at 10,000 workers one is almost surely present.
    fraction, slowdown = MEGASCALE_STRAGGLERS.slow_machine_fraction, MEGASCALE_STRAGGLERS.slowdown
    result = step_times([8, 10_000], 1.0, slow_fraction=fraction, slowdown=slowdown)
    assert result.expected_overhead[1] == pytest.approx(slowdown, rel=1e-6)
    assert result.expected_overhead[0] < slowdown / 10


@pytest.mark.parametrize("jitter", list(JITTERS))
def test_analytic_step_time_matches_sampling(jitter):
    samples = sample_step_times(500, 4000, 1.0, jitter=jitter, jitter_s=0.02, slow_fraction=0.002,
                                slowdown=0.05, seed=3)
    # Slow machines are drawn once per sample set; compare with the analytic value given the same draw.
    slow = int(np.round((samples.mean(axis=0) > 1.025).sum()))
    analytic = step_times(500, 1.0, jitter=jitter, jitter_s=0.02, slow_fraction=slow / 500,
                          slowdown=0.05).expected_step_s[0]
    assert samples.max(axis=1).mean() == pytest.approx(analytic, rel=0.01)


def test_step_time_grows_with_workers():
    result = step_times(np.logspace(0, 5, 11).astype(int), 1.0, jitter="normal", jitter_s=0.01)
    assert np.all(np.diff(result.expected_step_s) > 0)
    assert np.all(result.p99_step_s >= result.median_step_s)


def test_a_lagging_worker_costs_its_lag_or_less():
    assert lagging_worker_cost(1024, 1.0, 10e-6) == 10e-6
    # Jitter far above the lag: the late worker is the slowest only about 1 time in N.
    cost = lagging_worker_cost(1024, 1.0, 10e-6, jitter="normal", jitter_s=1e-3)
    assert 0 < cost < 10e-6 / 100
    # Jitter far below the lag: the late worker is always the slowest, and its lag replaces the others' maximum.
    others = step_times(1023, 1.0, jitter="normal", jitter_s=1e-7).expected_step_s[0] - 1.0
    cost = lagging_worker_cost(1024, 1.0, 10e-6, jitter="normal", jitter_s=1e-7)
    assert cost == pytest.approx(10e-6 - others, rel=1e-4)


@pytest.mark.parametrize("seed", range(5))
def test_detection_names_the_slow_ranks(seed):
    timings = rank_timings(1024, 30, 1.0, slow_ranks=[3, 700], slowdown=0.03, jitter="lognormal",
                           jitter_s=0.01, seed=seed)
    # The step time is the same for every rank and names nobody; the compute times do.
    assert np.allclose(timings.wait_s + timings.compute_s, timings.step_s[:, None])
    assert sorted(detect_slow_ranks(timings.compute_s).flagged.tolist()) == [3, 700]


@pytest.mark.parametrize("jitter", list(JITTERS))
def test_detection_stays_quiet_on_a_healthy_job(jitter):
    for seed in range(10):
        timings = rank_timings(1024, 30, 1.0, jitter=jitter, jitter_s=0.01, seed=seed)
        assert detect_slow_ranks(timings.compute_s).flagged.size == 0


def test_one_degraded_link_slows_the_whole_ring():
    # A flat ring over 64 hosts: every step waits for the flow on the half-speed NIC.
    net = Network(fat_tree(64, radix=16, tiers=2), nic_capacity_bytes_per_s=50e9)
    ring = ring_all_reduce_traffic(range(64), 1e9)
    effect = degraded_link_effect(net, ring, net.nic_link(5), 0.5)
    assert effect.slowdown == pytest.approx(2.0, rel=1e-12)
    assert effect.healthy_s == pytest.approx(2 * 63 * (1e9 / 64) / 50e9, rel=1e-12)


def test_a_degraded_spine_link_under_spraying_costs_less_than_under_ecmp():
    net = Network(fat_tree(128, radix=16, tiers=2, rails=8), nic_capacity_bytes_per_s=50e9)
    collective = hierarchical_all_reduce_traffic(rank_placement(128, gpus_per_node=8, placement="random", seed=1), 1e9,
                                         gpus_per_node=8)
    link = net.leaf_link(0, 0)
    sprayed = degraded_link_effect(net, collective, link, 0.25, routing="spray")
    assert 1.0 <= sprayed.slowdown <= 4.0


@pytest.mark.parametrize("call, message", [
    (lambda: step_times(0, 1.0), "n_workers = 0 is not valid"),
    (lambda: step_times(10, -1.0), "compute_s = -1 s"),
    (lambda: step_times(10, 1.0, jitter="uniform"), "valid jitters are: 'exponential', 'normal', 'lognormal'"),
    (lambda: step_times(10, 1.0, slow_fraction=1.5), "slow_fraction = 1.5 is not valid"),
    (lambda: rank_timings(8, 2, 1.0, slow_ranks=[9], seed=0), "slow_ranks contains 9, which is not a rank"),
    (lambda: detect_slow_ranks(np.ones((5, 2))), "at least 3 ranks"),
])
def test_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
