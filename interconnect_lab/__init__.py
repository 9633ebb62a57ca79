"""Interconnect Lab: the model behind the book on AI-cluster networks.

The model modules hold plain functions over base-SI floats and numpy arrays
(see :mod:`interconnect_lab.units`) and frozen result objects:

{modules}

Figures live in :mod:`interconnect_lab.plotting` and interactive panels in
:mod:`interconnect_lab.widgets`; import those explicitly (they need matplotlib
and ipywidgets, which the model does not).
"""

# Every submodule and re-exported name is imported when first used (PEP 562), so
# ``import interconnect_lab`` costs a few milliseconds and ``from interconnect_lab
# import catalog`` loads only the catalog and what it needs. What is offered, and from
# where, is the one table in _api.py: to export a name, add it there.

import importlib as _importlib

from . import _api

if __doc__:  # None under python -OO
    __doc__ = __doc__.format(modules="\n".join(
        f"- :mod:`~interconnect_lab.{module}` — {_api.MODULES['interconnect_lab.' + module][0]}"
        for module in _api.TOP_LEVEL))

#: Submodules, imported on first use.
_SUBMODULES = frozenset(_api.TOP_LEVEL)

#: Names re-exported here, by the submodule that defines them, imported on first use.
_EXPORTS = {module: list(names) for module, names in _api.TOP_LEVEL.items() if names}
_ORIGIN = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name):
    """Import a submodule or a re-exported name the first time it is used."""
    if name in _SUBMODULES:
        return _importlib.import_module(f".{name}", __name__)
    if name in _ORIGIN:
        value = getattr(_importlib.import_module(f".{_ORIGIN[name]}", __name__), name)
        globals()[name] = value
        return value
    # Names renamed in this release still answer, with a DeprecationWarning (_deprecation.RENAMED_NAMES).
    from ._deprecation import renamed_attribute

    return renamed_attribute(__name__, name)


def __dir__():
    return sorted(set(globals()) | _SUBMODULES | set(_ORIGIN))


__version__ = "0.1.0"

__all__ = _api.top_level_names()
