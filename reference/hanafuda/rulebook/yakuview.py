"""Each game's yaku (or dekiyaku) data, read into one shape for the rulebooks.

The yaku are declared once, in the game's spec module, and the reference scores with that same
data; the rulebooks read it here. A spec module offers its yaku in one of these ways (checked in
this order):

1. a function ``yaku_table(values, ...)`` returning the rows for resolved option values
   (Koi-Koi: ``yaku_table(values, month)``); parameters other than the option values get a
   neutral argument (``month=1``);
2. module-level tuples (or lists) of rows, for games whose table does not depend on options.

A row is a :class:`~hanafuda_spec.yaku.YakuDef`, or any object with ``id`` and ``name`` and
card-id sets as attributes (a game with its own data shape); its pictures are the cards of
those sets. The table is read for the default ruleset and for every option set ``hanafuda
verify`` covers, so a yaku that exists only under some option appears too, with that option.

>>> views = game_yaku("koikoi")
>>> [v.id for v in views if v.option == ""][:2]
['five-brights', 'four-brights']
>>> views[0].cards
(10, 30, 80, 110, 120)
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeGuard

from hanafuda_spec.cards import DAINI_JIZO, HANAFUDA, BaseCard, Card, DainiCard, Kind
from hanafuda_spec.games import spec_for
from hanafuda_spec.yaku import YakuDef

__all__ = ["YakuView", "card_difference", "card_word", "describe", "display_names", "game_yaku", "worded"]


@dataclass(frozen=True)
class YakuView:
    """One yaku as the rulebook shows it.

    ``option`` is empty for the default ruleset's table, else the ruleset or option value
    (``"viewing=need-other"``) under which this row first appears.
    """

    id: str
    name: str
    name_ja: str
    points: str
    cards: tuple[int, ...]
    condition: str
    rule: str | None
    group: str | None
    option: str
    key: str = ""

    @property
    def label(self) -> str:
        """What makes this entry unique in its game: the id, or the id and the option for a variant
        row with the same id (Kujuroku's dekiyaku configurations)."""
        return self.key or self.id


def _ids(value: object) -> tuple[int, ...] | None:
    """Card ids if ``value`` is a set or sequence of ints (or of cards), else None."""
    if isinstance(value, (frozenset, set, tuple, list)) and value:
        out: list[int] = []
        for v in value:
            if isinstance(v, bool):
                return None
            if isinstance(v, int):
                out.append(v)
            elif isinstance(getattr(v, "id", None), int) and hasattr(v, "slug"):
                out.append(v.id)
            else:
                return None
        return tuple(sorted(set(out)))
    return None


def card_word(cid: int, daini: bool = False) -> str:
    """A card as the rulebooks name it in a sentence: what it shows (``the Rain Man``), or its
    plant's name for a Chaff (``Pine Chaff``), or its Daini name.

    >>> card_word(110), card_word(12), card_word(0, daini=True)
    ('the Rain Man', 'Pine Chaff', 'the Oni-fuda')
    """
    if daini:
        c: BaseCard = DAINI_JIZO.by_id(cid)
        name = c.name_en.split(" (")[0]
        return f"the {name}" if isinstance(c, DainiCard) and c.is_joker else name
    c = HANAFUDA.by_id(cid)
    name = c.name_en.split(" (")[0]
    if " with " in name:
        return "the " + name.split(" with ", 1)[1]
    return name.replace("Yellow-bottom Chaff", "Chaff with the yellow band")


def _names(ids: Iterable[int], daini: bool = False) -> str:
    counted: dict[str, int] = {}
    for c in sorted(ids):
        w = card_word(c, daini)
        counted[w] = counted.get(w, 0) + 1
    words = [w if n == 1 else f"{n} {w}" for w, n in counted.items()]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


_KIND_WORD = {Kind.BRIGHT: "Bright", Kind.ANIMAL: "Animal", Kind.RIBBON: "Ribbon", Kind.CHAFF: "Chaff"}


def _each(ids: frozenset[int]) -> str:
    """What ``+1 for each ...`` counts: a kind of card when the set is all of one kind, else the cards."""
    cards = [HANAFUDA.by_id(c) for c in ids]
    kinds = {c.kind for c in cards if isinstance(c, Card)}
    if len(kinds) == 1:
        return _KIND_WORD[kinds.pop()]
    return f"card among {_names(ids)}"


def describe(y: YakuDef, daini: bool = False) -> str:
    """The condition of a :class:`YakuDef` in words, naming cards by what they show.

    >>> from hanafuda_spec.games.koikoi import yaku_table, KOIKOI
    >>> [describe(r) for r in yaku_table(KOIKOI.resolve(), 1)[2:4]]
    ['the Rain Man and any 3 of the other 4', 'any 3 of these 4; not with the Rain Man']
    """
    optional = set(y.pool) - set(y.required)
    k = max(0, y.need - len(y.pool & y.required))
    everything = len(y.pool | y.required)
    parts = []
    if k == 0 or k >= len(optional):
        parts.append("both of these" if everything == 2 else f"all {everything} of these")
    elif y.required:
        parts.append(f"{_names(y.required, daini)} and any {k} of the other {len(optional)}")
    else:
        parts.append(f"any {k} of these {len(optional)}")
    if y.forbidden:
        parts.append(f"not with {_names(y.forbidden, daini)}")
    if y.extra_pool:
        what = "card" if y.extra_pool == y.pool | y.required else _each(y.extra_pool)
        parts.append(f"+{y.extra} for each {what} beyond {y.extra_from}")
    if y.doubled:
        parts.append(f"{_names(y.doubled, daini)} count{'s' if len(y.doubled) == 1 else ''} twice")
    return "; ".join(parts)


def worded(text: str, cards: tuple[int, ...], daini: bool = False) -> str:
    """A condition written with card ids (a game's own row text), in words: the whole strip as
    ``all N of these``, any other id as the card's name.

    >>> worded("cards 10, 30, 80, 110, 120; stops the round", (10, 30, 80, 110, 120))
    'all 5 of these; stops the round'
    >>> worded("card 90 and one of 30, 31", (30, 31, 90))
    'the Sake Cup and one of the Curtain or the Poetry Ribbon'
    """
    def whole(m: re.Match[str]) -> str:
        ids = tuple(int(x) for x in re.findall(r"\d+", m[0]))
        if tuple(sorted(ids)) == tuple(sorted(cards)) and len(ids) > 1:
            return "both of these" if len(ids) == 2 else f"all {len(ids)} of these"
        return _names(ids, daini)

    text = re.sub(r"\bcards? \d+(?:, \d+)*", whole, text)

    def one_of(m: re.Match[str]) -> str:
        words = [card_word(int(x), daini) for x in re.findall(r"\d+", m[0])]
        if len(set(words)) == 1:
            return f"one {words[0]}"
        return "one of " + " or ".join(words)

    text = re.sub(r"\bone of \d+(?:, \d+)*", one_of, text)
    return re.sub(r"\babsorbs ([a-z-]+)", lambda m: f"{m[1].replace('-', ' ').capitalize()} does not count with it",
                  text)


def card_difference(variant: YakuView, default: YakuView | None, daini: bool = False) -> str:
    """How a variant's cards differ from the default row's, in words ("" when they do not)."""
    if default is None or set(variant.cards) == set(default.cards):
        return ""
    gone, new = set(default.cards) - set(variant.cards), set(variant.cards) - set(default.cards)
    parts = ([f"without {_names(gone, daini)}"] if gone else []) + ([f"with {_names(new, daini)}"] if new else [])
    return "the cards drawn above " + " and ".join(parts)


def _view(row: object, option: str, daini: bool = False) -> YakuView | None:
    if isinstance(row, YakuDef):
        return YakuView(row.id, row.name, row.name_ja, str(row.points), tuple(sorted(row.pool | row.required)),
                        describe(row, daini), row.rule, row.group, option)
    rid, name = getattr(row, "id", None), getattr(row, "name", None)
    if not isinstance(rid, (str, int)) or not isinstance(name, str):
        return None
    cards: set[int] = set()
    if dataclasses.is_dataclass(row):
        values = [getattr(row, f.name) for f in dataclasses.fields(row)]
    else:
        values = list(vars(row).values())
    for v in values:
        ids = _ids(v)
        if ids is not None:
            cards.update(ids)
    points = next((getattr(row, a) for a in ("points", "value", "chips", "score") if hasattr(row, a)), "")
    cond = next((getattr(row, a) for a in ("text", "condition", "description") if
                 isinstance(getattr(row, a, None), str)), "")
    rule = getattr(row, "rule", None)
    group = getattr(row, "group", None)
    return YakuView(str(rid), name, str(getattr(row, "name_ja", "") or ""), str(points), tuple(sorted(cards)),
                    worded(cond, tuple(sorted(cards)), daini), rule if isinstance(rule, str) else None,
                    group if isinstance(group, str) else None, option)


def _call_table(fn: Callable[..., Any], values: Mapping[str, str]) -> Iterable[object]:
    kwargs: dict[str, object] = {}
    for name, p in inspect.signature(fn).parameters.items():
        if name in ("values", "options", "opts", "rules"):
            kwargs[name] = values
        elif name == "month":
            kwargs[name] = 1
        elif p.default is inspect.Parameter.empty:
            kwargs[name] = values
    result = fn(**kwargs)
    return result if isinstance(result, Iterable) else ()


def _is_table(value: object) -> TypeGuard[tuple[YakuDef, ...] | list[YakuDef]]:
    return isinstance(value, (tuple, list)) and bool(value) and all(isinstance(v, YakuDef) for v in value)


def _static_rows(mod: ModuleType, values: Mapping[str, str]) -> list[object]:
    """Module-level tables; a mapping of tables is read through the option whose value picks one
    (its choices include every key of the mapping, as Kujuroku's ``configuration``)."""
    rows: list[object] = []
    for name, value in vars(mod).items():
        if name.startswith("_") or not name.isupper():
            continue
        if _is_table(value):
            rows.extend(value)
        elif isinstance(value, Mapping) and value and all(_is_table(v) for v in value.values()):
            picked = [v for k, v in values.items() if v in value and set(value) <= _choices(mod, k)]
            if picked:
                rows.extend(value[picked[0]])
    return rows


def _choices(mod: ModuleType, key: str) -> set[str]:
    spec = getattr(mod, "SPEC", None)
    for o in getattr(spec, "options", ()):
        if o.key == key:
            return set(o.choices)
    return set()


def _rows(mod: ModuleType, values: Mapping[str, str]) -> list[object]:
    fn = getattr(mod, "yaku_table", None)
    if callable(fn):
        return list(_call_table(fn, values))
    return _static_rows(mod, values)


def game_yaku(key: str) -> tuple[YakuView, ...]:
    """Every yaku of a game: the default table, then rows that only some option set has."""
    # imported here: the verifier brings Hypothesis and z3 (about 0.3 s), which the ``score`` and
    # ``cards`` commands that import this module never need
    from hanafuda_spec.verify import option_sets

    mod = importlib.import_module(f"hanafuda_spec.games.{key}")
    spec = spec_for(key)
    seen: dict[tuple[str, str, tuple[int, ...], str], YakuView] = {}
    ids: set[str] = set()
    daini = str(spec.deck).startswith("daini")
    for label, values in [("", spec.resolve()), *option_sets(key)]:
        for row in _rows(mod, values):
            v = _view(row, label, daini)
            if v is None:
                continue
            identity = (v.id, v.points, v.cards, v.condition)
            if identity in seen:
                continue
            if v.id in ids:
                v = dataclasses.replace(v, key=f"{v.id}-{label.replace('=', '-').replace(' ', '-')}")
            ids.add(v.id)
            seen[identity] = v
    return tuple(seen.values())


def display_names(key: str) -> dict[str, str]:
    """The display name of every yaku id of a game, under any option set (for ``hanafuda score``).

    >>> display_names("kujuroku")["shi-yaku"]
    'Shi Yaku'
    """
    return {v.id: v.name for v in game_yaku(key)}
