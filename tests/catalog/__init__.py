"""Tests of interconnect_lab.catalog, one file per module."""
