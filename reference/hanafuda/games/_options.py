"""The rules objects' readings of their options, declared once: a flag (an option has one value), a
number (an option's value read as an int) or a member (an option's value as its catalogue enum), each
computed once per rules object, the first time a step reads it, with a docstring naming the rule it
decides. A game's rules class lists them as a table::

    must_capture = flag(spec.Discard.MUST_CAPTURE, "KK-CAP-5: no non-capturing play while a capture is possible")
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from typing import TypeVar

from hanafuda.engine import RulesOptions

__all__ = ["flag", "member", "number"]

E = TypeVar("E", bound=enum.StrEnum)
T = TypeVar("T")


def _reading(doc: str, read: Callable[[RulesOptions], T]) -> functools.cached_property[T]:
    read.__doc__ = doc
    return functools.cached_property(read)


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
