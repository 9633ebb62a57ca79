"""Max-min fair sharing by progressive filling (fabric.maxmin): hand-worked cases, properties, bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from interconnect_lab.fabric import incidence_matrix, max_min_rates


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


@st.composite
def networks(draw):
    links = draw(st.integers(1, 8))
    flows = draw(st.integers(1, 12))
    paths = [sorted(draw(st.sets(st.integers(0, links - 1), min_size=1, max_size=links))) for _ in range(flows)]
    weights = [[draw(st.sampled_from([0.25, 0.5, 1.0])) for _ in path] for path in paths]
    capacity = [draw(st.floats(0.5, 100.0)) for _ in range(links)]
    return incidence_matrix(paths, links, weights=weights), np.array(capacity)


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
