"""Max-min fair sharing by progressive filling (fabric.maxmin): hand-worked cases, properties, bad input.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import math

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse
from hypothesis import given, settings, strategies as st

from fuzzing import Case, make_tests, mixed, optional

from interconnect_lab import fabric
from interconnect_lab.fabric import incidence_matrix, max_min_rates


@st.composite
def networks(draw):
    links = draw(st.integers(1, 8))
    flows = draw(st.integers(1, 12))
    paths = [sorted(draw(st.sets(st.integers(0, links - 1), min_size=1, max_size=links))) for _ in range(flows)]
    weights = [[draw(st.sampled_from([0.25, 0.5, 1.0])) for _ in path] for path in paths]
    capacity = [draw(st.floats(0.5, 100.0)) for _ in range(links)]
    return incidence_matrix(paths, links, weights=weights), np.array(capacity)


def test_one_link_shared_equally():
    assert max_min_rates([[0]] * 4, [12.0]).rates_bytes_per_s.tolist() == [3.0] * 4


def test_classic_parking_lot():
    # Three links of 1 in a row; flow 0 crosses all three, flows 1-3 one link each.
    # Every link has two flows: all get 1/2.
    rates = max_min_rates([[0, 1, 2], [0], [1], [2]], [1.0, 1.0, 1.0]).rates_bytes_per_s
    assert rates.tolist() == [0.5, 0.5, 0.5, 0.5]


def test_bottleneck_elsewhere_frees_capacity():
    # Link 0 (12 B/s) carries flows 0, 1, 2; link 1 (2 B/s) carries flow 2 only.
    # Flow 2 freezes at 2 on link 1; flows 0 and 1 split the remaining 10 of link 0.
    result = max_min_rates([[0], [0], [0, 1]], [12.0, 2.0])
    assert result.rates_bytes_per_s.tolist() == [5.0, 5.0, 2.0]
    assert result.bottleneck.tolist() == [0, 0, 1]
    assert result.rounds == 2
    assert result.load_bytes_per_s.tolist() == [12.0, 2.0]


def test_weights_split_a_sprayed_flow():
    # Flow 0 is sprayed half and half over links 0 and 1 (4 B/s each); flow 1 uses link 0 only.
    # Link 0 fills when x/2 + x = 4 at x = 8/3; link 1 would need x = 8. Both flows freeze at 8/3.
    matrix = incidence_matrix([[0, 1], [0]], 2, weights=[[0.5, 0.5], [1.0]])
    rates = max_min_rates(matrix, [4.0, 4.0]).rates_bytes_per_s
    assert rates == pytest.approx([8 / 3, 8 / 3], rel=1e-15)


def test_inactive_flows_get_nothing():
    result = max_min_rates([[0], [0]], [6.0], active=[True, False])
    assert result.rates_bytes_per_s.tolist() == [6.0, 0.0]
    assert result.bottleneck.tolist() == [0, -1]


def test_order_of_flows_does_not_matter():
    paths = [[0, 1], [1, 2], [0], [2, 3], [3]]
    capacity = [3.0, 5.0, 7.0, 2.0]
    forward = max_min_rates(paths, capacity).rates_bytes_per_s
    backward = max_min_rates(paths[::-1], capacity).rates_bytes_per_s[::-1]
    assert np.array_equal(forward, backward)


def test_zero_capacity_link_gives_zero_rate():
    assert max_min_rates([[0], [1]], [0.0, 5.0]).rates_bytes_per_s.tolist() == [0.0, 5.0]


@settings(max_examples=60, deadline=None)
@given(networks())
def test_max_min_properties(case):
    matrix, capacity = case
    result = max_min_rates(matrix, capacity)
    rates = result.rates_bytes_per_s
    load = matrix.T @ rates
    # Feasible: no link above capacity.
    assert np.all(load <= capacity * (1 + 1e-9))
    # Every flow has a bottleneck: a full link on which no flow gets more.
    dense = matrix.toarray()
    for flow in range(dense.shape[0]):
        links = np.flatnonzero(dense[flow])
        full = links[load[links] >= capacity[links] * (1 - 1e-9)]
        assert any(rates[dense[:, link] > 0].max() <= rates[flow] * (1 + 1e-9) for link in full), flow


@pytest.mark.parametrize("call, error, message", [
    (lambda: max_min_rates([[0]], [-1.0]), ValueError, "capacity_bytes_per_s = -1 B/s"),
    (lambda: max_min_rates([[0], []], [1.0]), ValueError, "incidence row 1 is empty: flow 1 crosses no link"),
    (lambda: max_min_rates([[0, 3]], [1.0, 1.0]), ValueError, "link 3 does not exist: there are 2 links"),
    (lambda: max_min_rates(sp.csr_matrix(np.array([[1.0, -1.0]])), [1.0, 1.0]), ValueError,
     r"incidence weights must be >= 1e-30 \(the share of a flow.s bytes on a link\), got -1"),
    (lambda: max_min_rates(incidence_matrix([[0]]), [1.0, 2.0]), ValueError, "has 2 entries for 1 links"),
])
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


#: Values that build the networks and traffic given to the other functions (never hostile).
ordinary_sizes = st.floats(0, 10).map(lambda e: float(10.0 ** e))

extreme_sizes = st.floats(-30, 30).map(lambda e: float(10.0 ** e))

ordinary_capacity = st.floats(0, 12).map(lambda e: float(10.0 ** e))


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


FUZZ_CASES = [
    # max-min and flow completion
    Case(fabric.max_min_rates, dict(incidence=flow_problem("max-min", 0), capacity_bytes_per_s=flow_problem("max-min", 1),
                                    active=optional(flow_problem("max-min", 4))),
         check=max_min_is_fair, examples=0.5),
    Case(fabric.incidence_matrix, dict(paths=mixed(st.lists(mixed(st.lists(mixed(st.integers(-1, 9)), max_size=4)),
                                                            max_size=8)),
                                       resources=optional(mixed(st.integers(0, 12))),
                                       weights=optional(mixed(st.lists(st.lists(weights, max_size=4), max_size=8)))),
         check=incidence_shape),
]


# Hostile input -----------------------------------------------------------------------------------

@pytest.mark.usefixtures("warnings_are_errors")
def test_max_min_rates_has_the_flow_simulators_ranges():
    # one home for the numbers: the capacity and share bounds are the simulator's
    from interconnect_lab.fabric import maxmin, simulation
    assert simulation.MAX_RESOURCE_BYTES_PER_S is maxmin.MAX_RESOURCE_BYTES_PER_S


@pytest.mark.usefixtures("warnings_are_errors")
@pytest.mark.parametrize(("call", "error", "message"), [
    # 1e300 B/s over a share of 1e-300: an overflow to an infinite rate before
    (lambda f: f.max_min_rates(sp.csr_matrix([[1e-300]]), [1.0]), ValueError,
     r"incidence weights must be >= 1e-30 \(the share of a flow's bytes on a link\), got 1e-300"),
    (lambda f: f.max_min_rates([[0]], [1e300]), ValueError,
     r"capacity_bytes_per_s = 1e\+300 B/s \(element 0\) is not valid: it must be 0 \(a failed link\) or in "
     r"\[1e-30, 1e\+30\] B/s"),
    (lambda f: f.max_min_rates([[0]], [1e-300]), ValueError, r"capacity_bytes_per_s = 1e-300 B/s"),
    (lambda f: f.max_min_rates(sp.csr_matrix([[1e31]]), [1.0]), ValueError, r"incidence weights must be <= 1e\+30"),
    # a NaN share: progressive filling never ended before
    (lambda f: f.max_min_rates(np.array([[math.nan]]), [1.0]), ValueError, r"incidence = nan \(element 0\) is not valid"),
    (lambda f: f.max_min_rates(sp.csr_matrix([[math.nan]]), [1.0]), ValueError, "incidence weights must be finite"),
    (lambda f: f.max_min_rates(0, 0), TypeError, "incidence must be a flows x links matrix"),
    (lambda f: f.max_min_rates([[0]], [1.0], active="yes"), TypeError, "active must be True or False"),
    (lambda f: f.simulate_flows(sp.csr_matrix([[1e31]]), [1.0], [1.0]), ValueError, r"incidence weights must be <= 1e\+30"),
])
def test_max_min_rates_refuses_what_the_flow_simulator_refuses(call, error, message):
    from interconnect_lab import fabric
    with pytest.raises(error, match=message):
        call(fabric)


@pytest.mark.usefixtures("warnings_are_errors")
def test_max_min_rates_is_finite_with_shares_far_apart_on_one_link():
    # shares of 1e30 and 1e-30 on link 0: the large one's departure left the link no weight (a division
    # by zero and an infinite rate before); the small flow gets what link 0 has left, 0.9 B/s / 1e-30
    from interconnect_lab import fabric
    incidence = sp.csr_matrix(np.array([[1e30, 10.0], [1e-30, 0.0]]))
    result = fabric.max_min_rates(incidence, [1.0, 1e-30])
    assert result.rates_bytes_per_s == pytest.approx([1e-31, 9e29])
    assert np.all(result.load_bytes_per_s <= result.capacity_bytes_per_s * (1 + 1e-12))
    assert np.all(np.isfinite(fabric.simulate_flows(incidence, [1.0, 1e-30], [1.0, 1.0])))

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
