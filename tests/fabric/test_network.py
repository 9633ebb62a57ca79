"""The link-level graph of a fat tree (fabric.network): counts, names, paths, what-ifs, bad input.

Hostile input is at the end (and fuzzed with tests/fuzzing.py where noted).
"""

import numpy as np
import pytest
from hypothesis import strategies as st

from fuzzing import Case, make_tests, mixed, optional, positive

from interconnect_lab import fabric, topology, units as u
from interconnect_lab.fabric import Network
from interconnect_lab.topology import fat_tree


@pytest.fixture
def leaf_spine():
    """Radix-4 two-tier tree: 8 hosts on 4 leaves of 2, two spines; 100 B/s everywhere."""
    return Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=100.0)


@pytest.fixture
def three_tier():
    """Al-Fares's radix-4 three-tier tree: 16 hosts, 4 pods, 4 cores."""
    return Network(fat_tree(16, radix=4, tiers=3), nic_capacity_bytes_per_s=100.0)


def test_link_count_is_two_per_cable(leaf_spine, three_tier):
    for net in (leaf_spine, three_tier):
        assert net.link_count == 2 * net.tree.cables


def test_path_counts_by_level(three_tier):
    # Same leaf: 1; same pod: one per leaf up-port (2); across pods: 2 leaf ports x 2 spine ports.
    assert three_tier.path_count(0, 1) == 1
    assert three_tier.path_count(0, 2) == 2
    assert three_tier.path_count(0, 15) == 4
    assert len(three_tier.paths(0, 15)) == 4


def test_paths_name_the_switches_by_hand(three_tier):
    names = [[three_tier.link_name(link) for link in path] for path in three_tier.paths(0, 15)]
    assert names[0] == ["host 0 -> leaf 0", "leaf 0 -> spine 0", "spine 0 -> core 0", "core 0 -> spine 6",
                        "spine 6 -> leaf 7", "leaf 7 -> host 15"]
    assert names[3][2:4] == ["spine 1 -> core 3", "core 3 -> spine 7"]


def test_paths_are_contiguous(three_tier):
    for destination in range(1, 16):
        for path in three_tier.paths(0, destination):
            tail, head = three_tier.link_ends(path)
            assert tail[0] == 0 and head[-1] == destination
            assert np.all(head[:-1] == tail[1:])


def test_every_link_appears_in_some_path(three_tier):
    used = np.zeros(three_tier.link_count, bool)
    for source in range(16):
        for destination in range(16):
            if source != destination:
                for path in three_tier.paths(source, destination):
                    used[path] = True
    assert used.all()


def test_reverse_link_is_an_involution(three_tier):
    links = np.arange(three_tier.link_count)
    reverse = three_tier.reverse_link(links)
    assert np.array_equal(three_tier.reverse_link(reverse), links)
    tail, head = three_tier.link_ends(links)
    back_tail, back_head = three_tier.link_ends(reverse)
    assert np.array_equal(tail, back_head) and np.array_equal(head, back_tail)


def test_rails_put_same_rail_hosts_on_one_leaf():
    # NVIDIA's 1-SU SuperPOD compute fabric: 31 DGX (248 GPUs) + 4 UFM ports, 8 rails.
    net = Network(fat_tree(252, radix=64, rails=8), nic_capacity_bytes_per_s=400 * u.Gbit_per_s)
    assert net.leaf_of_host[[0, 8, 16]].tolist() == [0, 0, 0]      # GPU 0 of nodes 0, 1, 2
    assert net.leaf_of_host[[0, 1, 7]].tolist() == [0, 1, 7]       # GPUs of one node on 8 rails
    assert net.path_count(0, 8) == 1 and net.path_count(0, 1) == 32
    assert "(link 7)" in net.link_name(net.leaf_link(0, 31))        # 8 parallel links to each of 4 spines


def test_capacities_default_to_the_tree_port_rate():
    net = Network(fat_tree(64, switch="Quantum-2 QM9700"))
    assert np.all(net.capacity_bytes_per_s == 400 * u.Gbit_per_s)


def test_failed_and_degraded_links_are_copies(leaf_spine):
    link = leaf_spine.leaf_link(0, 1)
    failed = leaf_spine.with_failed_links(link)
    assert failed.capacity_bytes_per_s[link] == 0 == failed.capacity_bytes_per_s[leaf_spine.reverse_link(link)]
    assert leaf_spine.capacity_bytes_per_s[link] == 100.0
    degraded = leaf_spine.with_degraded_links(link, 0.25, both_directions=False)
    assert degraded.capacity_bytes_per_s[link] == 25.0
    assert degraded.capacity_bytes_per_s[leaf_spine.reverse_link(link)] == 100.0
    assert failed.failed_links.tolist() == sorted([link, int(leaf_spine.reverse_link(link))])


@pytest.mark.parametrize("call, message", [
    (lambda n: n.path_count(0, 8), "destination = 8 is not a host of this network: valid hosts are 0 to 7"),
    (lambda n: n.nic_link(-1), "host = -1 is not a host"),
    (lambda n: n.link_name(32), "link = 32 is not a link"),
    (lambda n: n.with_degraded_links(16, 0.0), "fraction = 0 is not valid"),
    (lambda n: n.with_link_capacity(16, -5.0), "capacity_bytes_per_s = -5 B/s"),
    (lambda n: n.nic_link(0, "sideways"), "valid directions are: 'up', 'down'"),
])
def test_bad_input_names_the_problem(leaf_spine, call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call(leaf_spine)


def test_a_capacity_is_required_and_positive():
    with pytest.raises(ValueError, match="nic_capacity_bytes_per_s is needed"):
        Network(fat_tree(8, radix=4, tiers=2))
    with pytest.raises(ValueError, match="nic_capacity_bytes_per_s = 0 B/s"):
        Network(fat_tree(8, radix=4, tiers=2), nic_capacity_bytes_per_s=0.0)
    with pytest.raises(TypeError, match="tree must be a topology.FatTree"):
        Network("fat tree", nic_capacity_bytes_per_s=1.0)


def test_fabric_imports_without_matplotlib_or_ipywidgets():
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('matplotlib', 'ipywidgets', 'IPython'):
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import interconnect_lab.fabric
        print('ok')
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


# Hostile input: fuzzed with tests/fuzzing.py -----------------------------------------------------

def rarely(usual, unusual, odds=10):
    """``usual`` most of the time; one draw in ``odds``, ``unusual``."""
    return st.integers(0, odds - 1).flatmap(lambda k: unusual if k == 0 else usual)


capacities = positive(1e-35, 1e23)              # beyond CAPACITY_RANGE_BYTES_PER_S at both ends


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


def network_is_sound(result, kwargs):
    """One capacity per link, each 0 (failed) or in range; every host on a leaf."""
    low, high = fabric.network.CAPACITY_RANGE_BYTES_PER_S
    capacity = result.capacity_bytes_per_s
    assert capacity.shape == (result.link_count,)
    assert np.all((capacity == 0) | ((capacity >= low) & (capacity <= high)))
    assert result.leaf_of_host.shape == (result.hosts,) and np.all(result.leaf_of_host < result.leaves)
    assert result.link_count <= fabric.network.MAX_LINKS


radix = mixed(rarely(st.sampled_from([4, 8, 16, 32, 64, 128, 256]),
                     st.one_of(st.integers(1, 2 ** 40).map(lambda half: 2 * half), st.integers(2, 2 ** 40))))

FUZZ_CASES = [
    Case(fabric.Network, dict(tree=mixed(rarely(trees(), trees(large=True))),
                              nic_capacity_bytes_per_s=optional(capacities),
                              link_capacity_bytes_per_s=optional(capacities),
                              capacity_bytes_per_s=rarely(st.none(), mixed(st.lists(ordinary_capacity, max_size=40)
                                                                            .map(np.array)))),
         check=network_is_sound, name="fabric.Network"),
]

test_fuzz, test_fuzz_nightly = make_tests(FUZZ_CASES)
