"""Tests of interconnect_lab.training, one file per module."""
