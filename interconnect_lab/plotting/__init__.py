"""Plotting: figures for the book, built from model results.

Imports matplotlib; the model modules never import this package.
"""

from .style import COLORS, PALETTE, new_figure, styled
from .utilization import ablation_plot, step_breakdown_plot, step_time_plot

__all__ = ["PALETTE", "COLORS", "new_figure", "styled", "step_time_plot", "step_breakdown_plot", "ablation_plot"]
