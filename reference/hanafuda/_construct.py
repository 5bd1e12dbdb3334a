"""Frozen dataclass instances built without their ``__init__``.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, which costs more than
the rest of a hot step (a copy of the match after each action, a pile's score). For dataclasses with no
``__post_init__`` checks and no slots, filling the instance's ``__dict__`` gives an equal object. The
bypass lives here, once, so that the modules that use it stay plain dataclass code.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["blank", "evolve", "new"]

T = TypeVar("T")

_new = object.__new__


def new(cls: type[T], /, **fields: object) -> T:
    """``cls(**fields)`` without ``cls.__init__``: every field must be given (defaults are not applied)."""
    obj = _new(cls)
    obj.__dict__.update(fields)
    return obj


def blank(cls: type[T], /) -> tuple[T, dict[str, object]]:
    """An instance of ``cls`` with no fields set yet, and its ``__dict__`` to set them in (the cheapest
    construction, for the hottest paths: a pile's score)."""
    obj = _new(cls)
    return obj, obj.__dict__


def evolve(obj: T, **changes: object) -> T:
    """A copy of a frozen dataclass instance with some fields changed: ``dataclasses.replace``
    without re-running ``__init__`` (the hot path of random play). Only for dataclasses without
    ``__post_init__`` checks or slots; memoised values are not copied."""
    copy = _new(type(obj))
    d = copy.__dict__
    d.update(obj.__dict__)
    d.pop("_legal_actions", None)
    d.update(changes)
    return copy
