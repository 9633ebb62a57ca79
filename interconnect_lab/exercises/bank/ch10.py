"""Chapter 10, power, optics and the road ahead: its checked exercises and quiz questions."""

from __future__ import annotations

from ... import catalog, energy, silicon, topology
from ... import units as u
from ._common import choice, numeric


def _mw_energy():
    return energy.lifetime_energy_j(1 * u.MW, 5, pue=1.3)


ENTRIES = [
    numeric("ch10.ex1", "A megawatt for five years",
            "A cluster draws 1 MW of IT power around the clock for five years at a PUE of 1.3. How much "
            "energy does the facility use?",
            _mw_energy, unit="GWh", scale=u.GWh,
            hint="Power × PUE × time; `energy.lifetime_energy_j`."),
    numeric("ch10.ex2", "Its bill",
            "At an assumed 0.08 USD per kWh, what does that energy cost?",
            lambda: energy.energy_cost_usd(_mw_energy(), 0.08), unit="million USD", scale=u.MUSD,
            hint="`energy.energy_cost_usd`; mind kWh against J."),
    numeric("ch10.ex3", "Energy per bit",
            "An optical module for an Ethernet 800G port (catalog rate) draws an assumed 15 W. What is its "
            "energy per bit, counting one direction's traffic?",
            lambda: energy.energy_per_bit_j(15.0, catalog.link("Ethernet 800G").per_direction_bytes_per_s),
            unit="pJ/bit", scale=u.pJ, hint="Power over bits per second; `energy.energy_per_bit_j`."),
    numeric("ch10.ex4", "An H100-sized die",
            "With the library's default defect density and no spare cores, what share of H100-sized dies "
            "(`silicon.H100_DIE`) has no defect?",
            lambda: silicon.chip_yield(silicon.H100_DIE.area_m2), unit="%", scale=0.01,
            hint="Poisson yield exp(−D A); `silicon.chip_yield`."),
    numeric("ch10.ex5", "Quantum-X800 in three tiers",
            "How many hosts does a non-blocking three-tier fat tree of NVIDIA Quantum-X800 Q3400 switches "
            "hold (`catalog.switch(\"Quantum-X800 Q3400\").ports`, `topology.max_hosts`)?",
            lambda: topology.max_hosts(catalog.switch("Quantum-X800 Q3400").ports, 3), unit="hosts", exact=True,
            hint="k^3/4 for radix k."),
    numeric("ch10.ex6", "A Kyber rack's busbar",
            "The Rubin Ultra NVL576 rack is announced at up to 600 kW (`catalog.rack_power`). What current "
            "does that draw at 800 V DC, in amperes?",
            lambda: catalog.rack_power("Rubin Ultra NVL576 (Kyber)").power_w / catalog.DISTRIBUTION_VOLTS["800 VDC"],
            unit="A", hint="I = P / V."),
    choice("ch10.q1", "PUE",
           "A PUE of 1.3 means ...",
           ["the facility draws 1.3 W for each watt the IT equipment uses", "30 % of the IT power is wasted "
            "in the GPUs", "the cooling uses 1.3 W per watt of IT"], "a"),
    choice("ch10.q2", "Copper and optics",
           "Over a few metres inside a rack, which link end uses the least energy per bit?",
           ["passive copper (DAC)", "a pluggable single-mode optical module", "a multimode optical module"],
           "a", hint="A passive cable has no electronics of its own."),
    choice("ch10.q3", "Co-packaged optics",
           "Where do co-packaged optics save power against pluggable modules?",
           ["the laser uses no power", "the electrical path from switch chip to optics is millimetres, so "
            "retimers and long-reach SerDes go", "the fibre is shorter"], "b"),
    choice("ch10.q4", "Spare cores",
           "Why do spare cores raise the yield of a very large chip?",
           ["a defect then disables one core, not the whole die", "they lower the defect density",
            "they make the die smaller"], "a",
           hint="Compare `silicon.chip_yield` with and without `spare_cores`."),
    numeric("ch10.q5", "A smaller module",
            "An Ethernet 400G port's optical module draws an assumed 8 W. What is its energy per bit, one "
            "direction's traffic?",
            lambda: energy.energy_per_bit_j(8.0, catalog.link("Ethernet 400G").per_direction_bytes_per_s),
            unit="pJ/bit", scale=u.pJ),
]
