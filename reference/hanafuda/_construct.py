"""Frozen dataclass instances built without their ``__init__``.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, which costs more than
the rest of a hot step (a copy of the match after each action, a pile's score). For dataclasses with no
``__post_init__`` checks and no slots, filling the instance's ``__dict__`` gives an equal object. The
bypass lives here, once, so that the modules that use it stay plain dataclass code.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

__all__ = ["HELD", "LINK", "SOURCE", "Deferred", "Held", "deferrable", "deferred_builder", "dict_init", "evolve",
           "filled", "new", "pair_builder", "replayed"]

T = TypeVar("T")

_new = object.__new__


def new(cls: type[T], /, **fields: object) -> T:
    """``cls(**fields)`` without ``cls.__init__``: every field must be given (defaults are not applied)."""
    obj = _new(cls)
    obj.__dict__.update(fields)
    return obj


def filled(cls: type[T], fields: Mapping[str, object], /, **changed: object) -> T:
    """``cls`` with the field values of ``fields`` (another instance's ``__dict__``, or a dict of them) and
    ``changed`` over them, without ``cls.__init__``: :func:`dataclasses.replace` for the hot paths."""
    obj = _new(cls)
    values = obj.__dict__
    values.update(fields)
    values.update(changed)
    return obj


def pair_builder(cls: type[T], first: str, second: str, /) -> Callable[[object, object], T]:
    """A function making ``cls(a, b)`` for a dataclass of the two fields ``first`` and ``second``, without
    ``cls.__init__`` (the cheapest construction, one call, for the hottest paths: a pile's score)."""
    def build(a: object, b: object, /) -> T:
        obj = _new(cls)
        fields = obj.__dict__
        fields[first], fields[second] = a, b
        return obj
    return build


def evolve(obj: T, **changes: object) -> T:
    """A copy of a frozen dataclass instance with some fields changed: ``dataclasses.replace``
    without re-running ``__init__`` (the hot path of random play). Only for dataclasses without
    ``__post_init__`` checks or slots; memoised values are not copied."""
    if SOURCE in obj.__dict__ or LINK in obj.__dict__:  # a deferred instance: its fields first (its source may
        Deferred._fill(obj)  # type: ignore[arg-type]  # change later)
    copy = _new(type(obj))
    d = copy.__dict__
    d.update(obj.__dict__)
    d.pop("_legal_actions", None)
    d.pop(HELD, None)
    d.update(changes)
    return copy


class _Source(Protocol):
    def state(self) -> Any: ...


class _Round(_Source, Protocol):
    def copy(self) -> Any: ...

    def play(self, action: Any, /) -> None: ...


class _Game(Protocol):
    def held_round(self, state: Any, /) -> _Round: ...


#: The key, in a deferred instance's ``__dict__``, of the object its missing fields come from.
SOURCE = "_source"
#: The key, in an instance's ``__dict__``, of the object it holds (a :class:`Held`): for a game's position,
#: the round at that position (``hanafuda.engine.RoundGame.held_round``).
HELD = "_held_round"
#: The key, in a deferred instance's ``__dict__``, of the way back to its source once that source has moved on
#: (:func:`replayed`): ``(game, previous, action)``, the instance being ``game``'s position after ``action`` from
#: position ``previous``.
LINK = "_link"


def replayed(link: tuple[_Game, Any, Any]) -> Any:
    """The source of a deferred position whose own source has moved on (played further in place), built again
    from its :data:`LINK`: the round of the position before (``game.held_round(previous)``, itself replayed
    where needed), copied, with the action played on the copy."""
    game, previous, action = link
    r = game.held_round(previous).copy()
    r.play(action)
    return r


class Held(list[Any]):
    """What an instance holds (:data:`HELD`): a one-item list (built in C), which pickles and copies as an empty
    one, so that a copy of the instance never shares the object held."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type[Held], tuple[()]]:
        return Held, ()


class Deferred:
    """A mixin for a frozen dataclass some of whose instances are made by a :func:`deferred_builder`: a few
    fields given, the others read on first use (all at once) from ``source.state()``, a complete instance of
    the class; the source is then kept as what the instance holds (:data:`HELD`). Until then the instance
    costs one small dictionary to make. Where the source has moved on since, the instance's :data:`LINK`
    builds it again (:func:`replayed`). The class is decorated with :func:`deferrable`. Equality, ``repr``,
    hashing, :func:`dataclasses.replace` and pickling read the fields, so they see a complete instance."""

    __slots__ = ()

    def _fill(self) -> None:
        """Read the missing fields in from the source (nothing once done)."""
        d = self.__dict__
        source, link = d.pop(SOURCE, None), d.pop(LINK, None)
        if source is None and link is not None:
            source = replayed(link)
        if source is not None:
            full = source.state().__dict__  # a fresh instance's, dropped after
            full.update(d)  # the fields given and any memo kept
            d.update(full)
            if HELD not in d:
                d[HELD] = Held((source,))

    def __getstate__(self) -> dict[str, Any]:
        self._fill()
        d = dict(self.__dict__)
        d.pop(HELD, None)  # a copy holds its own round, built when asked
        return d


class _Field:
    """A field of a :class:`Deferred` class (:func:`deferrable`): read from the source when an instance does not
    hold it yet. It defines no ``__set__``, so the value an instance holds is found first."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Deferred | None, owner: type | None = None) -> Any:
        if obj is None:
            return self
        obj._fill()
        found = obj.__dict__.get(self.name, self)
        if found is self:
            raise AttributeError(f"{type(obj).__name__!r} object has no attribute {self.name!r}")
        return found


def deferrable(cls: type[T]) -> type[T]:
    """Class decorator, above ``@dataclass`` on a :class:`Deferred` class: the class attributes that hold the
    fields' defaults (``__init__`` keeps them) become :class:`_Field` descriptors, so that a deferred instance
    reads every field it was not given from its source."""
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        setattr(cls, f.name, _Field(f.name))
    return cls


def deferred_builder(cls: type[T], first: str, second: str, /) -> Callable[[_Source], T]:
    """A function making a deferred instance of ``cls`` (a :class:`Deferred` dataclass) in one call,
    ``build(source)``: it holds the fields ``first`` and ``second``, read from ``source``'s attributes of those
    names; its other fields are those of ``source.state()``, built on first use (``source`` must not change
    until then, or the instance must be given a :data:`LINK` back to it first). It serves as a round's
    ``position`` method: a position made on every action of a match."""
    read = operator.attrgetter(first, second)

    def build(source: _Source, /) -> T:
        obj = _new(cls)
        fields = obj.__dict__
        fields[first], fields[second] = read(source)
        fields[SOURCE] = source
        return obj
    return build


def dict_init(cls: type[T]) -> type[T]:
    """Class decorator, above ``@dataclass(frozen=True)``: the class's ``__init__`` (same parameters, same
    defaults) stores each field straight into the instance's ``__dict__`` instead of calling
    ``object.__setattr__`` once per field, for the values built once a round (the setup, the result, the
    match info). Only for dataclasses without slots, ``__post_init__``, default factories, keyword-only
    or non-``__init__`` fields (refused)."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__}: dict_init needs no __post_init__ and no __slots__")
    params, lines, env = [], [], {}
    for f in fields:
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: dict_init takes plain positional fields only")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        lines.append(f"    d[{f.name!r}] = {f.name}")
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, {', '.join(params)}):\n    d = self.__dict__\n" + "\n".join(lines),
         env, namespace)
    init = namespace["__init__"]
    init.__qualname__, init.__module__ = f"{cls.__qualname__}.__init__", cls.__module__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
