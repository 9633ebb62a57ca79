"""Tests of interconnect_lab.inference, one file per module."""
