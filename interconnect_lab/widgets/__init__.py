"""Interactive panels (ipywidgets) for the book's chapters.

Thin wiring only: each panel calls tested model functions and plotting
functions. Display a panel by making it the last expression of a cell.
"""

from .panel import Panel
from .utilization import StepTimePanel

__all__ = ["Panel", "StepTimePanel"]
