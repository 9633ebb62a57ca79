r"""One congested switch port, packet by packet: incast under three flow controls.

:math:`N` senders, each on its own link of rate :math:`C`, send
``size_bytes`` each to one receiver behind a single switch egress port of the
same rate with a buffer of :math:`B` bytes. The port can drain only
:math:`C`, so while all :math:`N` send, the buffer fills at up to
:math:`(N-1)C`. What happens when it is full is the *flow control*, chosen
by name from :data:`FLOW_CONTROLS`:

``"lossless"``
    Credit-based flow control (InfiniBand's link-level credits; Ethernet's
    priority flow control, PFC, pauses a link in the same spirit). A packet
    leaves its sender only with a credit for buffer space at the switch; a
    credit returns one link delay after a packet leaves the port. Nothing is
    dropped, but a paused link carries nothing at all: a *victim* flow that
    shares sender 0's link and goes to another, idle port waits behind the
    incast packet at the head of that link (head-of-line blocking, the
    collateral damage Guo et al. 2016 report for RDMA over Ethernet).
``"drop-tail"``
    A packet that finds the buffer full is dropped. How the sender learns of
    it is the *recovery* (:data:`RECOVERIES`):

    ``"timeout only"``
        The sender notices only when its retransmission timer fires,
        ``retransmission_timeout_s`` after sending, and then sends that packet
        again; until then the lost packet holds a place in the sender's
        window. When timeouts of milliseconds meet round trips of
        microseconds, goodput collapses as :math:`N` grows (*TCP incast*,
        Vasudevan et al. 2009). Resending only the lost packet does not save
        a transport that learns of the loss this late.
    ``"selective repeat"``
        The receiver accepts packets out of order and acknowledges each with
        what it holds (a SACK); a packet it lacks while a packet sent after it
        has arrived was lost (one path, first in, first out), and the SACK
        tells the sender so, which resends just that packet one round trip
        after the loss instead of a timeout later. This is IRN's recovery
        (Mittal et al. 2018) and Ultra Ethernet's selective retransmission
        (Hoefler et al. 2025); a lost *last* packet, with nothing after it to
        reveal the gap, still waits for the timer.
    ``"go-back-n"``
        The receiver takes packets only in order, as RoCE NICs do: the first
        packet past a gap draws a NAK, and the sender goes back to the gap and
        sends everything from there again, the packets that had arrived
        included. The timer remains for a lost tail.
``"trimming"``
    A packet that finds the buffer full is cut to its header, which a small
    priority queue forwards to the receiver; the receiver asks for the
    payload again at once (a NACK), one round trip later instead of a
    timeout later. This is NDP's mechanism (Handley et al. 2017), which
    Ultra Ethernet adopts as *packet trimming* with selective retransmission
    (Hoefler et al. 2025).

Each sender starts with ``window_bytes`` unacknowledged (one bandwidth-delay
product by default) and sends at line rate while its window allows. The
receiver acknowledges each packet as it arrives; acknowledgements, NACKs and
credits travel back unqueued. Under the two lossy flow controls the window
reacts as a Reno-like congestion control would: it grows by one packet per
round trip (up to its start), falls to one packet on a timeout, and halves on
a NACK (once per window of packets). Under credits it stays as it is: credits
already pace the senders.

:class:`IncastSimulation` owns every piece of state and the clock, in the way
SimPy's ``Environment`` does: a heap of timed events, ties broken by the order
in which events were scheduled, and a log of what happened, so that tests can
check the exact event sequence of a two-sender scenario.

References
----------
V. Vasudevan et al., "Safe and Effective Fine-grained TCP Retransmissions for
Datacenter Communication", SIGCOMM 2009. https://doi.org/10.1145/1592568.1592604

Y. Zhu et al., "Congestion Control for Large-Scale RDMA Deployments" (DCQCN),
SIGCOMM 2015. https://doi.org/10.1145/2785956.2787484

C. Guo et al., "RDMA over Commodity Ethernet at Scale", SIGCOMM 2016.
https://doi.org/10.1145/2934872.2934908

R. Mittal et al., "Revisiting Network Support for RDMA" (IRN), SIGCOMM 2018.
https://doi.org/10.1145/3230543.3230557

M. Handley et al., "Re-architecting datacenter networks and stacks for low
latency and high performance" (NDP), SIGCOMM 2017.
https://doi.org/10.1145/3098822.3098825

T. Hoefler et al., "Ultra Ethernet's Design Principles and Architectural
Innovations", arXiv:2508.08906, 2025. https://arxiv.org/abs/2508.08906
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_integer, check_number

__all__ = ["FLOW_CONTROLS", "RECOVERIES", "IncastSimulation", "IncastResult", "IncastCurve", "incast_port", "incast_collapse",
           "MAX_PACKETS", "MAX_EVENTS"]

#: Flow controls by name, with what a full buffer does.
FLOW_CONTROLS = {
    "lossless": "a sender needs a credit for buffer space before it sends; nothing is dropped",
    "drop-tail": "a packet that finds the buffer full is dropped; the recovery decides when it is resent",
    "trimming": "a packet that finds the buffer full is cut to its header; the receiver asks for it again",
}

#: How a drop-tail sender recovers: resend the lost packet when its timer fires and never earlier
#: ("timeout only"); resend it as soon as the receiver's selective acknowledgement shows a later packet
#: arrived without it ("selective repeat", IRN's and Ultra Ethernet's recovery; the timer only for a lost
#: tail); or, as RoCE NICs do, go back to the first gap the receiver reports and resend everything from
#: there ("go-back-n"; the receiver drops out-of-order packets and NAKs the gap at once).
RECOVERIES = ("timeout only", "selective repeat", "go-back-n")

_INCAST_PORT, _VICTIM_PORT = 0, 1

#: Most packets one simulation carries, every sender's and the victim's together [-]: the work and
#: memory of a packet-by-packet simulation grow with them. Twice the largest the book simulates
#: (64 senders of 64 packets and a victim).
MAX_PACKETS = 2 ** 13

#: Most events one simulation processes by default [-]: sends, arrivals, drops, timeouts,
#: acknowledgements... A collapsing port multiplies them (every retransmission is a few more), so
#: the packet count alone does not bound the work; this does, to about half a second at most. The
#: book's largest simulation (64 senders, trimming) takes about half of it.
MAX_EVENTS = 100_000

#: Rounding allowance when sizes are counted in packets [packets].
_WHOLE_PACKET = 1e-9


class _Flow:
    __slots__ = ("sender", "port", "packets", "next_new", "in_flight", "resend", "delivered", "received",
                 "finish_s", "window", "sent_at", "last_cut_s", "expected", "acked", "nak_sent", "last_rewind_s",
                 "first_sent", "outstanding")

    def __init__(self, sender, port, packets, window):
        self.sender, self.port, self.packets = sender, port, packets
        self.window = float(window)
        self.sent_at = np.zeros(packets)
        self.last_cut_s = -math.inf
        self.expected = 0     # go-back-N: the receiver's next in-order packet
        self.acked = 0        # go-back-N: the sender's cumulative acknowledgement
        self.nak_sent = False
        self.last_rewind_s = -math.inf  # go-back-N: when the sender last went back
        self.next_new = 0
        self.first_sent = 0   # packets sent at least once: next_new's highest value (go-back-N rewinds it)
        self.in_flight = 0
        self.resend = deque()
        self.delivered = 0
        self.received = np.zeros(packets, dtype=bool)
        self.finish_s = math.nan
        self.outstanding = deque()  # selective repeat: (send time, packet) of every transmission, in order

    def has_packet(self):
        return bool(self.resend) or self.next_new < self.packets


class IncastSimulation:
    """N senders, one congested egress port, packet by packet.

    Parameters
    ----------
    n_senders : int
        Senders :math:`N` [-], >= 1.
    size_bytes : float
        Bytes each sender sends [B], > 0; rounded up to whole packets. Every
        sender's packets and the victim's number at most :data:`MAX_PACKETS`.
    link_bytes_per_s : float
        Rate of every link and of the egress port, one direction [B/s], in
        [1, 1e18].
    buffer_bytes : float
        Egress buffer [B], at least one packet.
    packet_bytes : float
        Packet size (payload and headers) [B], in [1, 1e9].
    flow_control : str
        A name in :data:`FLOW_CONTROLS`.
    link_delay_s : float
        One-way delay of each link [s], in [0, 1e6]; an unloaded round trip is
        four of them plus two packet times.
    retransmission_timeout_s : float
        Time from sending a packet to resending it if it was dropped [s], in
        (0, 1e6] (needed for ``"drop-tail"``, ignored by the others).
    window_bytes : float, optional
        Unacknowledged bytes a sender allows [B]; by default one
        bandwidth-delay product (at least one packet).
    header_bytes : float
        Size of a trimmed packet [B], in (0, ``packet_bytes``] (``"trimming"`` only).
    victim_bytes : float
        Size of a victim flow from sender 0 to another, idle port [B]; 0 for none.
    recovery : str
        ``"timeout only"``, ``"selective repeat"`` or ``"go-back-n"`` (drop-tail only),
        see :data:`RECOVERIES`.

    Raises
    ------
    ValueError
        If a parameter is out of its range or the packets exceed :data:`MAX_PACKETS`.

    Attributes
    ----------
    now_s : float
        The clock [s].
    log : list of (float, str, int, int)
        Every event: time [s], kind, flow and packet number.

    Examples
    --------
    Two senders, one packet of 1000 B each, links of 1000 B/s, a buffer of one
    packet and 1 s link delays. Drop-tail drops sender 1's packet and resends
    it after the 10 s timeout:

    >>> sim = IncastSimulation(2, 1000, 1000.0, 1000, 1000, "drop-tail", link_delay_s=1.0,
    ...                        retransmission_timeout_s=10.0)
    >>> result = sim.run()
    >>> [(t, kind, flow) for t, kind, flow, _ in sim.log if kind in ("drop", "timeout", "delivered")]
    [(2.0, 'drop', 1), (4.0, 'delivered', 0), (10.0, 'timeout', 1), (14.0, 'delivered', 1)]
    """

    def __init__(self, n_senders, size_bytes, link_bytes_per_s, buffer_bytes, packet_bytes, flow_control, *,
                 link_delay_s, retransmission_timeout_s=None, window_bytes=None, header_bytes=64.0,
                 victim_bytes=0.0, recovery="timeout only"):
        self.n_senders = check_integer("n_senders", n_senders, minimum=1, maximum=MAX_PACKETS)
        self.flow_control = check_choice("flow control", flow_control, FLOW_CONTROLS)
        self.packet_bytes = check_number("packet_bytes", packet_bytes, unit="B", minimum=1, maximum=1e9, scalar=True)
        size = check_number("size_bytes", size_bytes, unit="B", minimum=0, min_inclusive=False, scalar=True)
        self.rate = check_number("link_bytes_per_s", link_bytes_per_s, unit="B/s", minimum=1, maximum=1e18,
                                 scalar=True)
        self.buffer_bytes = check_number("buffer_bytes", buffer_bytes, unit="B", minimum=self.packet_bytes,
                                         scalar=True)
        self.delay = check_number("link_delay_s", link_delay_s, unit="s", minimum=0, maximum=1e6, scalar=True)
        self.header_bytes = check_number("header_bytes", header_bytes, unit="B", minimum=0,
                                         maximum=self.packet_bytes, min_inclusive=False, scalar=True)
        self.recovery = check_choice("recovery scheme", recovery, RECOVERIES)
        if self.recovery != "timeout only" and self.flow_control != "drop-tail":
            raise ValueError(f"recovery = {recovery!r} applies to drop-tail only: {self.flow_control} "
                             "retransmits selectively (trimming) or loses nothing (lossless)")
        self.go_back_n = self.recovery == "go-back-n"
        self.selective_repeat = self.recovery == "selective repeat"
        self.go_backs = 0
        self.fast_retransmits = 0
        if retransmission_timeout_s is not None:
            retransmission_timeout_s = check_number("retransmission_timeout_s", retransmission_timeout_s, unit="s",
                                                    minimum=0, min_inclusive=False, maximum=1e6, scalar=True)
        if self.flow_control == "drop-tail":
            if retransmission_timeout_s is None:
                raise ValueError("retransmission_timeout_s is needed for drop-tail: the time after which a "
                                 "sender resends a dropped packet [s]")
            self.timeout = retransmission_timeout_s
        else:
            self.timeout = None
        self.packet_time = self.packet_bytes / self.rate
        self.base_round_trip_s = 4 * self.delay + 2 * self.packet_time
        if window_bytes is None:
            window_bytes = max(self.packet_bytes, self.rate * self.base_round_trip_s)
        window = check_number("window_bytes", window_bytes, unit="B", minimum=self.packet_bytes, scalar=True)
        self.window_packets = int(math.ceil(window / self.packet_bytes - _WHOLE_PACKET))
        victim = check_number("victim_bytes", victim_bytes, unit="B", minimum=0, scalar=True)
        # Count in floats first: a size of 1e300 B is refused before it becomes a list of packets.
        per_flow = max(1, math.ceil(min(size / self.packet_bytes, 2.0 * MAX_PACKETS) - _WHOLE_PACKET))
        victim_packets = 0 if victim == 0 else max(
            1, math.ceil(min(victim / self.packet_bytes, 2.0 * MAX_PACKETS) - _WHOLE_PACKET))
        if self.n_senders * per_flow + victim_packets > MAX_PACKETS:
            raise ValueError(
                f"n_senders = {self.n_senders} senders of size_bytes = {size:g} B"
                + (f" and victim_bytes = {victim:g} B" if victim > 0 else "")
                + f" in packets of packet_bytes = {self.packet_bytes:g} B make more than MAX_PACKETS = "
                f"{MAX_PACKETS} packets: a packet-by-packet simulation must stay within it (fewer senders, "
                "fewer bytes or larger packets)")
        self.flows = [_Flow(sender, _INCAST_PORT, per_flow, self.window_packets) for sender in range(self.n_senders)]
        if victim_packets > 0:
            self.flows.append(_Flow(0, _VICTIM_PORT, victim_packets, self.window_packets))
        self.sender_flows = [[] for _ in range(self.n_senders)]
        for f, flow in enumerate(self.flows):
            self.sender_flows[flow.sender].append(f)
        self.next_flow = [0] * self.n_senders  # round-robin pointer per sender
        self.link_busy = [False] * self.n_senders
        self.blocked = deque()  # senders waiting for a credit, in order
        self.is_blocked = [False] * self.n_senders
        self.credits = int(self.buffer_bytes // self.packet_bytes)
        self.queue_bytes = [0.0, 0.0]  # bytes in each egress port (waiting or being sent)
        self.queues = [deque(), deque()]  # data packets (flow, seq) per port
        self.headers = deque()  # trimmed headers (flow, seq), served first
        self.port_busy = [False, False]
        self.now_s = 0.0
        self._events = []
        self._order = 0
        self.log = []
        self.drops = self.trims = self.timeouts = 0
        self.sent_packets = 0
        self.paused_s = 0.0
        self._blocked_since = [None] * self.n_senders
        self._undelivered = sum(flow.packets for flow in self.flows)
        self._handlers = {kind: getattr(self, "_on_" + kind.replace("-", "_")) for kind in (
            "try", "link-free", "arrive", "packet-sent", "header-sent", "credit", "deliver", "ack", "nack", "timer",
            "rewind", "sack-loss")}
        for sender in range(self.n_senders):
            self._schedule(0.0, "try", sender, -1)

    # The event machinery ---------------------------------------------------------------
    def _schedule(self, time_s, kind, a, b):
        # The scheduling order breaks ties, so two events never compare beyond it.
        heapq.heappush(self._events, (time_s, self._order, self._handlers[kind], a, b))
        self._order += 1

    @property
    def done(self) -> bool:
        """True once every flow's last packet has reached the receiver."""
        return self._undelivered == 0

    def step(self):
        """Process the next event."""
        time_s, _, handler, a, b = heapq.heappop(self._events)
        self.now_s = time_s
        handler(a, b)

    def run(self, max_events=MAX_EVENTS):
        """Process events until every flow is delivered; return the :class:`IncastResult`.

        Raises a ``ValueError`` after ``max_events`` events (default :data:`MAX_EVENTS`) with
        packets still undelivered: the inputs need more work than the budget allows.
        """
        max_events = check_integer("max_events", max_events, minimum=1)
        events = self._events
        for _ in range(max_events):
            if self._undelivered == 0:
                return self.result()
            if not events:
                raise RuntimeError("the incast simulation cannot finish: no event is pending but packets "
                                   "are undelivered")
            time_s, _, handler, a, b = heapq.heappop(events)
            self.now_s = time_s
            handler(a, b)
        if self._undelivered == 0:
            return self.result()
        raise ValueError(
            f"the incast simulation needs more than max_events = {max_events} events (sends, drops, "
            f"retransmissions...): {self.n_senders} senders of {self.flows[0].packets} packets keep retransmitting "
            f"into a buffer of {int(self.buffer_bytes // self.packet_bytes)} packets; use fewer n_senders or "
            "packets, a larger buffer_bytes or a longer retransmission_timeout_s")

    # Senders ----------------------------------------------------------------------------
    def _eligible(self, flow):
        if self.go_back_n:
            return flow.next_new < flow.packets and flow.next_new - flow.acked < max(1, int(flow.window))
        return flow.has_packet() and flow.in_flight < max(1, int(flow.window))

    def _on_try(self, sender, _):
        """The sender's link is free: send the next packet, round-robin over its flows."""
        if self.link_busy[sender] or self.is_blocked[sender]:
            return
        flows = self.sender_flows[sender]
        for offset in range(len(flows)):
            index = flows[(self.next_flow[sender] + offset) % len(flows)]
            flow = self.flows[index]
            if not self._eligible(flow):
                continue
            if self.flow_control == "lossless" and flow.port == _INCAST_PORT:
                if self.credits == 0:
                    # Head-of-line: the link waits for a credit, and everything behind this packet waits too.
                    self.is_blocked[sender] = True
                    self._blocked_since[sender] = self.now_s
                    self.blocked.append(sender)
                    self.log.append((self.now_s, "paused", index, -1))
                    return
                self.credits -= 1
            self.next_flow[sender] = (self.next_flow[sender] + offset + 1) % len(flows)
            seq = flow.resend.popleft() if flow.resend else flow.next_new
            if seq == flow.next_new:
                flow.next_new += 1
                flow.first_sent = max(flow.first_sent, flow.next_new)
            flow.in_flight += 1
            flow.sent_at[seq] = self.now_s
            if self.selective_repeat:
                flow.outstanding.append((self.now_s, seq))
            self.link_busy[sender] = True
            self.sent_packets += 1
            self.log.append((self.now_s, "send", index, seq))
            self._schedule(self.now_s + self.packet_time, "link-free", sender, -1)
            # The arrival carries its send time exactly, so that a timer started at the send is
            # compared with later rewinds without floating-point round-off.
            self._schedule(self.now_s + self.packet_time + self.delay, "arrive", index, (seq, self.now_s))
            return

    def _on_link_free(self, sender, _):
        self.link_busy[sender] = False
        self._on_try(sender, -1)

    # The switch -------------------------------------------------------------------------
    def _on_arrive(self, index, packet):
        seq, sent_s = packet
        flow = self.flows[index]
        port = flow.port
        if self.queue_bytes[port] + self.packet_bytes > self.buffer_bytes and self.flow_control != "lossless":
            if self.flow_control == "drop-tail":
                self.drops += 1
                self.log.append((self.now_s, "drop", index, seq))
                # The sender's timer for this packet, started when it was sent, will fire.
                self._schedule(max(self.now_s, sent_s + self.timeout), "timer", index, (seq, sent_s))
            else:
                self.trims += 1
                self.log.append((self.now_s, "trim", index, seq))
                self.headers.append((index, seq))
                self._serve(port)
            return
        self.queue_bytes[port] += self.packet_bytes
        self.queues[port].append((index, seq))
        self._serve(port)

    def _serve(self, port):
        if self.port_busy[port]:
            return
        if port == _INCAST_PORT and self.headers:
            index, seq = self.headers.popleft()
            self.port_busy[port] = True
            self._schedule(self.now_s + self.header_bytes / self.rate, "header-sent", index, seq)
        elif self.queues[port]:
            index, seq = self.queues[port].popleft()
            self.port_busy[port] = True
            self._schedule(self.now_s + self.packet_time, "packet-sent", index, seq)

    def _on_packet_sent(self, index, seq):
        port = self.flows[index].port
        self.port_busy[port] = False
        self.queue_bytes[port] -= self.packet_bytes
        self._schedule(self.now_s + self.delay, "deliver", index, seq)
        if self.flow_control == "lossless" and port == _INCAST_PORT:
            self._schedule(self.now_s + self.delay, "credit", -1, -1)
        self._serve(port)

    def _on_header_sent(self, index, seq):
        self.port_busy[_INCAST_PORT] = False
        # The header reaches the receiver, whose NACK returns to the sender.
        self._schedule(self.now_s + 3 * self.delay, "nack", index, seq)
        self._serve(_INCAST_PORT)

    def _on_credit(self, *_):
        self.credits += 1
        if self.blocked:
            sender = self.blocked.popleft()
            self.is_blocked[sender] = False
            self.paused_s += self.now_s - self._blocked_since[sender]
            self._on_try(sender, -1)

    # The receiver and the way back -----------------------------------------------------
    def _on_deliver(self, index, seq):
        flow = self.flows[index]
        if self.go_back_n:
            self._deliver_in_order(flow, index, seq)
            return
        if self.selective_repeat:
            self._find_losses(flow, index, seq)
        if not flow.received[seq]:
            self._accept(flow, index, seq)
        self._schedule(self.now_s + 2 * self.delay, "ack", index, seq)

    def _find_losses(self, flow, index, seq):
        """Selective repeat: every transmission sent before this one and not received was lost.

        A flow's packets cross one path in order, so a packet still missing when a later one
        arrives was dropped; the selective acknowledgement of the arrival tells the sender,
        one link delay back to the switch and one to the sender later.
        """
        sent_s = flow.sent_at[seq]
        outstanding = flow.outstanding
        while outstanding and outstanding[0][0] <= sent_s:
            earlier_s, earlier = outstanding.popleft()
            if earlier == seq and earlier_s == sent_s:
                continue
            if not flow.received[earlier] and flow.sent_at[earlier] == earlier_s and earlier not in flow.resend:
                self._schedule(self.now_s + 2 * self.delay, "sack-loss", index, (earlier, earlier_s))

    def _accept(self, flow, index, seq):
        flow.received[seq] = True
        flow.delivered += 1
        self._undelivered -= 1
        self.log.append((self.now_s, "delivered", index, seq))
        if flow.delivered == flow.packets:
            flow.finish_s = self.now_s

    def _deliver_in_order(self, flow, index, seq):
        """Go-back-N receiver: take only the next packet in order; NAK the first gap once."""
        if seq == flow.expected:
            self._accept(flow, index, seq)
            flow.expected += 1
            flow.nak_sent = False
            self._schedule(self.now_s + 2 * self.delay, "ack", index, flow.expected)
        elif seq > flow.expected:
            self.log.append((self.now_s, "discard", index, seq))
            if not flow.nak_sent:
                flow.nak_sent = True
                self._schedule(self.now_s + 2 * self.delay, "rewind", index, flow.expected)

    def _on_ack(self, index, seq):
        flow = self.flows[index]
        flow.in_flight -= 1
        if self.go_back_n:
            flow.acked = max(flow.acked, seq)  # cumulative
        if self.flow_control != "lossless":
            flow.window = min(flow.window + 1.0 / flow.window, self.window_packets)  # one packet per round trip
        self._on_try(flow.sender, -1)

    def _on_nack(self, index, seq):
        flow = self.flows[index]
        flow.in_flight -= 1
        flow.resend.append(seq)
        if flow.sent_at[seq] > flow.last_cut_s:  # halve once per window of packets
            flow.window = max(1.0, flow.window / 2)
            flow.last_cut_s = self.now_s
        self.log.append((self.now_s, "nack", index, seq))
        self._on_try(flow.sender, -1)

    def _on_sack_loss(self, index, packet):
        """Selective repeat: the sender learns from a SACK that ``packet`` was lost and sends it again."""
        seq, sent_s = packet
        flow = self.flows[index]
        if flow.received[seq] or flow.sent_at[seq] != sent_s or seq in flow.resend:
            return  # already repaired, or queued to be (its timer fired first)
        flow.in_flight -= 1
        flow.resend.append(seq)
        self.fast_retransmits += 1
        if sent_s > flow.last_cut_s:  # halve once per window of packets
            flow.window = max(1.0, flow.window / 2)
            flow.last_cut_s = self.now_s
        self.log.append((self.now_s, "sack-loss", index, seq))
        self._on_try(flow.sender, -1)

    def _on_rewind(self, index, expected):
        """Go-back-N sender, on a NAK: everything from the receiver's gap on is sent again."""
        flow = self.flows[index]
        flow.acked = max(flow.acked, expected)
        if flow.next_new > expected:
            self.go_backs += 1
            self.log.append((self.now_s, "go-back", index, expected))
            if flow.sent_at[expected] > flow.last_cut_s:
                flow.window = max(1.0, flow.window / 2)
                flow.last_cut_s = self.now_s
            flow.next_new = expected
            flow.last_rewind_s = self.now_s
        self._on_try(flow.sender, -1)

    def _on_timer(self, index, packet):
        seq, sent_s = packet
        # Timers are modelled only for dropped packets: a delivered packet's acknowledgement stops its timer.
        flow = self.flows[index]
        if self.go_back_n:
            # One timer per connection: a packet sent before the sender last went back has been sent again.
            if flow.expected > seq or sent_s < flow.last_rewind_s:
                return
            self.timeouts += 1
            flow.last_rewind_s = self.now_s
            self.log.append((self.now_s, "timeout", index, seq))
            flow.window = 1.0
            flow.nak_sent = False
            flow.next_new = min(flow.next_new, flow.expected)
            self._on_try(flow.sender, -1)
            return
        if flow.received[seq] or flow.sent_at[seq] != sent_s or seq in flow.resend:
            return  # selective repeat resent it already, or queued it, on a SACK
        flow.in_flight -= 1
        flow.resend.append(seq)
        flow.window = 1.0
        self.timeouts += 1
        self.log.append((self.now_s, "timeout", index, seq))
        self._on_try(flow.sender, -1)

    # Results ---------------------------------------------------------------------------------
    @property
    def sent_bytes(self) -> float:
        """Bytes sent so far, retransmissions included [B]."""
        return self.sent_packets * self.packet_bytes

    @property
    def retransmitted_packets(self) -> int:
        """Packets sent again so far: every send beyond each packet's first [-].

        Counted in whole packets, it is never negative (a byte total summed one
        packet at a time would round differently from the packet count times the size).
        """
        return self.sent_packets - sum(flow.first_sent for flow in self.flows)

    def result(self):
        """The outcome so far, as an :class:`IncastResult`."""
        incast = self.flows[: self.n_senders]
        victim = self.flows[self.n_senders] if len(self.flows) > self.n_senders else None
        completion = max(flow.finish_s for flow in incast)
        incast_bytes = sum(flow.packets for flow in incast) * self.packet_bytes
        victim_alone = None
        if victim is not None:
            victim_alone = self.base_round_trip_s / 2 + victim.packets * self.packet_time
        return IncastResult(
            flow_control=self.flow_control, n_senders=self.n_senders, completion_time_s=completion,
            goodput_bytes_per_s=incast_bytes / completion, link_bytes_per_s=self.rate,
            ideal_completion_time_s=self.base_round_trip_s / 2 + incast_bytes / self.rate,
            drops=self.drops, trims=self.trims, timeouts=self.timeouts, go_backs=self.go_backs,
            fast_retransmits=self.fast_retransmits,
            retransmitted_bytes=self.retransmitted_packets * self.packet_bytes,
            paused_s=self.paused_s,
            victim_completion_time_s=victim.finish_s if victim else None, victim_alone_time_s=victim_alone)


@dataclass(frozen=True)
class IncastResult:
    """What an incast did to one port.

    Attributes
    ----------
    flow_control : str
    n_senders : int
    completion_time_s : float
        When the last incast byte reached the receiver [s].
    goodput_bytes_per_s : float
        Incast bytes over completion time [B/s].
    link_bytes_per_s : float
        The port's rate [B/s].
    ideal_completion_time_s : float
        Half a round trip plus all the bytes at the port's rate [s].
    drops, trims, timeouts : int
        Packets dropped, trimmed, and timers that fired [-].
    go_backs : int
        Times a go-back-N sender went back to a gap and resent from there [-].
    fast_retransmits : int
        Packets a selective-repeat sender resent on a SACK, before their timer [-].
    retransmitted_bytes : float
        Bytes sent more than once [B].
    paused_s : float
        Time senders spent waiting for a credit, summed over senders [s].
    victim_completion_time_s : float or None
        When the victim flow finished [s].
    victim_alone_time_s : float or None
        The victim flow's time on an idle network [s].
    """

    flow_control: str
    n_senders: int
    completion_time_s: float
    goodput_bytes_per_s: float
    link_bytes_per_s: float
    ideal_completion_time_s: float
    drops: int
    trims: int
    timeouts: int
    go_backs: int
    fast_retransmits: int
    retransmitted_bytes: float
    paused_s: float
    victim_completion_time_s: float | None
    victim_alone_time_s: float | None

    @property
    def goodput_fraction(self) -> float:
        """Goodput over the port's rate [-]."""
        return self.goodput_bytes_per_s / self.link_bytes_per_s

    @property
    def efficiency(self) -> float:
        """Ideal completion time over the actual one [-]: 1 when nothing but the port's rate limits."""
        return self.ideal_completion_time_s / self.completion_time_s

    @property
    def victim_slowdown(self) -> float | None:
        """Victim's completion time over its time alone [-]."""
        if self.victim_completion_time_s is None:
            return None
        return self.victim_completion_time_s / self.victim_alone_time_s


def incast_port(n_senders, size_bytes, link_bytes_per_s, buffer_bytes, packet_bytes, flow_control, *,
                max_events=MAX_EVENTS, **options):
    """Simulate one incast into one port; see :class:`IncastSimulation` for the parameters.

    The work is bounded: at most :data:`MAX_PACKETS` packets, and at most
    ``max_events`` events (:data:`MAX_EVENTS` by default, under a second),
    past which a collapsing port's retransmissions are an error that names
    the inputs, not a run of minutes.

    Parameters
    ----------
    max_events : int
        Events the simulation may take [-], >= 1.
    **options
        The other parameters of :class:`IncastSimulation` (``link_delay_s``,
        ``retransmission_timeout_s``, ...).
    n_senders, size_bytes, link_bytes_per_s, buffer_bytes, packet_bytes, flow_control :
        As for :class:`IncastSimulation`.

    Returns
    -------
    IncastResult

    Raises
    ------
    ValueError
        If a parameter is out of range, the packets exceed :data:`MAX_PACKETS`,
        or the simulation needs more than ``max_events`` events.

    Examples
    --------
    Sixteen senders of 64 packets into a 32-packet buffer at 50 GB/s (400 Gb/s),
    1 µs links, a 1 ms timeout:

    >>> kw = dict(link_delay_s=1e-6, retransmission_timeout_s=1e-3)
    >>> for control in FLOW_CONTROLS:
    ...     r = incast_port(16, 64 * 4096, 50e9, 32 * 4096, 4096, control, **kw)
    ...     print(f"{control:10s} {r.completion_time_s * 1e6:6.1f} us, {r.timeouts} timeouts")
    lossless     86.0 us, 0 timeouts
    drop-tail  2067.1 us, 776 timeouts
    trimming     91.6 us, 0 timeouts
    """
    return IncastSimulation(n_senders, size_bytes, link_bytes_per_s, buffer_bytes, packet_bytes, flow_control,
                            **options).run(max_events)


@dataclass(frozen=True)
class IncastCurve:
    """Goodput and completion time as the number of senders grows.

    Attributes
    ----------
    n_senders : numpy.ndarray
        Sender counts [-].
    results : dict of str to tuple of IncastResult
        For each flow control, one result per sender count.
    """

    n_senders: np.ndarray
    results: dict

    def goodput_fraction(self, flow_control):
        """Goodput over line rate for each sender count [-]."""
        return np.array([r.goodput_fraction for r in self.results[flow_control]])

    def completion_time_s(self, flow_control):
        """Completion time for each sender count [s]."""
        return np.array([r.completion_time_s for r in self.results[flow_control]])


def incast_collapse(n_senders, size_bytes, link_bytes_per_s, buffer_bytes, packet_bytes, *,
                    flow_controls=tuple(FLOW_CONTROLS), **options):
    """The incast collapse curve: every flow control at every sender count.

    Parameters
    ----------
    n_senders : sequence of int
        Sender counts to simulate.
    size_bytes, link_bytes_per_s, buffer_bytes, packet_bytes, **options
        As for :class:`IncastSimulation`; ``retransmission_timeout_s`` and
        ``recovery`` go to drop-tail only.
    flow_controls : sequence of str
        Names in :data:`FLOW_CONTROLS`; ``"drop-tail/<recovery>"`` names drop-tail
        with a recovery of :data:`RECOVERIES` (``"drop-tail/selective repeat"``,
        ``"drop-tail/go-back-n"``); plain ``"drop-tail"`` recovers by timeout only.

    Returns
    -------
    IncastCurve
        Results keyed by the names given.

    Examples
    --------
    >>> curve = incast_collapse([1, 8], 64 * 4096, 50e9, 32 * 4096, 4096, link_delay_s=1e-6,
    ...                         retransmission_timeout_s=1e-3,
    ...                         flow_controls=("trimming", "drop-tail", "drop-tail/selective repeat",
    ...                                        "drop-tail/go-back-n"))
    >>> {name: [round(r.efficiency, 2) for r in results] for name, results in curve.results.items()}
    {'trimming': [1.0, 0.99], 'drop-tail': [1.0, 0.04], 'drop-tail/selective repeat': [1.0, 0.89], 'drop-tail/go-back-n': [1.0, 0.7]}
    """
    counts = np.array([check_integer("n_senders", n, minimum=1) for n in np.atleast_1d(n_senders)])
    results = {}
    for name in flow_controls:
        control, _, recovery = str(name).partition("/")
        check_choice("flow control", control, FLOW_CONTROLS)
        settings = dict(options)
        if control == "drop-tail":
            if recovery:
                settings["recovery"] = check_choice("recovery scheme", recovery, RECOVERIES)
        else:
            if recovery:
                raise ValueError(f"flow control {name!r}: only drop-tail takes a recovery ({', '.join(RECOVERIES)})")
            settings.pop("retransmission_timeout_s", None)
            settings.pop("recovery", None)
        results[name] = tuple(incast_port(int(n), size_bytes, link_bytes_per_s, buffer_bytes, packet_bytes,
                                          control, **settings) for n in counts)
    return IncastCurve(n_senders=counts, results=results)
