"""Tests of interconnect_lab.exercises, one file per module."""
