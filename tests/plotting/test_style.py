"""``interconnect_lab.plotting.style``: the palette, figures that pyplot does not track, no global settings."""

import pytest

pytest.importorskip("matplotlib")

import matplotlib as mpl

from interconnect_lab.plotting.style import COLORS, PALETTE, STYLE, new_figure, styled, text_width_in, time_unit


def test_every_meaning_has_a_palette_colour():
    assert set(COLORS.values()) <= set(PALETTE.values())


def test_styled_applies_the_style_only_while_drawing():
    before = dict(mpl.rcParams)
    seen = {}

    @styled
    def draw():
        seen["font"] = mpl.rcParams["font.size"]
        return new_figure(2.0, 1.0)

    figure, ax = draw()
    assert seen["font"] == STYLE["font.size"]
    assert dict(mpl.rcParams) == before
    assert tuple(figure.get_size_inches()) == (2.0, 1.0)


@pytest.mark.parametrize(("seconds", "unit"), [(3.0, ("s", 1.0)), (0.0042, ("ms", 1e-3)),
                                               (2e-6, ("µs", 1e-6)), (5e-9, ("ns", 1e-9)), (1e-12, ("ns", 1e-9))])
def test_time_unit_keeps_the_largest_value_readable(seconds, unit):
    assert time_unit(seconds) == unit


def test_text_width_grows_with_the_text_and_the_font():
    assert text_width_in("abcd", 10) == pytest.approx(2 * text_width_in("ab", 10))
    assert text_width_in("ab", 20) == pytest.approx(2 * text_width_in("ab", 10))
