"""Tests of interconnect_lab.collectives, one file per module."""
