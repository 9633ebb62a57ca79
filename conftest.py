"""pytest configuration for the whole repository: the tests, the library's doctests and the notebooks."""

from interconnect_lab._deprecation import MOVED_MODULES

# The deprecated aliases of moved modules warn when imported and hold no doctests of their own;
# collecting them would only import them (tests/test_deprecations.py imports each on purpose).
collect_ignore = [old.replace(".", "/") + ".py" for old in MOVED_MODULES]
