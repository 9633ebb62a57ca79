"""Modules imported when first used, so that ``import interconnect_lab`` stays fast.

SciPy's ``stats`` and ``sparse`` take most of a second to import and only the
flow-level simulator and the collision model need them; the model modules name
them through :func:`lazy_module` and pay the import on first use.
"""

from __future__ import annotations

import importlib


class _LazyModule:
    """Stands in for a module and imports it at the first attribute looked up."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attribute):
        module = importlib.import_module(self._name)
        return getattr(module, attribute)

    def __repr__(self):
        return f"<module {self._name!r}, imported on first use>"


def lazy_module(name):
    """A stand-in for the module ``name`` that imports it on first use.

    Examples
    --------
    >>> sparse = lazy_module("scipy.sparse")
    >>> sparse.csr_matrix([[1.0, 0.0]]).nnz
    1
    """
    return _LazyModule(name)
