"""One congested port, packet by packet (fabric.incast): exact event logs, collapse, head-of-line blocking."""

import pytest

from interconnect_lab.fabric import FLOW_CONTROLS, IncastSimulation, incast_collapse, incast_port

# Two senders, one packet each, 1000 B/s links, a one-packet buffer, 1 s link delays.
TINY = dict(n_senders=2, size_bytes=1000, link_bytes_per_s=1000.0, buffer_bytes=1000, packet_bytes=1000,
            link_delay_s=1.0)


def events(simulation, kinds):
    return [(round(t, 9), kind, flow) for t, kind, flow, _ in simulation.log if kind in kinds]


def test_lossless_pauses_the_second_sender_until_a_credit_returns():
    # Sender 0 takes the only credit; sender 1 pauses. Packet 0 arrives at 2 s (1 s on the wire, 1 s
    # delay), leaves the port at 3 s; its credit is back at 4 s, when packet 1 starts: it arrives at 6,
    # leaves at 7 and is delivered at 8.
    sim = IncastSimulation(**TINY, flow_control="lossless")
    result = sim.run()
    assert events(sim, ("send", "paused", "delivered")) == [
        (0.0, "send", 0), (0.0, "paused", 1), (4.0, "delivered", 0), (4.0, "send", 1), (8.0, "delivered", 1)]
    assert result.completion_time_s == 8.0 and result.drops == 0 and result.paused_s == 4.0


def test_drop_tail_waits_for_the_timeout():
    sim = IncastSimulation(**TINY, flow_control="drop-tail", retransmission_timeout_s=10.0)
    result = sim.run()
    assert events(sim, ("send", "drop", "timeout", "delivered")) == [
        (0.0, "send", 0), (0.0, "send", 1), (2.0, "drop", 1), (4.0, "delivered", 0), (10.0, "timeout", 1),
        (10.0, "send", 1), (14.0, "delivered", 1)]
    assert (result.drops, result.timeouts, result.retransmitted_bytes) == (1, 1, 1000.0)


def test_trimming_sends_the_header_and_the_receiver_asks_again():
    # Packet 1 is trimmed at 2 s; its 64 B header waits for packet 0 to leave (3 s), takes 0.064 s, reaches
    # the receiver, whose NACK is back at the sender 3 link delays later: 6.064 s. The resent packet
    # arrives at 8.064, leaves at 9.064 and is delivered at 10.064.
    sim = IncastSimulation(**TINY, flow_control="trimming")
    result = sim.run()
    assert events(sim, ("trim", "nack", "delivered")) == [
        (2.0, "trim", 1), (4.0, "delivered", 0), (6.064, "nack", 1), (10.064, "delivered", 1)]
    assert (result.trims, result.timeouts) == (1, 0)


def test_one_sender_runs_at_line_rate_under_every_flow_control():
    for control in FLOW_CONTROLS:
        result = incast_port(1, 100 * 1000, 1e6, 10 * 1000, 1000, control, link_delay_s=1e-4,
                             retransmission_timeout_s=1.0)
        assert result.efficiency == pytest.approx(1.0)
        assert result.drops == result.trims == 0


@pytest.fixture(scope="module")
def curve():
    # 400 Gb/s (50 GB/s) port, 4 KiB packets, 32-packet buffer, 1 us links, 1 ms timeout, 256 KiB per sender.
    return incast_collapse([1, 2, 4, 8, 16, 32], 256 * 1024, 50e9, 32 * 4096, 4096, link_delay_s=1e-6,
                           retransmission_timeout_s=1e-3, victim_bytes=256 * 1024)


def test_drop_tail_collapses_and_the_others_do_not(curve):
    efficiency = {control: [r.efficiency for r in results] for control, results in curve.results.items()}
    # With one sender the victim takes half of sender 0's link; from two senders on, the port is the limit.
    assert efficiency["drop-tail"][1] == pytest.approx(1.0) and efficiency["drop-tail"][-1] < 0.1  # collapse
    assert min(efficiency["lossless"][3:]) > 0.99
    assert min(efficiency["trimming"][1:]) > 0.9
    assert all(r.drops == 0 for r in curve.results["lossless"])
    assert all(r.timeouts == 0 for r in curve.results["trimming"])


def test_goodput_never_exceeds_the_port(curve):
    for results in curve.results.values():
        assert all(r.goodput_fraction <= 1.0 and r.completion_time_s >= r.ideal_completion_time_s * (1 - 1e-12)
                   for r in results)


def test_lossless_blocks_the_victim_and_lossy_does_not(curve):
    lossless = [r.victim_slowdown for r in curve.results["lossless"]]
    trimming = [r.victim_slowdown for r in curve.results["trimming"]]
    # Behind a paused link the victim moves at the incast's pace: its slowdown grows with N.
    assert lossless[-1] > 10 and lossless == sorted(lossless)
    assert max(trimming) < 2.5  # it shares sender 0's link, nothing more


@pytest.mark.parametrize("kwargs, message", [
    (dict(flow_control="credit"), "valid flow controls are: 'lossless', 'drop-tail', 'trimming'"),
    (dict(flow_control="drop-tail"), "retransmission_timeout_s is needed"),
    (dict(flow_control="lossless", buffer_bytes=10), "buffer_bytes = 10 B is not valid: it must be >= 1000 B"),
    (dict(flow_control="lossless", n_senders=0), "n_senders = 0 is not valid"),
    (dict(flow_control="lossless", size_bytes=-1), "size_bytes = -1 B"),
])
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        IncastSimulation(**{**TINY, **kwargs})


def test_go_back_n_resends_from_the_gap():
    # Two senders of three packets, a two-packet buffer, 0.5 s link delays. Sender 0 loses packet 1 but
    # packet 2 gets through at 5.0 s: the receiver discards it and NAKs the gap, the sender goes back at
    # 6.0 s and sends packets 1 and 2 again. Sender 1 loses its last two packets: no packet follows the
    # gap, so only its timer (sent at 1 s + 20 s) brings them back; the timer of packet 2 is then spent.
    sim = IncastSimulation(2, 3000, 1000.0, 2000, 1000, "drop-tail", link_delay_s=0.5, retransmission_timeout_s=20.0,
                           recovery="go-back-n", window_bytes=3000)
    result = sim.run()
    assert events(sim, ("drop", "discard", "go-back", "timeout", "delivered")) == [
        (2.5, "drop", 0), (2.5, "drop", 1), (3.0, "delivered", 0), (3.5, "drop", 1), (4.0, "delivered", 1),
        (5.0, "discard", 0), (6.0, "go-back", 0), (9.0, "delivered", 0), (13.0, "delivered", 0),
        (21.0, "timeout", 1), (24.0, "delivered", 1), (28.0, "delivered", 1)]
    assert (result.go_backs, result.timeouts, result.retransmitted_bytes) == (1, 1, 4000.0)


def test_trimming_beats_go_back_n_beats_timeouts():
    curve = incast_collapse([4, 16], 64 * 4096, 50e9, 32 * 4096, 4096, link_delay_s=1e-6,
                            retransmission_timeout_s=1e-3,
                            flow_controls=("trimming", "drop-tail/go-back-n", "drop-tail"))
    efficiency = {name: [r.efficiency for r in results] for name, results in curve.results.items()}
    for i in range(2):
        assert efficiency["trimming"][i] > efficiency["drop-tail/go-back-n"][i] > efficiency["drop-tail"][i]
    assert all(r.go_backs > 0 for r in curve.results["drop-tail/go-back-n"])
    with pytest.raises(ValueError, match="only drop-tail takes a recovery"):
        incast_collapse([2], 4096, 1e9, 4096, 4096, link_delay_s=1e-6, flow_controls=("lossless/go-back-n",))
    with pytest.raises(ValueError, match="applies to drop-tail only"):
        IncastSimulation(**TINY, flow_control="trimming", recovery="go-back-n")


def test_go_back_n_timer_fires_after_a_timeout_that_resent_at_the_same_instant():
    # Regression: a resend at the very instant of a timeout was dropped again, and its
    # timer (send time + timeout, computed with round-off) looked older than the rewind,
    # so it was ignored and the simulation stalled with packets undelivered.
    from interconnect_lab.fabric.incast import IncastSimulation

    simulation = IncastSimulation(32, 64 * 1024, 50e9, 8 * 4096, 4096, "drop-tail",
                                  link_delay_s=1e-6, retransmission_timeout_s=0.01,
                                  recovery="go-back-n")
    result = simulation.run()
    assert simulation.done
    assert result.timeouts > 0 and result.completion_time_s > 0.01
