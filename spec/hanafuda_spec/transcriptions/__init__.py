"""The sources' tables, transcribed a second time, and the checks of the catalogue against them.

Rule data is declared once (the catalogue) and read by the reference, the proofs and the docs, so a
wrong value in a table passes everything that reads that one declaration. The TOML files of this
package are a second copy, written from the source documents as the sources lay them out (see the
README beside them), never generated from the catalogue. :func:`checks` compares the catalogue with
them, one check per game and table, for ``hanafuda verify``: a point value, a card, a chip band or
a game constant that differs from the source fails a check without any engine being run (the deal
tables alone are compared with the first position of the engine behind the adapter).

Each check is exhaustive over its table: every row of the transcription, every card it names, and
for yaku rows the smallest piles the source says form the row (at exactly the source's value) and
the piles one condition short (which must not form it, even with every other card of the deck).

>>> sorted(load("kekoro"))[:3]
['card_values', 'deal', 'game']
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import resources
from typing import Any

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import kekoro as ke
from hanafuda_spec.games import koikoi as kk
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.games import kusurigui as kg
from hanafuda_spec.games import musashino as mb
from hanafuda_spec.games import profile_for, spec_for
from hanafuda_spec.proofs.common import Case, Outcome, timed

__all__ = ["Row", "Scorer", "catalogue_rows", "checks", "deck", "load", "problems", "short_piles",
           "table_names", "transcribed_settlement", "witnesses", "yaku_tables"]

#: One row of a transcribed table, as TOML gives it.
Row = Mapping[str, Any]
#: One catalogue row's worth for a pile (0 when the row is not formed).
Scorer = Callable[[frozenset[int]], int]


def load(game: str) -> dict[str, Any]:
    """The transcription of one game's tables (``<game>.toml`` of this package), by table name."""
    with resources.files(__name__).joinpath(f"{game}.toml").open("rb") as f:
        return tomllib.load(f)


def _musashino_scorer(d: mb.Dekiyaku) -> Scorer:
    return lambda pile: d.points if d.formed(pile) else 0


def catalogue_rows(game: str, options: Mapping[str, str]) -> dict[str, Scorer]:
    """The catalogue's yaku rows for ``options`` (resolved), each as a scorer, by id."""
    values = spec_for(game).resolve(None, dict(options))
    if game == "musashino":
        return {d.id: _musashino_scorer(d) for d in mb.yaku_table(values)}
    if game == "kujuroku":
        table = kj.CONFIGURATIONS[values["configuration"]]
    elif game == "kekoro":
        table = ke.yaku_table(values)
    elif game == "kusurigui":
        table = kg.yaku_table(values)
    else:
        table = kk.yaku_table(values, month=3)  # the month rows are checked for a round of March
    return {y.id: y.value for y in table}


def deck(game: str, options: Mapping[str, str]) -> frozenset[int]:
    """The deck the game plays with these options."""
    return frozenset(profile_for(game).deck(spec_for(game).resolve(None, dict(options))))


def witnesses(row: Row) -> list[frozenset[int]]:
    """Smallest piles the source says form ``row``: its cards, one of each group, N of its set
    (enough choices that every card the source names appears in one)."""
    cards = frozenset(row.get("cards", ()))
    if row.get("month"):
        cards = frozenset(30 + i for i in range(4))
    groups = [tuple(g) for g in row.get("one_of", ())]
    of = tuple(row.get("of", ()))
    n = int(row.get("any", 0))
    subsets = [frozenset(of[(k + i) % len(of)] for i in range(n)) for k in range(len(of))] if n else [frozenset()]
    out = []
    for choice in itertools.product(*groups) if groups else [()]:
        for sub in subsets:
            out.append(cards | frozenset(choice) | sub)
    return out


def short_piles(row: Row, universe: frozenset[int]) -> list[tuple[str, frozenset[int]]]:
    """Piles one condition short of ``row``, padded with every other card of the deck."""
    cards = frozenset(row.get("cards", ()))
    if row.get("month"):
        cards = frozenset(30 + i for i in range(4))
    out = [(f"without {c}", universe - {c}) for c in sorted(cards)]
    out += [(f"without any of {sorted(g)}", universe - frozenset(g)) for g in row.get("one_of", ())]
    if row.get("any"):
        of, n = tuple(row["of"]), int(row["any"])
        for k in range(len(of)):
            few = frozenset(of[(k + i) % len(of)] for i in range(n - 1))
            out.append((f"{n - 1} of the {len(of)}", (universe - frozenset(of)) | few))
    return out


def yaku_tables(game: str) -> list[tuple[str, dict[str, Any]]]:
    """The transcription's yaku tables (those whose rows name a catalogue id), in file order."""
    return [(name, t) for name, t in load(game).items() if isinstance(t, dict) and "rows" in t and
            any("id" in r for r in t["rows"])]


#: The tables that list a game's whole yaku table: the catalogue may hold no row they lack.
FULL_TABLES = ("yaku", "dekiyaku", "dekiyaku_A", "dekiyaku_B", "dekiyaku_C", "dekiyaku_D")


def yaku_problems(game: str, table: Mapping[str, Any], full: bool) -> Iterator[str]:
    """Where the catalogue's rows differ from a transcribed yaku table (``full``: the table lists
    every row of the catalogue's table for its options)."""
    options: dict[str, str] = dict(table.get("options", {}))
    universe = deck(game, options)
    cat = catalogue_rows(game, options)
    for row in table["rows"]:
        rid = row.get("scored_as", row["id"])
        if "scored_as" in row and not any(g.id == row["decision"] for g in spec_for(game).gaps):
            yield f"{row['name']}: scored as {rid} by decision {row['decision']}, which the catalogue lacks"
        if rid not in cat:
            yield f"{row['name']} ({rid}) is not in the catalogue"
            continue
        score = cat[rid]
        if "points_range" in row:
            lo, hi = row["points_range"]
            choices = spec_for(game).option(row["option"]).choices
            if sorted(int(c) for c in choices) != list(range(lo, hi + 1)):
                yield f"{rid}: option {row['option']} offers {list(choices)}, the source {lo}…{hi}"
                continue
            for c in choices:
                scorer = catalogue_rows(game, {**options, row["option"]: c})[rid]
                for w in witnesses(row):
                    if scorer(w) != int(c):
                        yield f"{rid}: {sorted(w)} worth {scorer(w)} with {row['option']}={c}, the source says {c}"
        else:
            for w in witnesses(row):
                if score(w) != row["points"]:
                    yield (f"{rid}: the source's cards {sorted(w)} are worth {score(w)} in the catalogue, the "
                           f"source says {row['points']}")
        for why, pile in short_piles(row, universe):
            if score(pile) != 0:
                yield f"{rid}: formed {why} (the source needs it)"
    if full:
        extra = sorted(set(cat) - {r["id"] for r in table["rows"]})
        if extra:
            yield f"rows the source does not have: {extra}"


def _extras(game: str, data: Mapping[str, Any]) -> Iterator[str]:
    """KG-YAKU-9/13/14, KK-YAKU-6…11/15: each card of the named kind beyond a counting row's own cards
    adds the source's ``per_card``, up to every such card of the deck."""
    rows = {r["id"]: r for r in data.get("yaku", data.get("dekiyaku", {})).get("rows", ())}
    default = spec_for(game).resolve(None, {})
    for extra in data["extras"]["rows"]:
        row = rows[extra["yaku"]]
        base = row["points"] if "points" in row else int(default[row["option"]])
        score = catalogue_rows(game, {})[extra["yaku"]]
        for w in witnesses(row):
            more = [c for c in extra["of"] if c not in w]
            for k in range(len(more) + 1):
                pile = w | frozenset(more[:k])
                if score(pile) != base + k * extra["per_card"]:
                    yield f"{extra['yaku']}: {sorted(pile)} worth {score(pile)}, the source says {base} + {k}"
                    break


def transcribed_settlement(chips: Sequence[int]) -> list[int]:
    """The source's settlement of Kujuroku's three chip scores, read from the ``[settlement]`` rows:
    who collects from whom, and how much."""
    rows = {n: (collects, pays, amount) for n, collects, pays, amount in load("kujuroku")["settlement"]["rows"]}
    collects, pays, amount = rows[sum(1 for c in chips if c > 0)]
    out = [0, 0, 0]
    if collects == "nobody":
        return out
    winners = [i for i, c in enumerate(chips) if c > 0]
    losers = [i for i, c in enumerate(chips) if c < 0]
    payers = losers if pays.startswith("each") else losers[:1]
    takers = winners if collects.startswith("each") else winners[:1]
    for p in payers:
        for w in takers:
            n = -chips[p] if "payer" in amount else chips[w]
            out[p] -= n
            out[w] += n
    return out


def _differs(what: str, catalogue: object, source: object) -> Iterator[str]:
    if catalogue != source:
        yield f"{what}: the catalogue has {catalogue!r}, the source {source!r}"


def _kekoro(name: str, t: Mapping[str, Any]) -> Iterator[str]:
    if name == "card_values":
        seen: list[int] = []
        for r in t["rows"]:
            yield from _differs(f"{r['type']}: count", len(r["cards"]), r["count"])
            for c in r["cards"]:
                yield from _differs(f"{r['type']}: card {c}", ke.CARD_VALUES["source"].get(c), r["value"])
                yield from _differs(f"{r['type']}: card {c} (kusaba)", ke.CARD_VALUES["kusaba"].get(c), r["kusaba"])
            seen += r["cards"]
        yield from _differs("the valued cards", sorted(ke.CARD_VALUES["source"]), sorted(seen))
    elif name == "game":
        yield from _differs("the lead that ends the game (KE-GAME-1)", ke.LEAD, t["lead"])
        yield from _differs("the yaku lead of the instant victory (KE-IV-1)", ke.YAKU_LEAD, t["yaku_lead"])
        yield from _differs("every yaku's points (KE-YAKU-1)", ke.YAKU_POINTS, t["yaku_points"])


def _kujuroku(name: str, t: Mapping[str, Any]) -> Iterator[str]:
    if name == "card_points":
        numbers = {int(k): v for k, v in t["numbers"].items()}
        for c in kj.DECK_IDS[False]:
            want = t["oni"] if c == kj.ONI else numbers[c // 10]
            yield from _differs(f"card {c}", kj.card_points(c, False), want)
        yield from _differs("the deck's total", sum(kj.card_points(c, False) for c in kj.DECK_IDS[False]), t["total"])
    elif name == "chip_table":
        yield from _differs("par", kj.PAR, t["par"])
        for low, high, chips in t["bands"]:
            for score in range(low, high + 1):
                yield from _differs(f"chips for {score} card points", kj.chip_score(score), chips)
    elif name == "deal":
        yield from _differs("deck", len(kj.DECK_IDS[False]), t["deck"])
        yield from _differs("participants, hand, stock, chips",
                            (kj.PLAYERS_PER_ROUND, kj.HAND_SIZE, kj.stock_size(False), kj.START_CHIPS),
                            (t["participants"], t["hand"], t["stock"], t["chips"]))
    elif name == "card_names":
        for jizo, rows in ((False, t["rows"]), (True, [*t["rows"], t["jizo"]])):
            ids = kj.DECK_IDS[jizo]
            by_number: dict[int, int] = {}
            for _, number, count in rows:
                by_number[number] = by_number.get(number, 0) + count
            got = {n: sum(1 for c in ids if (c // 10 if c >= 10 else 0) == n) for n in by_number}
            yield from _differs(f"cards by number (jizo={jizo})", got, by_number)
            yield from _differs(f"deck size (jizo={jizo})", len(ids), sum(by_number.values()))
    elif name == "jizo":
        base = load("kujuroku")["card_points"]
        numbers = {int(k): v for k, v in base["numbers"].items()}
        ids = kj.DECK_IDS[True]
        yield from _differs("deck, stock", (len(ids), kj.stock_size(True)), (t["deck"], t["stock"]))
        for c in ids:
            want = t["oni"] if c == kj.ONI else t["jizo"] if c == kj.JIZO else numbers[c // 10]
            yield from _differs(f"card {c} (Jizo-fuda deck)", kj.card_points(c, True), want)
    elif name == "settlement":
        bands = sorted({chips for _, _, chips in load("kujuroku")["chip_table"]["bands"]})
        for chips in itertools.product(bands, repeat=3):
            if max(chips) < 0:
                continue  # all three negative: the source does not say (gap KJ-13)
            deltas = list(kj.card_point_deltas(dict(enumerate(chips)), 3))
            yield from _differs(f"settlement of chip scores {list(chips)}", deltas, transcribed_settlement(chips))


def _kusurigui(name: str, t: Mapping[str, Any]) -> Iterator[str]:
    spec = spec_for("kusurigui")
    if name == "deal":
        full = {m * 10 + i for m in range(1, 13) for i in range(4)}
        yield from _differs("deck, removed cards", (len(kg.DECK), sorted(full - set(kg.DECK))),
                            (t["deck"], t["removed"]))
        yield from _differs("face-down field, re-deals", (kg.OUT_OF_PLAY, kg.REDEALS),
                            (t["field_face_down"], t["redeals"]))
        yield from _differs("starting chips", spec.option("chips").default, str(t["chips"]))
        yield from _differs("rounds", list(spec.option("rounds").choices), t["rounds"])
        yield from _differs("Kusuri-gui payments", list(spec.option("payment").choices), t["kusuri_gui_payment"])
    elif name == "payments":
        yield from _differs("Kusuri-gui payments", sorted(int(c) for c in spec.option("payment").choices),
                            t["kusuri_gui"])
        if t["settlement"] == "difference":
            values = spec.resolve(None, {})
            for a, b in itertools.product(range(12), repeat=2):
                yield from _differs(f"settlement of totals {a}, {b}", kg.settlement(values, (a, b), (100, 100)),
                                    (a - b, b - a))


def _musashino(name: str, t: Mapping[str, Any]) -> Iterator[str]:
    table = {d.id: d for d in mb.yaku_table(spec_for("musashino").resolve(None, {}))}
    if name == "deal":
        for r in t["rows"]:
            plan = mb.DEALS[r["players"]]
            yield from _differs(f"{r['players']} players: hand, field, stock", (plan.hand, plan.field, plan.stock),
                                (r["hand"], r["field"], r["stock"]))
    elif name == "storm":
        yield from _differs("storm cards", sorted(mb.STORM_CARDS), sorted(t["storm_cards"]))
        yield from _differs("storm victims", sorted(mb.STORM_VICTIMS), sorted(t["victims"]))
        yield from _differs("banquets", sorted(mb.BANQUETS), sorted(t["banquets"]))
        yield from _differs("the Sun", mb.SUN_CARD, t["sun"])
        yield from _differs("banquets missing from the table", sorted(set(t["banquets"]) - set(table)), [])
    elif name == "insta_win":
        yield from _differs("insta-win rows", sorted(mb.INSTA_WIN), sorted(t["rows"]))
        for i in t["rows"]:
            yield from _differs(f"{i}: payment", table[i].points if i in table else None, t["payment"])
        yield from _differs("lengths", list(spec_for("musashino").option("length").choices), t["lengths"])
    elif name == "seed_rows_dropped":
        yield from _differs("seed rows not used", [(r.name, r.value) for r in mb.SEED_ROWS_NOT_USED],
                            [(r["name"], r["points"]) for r in t["rows"]])
        cat = catalogue_rows("musashino", {})
        for r in t["rows"]:
            if any(score(w) == r["points"] for w in witnesses(r) for score in cat.values()):
                yield f"{r['name']}: a dropped seed row scores at the seed's value {r['points']}"


def _koikoi(name: str, t: Mapping[str, Any]) -> Iterator[str]:
    if name == "chaff_doubles":
        named: dict[str, int] = t["cards"]
        chaff_row = next(r for r in load("koikoi")["yaku"]["rows"] if r["id"] == "chaff")
        plain = [c for c in chaff_row["of"] if c not in named.values()][:8]
        for choice in spec_for("koikoi").option("chaff_doubles").choices:
            doubled = set(named.values()) if choice == "on" else {named[n] for n in choice.split("+") if n != "off"}
            score = catalogue_rows("koikoi", {"chaff_doubles": choice})["chaff"]
            for c in named.values():
                count = len(plain) + (t["counts_as"] if c in doubled else 1)
                yield from _differs(f"chaff_doubles={choice}: 8 plain Chaff and {c}",
                                    score(frozenset([*plain, c])), 1 if count >= 10 else 0)


_GAME_TABLES: Mapping[str, Callable[[str, Mapping[str, Any]], Iterator[str]]] = {
    "kekoro": _kekoro, "kujuroku": _kujuroku, "kusurigui": _kusurigui, "musashino": _musashino, "koikoi": _koikoi}

#: The tables each game's function above compares (a table no comparison reads fails its check).
_COMPARED: Mapping[str, frozenset[str]] = {
    "kekoro": frozenset({"card_values", "game"}),
    "kujuroku": frozenset({"card_points", "chip_table", "deal", "card_names", "jizo", "settlement"}),
    "kusurigui": frozenset({"deal", "payments"}),
    "musashino": frozenset({"deal", "storm", "insta_win", "seed_rows_dropped"}),
    "koikoi": frozenset({"chaff_doubles"}),
}

#: Deal tables checked against the first position of the engine behind the adapter: the table, the
#: options it is dealt under, and the zones with their sizes (``hand`` stands for every hand).
_DEALT = ("deal", "deal_ten")


def _dealt(adapter: EngineAdapter, game: str, name: str, t: Mapping[str, Any]) -> Iterator[str]:
    rows = t.get("rows") or [t]
    for r in rows:
        opts = dict(t.get("options", {}))
        if "players" in r:
            opts["players"] = str(r["players"])
        adapter.start(game, spec_for(game).resolve(None, opts), 1)
        s = adapter.snapshot()
        if game == "kujuroku":
            parts = [(s.dealer + i) % 4 for i in range(r["participants"])]
            got = ([len(s.zone(f"hand.{p}")) for p in parts],
                   len(s.zone("field")) + len(s.zone(f"captured.{s.dealer}")), len(s.zone("stock")))
            want = ([r["hand"]] * r["participants"], r["field"], r["stock"])
        elif game == "kusurigui":
            got = ([len(s.zone(f"hand.{p}")) for p in (0, 1)], len(s.zone("pile")), len(s.zone("stock")))
            want = ([r["hand"]] * 2, r["discard_pile"], r["redeals"] * 2 * r["hand"])
        else:
            seats = mb.DEALS[r["players"]].players if "players" in r else 2
            got = ([len(s.zone(f"hand.{p}")) for p in range(seats)], len(s.zone("field")), len(s.zone("stock")))
            want = ([r["hand"]] * seats, r["field"], r["stock"])
        yield from _differs(f"the engine's first deal ({opts or 'defaults'}): hands, field, stock", got, want)


def problems(adapter: EngineAdapter | None, game: str, name: str) -> list[str]:
    """Where the catalogue (and, for a deal table with ``adapter`` given, the engine's first deal)
    differs from one transcribed table; empty if they agree."""
    data = load(game)
    t = data[name]
    out: list[str] = []
    compared = {n for n, _ in yaku_tables(game)} | {"extras"} | _COMPARED.get(game, frozenset())
    if name not in compared and not (name in _DEALT and adapter is not None):
        return [f"no comparison reads the table [{name}]"]
    if any(name == n for n, _ in yaku_tables(game)):
        out += yaku_problems(game, t, name in FULL_TABLES)
    elif name == "extras":
        out += _extras(game, data)
    elif game in _GAME_TABLES:
        out += _GAME_TABLES[game](name, t)
    if name in _DEALT and adapter is not None:
        out += _dealt(adapter, game, name, t)
    return out


#: Tables that only the test suite reads (they need stacked matches the adapter cannot set up:
#: lucky hands, the koi-koi bonus, a Kusuri-gui payment or a dekiyaku's payers in play).
TEST_ONLY = frozenset({("koikoi", "teyaku"), ("koikoi", "scoring"), ("kujuroku", "dekiyaku_payment")})


def table_names(game: str) -> list[str]:
    """The tables of a game that :func:`checks` compares, in file order."""
    return [n for n in load(game) if (game, n) not in TEST_ONLY]


def checks(adapter: EngineAdapter, game: str, quick: bool = False) -> Iterator[Outcome]:
    """One check per transcribed table of ``game``: the catalogue's entries against the source's,
    every entry of the table (an exhaustive comparison, no sampling; the same in a quick run)."""
    try:
        names = table_names(game)
    except FileNotFoundError:
        return
    for name in names:
        def run(name: str = name) -> tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]:
            bad = problems(adapter, game, name)
            t = load(game)[name]
            where = f"{t.get('source', '?')}, {t.get('section', '?')}"
            if bad:
                more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
                return False, f"{bad[0]}{more} [{where}]", {"kind": "model", "game": game, "table": name,
                                                            "problems": bad[:10]}, 0, ()
            return True, f"every entry agrees with the transcription of {where}", {}, 0, ()
        against = "catalogue and first deal" if name in _DEALT else "catalogue"
        yield timed(game, f"transcribed table [{name}] vs {against} (exhaustive, every entry)", run)
