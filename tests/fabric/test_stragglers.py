"""Stragglers (fabric.stragglers): the max over N workers, closed forms, detection, one bad link.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import time

import numpy as np
import pytest
from hypothesis import strategies as st
from scipy.special import digamma

from fuzzing import HOSTILE, Case, choice, count, fraction, make_tests, mixed, nonnegative, positive

from interconnect_lab import fabric, topology
from interconnect_lab.fabric import (
    JITTERS, Network, degraded_link_effect, detect_slow_ranks, hierarchical_all_reduce_traffic,
    lagging_worker_cost, rank_placement, rank_timings, ring_all_reduce_traffic, sample_step_times, step_times,
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


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

ROUTINGS = tuple(fabric.ROUTINGS)

#: The messages routing gives for hosts that failed links have cut apart: a clear error of its own.
DISCONNECTED = (r"^no path from host \d+ to host \d+ survives the failed links",)


def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


#: Counts that some builder allocates arrays of: mostly small, sometimes large, and absurd ones that
#: must be refused before anything is allocated.
ABSURD = (2 ** 21 + 1, 2 ** 30, 2 ** 40, 2 ** 53)

#: Values that build the networks and traffic given to the other functions (never hostile).
ordinary_sizes = st.floats(0, 10).map(lambda e: float(10.0 ** e))

seeds = mixed(st.integers(0, 2 ** 40))


@st.composite
def trees(draw, large=False):
    """A small fat tree of 1, 2 or 3 tiers (rarely a large or absurd one), perhaps rail-optimized."""
    if large:
        hosts, radix, tiers = draw(st.sampled_from([(65_536, 64, 3), (300_000, 128, 3), (400_000, 128, 3),
                                                    (2 ** 40, 2 ** 14, 3), (2 ** 46, 2 ** 16, 3)]))
        return topology.fat_tree(hosts, radix=radix, tiers=tiers)
    radix = draw(st.sampled_from([4, 8, 16]))
    tiers = draw(st.sampled_from([1, 2, 2, 3, 3]))
    rails = draw(st.sampled_from([1, 1, 1, 2]))
    most = min(topology.max_hosts(radix, tiers, rails=rails), 96)
    hosts = draw(st.integers(2, most))
    return topology.fat_tree(hosts, radix=radix, tiers=tiers, rails=rails)


ordinary_capacity = st.floats(0, 12).map(lambda e: float(10.0 ** e))

corner_capacity = st.sampled_from([1e-30, 1e18, 1e-3, 1e15])


@st.composite
def networks(draw):
    """A network over a small tree: ordinary capacities (rarely the corners of their range),
    perhaps with a few links failed or degraded."""
    tree = draw(trees())
    nic = draw(rarely(ordinary_capacity, corner_capacity))
    link = draw(st.one_of(st.none(), rarely(ordinary_capacity, corner_capacity)))
    network = fabric.Network(tree, nic_capacity_bytes_per_s=nic, link_capacity_bytes_per_s=link)
    if network.tiers == 1:
        return network
    change = draw(st.sampled_from(["intact", "intact", "failed", "degraded"]))
    if change == "intact":
        return network
    links = network.random_links(draw(st.integers(1, min(3, network.leaves * network.leaf_up_ports))),
                                 seed=draw(st.integers(0, 1000)))
    if change == "failed":
        return network.with_failed_links(links)
    smallest = float(network.capacity_bytes_per_s[links].min())
    return network.with_degraded_links(links, draw(st.floats(max(0.01, 1e-30 / smallest), 1.0)))


@st.composite
def collectives_on(draw, network):
    """A ring or hierarchical all-reduce over the network's hosts; servers of 1 to all of them,
    so that some collectives never leave a server."""
    hosts = network.hosts
    message = draw(rarely(ordinary_sizes, st.floats(-27, 30).map(lambda e: float(10.0 ** e))))  # >= 1e-30 B a flow
    per_node = draw(st.sampled_from([1, 2, 4, hosts]))
    ranks = hosts - hosts % per_node
    if ranks < 2:
        per_node, ranks = 1, hosts
    placement = draw(st.sampled_from(fabric.PLACEMENTS))
    order = fabric.rank_placement(ranks, gpus_per_node=per_node, placement=placement, seed=draw(st.integers(0, 99)))
    if draw(st.booleans()) or ranks // per_node < 2:
        return fabric.ring_all_reduce_traffic(order, message, gpus_per_node=per_node)
    return fabric.hierarchical_all_reduce_traffic(order, message, gpus_per_node=per_node)


network_and_collective = networks().flatmap(lambda net: st.tuples(st.just(net), collectives_on(net)))


def degraded_is_sound(result, kwargs):
    assert result.healthy_s >= 0 and result.degraded_s >= 0
    assert (result.healthy_s == 0) == (result.degraded_s == 0)
    assert result.slowdown > 0


def samples_are_positive(result, kwargs):
    """One row per step; times positive, but for the normal jitter's documented left tail (beyond 4 sigma)."""
    assert result.shape == (kwargs["steps"], kwargs["n_workers"])
    if kwargs["jitter"] == "normal":
        assert np.mean(result <= 0) < 1e-3
    else:
        assert np.all(result > 0)


def timings_are_sound(result, kwargs):
    positive = result.compute_s > 0
    assert np.all(positive) or (kwargs["jitter"] == "normal" and np.mean(~positive) < 1e-3)  # see above
    assert np.all(result.wait_s >= 0)
    assert np.allclose(result.step_s, result.compute_s.max(axis=1))


def detection_is_sound(result, kwargs):
    assert np.all(result.score[result.flagged] > result.threshold)
    assert np.all(np.diff(result.score[result.flagged]) <= 0)


base_compute = st.floats(-3, 2).map(lambda e: float(10.0 ** e))


def jitter_for(key):
    """A jitter that is mostly valid for the shared compute time: 0 or up to a third of it."""
    return mixed(st.shared(base_compute, key=key).flatmap(lambda compute: st.one_of(
        st.just(0.0), st.floats(1e-12 / compute, 0.3).map(lambda share: share * compute))))


compute_times = mixed(st.integers(1, 8).flatmap(lambda ranks: st.integers(1, 6).flatmap(lambda steps: st.lists(
    st.lists(st.integers(0, 19).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else st.floats(0.5, 2.0)),
             min_size=ranks, max_size=ranks), min_size=steps, max_size=steps))))

radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

FUZZ_CASES = [
    # stragglers
    Case(fabric.sample_step_times, dict(n_workers=mixed(rarely(st.integers(1, 1000), st.sampled_from(ABSURD))),
                                        steps=mixed(rarely(st.integers(1, 100), st.sampled_from(ABSURD))),
                                        compute_s=mixed(st.shared(base_compute, key="samples")),
                                        jitter=choice(tuple(fabric.JITTERS)), jitter_s=jitter_for("samples"),
                                        slow_fraction=fraction(), slowdown=nonnegative(1e-3, 10), seed=seeds),
         check=samples_are_positive, examples=0.5),
    Case(fabric.rank_timings, dict(n_ranks=mixed(rarely(st.integers(2, 512), st.sampled_from(ABSURD))),
                                   steps=mixed(rarely(st.integers(1, 50), st.sampled_from(ABSURD))),
                                   compute_s=mixed(st.shared(base_compute, key="ranks")),
                                   slow_ranks=mixed(st.lists(rarely(st.integers(0, 1), mixed(st.integers(0, 600))),
                                                             max_size=4)),
                                   slowdown=nonnegative(1e-3, 10), jitter=choice(tuple(fabric.JITTERS)),
                                   jitter_s=jitter_for("ranks"), seed=seeds),
         check=timings_are_sound, examples=0.5),
    Case(fabric.detect_slow_ranks, dict(compute_s=compute_times, threshold=positive(0.1, 100)),
         check=detection_is_sound, examples=0.5),
    Case(fabric.degraded_link_effect, dict(
        network=mixed(st.shared(network_and_collective, key="degraded").map(lambda pair: pair[0])),
        collective=mixed(st.shared(network_and_collective, key="degraded").map(lambda pair: pair[1])),
        links=mixed(st.shared(network_and_collective, key="degraded").flatmap(lambda pair: st.one_of(
            st.integers(0, pair[0].link_count - 1),
            st.lists(st.integers(0, pair[0].link_count + 1), min_size=1, max_size=3)))),
        fraction=fraction(0.01, 1.0), routing=choice(ROUTINGS), seed=seeds),
         check=degraded_is_sound, messages=DISCONNECTED, examples=0.5),
]


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

FUZZ_CASES += [
    Case(fabric.step_times, dict(n_workers=count(1, 100_000), compute_s=positive(1e-3, 100),
                                 jitter=choice(tuple(fabric.JITTERS)), jitter_s=nonnegative(1e-6, 10),
                                 slow_fraction=fraction(), slowdown=nonnegative(1e-3, 10))),
    Case(fabric.lagging_worker_cost, dict(n_workers=count(1, 100_000), compute_s=positive(1e-3, 100),
                                          lag_s=nonnegative(1e-6, 100), jitter=choice(tuple(fabric.JITTERS)),
                                          jitter_s=nonnegative(1e-6, 10))),
]


# Hostile input -----------------------------------------------------------------------------------

def _leaf_spine(capacity=100.0):
    from interconnect_lab import fabric
    return fabric.Network(topology.fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=capacity)


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "message"), [
    (lambda f: f.permutation(2 ** 40, 1.0, seed=0), r"hosts = 1099511627776 is not valid: it must be in \[2, 1048576\]"),
    (lambda f: f.background(2 ** 40, 0.5, seed=0), r"hosts = 1099511627776 is not valid"),
    (lambda f: f.rank_placement(2 ** 53), r"hosts = 9007199254740992 is not valid"),
    (lambda f: f.ring_all_reduce_traffic(2 ** 30, 1e9), r"ranks = 1073741824 is not valid"),
    (lambda f: f.all_to_all(2 ** 20, 1.0), r"all_to_all: its n \(n - 1\) = 1099510579200 flows must be at most MAX_FLOWS"),
    (lambda f: f.all_to_all(2049, 1.0), r"4194304"),
    (lambda f: f.spray_arrivals([0.0], 2 ** 40, 4096, 50e9), r"packets = 1099511627776 is not valid: it must be in "
                                                             r"\[1, 1048576\]"),
    (lambda f: f.sample_step_times(2 ** 20, 2 ** 20, 1.0, seed=0), r"n_workers \* steps = 1099511627776 times must be "
                                                                  r"at most MAX_STEP_SAMPLES = 4194304"),
    (lambda f: f.rank_timings(2 ** 30, 2, 1.0, seed=0), r"MAX_STEP_SAMPLES"),
    (lambda f: f.ecmp_collisions(_leaf_spine(1.0), samples=2 ** 40), r"samples = 1099511627776 is not valid: it must "
                                                                     r"be in \[100, 100000\]"),
])
def test_builders_refuse_absurd_counts_before_allocating(call, message):
    # each allocated arrays of 2**40 elements or more before: a MemoryError, or a process killed for memory
    from interconnect_lab import fabric
    started = time.process_time()
    with pytest.raises(ValueError, match=message):
        call(fabric)
    assert time.process_time() - started < 0.5


@pytest.mark.usefixtures("warnings_are_errors")
def test_sample_step_times_without_jitter_has_a_row_per_step():
    # jitter_s = 0 gave one row, whatever the steps, and rank_timings one step
    from interconnect_lab import fabric
    times = fabric.sample_step_times(3, 5, 1.0, slow_fraction=1.0, slowdown=0.5, seed=0)
    assert times.shape == (5, 3) and np.all(times == 1.5)
    assert fabric.rank_timings(3, 5, 1.0, slow_ranks=[1], seed=0).step_s.tolist() == [1.1] * 5


@pytest.mark.usefixtures("warnings_are_errors")
def test_detect_slow_ranks_scores_stay_finite_when_most_ranks_agree():
    # medians 0, 0, 0 and 1e18: a spread of the smallest float, and the score overflowed to inf
    from interconnect_lab import fabric
    result = fabric.detect_slow_ranks([[0.0, 0.0, 0.0, 1e18]])
    assert np.all(np.isfinite(result.score)) and result.flagged.tolist() == [3]
    # times near the float limit overflowed the median itself (NaN scores): refused
    with pytest.raises(ValueError, match=r"compute_s = 1\.7e\+308 s \(element 2\) is not valid: it must be in \[0, 1e\+18\] s"):
        fabric.detect_slow_ranks([[0.0, 1e17, 1.7e308, 1.7e308]])
    assert fabric.detect_slow_ranks(np.zeros((2, 4))).score.tolist() == [0.0] * 4
    assert fabric.detect_slow_ranks([[1.0, 1.0, 1.0, 1.0 + 1e-9]]).flagged.tolist() == [3]


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    # internal numpy errors, AttributeErrors and silent conversions before
    (lambda f: f.incast([0, [1.0]], 2, 1.0), TypeError, r"senders must be a one-dimensional sequence of host numbers"),
    (lambda f: f.incast([0, 1], 2, [1.0, 2.0]), TypeError, "size_bytes must be a single real number"),
    (lambda f: f.combine(0), TypeError, "every argument of combine must be a fabric Traffic: argument 1 is int"),
    (lambda f: f.Traffic([0], [1], 1.0, background="yes"), TypeError, "background must be True or False"),
    (lambda f: f.Traffic([0], [1], True), TypeError, "size_bytes must be a number"),
    (lambda f: f.Traffic([0], [1], 1.0, name=5), TypeError, "name must be a str"),
    (lambda f: f.Traffic([0, 1], [1, 2], [1.0, 2.0, 3.0]), ValueError, r"size_bytes has shape \(3,\) for 2 flows"),
    (lambda f: f.explicit_routes(_leaf_spine(), f.Traffic([0], [2], 1.0), 0), TypeError, "paths must be a sequence"),
    (lambda f: f.explicit_routes(_leaf_spine(), f.Traffic([0], [2], 1.0), [[0.5, 16.0]]), TypeError,
     r"paths\[0\] must be a link number"),
    (lambda f: f.incidence_matrix([[1e300]]), TypeError, r"paths\[0\] must be a sequence of link numbers"),
    (lambda f: f.incidence_matrix([[0.7]]), TypeError, r"paths\[0\] must be a sequence of link numbers"),  # link 0
    (lambda f: f.incidence_matrix([1.0]), TypeError, r"paths\[0\] must be a sequence of link numbers"),
    (lambda f: f.incidence_matrix([], weights=0), ValueError, "weights must be a sequence of one sequence"),
    (lambda f: f.incidence_matrix([[0]], resources=True), TypeError, "resources must be a whole number"),
    (lambda f: f.simulate_routes(0), TypeError, "routes must be a fabric Routes"),
    (lambda f: f.simulate_flows([[0]], [1.0], [1.0], time_tolerance=[1e-9]), TypeError,
     "time_tolerance must be a single real number"),
    (lambda f: f.compare_routings(_leaf_spine(), f.permutation(8, 1.0, seed=0), "ecmp"), TypeError,
     "routings must be a sequence of routing names"),   # ran 'e', 'c', ... before
    (lambda f: f.compare_routings(_leaf_spine(), f.permutation(8, 1.0, seed=0), []), ValueError,
     "routings must name at least one routing"),
    # seeds the call does not use (no skew, round-robin, rail-aligned, spraying) went unchecked
    (lambda f: f.route(_leaf_spine(), f.permutation(8, 1.0, seed=0), "spray", seed=[1.0]), TypeError,
     "seed must be an integer"),
    (lambda f: f.all_to_all(4, 1.0, seed=[1.0]), TypeError, "seed must be an integer"),
    (lambda f: f.rank_placement(4, seed=-2), ValueError, "seed = -2 is not valid"),
    (lambda f: f.spray_arrivals([0.0], 4, 4096, 50e9, seed=[1.0]), TypeError, "seed must be a whole number"),
    (lambda f: _leaf_spine().with_failed_links(1e300), ValueError, r"links = 1e\+300 is not a link of this network"),
    (lambda f: f.ecmp_collisions(_leaf_spine(1.0), seed=-1), ValueError, "seed = -1 is not valid: it must be >= 0"),
    (lambda f: f.ecmp_collisions(f.Network(topology.fat_tree(6, radix=4, tiers=2), nic_capacity_bytes_per_s=1.0)),
     ValueError, "network must be a fully built tree for the prediction: this one has 6 hosts of 8"),
    (lambda f: f.spray_arrivals([0.0], 4, [1.0], 1.0), TypeError, "packet_bytes must be a single real number"),
    (lambda f: f.spray_arrivals([0.0], 4, 1e308, 1e-300), ValueError,   # NaN times before
     r"packet_bytes = 1e\+308 B is not valid: it must be in \[1e-30, 1e\+30\] B"),
    (lambda f: f.spray_arrivals([0.0], 4, 4096, 1e-300), ValueError, r"link_bytes_per_s = 1e-300 B/s is not valid"),
    (lambda f: f.sample_step_times(3, 5, 1.0, seed=-1), ValueError, "seed = -1 is not valid: it must be >= 0"),
    (lambda f: f.rank_timings(4, 2, 1.0, slow_ranks=[1.5], seed=0), TypeError, "slow_ranks must be a rank"),  # rank 1
    (lambda f: f.rank_timings(4, 2, 1.0, slow_ranks=[1e300], seed=0), TypeError, "slow_ranks must be a rank"),
    (lambda f: f.rank_timings(4, 2, 1.0, slow_ranks=[1], slowdown=1e300, seed=0), ValueError,   # 1e300 s steps
     r"slowdown = 1e\+300 is not valid: it must be in \[0, 1e\+06\]"),
    (lambda f: f.detect_slow_ranks([["a", "b", "c"]]), TypeError, "compute_s must be a real number"),
    (lambda f: f.detect_slow_ranks([[1.0, 2.0, 3.0], [1.0]]), TypeError, "compute_s must be a real number"),
    (lambda f: f.detect_slow_ranks([[1.0, 1.0, 1.0]], threshold=[8.0]), TypeError, "threshold must be a single"),
    (lambda f: f.degraded_link_effect(_leaf_spine(), f.ring_all_reduce_traffic(range(8), 800.0), 16, [0.5]), TypeError,
     "fraction must be a single real number"),
])
def test_fabric_inputs_of_the_wrong_shape_or_type(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric)

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
