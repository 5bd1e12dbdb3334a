"""The library of engine deviations: named, documented mistakes that Koi-Koi engines make, each a
small perturbation of the reference's rules, and the rule id it breaks.

A deviation is not a rule anyone plays: it is what ``hanafuda diagnose`` replays a record under to
find why the record fails (:mod:`hanafuda.diagnose`). Each is rule data changed (a card moved into or
out of a card class or a yaku's cards, a yaku's value, every yaku of a group summed) or one of the
named hooks of :class:`~hanafuda.games.koikoi.KoiKoiRules` answered otherwise (the deal's layout, the
draw pile's order, the captures that name a target, the moment of the koi-koi decision, the seven-point
doubling, the next dealer): never a second copy of a step. The other games' libraries are in
:mod:`hanafuda.deviations_other`.

>>> d = deviation("yaku-points", yaku="flower-viewing", points="6")
>>> d.rule, d.description
('KK-YAKU-12', 'flower-viewing scores 6, not 5')
>>> rules = deviant_rules(GAME.spec.resolve(), (d,))
>>> GAME.score(rules, [card(30), card(90)]).yaku_total
6
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from hanafuda_spec.cards import card
from hanafuda_spec.games import koikoi as spec
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda.fishing import NAMED_OF_TWO, Getter, packet_getters
from hanafuda.games.koikoi import GAME, KoiKoiRules, scorer_of_table

__all__ = ["CLASSES", "DeviantRules", "Deviation", "catalogue", "deviant_rules", "deviation", "library"]

#: The card classes a card can be moved into or out of (the Sake Cup is an Animal and a Chaff).
CLASSES: Mapping[str, frozenset[int]] = {"brights": spec.BRIGHTS, "animals": spec.ANIMALS,
                                         "ribbons": spec.RIBBONS, "chaff": spec.CHAFF | {spec.SAKE}}
_CLASS_RULE = {"brights": "KK-YAKU-2", "animals": "KK-YAKU-7", "ribbons": "KK-YAKU-11", "chaff": "KK-YAKU-15"}


@dataclass(frozen=True)
class Deviation:
    """One engine mistake: its id (the kind of mistake), its parameters, the rule id it breaks and
    one line saying what the engine does."""

    id: str
    parameters: tuple[tuple[str, str], ...]
    rule: str
    description: str

    @property
    def params(self) -> dict[str, str]:
        return dict(self.parameters)

    def __str__(self) -> str:
        args = ",".join(f"{k}={v}" for k, v in self.parameters)
        return f"{self.id}({args})" if args else self.id


#: The deviations without parameters: id -> (rule id broken, what the engine does).
_PLAIN: Mapping[str, tuple[str, str]] = {
    "yaku-groups-summed": ("KK-YAKU-1", "every yaku of a group scores, not only the best of the group"),
    "reversed-stock": ("KK-DEAL-1", "the draw pile is drawn from the bottom of the deck order"),
    "seven-after-multiplier": ("KK-SCORE-4", "a base below 7 is doubled when the koi-koi multiplier brings it "
                               "to 7 or more"),
    "dealer-alternates": ("KK-END-3", "the deal passes to the other player after every round"),
    "dealer-stays": ("KK-END-3", "the first dealer deals every round"),
    "call-on-any-yaku": ("KK-TURN-3", "the koi-koi decision comes after every turn that ends holding a yaku, "
                         "not only after a new or improved one"),
    "no-call-last-turn": ("KK-TURN-3", "no koi-koi decision on a turn that empties the hand: the turn passes"),
    "two-takes-both": ("KK-CAP-2", "a card matching two table cards takes both, without a choice"),
    "three-takes-one": ("KK-CAP-3", "a card matching three table cards takes the one named, not all three"),
    "call-before-draw": ("KK-TURN-3", "a hand play forming a yaku gives the koi-koi decision before the draw "
                         "(a koi-koi then draws, and the draw may give the decision again)"),
}

_SLICES = ("ko,field,dealer", "dealer,ko,field", "dealer,field,ko", "field,ko,dealer", "field,dealer,ko",
           "ko,dealer,field")


def deviation(kind: str, **params: str) -> Deviation:
    """The deviation ``kind`` with its parameters (raises ``ValueError`` for one the library lacks)."""
    ps = tuple(sorted(params.items()))
    if kind in _PLAIN and not params:
        rule, text = _PLAIN[kind]
        return Deviation(kind, (), rule, text)
    if kind == "deal-slices" and params.get("order") in _SLICES:
        return Deviation(kind, ps, "KK-DEAL-1", f"the deal gives consecutive slices ({params['order']}), not "
                         "packets of four")
    if kind == "card-class" and set(params) == {"card", "out_of", "into"}:
        c, a, b = int(params["card"]), params["out_of"], params["into"]
        if a in CLASSES and c in CLASSES[a] and (b == "none" or (b in CLASSES and c not in CLASSES[b])):
            name = card(c).name_en
            where = "no class" if b == "none" else f"the {b}"
            return Deviation(kind, ps, _CLASS_RULE[a], f"card {c} ({name}) counts in {where}, not the {a}")
    if kind == "yaku-card" and set(params) == {"yaku", "out", "in"}:
        found = _yaku_rule(params["yaku"])
        if found is not None:
            return Deviation(kind, ps, found, f"{params['yaku']} takes card {params['in']} instead of "
                             f"{params['out']}")
    if kind == "yaku-points" and set(params) == {"yaku", "points"} and params["points"].isdigit():
        found, base = _yaku_rule(params["yaku"]), _yaku_points(params["yaku"])
        if found is not None and base is not None and int(params["points"]) != base:
            return Deviation(kind, ps, found, f"{params['yaku']} scores {params['points']}, not {base}")
    raise ValueError(f"no deviation {kind!r} with parameters {params!r}")


def _default_table() -> tuple[YakuDef, ...]:
    return spec.yaku_table(spec.SPEC.resolve(), 1)


def _yaku_rule(yid: str) -> str | None:
    return next((y.rule for y in _default_table() if y.id == yid), None)


def _yaku_points(yid: str) -> int | None:
    return next((y.points for y in _default_table() if y.id == yid), None)


def library() -> Iterator[Deviation]:
    """Every deviation of the library (a few hundred: each parameter value is one deviation)."""
    for kind in _PLAIN:
        yield deviation(kind)
    for order in _SLICES:
        yield deviation("deal-slices", order=order)
    for a, cards in CLASSES.items():
        for c in sorted(cards):
            for b in ("none", *CLASSES):
                if b != a and (b == "none" or c not in CLASSES[b]):
                    yield deviation("card-class", card=str(c), out_of=a, into=b)
    table = _default_table()
    for y in table:
        if len(y.pool) <= 3:  # a yaku of a few named cards: one of them swapped for another of its class
            cls = next((cs for cs in CLASSES.values() if y.pool <= cs), frozenset())
            for out in sorted(y.pool):
                for other in sorted(cls - y.pool):
                    yield deviation("yaku-card", yaku=y.id, out=str(out), **{"in": str(other)})
    seen: set[str] = set()
    for y in (*table, *spec.yaku_table({**spec.SPEC.resolve(), "month_cards": "on"}, 1)):
        if y.id in seen:
            continue
        seen.add(y.id)
        for p in sorted({y.points - 2, y.points - 1, y.points + 1, y.points + 2, y.points * 2} - {y.points}):
            if p > 0:
                yield deviation("yaku-points", yaku=y.id, points=str(p))


def catalogue() -> list[tuple[str, str, str]]:
    """The library by kind, for the docs: (kind, rule id or "(several)", what it covers)."""
    out = [(k, r, t) for k, (r, t) in _PLAIN.items()]
    out += [("deal-slices", "KK-DEAL-1", "the deal as three consecutive slices, in one of six orders "
             "(parameter order)"),
            ("card-class", "KK-YAKU-2/7/11/15", "one card out of its class (brights, animals, ribbons, chaff), into "
             "another or none (parameters card, out_of, into)"),
            ("yaku-card", "the yaku's", "one card of a three-card or two-card yaku swapped for another of its class "
             "(parameters yaku, out, in)"),
            ("yaku-points", "the yaku's", "a yaku's value off by one or two, or doubled (parameters yaku, points)")]
    return out


# -- the rules an engine with deviations plays -----------------------------------------------------------


def _edit_table(table: tuple[YakuDef, ...], devs: Sequence[Deviation]) -> tuple[YakuDef, ...]:
    """The yaku table as the deviations change it (the others leave it alone)."""
    rows = list(table)
    for d in devs:
        p = d.params
        if d.id == "yaku-groups-summed":
            rows = [replace(y, group=None) for y in rows]
        elif d.id == "yaku-points":
            rows = [replace(y, points=int(p["points"])) if y.id == p["yaku"] else y for y in rows]
        elif d.id == "yaku-card":
            out, into = int(p["out"]), int(p["in"])
            rows = [replace(y, pool=(y.pool - {out}) | {into}) if y.id == p["yaku"] and out in y.pool else y
                    for y in rows]
        elif d.id == "card-class":
            c, a, b = int(p["card"]), p["out_of"], p["into"]
            rows = [_moved(y, c, CLASSES[a], CLASSES.get(b)) for y in rows]
    return tuple(rows)


def _is_class_row(pool: frozenset[int], cls: frozenset[int]) -> bool:
    """A row counting a whole class (Brights, Animals, Ribbons, Chaff), not a yaku of a few named cards."""
    return bool(pool) and pool <= cls and len(pool) >= len(cls) - 1


def _moved(y: YakuDef, c: int, old: frozenset[int], new: frozenset[int] | None) -> YakuDef:
    pool, extra, doubled = y.pool, y.extra_pool, y.doubled
    if c in pool and _is_class_row(pool, old):
        pool, doubled = pool - {c}, doubled - {c}
    if c in extra and _is_class_row(extra, old):
        extra = extra - {c}
    if new is not None:
        if _is_class_row(y.pool, new):
            pool = pool | {c}
        if _is_class_row(y.extra_pool, new):
            extra = extra | {c}
    return replace(y, pool=pool, extra_pool=extra, doubled=doubled)


@dataclass(frozen=True)
class DeviantRules(KoiKoiRules):
    """Koi-Koi rules played with deviations: the reference's rules object, its hooks answered as the
    deviations say."""

    deviations: tuple[Deviation, ...] = field(default=())

    @functools.cached_property
    def _ids(self) -> frozenset[str]:
        return frozenset(d.id for d in self.deviations)

    @functools.cached_property
    def _table_edits(self) -> tuple[Deviation, ...]:
        return tuple(d for d in self.deviations if d.id in ("yaku-groups-summed", "yaku-points", "yaku-card",
                                                            "card-class"))

    def scorer(self, month: int | None, sake: str | None,
               called: bool = False) -> Callable[[int], tuple[ScoredYaku, ...]]:
        if not self._table_edits:
            return super().scorer(month, sake, called)
        key = (month, sake, called and self.call_revalues)
        found = self._scorers.get(key)
        if found is None:
            table = _edit_table(spec.yaku_table(self.opt, *key), self._table_edits)
            found = self._scorers[key] = scorer_of_table(table)
        return found

    @functools.cached_property
    def dealing(self) -> tuple[Getter[int], Getter[int], Getter[int]]:
        """KK-DEAL-1's getters of the ko's, the table's and the dealer's cards; under ``deal-slices``, three
        consecutive slices in the order it names."""
        order = next((d.params["order"] for d in self.deviations if d.id == "deal-slices"), None)
        if order is None:
            return super().dealing
        n = self.hand_size
        sizes = {"ko": n, "field": 8, "dealer": n}
        got = packet_getters(tuple((w, sizes[w]) for w in order.split(",")), 48)
        return got["ko"], got["field"], got["dealer"]

    @property
    def call_on_held(self) -> bool:
        return "call-on-any-yaku" in self._ids

    @property
    def named_captures(self) -> int:
        named = NAMED_OF_TWO  # the reference's (KoiKoiRules.named_captures)
        if "two-takes-both" in self._ids:
            named &= ~(1 << 2)
        if "three-takes-one" in self._ids:
            named |= 1 << 3
        return named

    @property
    def call_before_draw(self) -> bool:
        return "call-before-draw" in self._ids

    def stock_order(self, order: Sequence[int]) -> Sequence[int]:
        stock = super().stock_order(order)
        return stock[::-1] if "reversed-stock" in self._ids else stock

    def offers_call(self, new: bool, improved: bool, holds_card: bool) -> bool:
        offered = super().offers_call(new, improved, holds_card)
        return offered and (holds_card or "no-call-last-turn" not in self._ids)

    def shobu_points(self, calls: Sequence[int], field_brights: int, w: int,
                     yaku: tuple[tuple[ScoredYaku, ...], ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
        pts, notes = super().shobu_points(calls, field_brights, w, yaku)
        n = dict(notes)
        seven_double = self.value(spec.SevenDouble) is spec.SevenDouble.ON
        if "seven-after-multiplier" in self._ids and "koikoi" in n and seven_double:
            base, koi, fm = n["base"], n["koikoi"], n["field"]
            seven = 2 if base * koi >= 7 else 1
            return base * seven * koi * fm, (("base", base), ("seven", seven), ("koikoi", koi), ("field", fm))
        return pts, notes

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        if "dealer-alternates" in self._ids:
            return 1 - dealer
        if "dealer-stays" in self._ids:
            return dealer
        return super().next_dealer(dealer, winner)


@functools.lru_cache(maxsize=4096)
def _deviant(values: tuple[tuple[str, str], ...], devs: tuple[Deviation, ...]) -> KoiKoiRules:
    return DeviantRules(values, devs) if devs else GAME.make_rules(dict(values))


def deviant_rules(values: Mapping[str, str], devs: Sequence[Deviation]) -> KoiKoiRules:
    """Koi-Koi rules of resolved option ``values`` played with the deviations ``devs`` (the plain rules for
    none); one object per combination, so that its scorers are built once."""
    return _deviant(tuple(sorted(values.items())), tuple(sorted(set(devs), key=str)))
