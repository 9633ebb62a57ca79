"""Tests of interconnect_lab.widgets, one file per module."""
