"""Deprecated aliases of moved modules and renamed names, kept for one release (as QuantEcon.py does).

A moved module leaves a small module at its old path that calls :func:`warn_moved`
and re-exports the new module's names; a renamed name is served by the module's
``__getattr__`` from :func:`renamed_attributes`, which warns on every access.
Nothing in the library, the tests or the book uses either.
"""

from __future__ import annotations

import warnings


def warn_moved(old: str) -> None:
    """Warn, from the module ``old`` as it is imported, where its names live now (:data:`MOVED_MODULES`)."""
    new = MOVED_MODULES[old]
    # stacklevel 3: past this function and the old module, to the import statement that named it
    # (Python skips the import machinery's own frames).
    warnings.warn(f"{old} is deprecated and will be removed in the next release: import from {new} instead",
                  DeprecationWarning, stacklevel=3)


def renamed_attributes(module: str, renamed: dict[str, str], namespace: dict):
    """A module ``__getattr__`` that serves each old name in ``renamed`` (old -> new) with a warning.

    Examples
    --------
    >>> import warnings
    >>> getattr_ = renamed_attributes("example", {"old": "new"}, {"new": 42})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = getattr_("old")
    >>> value, str(caught[0].message)
    (42, 'example.old is deprecated and will be removed in the next release: use example.new instead')
    """

    def __getattr__(name):
        if name in renamed:
            new = renamed[name]
            warnings.warn(f"{module}.{name} is deprecated and will be removed in the next release: "
                          f"use {module}.{new} instead", DeprecationWarning, stacklevel=2)
            return namespace[new]
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


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
