"""The rules objects' readings of their options, declared once: a flag (an option has one value), a
number (an option's value read as an int) or a member (an option's value as its catalogue enum), each
computed once per rules object, the first time a step reads it, with a docstring naming the rule it
decides. A game's rules class lists them as a table::

    must_capture = flag(spec.Discard.MUST_CAPTURE, "KK-CAP-5: no non-capturing play while a capture is possible")

Under :func:`plain` a frozen dataclass computes its readings when it is made, into instance attributes
(CPython 3.11 specialises no read of a name that is a descriptor of the class: a cached property).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable
from typing import Any, TypeVar

from hanafuda.engine import RulesOptions

__all__ = ["Reading", "fill", "flag", "member", "number", "plain"]

E = TypeVar("E", bound=enum.StrEnum)
T = TypeVar("T")
C = TypeVar("C", bound=type)


class Reading(functools.cached_property[T]):
    """A reading of the rules, a cached property or under :func:`plain` a field; as a decorator, a hook (a
    subclass may answer otherwise with a property of the same name)."""


def _reading(doc: str, read: Callable[[RulesOptions], T]) -> Reading[T]:
    read.__doc__ = doc
    return Reading(read)


def flag(value: enum.StrEnum, doc: str, *, unless: bool = False) -> functools.cached_property[bool]:
    """Whether the option whose values are ``value``'s enum has the value ``value`` (with ``unless``: any
    other value)."""
    kind = type(value)
    return _reading(doc, lambda rules: (rules.value(kind) is value) is not unless)


def number(kind: type[enum.StrEnum], doc: str) -> functools.cached_property[int]:
    """The value of the option whose values are ``kind``, as a number."""
    return _reading(doc, lambda rules: int(rules.value(kind)))


def member(kind: type[E], doc: str) -> functools.cached_property[E]:
    """The value of the option whose values are ``kind``, as the catalogue's enum member."""
    return _reading(doc, lambda rules: rules.value(kind))


def plain(cls: C) -> C:
    """The class's :class:`Reading` attributes made fields of the dataclass it then becomes (not
    parameters, not compared), which :func:`fill` computes from ``__post_init__``."""
    notes = cls.__annotations__
    for name, value in list(vars(cls).items()):
        if isinstance(value, Reading):
            notes[name] = Any
            setattr(cls, name, dataclasses.field(init=False, repr=False, compare=False,
                                                 metadata={"read": value.func, "doc": value.__doc__}))
    return cls


def fill(rules: Any) -> None:
    """Compute the :func:`plain` readings of ``rules`` (a subclass's property of the same name still answers
    its reads: a deviation's hook)."""
    for f in dataclasses.fields(rules):
        read = f.metadata.get("read")
        if read is not None:
            rules.__dict__[f.name] = read(rules)
