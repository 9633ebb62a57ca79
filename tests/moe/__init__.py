"""Tests of interconnect_lab.moe, one file per module."""
