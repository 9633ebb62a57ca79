"""Names calibration had while it compared logs with the per-link α-β model, kept one release.

Calibration now compares a log with the collective model
(:func:`~interconnect_lab.calibrate.comparison.compare_with_model`). The
comparison with a catalog link's α-β prediction it replaced answers for one
more release, as QuantEcon.py keeps a renamed name: each old public name is
served by the ``__getattr__`` of the modules that held it, through
:func:`deprecated_attribute`, which warns on every access. Nothing in the
library, the tests (but the one that checks the warning) or the book uses them.
"""

from __future__ import annotations

import importlib
import warnings

_COMPARE = "interconnect_lab.calibrate.compare_with_model"

#: Old public name -> (module holding it now, its private name there, what to use instead).
DEPRECATED = {
    "compare_bus_bandwidth": ("interconnect_lab.calibrate.fit", "_compare_bus_bandwidth", _COMPARE),
    "BusBandwidthComparison": ("interconnect_lab.calibrate.fit", "_BusBandwidthComparison",
                               "interconnect_lab.calibrate.ModelComparison"),
    "reference_parameters": ("interconnect_lab.calibrate.workflow", "_reference_parameters",
                             "interconnect_lab.calibrate.run_system and " + _COMPARE),
    "REFERENCES": ("interconnect_lab.calibrate.workflow", "_REFERENCES",
                   "a machine: interconnect_lab.calibrate.shipped_system or "
                   "interconnect_lab.collectives.system.collective_system"),
}

#: The old names each module held.
HELD_BY = {
    "interconnect_lab.calibrate": tuple(DEPRECATED),
    "interconnect_lab.calibrate.fit": ("compare_bus_bandwidth", "BusBandwidthComparison"),
    "interconnect_lab.calibrate.workflow": ("reference_parameters", "REFERENCES"),
}


def deprecated_attribute(module: str, name: str):
    """The object the old ``module.name`` now is, with a DeprecationWarning; AttributeError if none.

    A module that held old names ends with::

        def __getattr__(name):
            return deprecated_attribute(__name__, name)

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     function = deprecated_attribute("interconnect_lab.calibrate", "compare_bus_bandwidth")
    >>> function.__name__
    '_compare_bus_bandwidth'
    >>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    interconnect_lab.calibrate.compare_bus_bandwidth is deprecated and will be removed in the next release:
    use interconnect_lab.calibrate.compare_with_model instead
    """
    if name not in HELD_BY.get(module, ()):
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    where, private, instead = DEPRECATED[name]
    warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release: use {instead} instead",
                  DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(where), private)
