"""Tests of interconnect_lab.calibrate, one file per module."""
