"""The deviation libraries of Kusuri-gui, Kujuroku (with the Jizo variant), Musashino-Bana and Kekoro:
named, documented mistakes an engine of each game makes, each the rule id it breaks (Koi-Koi's library
is :mod:`hanafuda.deviations`, which this one follows).

Each deviation is a rules object of the game with one of its named hooks answered otherwise, or its rule
data changed (a yaku's value, a card's value or points): the dealer rule (``next_dealer``), the end of
round settlement (Kusuri-gui's ``settlement`` and ``bait_pays``), the capture step (Kekoro's,
Musashino-Bana's, Kujuroku's ``named_captures``), Kujuroku's jokers (``dealt_to_dealer``,
``jizo_undoes_oni``), the draw pile's order (Kekoro's ``stock_order``), the scoring tables (Kusuri-gui's
``table``, Musashino-Bana's ``judge``, Kekoro's ``scorer``, Kujuroku's ``pile_points`` and
``dekiyaku_rows``): never a second copy of a step.

>>> d = deviation("kusurigui", "settle-winner-total")
>>> d.rule, d.description
('KG-SCORE-1', "the loser of a round pays the winner's dekiyaku total, not the difference")
>>> rules = deviant_rules("kusurigui", GAMES["kusurigui"].spec.resolve(), (d,))
>>> rules.settlement(5, 3)
5
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from hanafuda_spec.games import kekoro as kekoro_spec
from hanafuda_spec.games import kujuroku as kujuroku_spec
from hanafuda_spec.games import kusurigui as kusurigui_spec
from hanafuda_spec.games import musashino as musashino_spec
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda.deviations import Deviation
from hanafuda.engine import RoundGame
from hanafuda.fishing import NAMED_OF_TWO
from hanafuda.games import kekoro, kujuroku, kusurigui, musashino
from hanafuda.yakumask import YakuRow

__all__ = ["GAMES", "catalogue", "deviant_rules", "deviation", "library"]

#: The games of these libraries, by catalogue key.
GAMES: Mapping[str, RoundGame[Any, Any]] = {"kusurigui": kusurigui.GAME, "kujuroku": kujuroku.GAME,
                                             "musashino": musashino.GAME, "kekoro": kekoro.GAME}

_STAYS = "the dealer deals every round"
#: The deviations without parameters, by game: id -> (rule id broken, what the engine does).
_PLAIN: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "kusurigui": {
        "dealer-stays": ("KG-END-2", _STAYS),
        "dealer-alternates": ("KG-END-2", "the deal passes to the other player after every round"),
        "settle-winner-total": ("KG-SCORE-1", "the loser of a round pays the winner's dekiyaku total, not the "
                                "difference"),
        "willow-bait-pays": ("KG-PAY-3", "eating a willow bait is paid as a Kusuri-gui"),
    },
    "kujuroku": {
        "dealer-stays": ("KJ-END-1", _STAYS),
        "dealer-passes": ("KJ-END-1", "the deal passes to the right after every round"),
        "deal-passes-left": ("KJ-END-2", "a lost deal passes to the player on the dealer's left, not the right"),
        "two-takes-both": ("KJ-CAP-3", "a card matching two field cards takes both, without a choice"),
        "dealt-oni-alone": ("KJ-DEAL-4", "the Oni dealt to the field goes to the dealer alone, taking no field card"),
        "jizo-keeps-oni-capture": ("KJ-JIZO-2", "a drawn Jizo leaves the card the Oni captured from the hand in "
                                   "the player's pile"),
    },
    "musashino": {
        "dealer-stays": ("MB-END-2", _STAYS),
        "dealer-passes": ("MB-END-2", "the deal passes to the next seat after every round"),
        "two-takes-both": ("MB-CAP-2", "a card matching two field cards takes both, without a choice"),
        "three-takes-one": ("MB-CAP-3", "a card matching three field cards takes the one named, not all three"),
    },
    "kekoro": {
        "dealer-stays": ("KE-END-2", _STAYS),
        "dealer-alternates": ("KE-END-2", "the deal passes to the other player after every round"),
        "two-takes-both": ("KE-CAP-2", "a card matching two table cards takes both, without a choice"),
        "three-takes-one": ("KE-CAP-3", "a card matching three table cards takes the one named, not all three"),
        "reversed-stock": ("KE-DEAL-1", "the draw pile is drawn from the bottom of the deck order"),
    },
}

#: The parameterised kinds, by game: kind -> (rule id or how it is found, what it covers), for the docs.
_PARAMETERISED: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "kusurigui": {"yaku-points": ("the yaku's rule", "a dekiyaku's value off by one or two, or doubled "
                                  "(parameters yaku, points)")},
    "musashino": {"yaku-points": ("the yaku's rule", "a dekiyaku's value off by one or two, or doubled "
                                  "(parameters yaku, points)")},
    "kekoro": {"card-value": ("KE-VAL-1", "a card's value one of the other values of the scale (parameters "
                              "card, value)")},
    "kujuroku": {"card-points": ("KJ-SCORE-1, KJ-JIZO-5", "the card points of a number's cards (or the "
                                 "Oni's, the Jizo's) off by one or two, their number, or 10 (parameters of, "
                                 "points)"),
                 "dekiyaku-points": ("the dekiyaku's rule", "a dekiyaku's value off by one or two, or doubled "
                                     "(parameters yaku, points)"),
                 "dekiyaku-card-out": ("the dekiyaku's rule", "a card left out of a dekiyaku's cards: it forms "
                                       "without it (parameters yaku, card)"),
                 "dekiyaku-card-in": ("the dekiyaku's rule", "a card of another dekiyaku (a 3, a 4, the Oni, "
                                      "I-tsun) added to a dekiyaku's cards (parameters yaku, card)")},
}


@functools.cache
def _yaku(key: str) -> Mapping[str, tuple[str, int]]:
    """The yaku of the default rules of ``key`` (Kusuri-gui, Musashino-Bana): id -> (rule id, points)."""
    values = GAMES[key].spec.resolve()
    if key == "kusurigui":
        return {y.id: (y.rule, y.points) for y in kusurigui_spec.yaku_table(values)}
    return {y.id: (y.rule, y.points) for y in musashino_spec.yaku_table(values)}


@functools.cache
def _dekiyaku() -> Mapping[str, tuple[str, int, frozenset[int], frozenset[int]]]:
    """Kujuroku's dekiyaku of every configuration: id -> (rule id, points, the cards that may leave its set,
    the cards that may join it). The rule and value are those of the first configuration listing it (a
    dekiyaku has the same value in each); the cards: those of its set in some configuration, and the other
    cards some dekiyaku names."""
    counted = frozenset().union(*(y.required for rows in kujuroku_spec.CONFIGURATIONS.values() for y in rows))
    out: dict[str, tuple[str, int, frozenset[int], frozenset[int]]] = {}
    for rows in kujuroku_spec.CONFIGURATIONS.values():
        for y in rows:
            rule, points, outs, ins = out.get(y.id, (y.rule, y.points, frozenset(), frozenset()))
            out[y.id] = (rule, points, outs | y.required, ins | (counted - y.required))
    return out


def _kujuroku_points(of: str, jizo: bool) -> int | None:
    """The card points of the cards ``of`` names (a number, ``oni`` or ``jizo``), None for no such cards."""
    if of == "oni":
        return kujuroku_spec.card_points(kujuroku_spec.ONI, jizo)
    if of == "jizo":
        return kujuroku_spec.card_points(kujuroku_spec.JIZO, True)
    if of.isdigit() and 1 <= int(of) <= 10:
        return kujuroku_spec.card_points(next(c.id for c in kujuroku.INDEX.cards if c.suit == int(of)), jizo)
    return None


def _kujuroku_mask(of: str) -> int:
    if of == "oni":
        return kujuroku.INDEX.mask_of(c for c in kujuroku.INDEX.cards if c.id == kujuroku_spec.ONI)
    if of == "jizo":
        return kujuroku.INDEX.mask_of(c for c in kujuroku.INDEX.cards if c.id == kujuroku_spec.JIZO)
    return kujuroku.INDEX.mask_of(c for c in kujuroku.INDEX.cards if c.suit == int(of) and c.id > 1)


def deviation(key: str, kind: str, **params: str) -> Deviation:
    """The deviation ``kind`` of game ``key`` with its parameters (raises ``ValueError`` for one the
    library lacks)."""
    ps = tuple(sorted(params.items()))
    plain = _PLAIN.get(key, {})
    if kind in plain and not params:
        rule, text = plain[kind]
        return Deviation(kind, (), rule, text)
    if (key in ("kusurigui", "musashino") and kind == "yaku-points" and set(params) == {"yaku", "points"}
            and params["points"].isdigit() and params["yaku"] in _yaku(key)):
        rule, base = _yaku(key)[params["yaku"]]
        if int(params["points"]) != base:
            return Deviation(kind, ps, rule, f"{params['yaku']} scores {params['points']}, not {base}")
    if key == "kekoro" and kind == "card-value" and set(params) == {"card", "value"} and params["card"].isdigit():
        base_value = kekoro_spec.CARD_VALUES["source"].get(int(params["card"]))
        if base_value is not None and params["value"] in ("1", "5", "10") and int(params["value"]) != base_value:
            return Deviation(kind, ps, "KE-VAL-1", f"card {params['card']} is worth {params['value']}, not "
                             f"{base_value}")
    if key == "kujuroku" and kind == "card-points" and set(params) == {"of", "points"} and params["points"].isdigit():
        of = params["of"]
        base_points = _kujuroku_points(of, of == "jizo")
        if base_points is not None and int(params["points"]) != base_points:
            cards = f"the {of}s" if of.isdigit() else f"the {of.capitalize()}"
            return Deviation(kind, ps, "KJ-JIZO-5" if of == "jizo" else "KJ-SCORE-1",
                             f"{cards} count {params['points']} card points, not {base_points}")
    if key == "kujuroku" and kind.startswith("dekiyaku-") and params.get("yaku") in _dekiyaku():
        yid = params["yaku"]
        rule, base, outs, ins = _dekiyaku()[yid]
        if kind == "dekiyaku-points" and set(params) == {"yaku", "points"} and params["points"].isdigit():
            if int(params["points"]) != base:
                return Deviation(kind, ps, rule, f"{yid} scores {params['points']}, not {base}")
        elif kind.startswith("dekiyaku-card-") and set(params) == {"yaku", "card"} and params["card"].isdigit():
            c = int(params["card"])
            if kind == "dekiyaku-card-out" and c in outs:
                return Deviation(kind, ps, rule, f"{yid} forms without card {c}")
            if kind == "dekiyaku-card-in" and c in ins:
                return Deviation(kind, ps, rule, f"{yid} needs card {c} too")
    raise ValueError(f"no {key} deviation {kind!r} with parameters {params!r}")


def library(key: str) -> Iterator[Deviation]:
    """Every deviation of game ``key``'s library (each parameter value is one deviation)."""
    for kind in _PLAIN[key]:
        yield deviation(key, kind)
    if key in ("kusurigui", "musashino"):
        for yid, (_rule, p) in _yaku(key).items():
            for q in sorted({p - 2, p - 1, p + 1, p + 2, p * 2} - {p}):
                if q > 0:
                    yield deviation(key, "yaku-points", yaku=yid, points=str(q))
    elif key == "kekoro":
        for cid, v in sorted(kekoro_spec.CARD_VALUES["source"].items()):
            for w in (1, 5, 10):
                if w != v:
                    yield deviation(key, "card-value", card=str(cid), value=str(w))
    elif key == "kujuroku":
        for of in (*(str(n) for n in range(1, 11)), "oni", "jizo"):
            base = _kujuroku_points(of, of == "jizo")
            assert base is not None
            face = int(of) if of.isdigit() else 0
            for q in sorted({base - 2, base - 1, base + 1, base + 2, face, 10} - {base}):
                if q >= 0:
                    yield deviation(key, "card-points", of=of, points=str(q))
        for yid, (_rule, p, outs, ins) in _dekiyaku().items():
            for q in sorted({p - 2, p - 1, p + 1, p + 2, p * 2} - {p}):
                yield deviation(key, "dekiyaku-points", yaku=yid, points=str(q))
            for c in sorted(outs):
                yield deviation(key, "dekiyaku-card-out", yaku=yid, card=str(c))
            for c in sorted(ins):
                yield deviation(key, "dekiyaku-card-in", yaku=yid, card=str(c))


def catalogue(key: str) -> list[tuple[str, str, str]]:
    """Game ``key``'s library by kind, for the docs: (kind, rule id, what it covers)."""
    return [*((k, r, t) for k, (r, t) in _PLAIN[key].items()),
            *((k, r, t) for k, (r, t) in _PARAMETERISED[key].items())]


# -- the rules an engine with deviations plays -----------------------------------------------------------


def _ids(devs: Sequence[Deviation]) -> frozenset[str]:
    return frozenset(d.id for d in devs)


def _points(devs: Sequence[Deviation], kind: str) -> dict[str, int]:
    """The changed values of a parameterised kind: its first parameter's value -> the new number."""
    out: dict[str, int] = {}
    for d in devs:
        if d.id == kind:
            p = d.params
            first = next(k for k in p if k not in ("points", "value"))
            out[p[first]] = int(p.get("points", p.get("value", "0")))
    return out


def _dealer(ids: frozenset[str], dealer: int, seats: int, reference: int) -> int:
    """The next dealer under the dealer deviations of ``ids``, else the ``reference``'s."""
    if "dealer-stays" in ids:
        return dealer
    if "dealer-alternates" in ids or "dealer-passes" in ids:
        return (dealer + 1) % seats
    return reference


def _named(ids: frozenset[str]) -> int:
    """The match counts that name a target under the capture deviations of ``ids``."""
    named = NAMED_OF_TWO
    if "two-takes-both" in ids:
        named &= ~(1 << 2)
    if "three-takes-one" in ids:
        named |= 1 << 3
    return named


@dataclass(frozen=True)
class DeviantKusuriGuiRules(kusurigui.KusuriGuiRules):
    """Kusuri-gui rules played with deviations (the reference's rules object, its hooks answered as they say)."""

    deviations: tuple[Deviation, ...] = field(default=())

    @functools.cached_property
    def table(self) -> tuple[tuple[YakuRow, ...], tuple[frozenset[int], ...]]:
        pts = _points(self.deviations, "yaku-points")
        rows = kusurigui_spec.yaku_table(self.opt)
        return kusurigui.compile_table([replace(y, points=pts[y.id]) if y.id in pts else y for y in rows])

    def settlement(self, winner_total: int, loser_total: int) -> int:
        if "settle-winner-total" in _ids(self.deviations):
            return winner_total
        return super().settlement(winner_total, loser_total)

    def bait_pays(self, bait: Any) -> bool:
        return "willow-bait-pays" in _ids(self.deviations) or super().bait_pays(bait)

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        return _dealer(_ids(self.deviations), dealer, 2, super().next_dealer(dealer, winner))


@dataclass(frozen=True)
class DeviantKujurokuRules(kujuroku.KujurokuRules):
    """Kujuroku rules played with deviations."""

    deviations: tuple[Deviation, ...] = field(default=())

    @functools.cached_property
    def pile_points(self) -> Callable[[int], int]:
        base = super().pile_points
        extra = tuple((q - (_kujuroku_points(of, self.jizo) or 0), _kujuroku_mask(of))
                      for of, q in _points(self.deviations, "card-points").items()
                      if of != "jizo" or self.jizo)
        if not extra:
            return base

        def points(pile: int) -> int:
            return base(pile) + sum(d * (pile & m).bit_count() for d, m in extra)

        return points

    def next_dealer(self, dealer: int, keeps: bool) -> int:
        ids = _ids(self.deviations)
        if "deal-passes-left" in ids and not keeps:
            return (dealer - 1) % self.seats
        return _dealer(ids, dealer, self.seats, super().next_dealer(dealer, keeps))

    @property
    def dekiyaku_rows(self) -> tuple[YakuDef, ...]:
        pts = _points(self.deviations, "dekiyaku-points")
        moved = [(d.id, d.params["yaku"], int(d.params["card"])) for d in self.deviations
                 if d.id.startswith("dekiyaku-card-")]
        rows = []
        for row in super().dekiyaku_rows:
            cards = row.required
            for kind, yid, c in moved:
                if yid == row.id:
                    cards = cards - {c} if kind == "dekiyaku-card-out" else cards | {c}
            rows.append(replace(row, required=cards, points=pts.get(row.id, row.points)))
        return tuple(rows)

    @property
    def named_captures(self) -> int:
        return _named(_ids(self.deviations))

    @property
    def dealt_to_dealer(self) -> int:
        oni = kujuroku.INDEX.by_id[kujuroku_spec.ONI].mask if "dealt-oni-alone" in _ids(self.deviations) else 0
        return super().dealt_to_dealer | oni

    @property
    def jizo_undoes_oni(self) -> bool:
        return "jizo-keeps-oni-capture" not in _ids(self.deviations) and super().jizo_undoes_oni


@dataclass(frozen=True)
class DeviantMusashinoRules(musashino.MusashinoRules):
    """Musashino-Bana rules played with deviations (a yaku's value: the judge's rows re-valued)."""

    deviations: tuple[Deviation, ...] = field(default=())

    @property
    def named_captures(self) -> int:
        return _named(_ids(self.deviations))

    def next_dealer(self, dealer: int, winner: int) -> int:
        return _dealer(_ids(self.deviations), dealer, self.seats, super().next_dealer(dealer, winner))


def _revalued(rules: musashino.MusashinoRules, devs: Sequence[Deviation]) -> dict[str, Any]:
    """Musashino-Bana's ``judge`` and ``insta`` with the yaku values the deviations give."""
    pts = _points(devs, "yaku-points")
    if not pts:
        return {}

    def row(r: Any) -> Any:
        return replace(r, scored=ScoredYaku(r.yid, pts[r.yid])) if r.yid in pts else r

    judge = replace(rules.judge, rows=tuple(map(row, rules.judge.rows)))
    return {"judge": judge, "insta": tuple(map(row, rules.insta))}


@dataclass(frozen=True)
class DeviantKekoroRules(kekoro.KekoroRules):
    """Kekoro rules played with deviations."""

    deviations: tuple[Deviation, ...] = field(default=())

    @functools.cached_property
    def scorer(self) -> kekoro.Scorer:
        values = dict(kekoro_spec.CARD_VALUES[self.value(kekoro_spec.Values)])
        for c, v in _points(self.deviations, "card-value").items():
            values[int(c)] = v
        return kekoro.scorer_of(kekoro_spec.yaku_table(self.opt), values)

    @property
    def named_captures(self) -> int:
        return _named(_ids(self.deviations))

    def stock_order(self, order: Sequence[int]) -> Sequence[int]:
        stock = super().stock_order(order)
        return stock[::-1] if "reversed-stock" in _ids(self.deviations) else stock

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        return _dealer(_ids(self.deviations), dealer, 2, super().next_dealer(dealer, winner))


_DEVIANT: Mapping[str, type] = {"kusurigui": DeviantKusuriGuiRules, "kujuroku": DeviantKujurokuRules,
                                "musashino": DeviantMusashinoRules, "kekoro": DeviantKekoroRules}


@functools.lru_cache(maxsize=4096)
def _deviant(key: str, values: tuple[tuple[str, str], ...], devs: tuple[Deviation, ...]) -> Any:
    base = GAMES[key].make_rules(dict(values))
    if not devs:
        return base
    kept = {f.name: getattr(base, f.name) for f in fields(base) if f.init}
    if key == "musashino":
        kept.update(_revalued(base, devs))
    return _DEVIANT[key](**kept, deviations=devs)


def deviant_rules(key: str, values: Mapping[str, str], devs: Sequence[Deviation]) -> Any:
    """Game ``key``'s rules of resolved option ``values`` played with the deviations ``devs`` (the plain
    rules for none); one object per combination."""
    return _deviant(key, tuple(sorted(values.items())), tuple(sorted(set(devs), key=str)))
