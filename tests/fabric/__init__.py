"""Tests of interconnect_lab.fabric, one file per module."""
