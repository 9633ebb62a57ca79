"""One way to take a GPU, link, model, cluster, stack ... by name or as an object.

Every public function that accepts "a catalog GPU or its name" (or a link, a
model, a cluster, a training stack, a plan ...) goes through :func:`resolve`,
so all of them accept the same things and refuse the rest with the same
messages: a wrong type is a ``TypeError`` naming the parameter, the type
expected and the valid names; an unknown name is a ``ValueError`` listing the
valid names and suggesting the closest (:func:`~interconnect_lab._validation.check_choice`).
"""

from __future__ import annotations

from ._validation import check_choice

__all__ = ["resolve"]


def resolve(parameter, value, cls, names, lookup=None):
    """``value`` if it is a ``cls``; the object it names if it is a name; otherwise an error.

    Parameters
    ----------
    parameter : str
        What the caller calls the value (``"gpu"``, ``"scale_up_link"``, ``"cluster"``), for the messages.
    value : cls or str
        The object, or its name.
    cls : type or tuple of type
        What an object must be.
    names : Mapping or Iterable of str
        The valid names (a table keyed by name), listed in the messages.
    lookup : callable, optional
        ``name -> object`` for names that are not simply keys of ``names`` (a table of
        variants to try first, or a builder); it raises its own ``ValueError`` for an
        unknown name. By default ``names[value]``, after :func:`check_choice`.

    Returns
    -------
    cls

    Examples
    --------
    >>> from interconnect_lab import catalog
    >>> resolve("gpu", "H100 SXM", catalog.GPU, catalog.GPUS).name
    'H100 SXM'
    >>> resolve("gpu", 7, catalog.GPU, {"H100 SXM": None, "H200 SXM": None})
    Traceback (most recent call last):
    ...
    TypeError: gpu must be a GPU or the name of one ('H100 SXM', 'H200 SXM'); got 7 (int)
    >>> resolve("gpu", "H300 SXM", catalog.GPU, {"H100 SXM": None, "H200 SXM": None})
    Traceback (most recent call last):
    ...
    ValueError: unknown gpu name 'H300 SXM'; valid gpu names are: 'H100 SXM', 'H200 SXM'; did you mean 'H200 SXM' or 'H100 SXM'?
    """
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        if lookup is not None:
            return lookup(value)
        check_choice(f"{parameter} name", value, names)
        return names[value]
    expected = " or ".join(c.__name__ for c in cls) if isinstance(cls, tuple) else cls.__name__
    article = "an" if expected[:1] in "AEIOU" else "a"
    listed = ", ".join(map(repr, names))
    raise TypeError(f"{parameter} must be {article} {expected} or the name of one ({listed}); "
                    f"got {value!r} ({type(value).__name__})")
