"""Tests of ``interconnect_lab.plotting.cost``: figures for cluster cost (chapter 10): where the money
goes, and the network's share.
"""

import pytest

pytest.importorskip("matplotlib")

from interconnect_lab.cost import cluster_cost, cluster_cost_estimates


def test_cost_figures_label_their_axes():
    mpl = pytest.importorskip("matplotlib")
    from interconnect_lab.plotting.cost import cost_breakdown_plot, network_share_plot

    before = dict(mpl.rcParams)
    costs = [cluster_cost(g) for g in (256, 1016, 10_000)]
    ax = cost_breakdown_plot(costs)
    assert "[million USD]" in ax.get_xlabel()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["256 GPUs", "1,016 GPUs", "10,000 GPUs"]
    assert "[USD]" in cost_breakdown_plot(costs, per_gpu=True).get_xlabel()
    with pytest.raises(ValueError, match="labels has 1 entries for 3 clusters"):
        cost_breakdown_plot(costs, labels=["one"])
    ranges = [cluster_cost_estimates(g) for g in (256, 1016, 10_000)]
    ax = network_share_plot(costs, low=[r["low network share"] for r in ranges],
                            high=[r["high network share"] for r in ranges])
    assert ax.get_xscale() == "log" and "[-]" in ax.get_xlabel() and "[-]" in ax.get_ylabel()
    assert dict(mpl.rcParams) == before
