"""Tests of interconnect_lab.published, one file per module."""
