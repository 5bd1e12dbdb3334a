"""``hanafuda vectors DIR``: export a conformance corpus for other implementations.

Layout (one directory per game and ruleset)::

    DIR/README.md                    how to use the corpus
    DIR/shuffle.json                 SplitMix64 outputs and deck shuffles (the documented shuffle)
    DIR/<game>/<ruleset>/deals.json   seeded deals: the deck order of the first deals and the dealt position
    DIR/<game>/<ruleset>/games.jsonl  whole matches as hanafuda-record/1 records with a position after
                                     every action and every round's result
    DIR/<game>/<ruleset>/scoring.json capture piles -> yaku and points (random piles; minimal piles
                                     forming each yaku and those piles less one card; the z3 model's
                                     boundary piles)
    DIR/<game>/<ruleset>/perft.json   perft counts: legal action sequences from seeded deals
    DIR/<game>/options/               the options suite: for each option set verify plays that no
                                     ruleset holds (every other option value), a seeded deal, match
                                     and perft table
    DIR/separating/<game>.jsonl      the separating suite's records: each valid under its rules and invalid
                                     under ``meta.fails_under`` (issue 30; shipped data, see
                                     :mod:`hanafuda.separate`)
    DIR/separating/<game>.json       the separating suite: every pair of values of every option, separated,
                                     explained or unresolved
    DIR/illegal/<game>.jsonl         the illegal-action suite: records cut by an action the rules forbid,
                                     each to be refused with the rule id in ``meta.refused``
                                     (:mod:`hanafuda.illegal`)
    DIR/stacked/<game>.jsonl         the stacked-deal suite: rare situations dealt on purpose, each deal
                                     played out (:mod:`hanafuda.stacked`); ``<game>.json``: each deal,
                                     the position dealt and the legal actions there
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import IO, Any

from hanafuda_spec.records import FORMAT
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hanafuda_spec.verify import option_sets_beyond_rulesets

from hanafuda.commands._common import (
    GAMES_HELP,
    add_command,
    add_games_argument,
    add_jobs_argument,
    check_output_dir,
    count,
    game_name,
    nonempty,
    output_dir,
)
from hanafuda.engine import RoundSetup
from hanafuda.parallel import Executor, add_cluster_argument, executor_for
from hanafuda.perft import perft
from hanafuda.progress import OnProgress, add_progress_argument, progress
from hanafuda.records import record_match
from hanafuda.registry import available, game
from hanafuda.stacked import STACKS

AnyGame = Any


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "vectors", help="export a conformance corpus (deals, games, scoring) with a README",
                    description="Write conformance vectors for implementers into DIR: per game and ruleset, "
                    "seeded deals, whole games with the expected position after every action and the results, "
                    "and scoring vectors (pile -> yaku and points), with a README. The output is deterministic. "
                    "DIR is created if needed; files of the same name in it are replaced. On failure nothing "
                    "is written.",
                    examples=["hanafuda vectors conformance/", "hanafuda vectors out/ --game koikoi --games 1 --no-z3"])
    p.add_argument("dir", metavar="DIR", type=nonempty("output directory"), help="the output directory")
    p.add_argument("--game", "-g", action="append", metavar="GAME", type=game_name,
                   help="only this game (repeatable); " + GAMES_HELP + "; default: every game")
    add_games_argument(p, 5, "recorded matches per ruleset (0: none)", allow_zero=True)
    p.add_argument("--piles", type=count(0, 100_000, "a number of piles"), default=200, metavar="N",
                   help="random piles per ruleset, 0 to 100,000")
    p.add_argument("--no-z3", action="store_true", help="leave out the z3 model's boundary piles (faster)")
    add_jobs_argument(p)
    add_cluster_argument(p)
    add_progress_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games = [game(g) for g in args.game] if args.game else list(available())
    out = Path(args.dir)
    rulesets = sum(len(g.spec.rulesets) for g in games)
    check_output_dir(out, "vectors")
    with executor_for(args) as ex, output_dir(out, "vectors") as tmp, progress(
            "vectors", rulesets, unit="ruleset", no_progress=args.no_progress) as bar:
        written = export(tmp, games, args.games, args.piles, z3=not args.no_z3, on_progress=bar, executor=ex)
    print(f"wrote {written} files to {out}")
    return 0


def export(out: Path, games: list[AnyGame], n_games: int, n_piles: int, z3: bool = True,
           on_progress: OnProgress | None = None, executor: Executor | None = None) -> int:
    """Write the corpus; returns the number of files written. ``on_progress`` is told the rulesets
    done (of every game's). With an ``executor`` (see :mod:`hanafuda.parallel`) the files' contents
    are made by its workers, each game and ruleset's deals, scoring and perft files and ranges of its
    recorded matches as separate units, and written here in order: the same bytes for every
    executor."""
    ex = executor or Executor()
    files = 0
    rulesets = sum(len(g.spec.rulesets) for g in games)
    _dump(out / "shuffle.json", shuffle_vectors(games))
    files += 1
    index = []
    units: list[tuple[str, str, str, int, int]] = []
    chunk = max(1, min(1000, -(-n_games // (2 * ex.workers))))
    for g in games:
        for rs in g.spec.rulesets:
            units.append((g.spec.key, rs.name, "deals.json", 0, 0))
            units.extend((g.spec.key, rs.name, "games.jsonl", a, min(n_games, a + chunk))
                         for a in range(0, max(1, n_games), chunk))  # an empty file for 0
            units.extend([(g.spec.key, rs.name, "scoring.json", 0, 0), (g.spec.key, rs.name, "perft.json", 0, 0)])
            index.append(f"| {g.spec.key} | {rs.name} | `{g.spec.key}/{rs.name}/` |")
        if n_games:
            units.extend((g.spec.key, OPTIONS_DIR, name, 0, 0) for name in ("deals.json", "games.jsonl", "perft.json"))
            units.append((g.spec.key, ILLEGAL_DIR, f"{g.spec.key}.jsonl", 0, 0))
            if any(s.game == g.spec.key for s in STACKS):
                units.extend((g.spec.key, STACKED_DIR, f"{g.spec.key}{ext}", 0, 0) for ext in (".jsonl", ".json"))
            index.append(f"| {g.spec.key} | every other option value | `{g.spec.key}/{OPTIONS_DIR}/` |")
    opened: dict[Path, IO[str]] = {}
    done = 0
    try:
        for (key, ruleset, name, _, _), text in zip(units, _largest_first(ex, partial(_unit, n_piles=n_piles, z3=z3),
                                                                          units, n_piles), strict=True):
            path = out / ruleset / name if ruleset in (ILLEGAL_DIR, STACKED_DIR) else out / key / ruleset / name
            if path not in opened:
                path.parent.mkdir(parents=True, exist_ok=True)
                opened[path] = open(path, "w", encoding="utf-8")  # noqa: SIM115
                files += 1
            opened[path].write(text)
            if name == "perft.json":  # a ruleset's last file
                done += 1
                if on_progress is not None:
                    on_progress(done, rulesets)
    finally:
        for f in opened.values():
            f.close()
    for g in games:
        files += separating_vectors(out / "separating", g.spec.key)
    (out / "README.md").write_text(_README.replace("{INDEX}", "\n".join(index)), encoding="utf-8")
    return files + 1


def separating_vectors(out: Path, key: str) -> int:
    """Write the game's separating suite (the shipped data of :func:`hanafuda.separate.shipped_suite`)
    into the directory ``out``: its records as JSON Lines (``<game>.jsonl``) and its summary
    (``<game>.json``); returns the number of files written (0 when none ships)."""
    from hanafuda.separate import shipped_suite, suite_records, suite_summary

    suite = shipped_suite(key)
    if not suite:
        return 0
    out.mkdir(parents=True, exist_ok=True)
    recs = suite_records(suite)
    (out / f"{key}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                                                  for r in recs), encoding="utf-8")
    _dump(out / f"{key}.json", suite_summary(key, suite))
    return 2


#: The relative cost of a unit, by file, for :func:`_largest_first`: weights from the defaults' run
#: times (the measurements are in benchmarks/README.md, "Idle re-measurement after the merges").
_COST = {"scoring.json": 40.0, "perft.json": 15.0, "games.jsonl": 1.0, "deals.json": 0.1, "illegal": 150.0,
         "stacked": 1.0}


def _largest_first(ex: Executor, fn: Callable[[_Unit], str], units: list[_Unit], n_piles: int) -> Iterator[str]:
    """``ex.map(fn, units)``, the results in the units' order, but with workers the units are sent
    largest first (the longest processing time rule), so that no worker is left with a long unit
    while the other ones have finished: the results are held until the units before them are in."""
    if ex.in_process:
        yield from ex.map(fn, units)
        return

    def cost(u: _Unit) -> float:
        _, ruleset, name, lo, hi = u
        if ruleset in (ILLEGAL_DIR, STACKED_DIR):
            return _COST[ruleset]
        if name == "games.jsonl":
            return _COST[name] * (hi - lo) / 5
        return _COST[name] * (1 + n_piles / 200) / 2 if name == "scoring.json" else _COST[name]

    order = sorted(range(len(units)), key=lambda i: -cost(units[i]))  # stable: ties in the units' order
    held: dict[int, str] = {}
    following = 0
    for i, text in zip(order, ex.map(fn, [units[i] for i in order]), strict=True):
        held[i] = text
        while following in held:
            yield held.pop(following)
            following += 1


_Unit = tuple[str, str, str, int, int]


def _unit(unit: tuple[str, str, str, int, int], n_piles: int, z3: bool) -> str:
    """The text of one file of a game and ruleset (for ``games.jsonl``: matches ``lo`` to ``hi`` - 1)."""
    key, ruleset, name, lo, hi = unit
    g = game(key)
    if ruleset == ILLEGAL_DIR:
        from hanafuda.illegal import illegal_records

        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in illegal_records(g))
    if ruleset == STACKED_DIR:
        from hanafuda.stacked import stacked_deals, stacked_records

        if name.endswith(".json"):
            return _text(stacked_deals(key))
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in stacked_records(key))
    if ruleset == OPTIONS_DIR:
        return {"deals.json": lambda: _text(option_deal_vectors(g)), "games.jsonl": lambda: option_records(g),
                "perft.json": lambda: _text(option_perft_vectors(g))}[name]()
    if name == "deals.json":
        return _text(deal_vectors(g, ruleset))
    if name == "games.jsonl":
        return "".join(json.dumps(record_match(g, ruleset, {}, seed, seed, snapshots=True), separators=(",", ":"))
                       + "\n" for seed in range(lo, hi))
    if name == "scoring.json":
        return _text(scoring_vectors(g, ruleset, g.spec.resolve(ruleset), n_piles, z3))
    return _text(perft_vectors(g, ruleset))


#: The directory of the options suite: one seeded match per option set ``hanafuda verify`` plays
#: that no ruleset holds (each non-default option value), so that a corpus reaches the rules that
#: only act under an option (measured by ``benchmarks/corpus_adequacy.py``).
OPTIONS_DIR = "options"
#: The directory of the illegal-action suite (:mod:`hanafuda.illegal`): ``illegal/<game>.jsonl``.
ILLEGAL_DIR = "illegal"
#: The directory of the stacked-deal suite (:mod:`hanafuda.stacked`): ``stacked/<game>.jsonl``.
STACKED_DIR = "stacked"


def option_records(g: AnyGame) -> str:
    """The options suite's records: for each option set of
    :func:`~hanafuda_spec.verify.option_sets_beyond_rulesets`, the match of its seed (policy seed the
    same), one record per line."""
    return "".join(json.dumps(record_match(g, None, values, i, i, snapshots=True), separators=(",", ":")) + "\n"
                   for i, values in option_sets_beyond_rulesets(g.spec.key))


def option_deal_vectors(g: AnyGame) -> list[dict[str, object]]:
    """The options suite's deals: for each option set, the deal of its seed and the legal actions there."""
    return [{"options": values, **deal_vector(g, g.rules(None, values), i)}
            for i, values in option_sets_beyond_rulesets(g.spec.key)]


#: The options suite's perft rows: for each option set, every depth until the first count above this.
OPTION_PERFT_NODES = 2_000


def option_perft_vectors(g: AnyGame) -> dict[str, object]:
    """The options suite's perft counts, from the deal of each option set's seed."""
    rows: list[dict[str, object]] = []
    for i, values in option_sets_beyond_rulesets(g.spec.key):
        rules = g.rules(None, values)
        for depth in range(1, PERFT_MAX_DEPTH + 1):
            count = perft(g, rules, i, depth)
            rows.append({"options": values, **count.to_json()})
            if count.nodes > OPTION_PERFT_NODES:
                break
    return {"game": g.spec.key, "ruleset": None, "first_dealer": 0, "counts": rows}


def _text(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1) + "\n"


def _dump(path: Path, obj: object) -> None:
    path.write_text(_text(obj), encoding="utf-8")


def shuffle_vectors(games: list[AnyGame]) -> dict[str, object]:
    outputs = []
    for seed in (0, 1, 5, 2**64 - 1):
        rng = SplitMix64(seed)
        outputs.append({"seed": seed, "next": [rng.next() for _ in range(5)],
                        "below": [SplitMix64(seed).below(n) for n in (1, 2, 3, 48, 1000)]})
    decks: dict[str, Any] = {}
    for g in games:
        deck = g.deck(g.rules())
        if deck.name in decks:
            continue
        decks[deck.name] = {
            "canonical": [c.id for c in deck.cards],
            "shuffles": [{"seed": s, "order": [c.id for c in shuffled(deck.cards, SplitMix64(s))]}
                         for s in (0, 1, 2, 5, 12345)],
        }
    return {"generator": "SplitMix64 (hanafuda_spec.shuffle)", "outputs": outputs,
            "note": "below(n) here is the first call on a fresh generator for each n", "decks": decks}


def deal_vectors(g: AnyGame, ruleset: str) -> list[dict[str, object]]:
    rules = g.rules(ruleset)
    deck = g.deck(rules)
    out: list[dict[str, object]] = []
    for seed in range(10):
        out.append(deal_vector(g, rules, seed, deck))
    return out


def deal_vector(g: AnyGame, rules: Any, seed: int, deck: Any = None) -> dict[str, object]:
    """The deck orders of a match's first three deals from ``seed``, the dealt position (first dealer
    seat 0) and the legal actions there."""
    rng = SplitMix64(seed)
    cards = (deck or g.deck(rules)).cards
    orders = [shuffled(cards, rng) for _ in range(3)]
    info = g.new_match(rules, 0)
    setup = RoundSetup(1, info.dealer, g.seats_in_play(rules, info), info.scores)
    state = g.start_round(rules, orders[0], setup)
    return {"seed": seed, "first_dealer": 0, "deals": [[c.id for c in o] for o in orders],
            "dealt": g.snapshot(state, info).to_json(), "legal": [str(a) for a in g.legal_actions(state)]}


#: Perft tables: for each of these seeds, every depth from 1 until the first count above
#: PERFT_NODES (that depth included), or PERFT_MAX_DEPTH.
PERFT_SEEDS, PERFT_NODES, PERFT_MAX_DEPTH = (0, 1, 2), 20_000, 12


def perft_vectors(g: AnyGame, ruleset: str) -> dict[str, object]:
    rules = g.rules(ruleset)
    rows: list[dict[str, object]] = []
    for seed in PERFT_SEEDS:
        for depth in range(1, PERFT_MAX_DEPTH + 1):
            count = perft(g, rules, seed, depth)
            rows.append(count.to_json())
            if count.nodes > PERFT_NODES:
                break
    return {"game": g.spec.key, "ruleset": ruleset, "first_dealer": 0, "counts": rows}


def scoring_vectors(g: AnyGame, ruleset: str, values: Mapping[str, str], n: int,
                    z3: bool = True) -> dict[str, object]:
    rules = g.rules(ruleset)
    deck = g.deck(rules)
    ids = [c.id for c in deck.cards]
    rng = SplitMix64(0x5C0E)
    seen: set[tuple[tuple[int, ...], int | None]] = set()
    rows: list[dict[str, object]] = []

    def score(cards: tuple[int, ...], month: int | None) -> tuple[list[tuple[str, int]], int | None]:
        ps = g.score(rules, [deck.by_id(c) for c in cards], month)
        return [(y.id, y.points) for y in ps.yaku], ps.card_points

    def add(cards: tuple[int, ...], month: int | None, kind: str) -> list[tuple[str, int]]:
        yaku, cp = score(cards, month)
        key = (cards, month)
        if key not in seen:
            seen.add(key)
            rows.append({"kind": kind, "cards": list(cards), "month": month,
                         "yaku": [{"id": y, "points": p} for y, p in yaku], "card_points": cp})
        return yaku

    randoms = []
    for i in range(n):
        k = 1 + rng.below(min(24, len(ids)))
        cards = tuple(sorted(c.id for c in shuffled(deck.cards, rng)[:k]))
        month = None if i % 4 else 1 + rng.below(12)
        randoms.append((cards, month, add(cards, month, "random")))
    # boundary piles: for each yaku a random pile forms, shrink the pile to a minimal one that
    # still forms it, then record that pile less each of its cards.
    done: set[tuple[str, int | None]] = set()
    for cards, month, yaku in randoms:
        for yid, _ in yaku:
            if (yid, month) in done:
                continue
            done.add((yid, month))
            pile = list(cards)
            for c in list(pile):
                trial = tuple(x for x in pile if x != c)
                if any(y == yid for y, _ in score(trial, month)[0]):
                    pile = list(trial)
            minimal = tuple(pile)
            add(minimal, month, f"minimal:{yid}")
            for c in minimal:
                add(tuple(x for x in minimal if x != c), month, f"minimal-less-one:{yid}")
    z3_piles, z3_note = z3_boundary_piles(g.spec.key, values) if z3 else ([], "not included: --no-z3")
    for label, cards in z3_piles:
        add(tuple(sorted(cards)), None, f"z3:{label}")
    return {"game": g.spec.key, "ruleset": ruleset, "options": dict(values), "z3": z3_note or "included",
            "piles": rows}


def z3_boundary_piles(key: str, values: Mapping[str, str]) -> tuple[list[tuple[str, tuple[int, ...]]], str]:
    """The boundary piles the spec's z3 yaku model generates for a game's yaku table (the
    catalogue's ``yaku_table``), or none and the reason."""
    try:
        from hanafuda_spec.games import profile_for
        from hanafuda_spec.proofs.common import YakuModel, boundary_piles

        mod = importlib.import_module(f"hanafuda_spec.games.{key}")
        fn = getattr(mod, "yaku_table", None)
        if fn is None:
            return [], "not included: the catalogue has no yaku_table"
        rows = fn(values) if len(inspect.signature(fn).parameters) == 1 else fn(values, None)
        deck = profile_for(key).deck(values)
        return list(boundary_piles(YakuModel(rows, deck), len(deck))), ""
    except Exception as e:  # the z3 layer is optional here: say why it is missing
        return [], f"not included: {type(e).__name__}: {e}"


_README = f"""# hanafuda conformance vectors

Generated by `hanafuda vectors`. Everything here is deterministic: the same version of hanafuda
writes the same files. Card ids are those of `hanafuda cards GAME` (hanafuda cards: month*10 +
index; the Daini deck of Kujuroku: rank*10 + copy, Oni-fuda 0, Jizo 1). Actions are in the text
form of `hanafuda.engine.Action` (`play 31 30`, `take 30`, `koikoi`, ...). Positions are the
neutral snapshots of `hanafuda_spec.neutral` (zones `hand.<seat>`, `field`/`pile`, `stock` top
first, `captured.<side>`, `out.<what>`; `to_move`, `phase`, `dealer`, `round`, `scores`).

## Files

* `shuffle.json` - the documented shuffle (`hanafuda_spec.shuffle`): SplitMix64 outputs for a few
  seeds, and for each deck its canonical order and the first shuffle for a few seeds. An
  implementation that reproduces these deals exactly the same cards as ours from the same seed.
* `<game>/<ruleset>/deals.json` - for seeds 0..9: the deck orders of the first three deals of a
  match (one generator for the whole match: deal k is its k-th shuffle), the position right after
  the first deal (dealer seat 0), and the legal actions there.
* `<game>/<ruleset>/games.jsonl` - whole matches of random legal play, one `{FORMAT}` record per
  line, with every option value, every deal's order, each action's seat and the position right
  after it, every round's result (`deltas`, `yaku`, `reason`, ...) and the final scores. Replay
  the actions and compare; `hanafuda validate` checks any such record, yours included.
* `<game>/<ruleset>/scoring.json` - capture piles and what they score (yaku after exclusivity,
  with points, and card points where the game counts them); `month` is the round's month for
  round-dependent yaku (null: none). `kind` is `random`, `minimal:<yaku>` (a pile that forms the
  yaku and would not if any card were removed), `minimal-less-one:<yaku>` (such a pile less one
  card: the boundary just below the yaku), or `z3:<label>` (the boundary piles the spec's z3 model
  of the yaku table generates: just formed, one card short, one card past a bonus threshold; the
  file's `z3` field says whether they are included for that game).

* `<game>/options/` - the options suite: for each option set that `hanafuda verify` plays and no
  ruleset holds (every other value of each option, with the links between options resolved), the
  `i`-th of them with seed `i`: a deal vector (`deals.json`, with its `options`), a whole match
  (`games.jsonl`) and perft counts up to the first depth above 2,000 nodes (`perft.json`, each row
  with its `options`). The rules that only act under an option value are reached too.

* `<game>/<ruleset>/perft.json` - perft counts, as chess engines publish them: for seeds 0, 1 and
  2 (first dealer seat 0), the number of sequences of exactly `depth` legal actions from the
  match's first deal (`nodes`), and how many end with each kind of action (`by_kind`). Sequences
  go on into later rounds; one that ends the match early counts nothing (`hanafuda_spec.perft`
  defines it). `hanafuda perft GAME --seed S --depth D --divide` splits a count by first action to
  find where two engines part.
* `separating/<game>.jsonl` - the separating suite's records (issue 30): for every option and every
  pair of its values, the shortest record found that validates under one value and fails under the
  other, each way. A record's `rules` are the rules it validates under, `meta.fails_under` the rules
  (`ruleset`, `options`) under which it must fail, `meta.rule_ids` the rule ids our validator names
  there and `meta.vector` the pair (`option`, `values`, `minimal`). An engine playing the other
  rules must reject it.
* `separating/<game>.json` - the suite's summary: every pair with its status (`separated` both
  ways; `separated one way`, with the reason no record can exist the other way; `explained` with
  the reason no record can tell them apart; `unresolved` when the search found none within its
  bound) and the counts.
* `illegal/<game>.jsonl` - the illegal-action suite: seeded matches of random legal play (each
  ruleset, and each option set of the options suite) cut at a position and ended by one action the
  rules forbid there (format 1.1, status `abandoned`), one record per distinct way of breaking a
  rule. `meta.refused` gives the action's index (`action`) and the rule id that forbids it
  (`rule_id`). Your validator or engine must refuse the record at that action; compare the rule id.
* `stacked/<game>.jsonl` - the stacked-deal suite: situations random play seldom deals (a four of
  a month on the table under an option that acts on it, a draw pile that runs out early, ...), each
  a deal given as zones (format 1.1) and played out by random play, every action with the position
  after it and the round's result; `meta.stacked` says what it reaches (`why`) and the rule ids.
  Validate it as any record. `stacked/<game>.json` holds each deal (`deck`, as zones, with its
  `ruleset`, `options` and `first_dealer`), the position dealt (`dealt`) and the legal actions there
  (`legal`: none when the deal ends the round at once, as a misdeal does).

## Using them

1. Reproduce `shuffle.json` with your generator.
2. For each deal vector, deal from the order and compare the position and legal actions.
3. For each record, replay the actions, comparing your legal actions, positions and round
   results; or write your own games as records and run `hanafuda validate FILE`.
4. Reproduce the perft counts: they check that you generate the same legal actions everywhere
   along thousands of sequences. Through the adapter protocol, `hanafuda_spec.perft.perft_adapter`
   counts for any engine.
5. For each pile, compare your scorer's yaku (as a set of id and points) and card points.
6. To check an engine move by move, speak the referee protocol (`hanafuda_spec.referee`) and run
   `hanafuda referee GAME --engine "CMD"`.

## Index

| game | ruleset | directory |
|------|---------|-----------|
{{INDEX}}
"""
