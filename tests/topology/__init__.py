"""Tests of interconnect_lab.topology, one file per module."""
