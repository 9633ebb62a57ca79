"""Fuzz the flow simulator and the topologies beyond the fat tree with hostile input (see tests/fuzzing.py).

The flow simulator (``fabric``): its fat-tree networks, the traffic builders,
routing (hashed, sprayed, adaptive and explicit paths), max-min fair sharing,
flow completion, collectives, ECMP's balls into bins, sprayed packets'
arrival order and stragglers. Networks and traffic are built from fuzzed
parts by the strategies below: small fat trees of 1, 2 or 3 tiers, some
rail-optimized, some with failed or degraded links, and traffic on their
hosts; hostile values replace any of them now and then. Counts are drawn
small, large and absurd (up to 2**53): a builder that allocates per host,
flow, packet or sample must refuse the absurd ones at once.

The topologies (``topology``): rail-only and direct-connect fabrics, their
summaries, the comparison table and its cost per host port.

Every public function in the ``__all__`` of ``fabric`` and ``topology`` has a
case here or in another fuzz file (``test_every_public_function_has_a_case``
checks both and lists the others in :data:`FUZZED_ELSEWHERE`). Classes are
reached through the functions that build them; :class:`~interconnect_lab.fabric.Network`,
the one a reader builds by hand, has its own case.
"""

import math

import numpy as np
import scipy.sparse
from fuzzing import HOSTILE, Case, choice, count, fraction, make_tests, mixed, nonnegative, optional, positive
from hypothesis import strategies as st

from interconnect_lab import fabric, pricebook, topology

ROUTINGS = tuple(fabric.ROUTINGS)
PRICE_BOOKS = (pricebook.H100_NDR_PRICES, pricebook.H100_ETHERNET_PRICES)
FAMILIES = ("fat tree", "rail-optimized fat tree", "rail-only", "dragonfly", "direct-connect", "torus")
#: The messages routing gives for hosts that failed links have cut apart: a clear error of its own.
DISCONNECTED = (r"^no path from host \d+ to host \d+ survives the failed links",)


def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


#: Counts that some builder allocates arrays of: mostly small, sometimes large, and absurd ones that
#: must be refused before anything is allocated.
ABSURD = (2 ** 21 + 1, 2 ** 30, 2 ** 40, 2 ** 53)
host_count = mixed(rarely(st.integers(2, 256), st.sampled_from((4096, 65_536) + ABSURD)))
sizes = positive(1e-35, 1e35)                   # flow sizes: beyond FLOW_BYTES_RANGE at both ends
capacities = positive(1e-35, 1e23)              # beyond CAPACITY_RANGE_BYTES_PER_S at both ends
#: Values that build the networks and traffic given to the other functions (never hostile).
ordinary_sizes = st.floats(0, 10).map(lambda e: float(10.0 ** e))
extreme_sizes = st.floats(-30, 30).map(lambda e: float(10.0 ** e))
seeds = mixed(st.integers(0, 2 ** 40))


# Networks and traffic built from fuzzed parts ----------------------------------------------------

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
def traffic_on(draw, network):
    """Traffic among the network's hosts: a permutation, all-to-all, incast or ring step, perhaps with
    background flows."""
    hosts = network.hosts
    size_bytes = draw(ordinary_sizes)
    kind = draw(st.sampled_from(["permutation", "all-to-all", "incast", "ring"]))
    seed = draw(st.integers(0, 1000))
    if kind == "permutation":
        traffic = fabric.permutation(hosts, size_bytes, seed=seed)
    elif kind == "all-to-all":
        chosen = np.sort(np.random.default_rng(seed).choice(hosts, size=min(hosts, 12), replace=False))
        traffic = fabric.all_to_all(chosen, size_bytes)
    elif kind == "incast":
        receiver = draw(st.integers(0, hosts - 1))
        senders = [h for h in draw(st.lists(st.integers(0, hosts - 1), min_size=1, max_size=16)) if h != receiver]
        traffic = fabric.incast(senders or [(receiver + 1) % hosts], receiver, size_bytes)
    else:
        traffic = fabric.ring_all_reduce_traffic(hosts, size_bytes * hosts).phases[0].traffic
    if hosts >= 4 and draw(st.integers(0, 4)) == 0:
        traffic = fabric.combine(traffic, fabric.background(hosts, draw(st.floats(0.2, 1.0)), seed=seed))
    return traffic


#: (network, traffic) pairs; the cases share one draw between their ``network`` and ``traffic``.
network_and_traffic = networks().flatmap(lambda net: st.tuples(st.just(net), traffic_on(net)))


def shared_network(key):
    return st.shared(network_and_traffic, key=key).map(lambda pair: pair[0])


def shared_traffic(key):
    return st.shared(network_and_traffic, key=key).map(lambda pair: pair[1])


@st.composite
def routes(draw):
    """Routes of traffic over a network, by a drawn routing (failed links can leave none)."""
    network, traffic = draw(network_and_traffic)
    try:
        return fabric.route(network, traffic, draw(st.sampled_from(ROUTINGS)), seed=draw(st.integers(0, 100)))
    except ValueError:  # failed links cut a pair apart: route the traffic over the intact tree
        return fabric.route(fabric.Network(network.tree, nic_capacity_bytes_per_s=network.nic_capacity_bytes_per_s,
                                           link_capacity_bytes_per_s=network.link_capacity_bytes_per_s),
                            traffic, "ecmp")


@st.composite
def explicit_paths(draw, pair):
    """For each flow, one of its shortest paths (sometimes a damaged one)."""
    network, traffic = pair
    paths = []
    damaged = draw(st.integers(0, 4 * traffic.flow_count))  # one flow's path, a fifth of the time
    for flow, (source, destination) in enumerate(zip(traffic.source.tolist(), traffic.destination.tolist())):
        options = network.paths(source, destination)
        path = list(options[draw(st.integers(0, len(options) - 1))].tolist())
        damage = draw(st.integers(0, 4)) if flow == damaged else None
        if damage == 0:
            path = path[::-1]
        elif damage == 1:
            path = path[:-1]
        elif damage == 2:
            path = path + [draw(st.integers(-2, network.link_count + 2))]
        elif damage == 3:
            path = [float(link) + 0.5 for link in path]
        elif damage == 4:
            path = []
        paths.append(path)
    if draw(st.integers(0, 30)) == 0:
        paths = paths[:-1]
    return paths


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


# Invariants ------------------------------------------------------------------------------------

def network_is_sound(result, kwargs):
    """One capacity per link, each 0 (failed) or in range; every host on a leaf."""
    low, high = fabric.network.CAPACITY_RANGE_BYTES_PER_S
    capacity = result.capacity_bytes_per_s
    assert capacity.shape == (result.link_count,)
    assert np.all((capacity == 0) | ((capacity >= low) & (capacity <= high)))
    assert result.leaf_of_host.shape == (result.hosts,) and np.all(result.leaf_of_host < result.leaves)
    assert result.link_count <= fabric.network.MAX_LINKS


def in_flow_range(sizes_bytes):
    low, high = fabric.traffic.FLOW_BYTES_RANGE
    finite = sizes_bytes[np.isfinite(sizes_bytes)]
    return np.all((finite >= low) & (finite <= high))


def is_derangement(result, kwargs):
    assert sorted(result.source.tolist()) == sorted(result.destination.tolist())
    assert np.all(result.source != result.destination) and in_flow_range(result.size_bytes)


def all_to_all_total(result, kwargs):
    n = np.unique(result.source).size
    assert result.flow_count == n * (n - 1) and in_flow_range(result.size_bytes)
    assert math.isclose(result.total_bytes, n * (n - 1) * kwargs["size_bytes"], rel_tol=1e-9)


def traffic_is_sound(result, kwargs):
    assert np.all(result.source != result.destination) and in_flow_range(result.size_bytes)
    assert np.all(np.isinf(result.size_bytes) == result.background)


def ring_is_sound(result, kwargs):
    n = result.ranks.size
    (phase,) = result.phases
    assert phase.repeats == 2 * (n - 1)
    assert phase.traffic.flow_count + result.intra_node_flows == n
    assert np.allclose(phase.traffic.size_bytes, result.message_bytes / n, rtol=1e-12)


def hierarchical_is_sound(result, kwargs):
    n, g = result.ranks.size, kwargs["gpus_per_node"]
    (phase,) = result.phases
    assert phase.repeats == 2 * (n // g - 1) and phase.traffic.flow_count == n


def placement_is_a_permutation(result, kwargs):
    hosts = kwargs["hosts"]
    expected = np.arange(hosts) if isinstance(hosts, (int, np.integer)) else np.asarray(hosts)
    assert sorted(result.tolist()) == sorted(expected.tolist())


def routes_conserve_flows(result, kwargs):
    """Every flow leaves its source's NIC and enters its destination's, whole; no byte crosses a failed link;
    on every link a flow crosses, its shares add up to at most the whole flow."""
    network, traffic = result.network, result.traffic
    share = scipy.sparse.csr_matrix(result.flow_link_share())
    flows = np.arange(traffic.flow_count)
    assert np.allclose(share[flows, network.nic_link(traffic.source, "up")], 1.0)
    assert np.allclose(share[flows, network.nic_link(traffic.destination, "down")], 1.0)
    assert share.nnz == 0 or share.data.max() <= 1 + 1e-12
    failed = network.failed_links
    assert failed.size == 0 or share[:, failed].nnz == 0
    assert np.all(result.paths_per_flow >= 1)
    # Bytes a flow sends up from its source leaf come down to its destination leaf: per flow, the
    # shares on up-links equal those on down-links, tier by tier.
    kinds = network.link_kind(np.arange(network.link_count))
    for up, down in ((2, 3), (4, 5)):
        ups = np.asarray(share[:, kinds == up].sum(axis=1)).ravel()
        downs = np.asarray(share[:, kinds == down].sum(axis=1)).ravel()
        assert np.allclose(ups, downs)


def max_min_is_fair(result, kwargs):
    """Feasible (no link beyond its capacity) and max-min fair: every allocated flow crosses a full
    link on which no flow gets more."""
    rates, load, capacity = result.rates_bytes_per_s, result.load_bytes_per_s, result.capacity_bytes_per_s
    assert np.all(rates >= 0) and np.all(load <= capacity * (1 + 1e-9))
    shares = scipy.sparse.csr_matrix(_incidence(kwargs["incidence"], capacity.size)).toarray()  # a dozen flows
    for flow in np.flatnonzero(result.bottleneck >= 0):
        link = result.bottleneck[flow]
        assert shares[flow, link] > 0
        assert load[link] >= capacity[link] * (1 - 1e-9)
        assert rates[shares[:, link] > 0].max() <= rates[flow] * (1 + 1e-9)


def _incidence(incidence, links):
    """The matrix max_min_rates read from ``incidence``: link lists, a sparse matrix, or dense shares
    (a flat sequence is one flow's row; scipy would read a pair as a shape)."""
    if isinstance(incidence, (list, tuple)) and (len(incidence) == 0 or not np.isscalar(incidence[0])):
        return fabric.incidence_matrix(incidence, links)
    return incidence if scipy.sparse.issparse(incidence) else np.atleast_2d(np.asarray(incidence, dtype=float))


def incidence_shape(result, kwargs):
    assert result.shape[0] == len(kwargs["paths"])
    assert np.all(result.data > 0)


def simulated_flows_finish(result, kwargs):
    background = np.broadcast_to(np.asarray(kwargs.get("background") if kwargs.get("background") is not None
                                            else False, dtype=bool), result.shape)
    assert np.all(np.isnan(result[background]))
    assert np.all(np.isfinite(result[~background]) & (result[~background] > 0))


def result_within_capacity(result, kwargs=None):
    """A FlowResult: every foreground flow finishes at a positive time; no link used beyond its capacity."""
    foreground = result.foreground
    times = result.completion_times_s[foreground]
    assert np.all(np.isfinite(times) & (times > 0))
    assert np.all(np.isnan(result.completion_times_s[~foreground]))
    assert result.completion_time_s == times.max()
    assert np.all(result.link_utilization <= 1 + 1e-9)
    network, traffic = result.routes.network, result.routes.traffic
    nic = network.capacity_bytes_per_s[network.nic_link(traffic.source[foreground], "up")]
    assert np.all(result.throughput_bytes_per_s <= nic * (1 + 1e-9))


def every_routing_within_capacity(result, kwargs):
    assert list(result) == list(kwargs["routings"])
    for flow_result in result.values():
        result_within_capacity(flow_result)


def collective_is_sound(result, kwargs):
    """Time is the phases' step times times their repeats; none when nothing crosses the network."""
    expected = sum(phase.repeats * step.completion_time_s
                   for phase, step in zip([p for p in result.collective.phases if p.traffic.flow_count],
                                          result.phase_results))
    assert result.time_s == expected >= 0
    if result.time_s == 0:
        assert result.phase_results == () and result.algorithm_bandwidth_bytes_per_s is None
    else:
        assert result.algorithm_bandwidth_bytes_per_s > 0
    for step in result.phase_results:
        result_within_capacity(step)


def degraded_is_sound(result, kwargs):
    assert result.healthy_s >= 0 and result.degraded_s >= 0
    assert (result.healthy_s == 0) == (result.degraded_s == 0)
    assert result.slowdown > 0


def collisions_are_probabilities(result, kwargs):
    assert 0 < result.share_lower_bound <= 1 and 0 < result.mean_rate <= 1
    assert math.isclose(sum(result.path_probabilities), 1.0, rel_tol=1e-9)
    assert np.all(np.diff(result.max_load_cdf) >= 0) and result.max_load_cdf[-1] == 1.0
    assert 0 < result.expected_slowest_rate <= 1 and result.expected_max_load >= 1


def arrivals_are_sound(result, kwargs):
    assert np.all(result.arrival_times_s > result.send_times_s)
    assert np.all(result.in_order_times_s >= result.arrival_times_s)
    assert 1 <= result.go_back_n_accepted <= result.packets
    assert 0 <= result.reorder_buffer_packets < result.packets
    if np.unique(result.path_delays_s).size == 1:
        assert result.out_of_order_fraction == 0 and result.go_back_n_accepted == result.packets


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


def summary_is_sound(result, kwargs=None):
    summary = result if isinstance(result, topology.TopologySummary) else result.summary()
    assert summary.hosts >= 1 and summary.bisection_ratio >= 0 and 0 <= summary.worst_link_loss <= 1
    assert summary.optical_links <= summary.links and summary.diameter_links >= summary.diameter_hops


def comparison_is_sound(result, kwargs):
    assert len(result.summaries) == len(result.cost_per_host_usd) == len(result.rows())
    for summary, cost in zip(result.summaries, result.cost_per_host_usd):
        summary_is_sound(summary)
        assert summary.hosts >= kwargs["hosts"] and cost > 0


# Cases ---------------------------------------------------------------------------------------

def combine_traffics(traffics, name):
    """:func:`fabric.combine` takes its traffics as separate arguments."""
    return fabric.combine(*traffics, name=name)


traffics = networks().flatmap(traffic_on)
weights = st.floats(-3, 0).map(lambda e: float(10.0 ** e))
odd_weights = st.sampled_from([1e-300, 5e-324, 1e-30, 1e30, 1e300, 0.0, -1.0, math.nan, math.inf])
odd_capacities = st.sampled_from([0.0, 1e-300, 1e-30, 1e30, 1e31, 1e300, 1.7e308, -1.0, math.nan])


@st.composite
def flow_problems(draw):
    """Flows on links, consistent with each other: (incidence, capacities, sizes, background, active).

    The incidence is link lists, a sparse matrix of shares or a dense array; now and then a share, a
    capacity or a size is extreme or wrong, or a link has failed.
    """
    links = draw(st.integers(1, 8))
    flows = draw(st.integers(1, 12))
    paths = [sorted(draw(st.sets(st.integers(0, links - 1), min_size=1, max_size=min(links, 4))))
             for _ in range(flows)]
    kind = draw(st.sampled_from(["lists", "sparse", "dense"]))
    if kind == "lists":
        incidence = paths
    else:
        shares = [draw(rarely(weights, odd_weights, odds=30)) for path in paths for _ in path]
        incidence = scipy.sparse.csr_matrix((shares, np.concatenate(paths), np.cumsum([0] + [len(p) for p in paths])),
                                            shape=(flows, links))
        incidence = incidence if kind == "sparse" else incidence.toarray()
    capacity = [draw(rarely(ordinary_capacity, odd_capacities, odds=30)) for _ in range(links)]
    size = np.array([draw(rarely(ordinary_sizes, extreme_sizes)) for _ in range(flows)])
    background = np.array([draw(st.integers(0, 5)) == 0 for _ in range(flows)])
    if background.all():
        background[0] = False
    size[background] = np.inf
    active = np.array([draw(st.integers(0, 5)) > 0 for _ in range(flows)])
    return incidence, capacity, size, background, active


def flow_problem(key, part):
    return mixed(st.shared(flow_problems(), key=key).map(lambda problem: problem[part]))


base_compute = st.floats(-3, 2).map(lambda e: float(10.0 ** e))


def jitter_for(key):
    """A jitter that is mostly valid for the shared compute time: 0 or up to a third of it."""
    return mixed(st.shared(base_compute, key=key).flatmap(lambda compute: st.one_of(
        st.just(0.0), st.floats(1e-12 / compute, 0.3).map(lambda share: share * compute))))


compute_times = mixed(st.integers(1, 8).flatmap(lambda ranks: st.integers(1, 6).flatmap(lambda steps: st.lists(
    st.lists(st.integers(0, 19).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else st.floats(0.5, 2.0)),
             min_size=ranks, max_size=ranks), min_size=steps, max_size=steps))))


@st.composite
def direct_connect_sizes(draw):
    """(hosts, radix): mostly more hosts than one pod holds and fewer than three tiers do."""
    radix = draw(st.sampled_from([4, 8, 16, 32, 64]))
    return draw(st.integers(radix ** 2 // 4 + 1, radix ** 3 // 4)), radix


FABRIC_CASES = [
    Case(fabric.Network, dict(tree=mixed(rarely(trees(), trees(large=True))),
                              nic_capacity_bytes_per_s=optional(capacities),
                              link_capacity_bytes_per_s=optional(capacities),
                              capacity_bytes_per_s=rarely(st.none(), mixed(st.lists(ordinary_capacity, max_size=40)
                                                                            .map(np.array)))),
         check=network_is_sound, name="fabric.Network"),
    # traffic
    Case(fabric.permutation, dict(hosts=st.one_of(host_count, mixed(st.lists(st.integers(0, 1000), min_size=2,
                                                                             max_size=20, unique=True))),
                                  size_bytes=sizes, seed=seeds), check=is_derangement),
    Case(fabric.all_to_all, dict(hosts=host_count, size_bytes=sizes, skew=rarely(st.just(0.0), nonnegative(1e-3, 20)),
                                 seed=optional(seeds)), check=all_to_all_total, examples=0.5),
    Case(fabric.incast, dict(senders=mixed(st.lists(mixed(st.integers(0, 64)), min_size=1, max_size=8)),
                             receiver=count(0, 64), size_bytes=sizes), check=traffic_is_sound),
    Case(fabric.background, dict(hosts=host_count, fraction=fraction(), seed=seeds), check=traffic_is_sound,
         infinite=("size_bytes",)),
    Case(combine_traffics, dict(traffics=mixed(st.lists(mixed(traffics), min_size=0, max_size=3)),
                                name=optional(mixed(st.text(max_size=10)))), check=traffic_is_sound,
         infinite=("size_bytes",), examples=0.25, name="fabric.combine"),
    Case(fabric.ring_all_reduce_traffic, dict(ranks=st.one_of(host_count, mixed(st.lists(st.integers(0, 100), min_size=2,
                                                                                 max_size=16, unique=True))),
                                      message_bytes=sizes, gpus_per_node=count(1, 16)), check=ring_is_sound),
    Case(fabric.hierarchical_all_reduce_traffic, dict(ranks=host_count, message_bytes=sizes,
                                              gpus_per_node=mixed(st.sampled_from([1, 2, 4, 8, 3]))),
         check=hierarchical_is_sound),
    Case(fabric.rank_placement, dict(hosts=host_count, gpus_per_node=mixed(st.sampled_from([1, 2, 4, 8, 3])),
                                     placement=choice(fabric.PLACEMENTS), seed=optional(seeds)),
         check=placement_is_a_permutation),
    # routing
    Case(fabric.route, dict(network=mixed(shared_network("route")), traffic=mixed(shared_traffic("route")),
                            routing=choice(ROUTINGS), seed=seeds),
         check=routes_conserve_flows, messages=DISCONNECTED, infinite=("size_bytes",), examples=0.5),
    Case(fabric.explicit_routes, dict(
        network=mixed(st.shared(network_and_traffic, key="explicit").map(lambda pair: pair[0])),
        traffic=mixed(st.shared(network_and_traffic, key="explicit").map(lambda pair: pair[1])),
        paths=mixed(st.shared(network_and_traffic, key="explicit").flatmap(explicit_paths))),
         check=routes_conserve_flows, infinite=("size_bytes",), examples=0.5),
    Case(fabric.ecmp_collisions, dict(
        network=mixed(rarely(st.sampled_from([(4, 2), (8, 2), (16, 2), (32, 2), (4, 3), (8, 3)]).map(
            lambda shape: fabric.Network(topology.fat_tree(topology.max_hosts(shape[0], shape[1]), radix=shape[0],
                                                           tiers=shape[1]), nic_capacity_bytes_per_s=1.0)),
            networks())),
        samples=count(100, 5000), seed=seeds), check=collisions_are_probabilities, examples=0.25),
    Case(fabric.spray_arrivals, dict(
        path_delays_s=mixed(st.lists(st.integers(0, 29).flatmap(lambda k: st.sampled_from(HOSTILE) if k == 0 else
                                                                st.floats(0, 1e-3)), min_size=1, max_size=8)),
        packets=mixed(rarely(st.integers(1, 2000), st.sampled_from(ABSURD))),
        packet_bytes=positive(1.0, 1e5), link_bytes_per_s=positive(1e6, 1e13),
        order=choice(tuple(fabric.SPRAY_ORDERS)), seed=rarely(seeds, st.none())), check=arrivals_are_sound),
    # max-min and flow completion
    Case(fabric.max_min_rates, dict(incidence=flow_problem("max-min", 0), capacity_bytes_per_s=flow_problem("max-min", 1),
                                    active=optional(flow_problem("max-min", 4))),
         check=max_min_is_fair, examples=0.5),
    Case(fabric.incidence_matrix, dict(paths=mixed(st.lists(mixed(st.lists(mixed(st.integers(-1, 9)), max_size=4)),
                                                            max_size=8)),
                                       resources=optional(mixed(st.integers(0, 12))),
                                       weights=optional(mixed(st.lists(st.lists(weights, max_size=4), max_size=8)))),
         check=incidence_shape),
    Case(fabric.simulate_flows, dict(incidence=flow_problem("flows", 0), capacity_bytes_per_s=flow_problem("flows", 1),
                                     size_bytes=flow_problem("flows", 2), background=flow_problem("flows", 3),
                                     time_tolerance=rarely(st.just(1e-9), nonnegative(1e-12, 1.0))),
         check=simulated_flows_finish, infinite=("result",), examples=0.5),
    Case(fabric.simulate_routes, dict(routes=mixed(routes()), time_tolerance=rarely(st.just(1e-9),
                                                                                   nonnegative(1e-12, 1.0))),
         check=lambda result, kwargs: result_within_capacity(result), infinite=("completion_times_s", "size_bytes"),
         examples=0.5),
    Case(fabric.compare_routings, dict(network=mixed(shared_network("compare")),
                                       traffic=mixed(shared_traffic("compare")),
                                       routings=mixed(st.lists(st.sampled_from(ROUTINGS), min_size=1, max_size=3,
                                                               unique=True)),
                                       seed=seeds, time_tolerance=rarely(st.just(1e-9), nonnegative(1e-12, 1.0))),
         check=every_routing_within_capacity, infinite=("completion_times_s", "size_bytes"), messages=DISCONNECTED,
         examples=0.25),
    Case(fabric.simulate_collective, dict(
        network=mixed(st.shared(network_and_collective, key="collective").map(lambda pair: pair[0])),
        collective=mixed(st.shared(network_and_collective, key="collective").map(lambda pair: pair[1])),
        routing=choice(ROUTINGS), seed=seeds, time_tolerance=rarely(st.just(1e-9), nonnegative(1e-12, 1.0))),
         check=collective_is_sound, infinite=("completion_times_s", "size_bytes"), messages=DISCONNECTED,
         examples=0.5),
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


# Topologies beyond the fat tree ------------------------------------------------------------------

radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))
rate = optional(positive(1e-3, 1e25))
summaries = mixed(st.one_of(
    trees().map(topology.fat_tree_summary),
    st.builds(lambda nodes, rails, radix: topology.rail_only(nodes, rails, radix=radix).summary(),
              st.integers(1, 1024), st.sampled_from([1, 2, 4, 8]), st.sampled_from([16, 64])),
    st.builds(lambda hosts: topology.direct_connect(hosts, radix=16).summary(), st.integers(129, 1024)),
    st.builds(lambda shape: topology.dragonfly(*shape).summary(), st.tuples(*[st.integers(1, 8)] * 3)),
    st.builds(lambda shape: topology.torus(shape).summary(), st.lists(st.integers(2, 16), min_size=1, max_size=3))))

TOPOLOGY_CASES = [
    Case(topology.rail_only, dict(nodes=mixed(rarely(st.integers(1, 10_000), st.integers(1, 2 ** 53))),
                                  rails=count(1, 16), radix=radix, oversubscription=positive(1.0, 8.0),
                                  port_bytes_per_s=rate), check=summary_is_sound),
    Case(topology.direct_connect, dict(
        hosts=mixed(rarely(st.shared(direct_connect_sizes(), key="direct").map(lambda pair: pair[0]),
                           st.integers(1, 2 ** 53))),
        radix=mixed(rarely(st.shared(direct_connect_sizes(), key="direct").map(lambda pair: pair[1]), radix)),
        circuit_switch_ports=optional(count(2, 1024)), port_bytes_per_s=rate), check=summary_is_sound),
    Case(topology.topology_comparison, dict(
        hosts=mixed(rarely(st.integers(2, 20_000), st.integers(2, 2 ** 53))),
        radix=mixed(rarely(st.sampled_from([16, 32, 64, 128]), radix)), rails=mixed(st.sampled_from([1, 2, 4, 8])),
        port_bytes_per_s=rate, prices=mixed(st.sampled_from(PRICE_BOOKS)),
        estimate=choice(tuple(pricebook.ESTIMATES)),
        families=optional(mixed(st.lists(choice(FAMILIES), max_size=3)))),
         check=comparison_is_sound),
    Case(topology.fat_tree_summary, dict(tree=mixed(trees()), name=optional(mixed(st.text(max_size=12)))),
         check=summary_is_sound),
    Case(topology.network_cost_per_host, dict(summary=summaries, prices=mixed(st.sampled_from(PRICE_BOOKS)),
                                              estimate=choice(tuple(pricebook.ESTIMATES))), examples=0.5),
]

CASES = FABRIC_CASES + TOPOLOGY_CASES

test_fuzz, test_fuzz_nightly = make_tests(CASES)

#: Public functions reached through a wrapper that builds their arguments.
WRAPPED = {fabric.combine: combine_traffics}

#: Public functions of ``fabric`` and ``topology`` fuzzed in another file: that file's cases (or a case
#: named after the function, for one run through a wrapper there) must name them.
FUZZED_ELSEWHERE = {
    "test_fuzz_models": (topology.max_hosts, topology.fat_tree, topology.path_latency, topology.scale_up_domain,
                         topology.nvlink_domain),
    "test_fuzz_training": (fabric.simulate, fabric.fair_rates, fabric.step_times, fabric.lagging_worker_cost,
                           fabric.max_load_cdf),
    "test_fuzz_more": (topology.dragonfly, topology.dragonfly_max_hosts, topology.torus, fabric.dragonfly_network,
                       fabric.torus_network, fabric.direct_route, fabric.simulate_direct, fabric.incast_port,
                       fabric.incast_collapse),
}


def _covers(cases, wrapped, function):
    return any(case.function is function or case.function is wrapped.get(function)
               or case.name.split(" ", 1)[0] == f"{function.__module__.split('.')[1]}.{function.__name__}"
               for case in cases)


def test_every_public_function_has_a_case():
    import importlib
    import inspect

    elsewhere = {}
    for module_name, functions in FUZZED_ELSEWHERE.items():
        module = importlib.import_module(module_name)
        for function in functions:
            assert _covers(module.CASES, getattr(module, "WRAPPED", {}), function), \
                f"{module_name} has no case for {function.__module__}.{function.__name__}"
            elsewhere[function] = module_name
    missing, twice = [], []
    for package in (fabric, topology):
        for name in package.__all__:
            function = getattr(package, name)
            if not inspect.isfunction(function):
                continue
            here = _covers(CASES, WRAPPED, function)
            if not here and function not in elsewhere:
                missing.append(f"{package.__name__}.{name}")
            elif here and function in elsewhere:
                twice.append(f"{package.__name__}.{name} (also in {elsewhere[function]})")
    assert not missing, f"public functions without a fuzz case: {missing}"
    assert not twice, f"public functions fuzzed here and elsewhere: {twice}"
