"""Deprecated aliases of moved modules and renamed or replaced names, kept for one release (as QuantEcon.py does).

A moved module leaves a small module at its old path that calls :func:`warn_moved`
and re-exports the new module's names (:data:`MOVED_MODULES`); a renamed name is
served, with a warning on every access, by the ``__getattr__`` of the modules that
held it, through :func:`renamed_attribute` (:data:`RENAMED_NAMES`), and so is a
name replaced by another way of doing the same thing, which lives on under a private
name (:data:`REPLACED_NAMES`); a renamed keyword argument is accepted, with a
warning, by :func:`renamed_parameters`. Nothing in the library, the tests or the
book uses any of them.
"""

from __future__ import annotations

import functools
import importlib
import sys
import warnings


def warn_moved(old: str) -> None:
    """Warn, from the module ``old`` as it is imported, where its names live now (:data:`MOVED_MODULES`)."""
    new = MOVED_MODULES[old]
    # stacklevel 3: past this function and the old module, to the import statement that named it
    # (Python skips the import machinery's own frames).
    warnings.warn(f"{old} is deprecated and will be removed in the next release: import from {new} instead",
                  DeprecationWarning, stacklevel=3)


#: Modules that moved, by old name, with where their names live now; each old module stays
#: importable (with a warning) for one release.
MOVED_MODULES = {
    "interconnect_lab.moe_models": "interconnect_lab.moe",
    "interconnect_lab.collectives_reference": "interconnect_lab.collectives.reference",
    "interconnect_lab.plotting.fidelity": "interconnect_lab.plotting.matmul and .training",
    "interconnect_lab.plotting.links": "interconnect_lab.plotting.catalog",
    "interconnect_lab.plotting.multipath": "interconnect_lab.plotting.fabric",
    "interconnect_lab.plotting.nvlink": "interconnect_lab.plotting.catalog, .topology and .training",
    "interconnect_lab.plotting.power": "interconnect_lab.plotting.energy and .silicon",
    "interconnect_lab.plotting.topologies": "interconnect_lab.plotting.topology and .roadmap",
    "interconnect_lab.widgets.multipath": "interconnect_lab.widgets.fabric",
    "interconnect_lab.widgets.nvlink": "interconnect_lab.widgets.training",
    "interconnect_lab.widgets.power": "interconnect_lab.widgets.energy",
    "interconnect_lab.widgets.topologies": "interconnect_lab.widgets.topology and .roadmap",
}

_FABRIC_RENAMES = {
    "CollectiveResult": "SimulatedCollective", "collective_time": "simulate_collective",
    "ring_all_reduce": "ring_all_reduce_traffic", "hierarchical_all_reduce": "hierarchical_all_reduce_traffic",
}

#: Public names that meant two things, by module: old name -> new name. The old name still
#: answers, with a warning, for one release.
RENAMED_NAMES = {
    "interconnect_lab": {"CollectiveResult": "CollectivePerformance"},
    "interconnect_lab.collectives": {"CollectiveResult": "CollectivePerformance"},
    "interconnect_lab.collectives.model": {"CollectiveResult": "CollectivePerformance"},
    "interconnect_lab.fabric": _FABRIC_RENAMES,
    "interconnect_lab.fabric.simulation": {old: new for old, new in _FABRIC_RENAMES.items()
                                           if old in ("CollectiveResult", "collective_time")},
    "interconnect_lab.fabric.traffic": {old: new for old, new in _FABRIC_RENAMES.items() if old.endswith("all_reduce")},
}


_CALIBRATE_COMPARE = "interconnect_lab.calibrate.compare_with_model"

_CALIBRATE_REPLACED = {
    "compare_bus_bandwidth": ("interconnect_lab.calibrate.fit", "compare_bus_bandwidth_as_catalog", _CALIBRATE_COMPARE),
    "BusBandwidthComparison": ("interconnect_lab.calibrate.fit", "_BusBandwidthComparison",
                               "interconnect_lab.calibrate.ModelComparison"),
    "reference_parameters": ("interconnect_lab.calibrate.workflow", "_reference_parameters",
                             "interconnect_lab.calibrate.run_system and " + _CALIBRATE_COMPARE),
    "REFERENCES": ("interconnect_lab.calibrate.workflow", "_REFERENCES",
                   "a machine: interconnect_lab.calibrate.shipped_system or "
                   "interconnect_lab.collectives.system.collective_system"),
}

#: Public names replaced by another way of doing the same thing, by module: old name ->
#: (module that holds it now, its private name there, what to use instead). Calibration
#: compared a log with a catalog link's α-β prediction; it now compares it with the
#: collective model for the log's machine. The old name still answers, with a warning,
#: for one release.
REPLACED_NAMES = {
    "interconnect_lab.calibrate": dict(_CALIBRATE_REPLACED),
    "interconnect_lab.calibrate.fit": {old: _CALIBRATE_REPLACED[old]
                                       for old in ("compare_bus_bandwidth", "BusBandwidthComparison")},
    "interconnect_lab.calibrate.workflow": {old: _CALIBRATE_REPLACED[old]
                                            for old in ("reference_parameters", "REFERENCES")},
}


_MOE_LEGACY = {
    "COMMUNICATION_PATHS": ("interconnect_lab.moe._legacy",
                            "interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS (choose a kernel by name)"),
    "communication_path": ("interconnect_lab.moe._legacy", "interconnect_lab.collectives.expert_parallel_kernel"),
    "CommunicationPath": ("interconnect_lab.moe._legacy", "interconnect_lab.collectives.ExpertParallelKernel"),
}

#: Public names retired without a same-meaning successor, by module: old name -> (the private module
#: that still holds it, what to use instead). The old name still answers, with a warning, for one release.
DEPRECATED_NAMES = {
    "interconnect_lab.moe": _MOE_LEGACY,
    "interconnect_lab.moe.traffic": _MOE_LEGACY,
}


def deprecated_attribute(module: str, name: str):
    """The retired ``name`` of ``module``, with a warning; a renamed one (:func:`renamed_attribute`) otherwise.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     paths = deprecated_attribute("interconnect_lab.moe", "COMMUNICATION_PATHS")
    >>> sorted(paths)
    ['GPU-initiated (IBGDA)', 'host-initiated (NCCL)']
    >>> print(caught[0].message)
    interconnect_lab.moe.COMMUNICATION_PATHS is deprecated and will be removed in the next release: use interconnect_lab.collectives.EXPERT_PARALLEL_KERNELS (choose a kernel by name) instead
    """
    retired = DEPRECATED_NAMES.get(module, {}).get(name)
    if retired is None:
        return renamed_attribute(module, name)
    holder, advice = retired
    warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release: use {advice} instead",
                  DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(holder), name)


def renamed_attribute(module: str, name: str):
    """``module``'s new name for the old ``name``, with a warning; AttributeError if ``name`` was not renamed.

    A replaced name (:data:`REPLACED_NAMES`) answers the same way, with the object
    it now is under its private name and a warning that says what to use instead.

    A module whose names were renamed ends with::

        def __getattr__(name):
            return renamed_attribute(__name__, name)

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = renamed_attribute("interconnect_lab.collectives", "CollectiveResult")
    >>> result.__name__
    'CollectivePerformance'
    >>> print(caught[0].message)
    interconnect_lab.collectives.CollectiveResult is deprecated and will be removed in the next release: use interconnect_lab.collectives.CollectivePerformance instead
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = renamed_attribute("interconnect_lab.calibrate", "compare_bus_bandwidth")
    >>> result.__name__
    'compare_bus_bandwidth_as_catalog'
    >>> print(caught[0].message)
    interconnect_lab.calibrate.compare_bus_bandwidth is deprecated and will be removed in the next release: use interconnect_lab.calibrate.compare_with_model instead
    """
    new = RENAMED_NAMES.get(module, {}).get(name)
    if new is None:
        replaced = REPLACED_NAMES.get(module, {}).get(name)
        if replaced is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home, private, instead = replaced
        warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release: use {instead} instead",
                      DeprecationWarning, stacklevel=3)
        return getattr(importlib.import_module(home), private)
    warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release: use {module}.{new} instead",
                  DeprecationWarning, stacklevel=3)
    return getattr(sys.modules.get(module) or importlib.import_module(module), new)


def renamed_parameters(**renamed):
    """Decorator: accept each old keyword ``old=new`` for one release, with a warning, as ``new``.

    The signature (``inspect.signature``) and the docstring show only the new names.

    Examples
    --------
    >>> import warnings
    >>> @renamed_parameters(cluster_="cluster")
    ... def gpus(cluster):
    ...     return cluster
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     gpus(cluster_=8)
    8
    >>> print(caught[0].message)
    gpus(cluster_=...) is deprecated and will be removed in the next release: use gpus(cluster=...) instead
    """

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            for old, new in renamed.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{function.__name__}() got both {old!r} (deprecated) and {new!r}: "
                                        f"pass only {new!r}")
                    warnings.warn(f"{function.__name__}({old}=...) is deprecated and will be removed in the next "
                                  f"release: use {function.__name__}({new}=...) instead", DeprecationWarning,
                                  stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        return wrapper

    return decorate
