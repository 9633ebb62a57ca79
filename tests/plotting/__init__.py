"""Tests of interconnect_lab.plotting, one file per module."""
