r"""Packet spraying and the order packets arrive in: what out-of-order delivery costs.

A sender sprays one message of :math:`P` packets over :math:`k` paths, one
packet every packet time :math:`\tau = s/C` (packet size :math:`s`, link rate
:math:`C`). Packet :math:`i` leaves at :math:`t_i = i\tau`, takes path
:math:`p(i)` and arrives at

.. math:: a_i = t_i + \tau + d_{p(i)},

where :math:`d_p` is path :math:`p`'s one-way delay, queueing included. Each
path is modelled as a standing delay (a path with a queue is simply a slower
path); packets on the same path keep their order. How the paths are chosen
is named in :data:`SPRAY_ORDERS`.

When the paths' delays differ, packets overtake each other. What that costs
depends on the receiver:

* **Direct placement** (Ultra Ethernet's unordered delivery; RDMA writes on
  NICs that place out-of-order packets): every packet carries its destination
  address and is written to memory as it arrives. Nothing waits; the message
  is complete when the last packet has arrived.
* **In-order delivery** through a reorder buffer: packet :math:`i` can be
  handed on only when every earlier packet has arrived, at
  :math:`\max_{j \le i} a_j`. Packets that arrived early wait in the buffer.
  With round-robin spraying over paths whose delays span
  :math:`\Delta = \max_p d_p - \min_p d_p`, the buffer holds up to about
  :math:`C\Delta` bytes per message in flight.
* **Go-back-N** (RoCE NICs' loss recovery): the receiver accepts only the
  next packet in sequence and discards any other, treating the gap as a
  loss. :attr:`SprayArrivals.go_back_n_accepted` counts what such a receiver
  keeps on the first pass; every discarded packet must be sent again, and the
  resent packets are sprayed and reordered in turn.

References
----------
R. Mittal et al., "Revisiting Network Support for RDMA", SIGCOMM 2018
(go-back-N in RoCE NICs). https://doi.org/10.1145/3230543.3230557

T. Hoefler et al., "Ultra Ethernet's Design Principles and Architectural
Innovations", arXiv:2508.08906, 2025 (packet spraying and out-of-order
delivery in UET). https://arxiv.org/abs/2508.08906
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_integer, check_number
from .network import check_capacity
from .traffic import FLOW_BYTES_RANGE

__all__ = ["SPRAY_ORDERS", "SprayArrivals", "spray_arrivals", "MAX_SPRAYED_PACKETS"]

#: Most packets :func:`spray_arrivals` follows [-]: a message of 4 GiB in 4 KiB packets. Every
#: packet takes a few arrays' entries, so a larger count is refused before anything is allocated.
MAX_SPRAYED_PACKETS = 2 ** 20

#: How packets are assigned to paths, by name.
SPRAY_ORDERS = {
    "round-robin": "packet i takes path i mod k",
    "random": "each packet takes a path drawn uniformly at random (needs a seed)",
}


@dataclass(frozen=True, eq=False)
class SprayArrivals:
    """When each packet of a sprayed message arrives, and what the receiver makes of it.

    Arrays are indexed by packet sequence number.

    Attributes
    ----------
    send_times_s : numpy.ndarray
        When each packet starts to leave the sender [s].
    paths : numpy.ndarray
        Path each packet takes [-].
    arrival_times_s : numpy.ndarray
        When each packet has fully arrived at the receiver [s].
    path_delays_s : numpy.ndarray
        One-way delay of each path [s].
    packet_bytes : float
        Packet size [B].
    link_bytes_per_s : float
        Link rate, one direction [B/s].
    """

    send_times_s: np.ndarray
    paths: np.ndarray
    arrival_times_s: np.ndarray
    path_delays_s: np.ndarray
    packet_bytes: float
    link_bytes_per_s: float

    @property
    def packets(self) -> int:
        """Packets in the message [-]."""
        return int(self.arrival_times_s.size)

    @property
    def arrival_order(self) -> np.ndarray:
        """Sequence numbers in the order the packets arrive (ties: lower number first)."""
        return np.lexsort((np.arange(self.packets), self.arrival_times_s))

    @property
    def out_of_order(self) -> np.ndarray:
        """Whether each packet arrives after a higher-numbered one."""
        later_minimum = np.minimum.accumulate(self.arrival_times_s[::-1])[::-1]
        overtaken = np.zeros(self.packets, dtype=bool)
        overtaken[:-1] = later_minimum[1:] < self.arrival_times_s[:-1]
        return overtaken

    @property
    def out_of_order_fraction(self) -> float:
        """Share of packets overtaken by a later one [-]."""
        return float(self.out_of_order.mean())

    @property
    def in_order_times_s(self) -> np.ndarray:
        """When each packet can be delivered in order: all earlier ones have arrived [s]."""
        return np.maximum.accumulate(self.arrival_times_s)

    @property
    def reorder_wait_s(self) -> np.ndarray:
        """Time each packet waits in a reorder buffer [s]."""
        return self.in_order_times_s - self.arrival_times_s

    @property
    def _arrival_position(self) -> np.ndarray:
        """Where each packet comes in the arrival order [-]."""
        position = np.empty(self.packets, dtype=np.int64)
        position[self.arrival_order] = np.arange(self.packets)
        return position

    @property
    def reorder_buffer_packets(self) -> int:
        """Most packets waiting in the reorder buffer at once [-].

        After the ``t``-th arrival (from 0), packet ``i`` has been delivered if
        it and every earlier packet have arrived: if the latest arrival position
        among packets ``0..i`` is at most ``t``. The rest of the ``t + 1``
        arrived packets wait.
        """
        latest = np.maximum.accumulate(self._arrival_position)   # non-decreasing
        arrivals = np.arange(self.packets)
        delivered = np.searchsorted(latest, arrivals, side="right")
        return int((arrivals + 1 - delivered).max())

    @property
    def reorder_buffer_bytes(self) -> float:
        """Most bytes waiting in the reorder buffer at once [B]."""
        return self.reorder_buffer_packets * self.packet_bytes

    @property
    def completion_time_s(self) -> float:
        """When the last packet has arrived: the message is complete with direct placement [s]."""
        return float(self.arrival_times_s.max())

    @property
    def go_back_n_accepted(self) -> int:
        """Packets a go-back-N receiver accepts on the first pass; it discards the rest [-].

        It accepts packets 0, 1, 2, ... as long as each arrives after the one
        before it.
        """
        overtaken = np.flatnonzero(np.diff(self._arrival_position) < 0)
        return int(overtaken[0]) + 1 if overtaken.size else self.packets

    @property
    def go_back_n_discarded_fraction(self) -> float:
        """Share of the packets a go-back-N receiver discards on the first pass [-]."""
        return 1.0 - self.go_back_n_accepted / self.packets


def spray_arrivals(path_delays_s, packets, packet_bytes, link_bytes_per_s, *, order="round-robin", seed=None):
    """Spray one message over paths of different delay and record when each packet arrives.

    Parameters
    ----------
    path_delays_s : array_like of float
        One-way delay of each path, queueing included [s], >= 0; one entry per path.
    packets : int
        Packets in the message [-], in [1, :data:`MAX_SPRAYED_PACKETS`].
    packet_bytes : float
        Packet size [B], in :data:`~interconnect_lab.fabric.traffic.FLOW_BYTES_RANGE`.
    link_bytes_per_s : float
        Rate of the sender's link, one direction [B/s], in
        :data:`~interconnect_lab.fabric.network.CAPACITY_RANGE_BYTES_PER_S`.
    order : str
        A name in :data:`SPRAY_ORDERS`.
    seed : int, optional
        Seed for ``order="random"``.

    Returns
    -------
    SprayArrivals

    Examples
    --------
    Eight packets of 1000 B at 1000 B/s (one per second) over two paths, the
    second 1.5 s slower: every packet on the fast path overtakes the one
    before it.

    >>> arrivals = spray_arrivals([0.0, 1.5], 8, 1000, 1000.0)
    >>> arrivals.arrival_times_s.tolist()
    [1.0, 3.5, 3.0, 5.5, 5.0, 7.5, 7.0, 9.5]
    >>> arrivals.arrival_order.tolist()
    [0, 2, 1, 4, 3, 6, 5, 7]
    >>> arrivals.out_of_order_fraction, arrivals.reorder_buffer_packets, arrivals.go_back_n_accepted
    (0.375, 1, 2)
    """
    delays = np.atleast_1d(check_number("path_delays_s", path_delays_s, unit="s", minimum=0))
    if delays.ndim != 1 or delays.size == 0:
        raise ValueError("path_delays_s must list the delay of at least one path [s]")
    packets = check_integer("packets", packets, minimum=1, maximum=MAX_SPRAYED_PACKETS)
    low, high = FLOW_BYTES_RANGE
    packet_bytes = check_number("packet_bytes", packet_bytes, unit="B", minimum=low, maximum=high, scalar=True)
    rate = check_capacity("link_bytes_per_s", link_bytes_per_s, scalar=True)
    check_choice("spray order", order, SPRAY_ORDERS)
    if seed is not None:
        seed = check_integer("seed", seed, minimum=0)
    sequence = np.arange(packets)
    if order == "round-robin":
        paths = sequence % delays.size
    else:
        if seed is None:
            raise ValueError("order='random' needs a seed: an integer that makes the spraying reproducible")
        paths = np.random.default_rng(seed).integers(delays.size, size=packets)
    packet_time = packet_bytes / rate
    send = sequence * packet_time
    arrival = send + packet_time + delays[paths]
    for array in (send, paths, arrival, delays):
        array.setflags(write=False)
    return SprayArrivals(send_times_s=send, paths=paths, arrival_times_s=arrival, path_delays_s=delays,
                         packet_bytes=packet_bytes, link_bytes_per_s=rate)
