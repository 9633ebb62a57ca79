"""Fixtures shared by the tests of every module."""

import warnings

import pytest


@pytest.fixture
def warnings_are_errors():
    """Any warning (a numpy overflow, a division by zero) fails the test: hostile input must meet an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield
