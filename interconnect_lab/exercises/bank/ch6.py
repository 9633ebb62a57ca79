"""Chapter 6, Ultra Ethernet: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, fabric
from ... import units as u
from ._common import choice, numeric


ENTRIES = [
    numeric("ch6.ex1", "Three flows on one link",
            "A leaf hashes 32 flows onto its 32 up-links, each flow to a link chosen uniformly at random. "
            "What is the probability that at least one up-link carries three flows or more?",
            lambda: 1 - float(fabric.max_load_cdf(32, 32, [2])[0]), unit="%", scale=0.01,
            hint="One minus the probability that no link holds more than two; `fabric.max_load_cdf`."),
    numeric("ch6.ex2", "No collision at all",
            "With 8 flows hashed onto 8 up-links, what is the probability that every flow gets a link of "
            "its own?",
            lambda: float(fabric.max_load_cdf(8, 8, [1])[0]), unit="%", scale=0.01,
            hint="No link holds more than one flow."),
    numeric("ch6.ex3", "A Tomahawk 5's capacity",
            "What is a Tomahawk 5 switch chip's total capacity, all ports, one direction, from the catalog?",
            lambda: (lambda s: s.ports * s.port_per_direction_bytes_per_s)(catalog.switch("Tomahawk 5")),
            unit="Tb/s", scale=u.Tbit_per_s, hint="Ports × per-port rate; switch capacity is quoted in bits."),
    numeric("ch6.ex4", "Bytes in flight",
            "How many bytes are in flight on an Ethernet 400G link (catalog rate) with a 10 µs round trip: "
            "the bandwidth-delay product?",
            lambda: catalog.link("Ethernet 400G").per_direction_bytes_per_s * 10 * u.us, unit="KiB",
            scale=u.KiB, rtol=0.005, hint="Rate in bytes per second × round-trip time; a KiB is 1,024 bytes."),
    numeric("ch6.ex5", "Selective repeat under incast",
            "Eight senders each send 256 KiB through one 400 Gb/s port with a 32-packet buffer of 4 KiB "
            "packets, 1 µs link delay and a 1 ms retransmission timer (`fabric.incast_port`, flow control "
            "`\"drop-tail\"`, `recovery=\"selective repeat\"`). What fraction of the port's capacity is goodput?",
            lambda: fabric.incast_port(8, 256 * u.KiB, catalog.link("Ethernet 400G").per_direction_bytes_per_s,
                                       32 * 4 * u.KiB, 4 * u.KiB, "drop-tail", recovery="selective repeat",
                                       link_delay_s=1 * u.us, retransmission_timeout_s=1 * u.ms).goodput_fraction,
            unit="%", scale=0.01, rtol=0.01,
            hint="A loss is resent one round trip after the SACK that reports it, not after the timer."),
    choice("ch6.q1", "Elephants and ECMP",
           "ECMP hashes each flow onto one path. With a few large flows, as in collectives, ...",
           ["the load spreads evenly anyway", "some links carry two or more flows while others idle",
            "the switch splits each flow"], "b"),
    choice("ch6.q2", "What spraying asks of the receiver",
           "Packet spraying sends one flow's packets over many paths. The receiver must ...",
           ["accept packets out of order", "slow the sender down", "drop duplicates only"], "a"),
    choice("ch6.q3", "Trimming",
           "With packet trimming, a congested switch ...",
           ["drops the packet silently", "cuts the payload and forwards the header, so the receiver learns "
            "of the loss at once", "marks the packet and delivers it whole"], "b"),
    choice("ch6.q4", "Incast",
           "Incast is ...",
           ["many senders sending to one receiver's port at once, overflowing its buffer",
            "a packet looping in the fabric", "a flow hashed onto a failed link"], "a"),
    numeric("ch6.q5", "Sixty-four flows",
            "With 64 flows hashed onto 64 up-links, what is the probability that no up-link carries more "
            "than two flows?",
            lambda: float(fabric.max_load_cdf(64, 64, [2])[0]), unit="%", scale=0.01),
]
