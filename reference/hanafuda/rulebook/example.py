"""The illustrated example round of each rulebook: a seeded game record, checked at every build.

Each game has one :class:`ExampleSpec` (the seed, the options, which deal the page shows and what
it illustrates). Its record, a ``hanafuda-record/1`` document with the position after every action
of the shown deal, is committed under ``docs/examples/records/<game>.json``. Every build replays the
record through the reference (:func:`hanafuda.records.problems_of`) before it draws anything: a
change to the rules that changes the example (an action no longer legal, another capture, another
settlement) is a build error, never a wrong page. ``python -m hanafuda.rulebook.example DIR``
writes the records again after a deliberate change of the rules.

The page itself is drawn from the replay: the deal (each hand and the table, as card pictures),
then one line per turn (the cards played, drawn and captured), the yaku as they form, and the
settlement with its arithmetic.

>>> ex = EXAMPLES["koikoi"]
>>> doc = make_record(ex)
>>> check_record(doc, ex)
[]
>>> doc["actions"][0] = "play 999"
>>> print(check_record(doc, ex)[0])  # doctest: +ELLIPSIS
record 1, deal 1, action 0, $.actions[0]: [KK-TURN-2] 'play 999' is illegal: ...
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hanafuda_spec.neutral import JsonValue, Snapshot
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import Action, Match, MatchInfo, RoundResult
from hanafuda.records import problems_of, record_match
from hanafuda.registry import game

__all__ = ["EXAMPLES", "ExampleError", "ExampleSpec", "Turn", "check_record", "load_checked", "make_record",
           "replay_deal", "write_records"]


@dataclass(frozen=True)
class ExampleSpec:
    """One game's example: a match of seeded, mostly greedy play, and the deal the page shows."""

    game: str
    seed: int
    policy_seed: int
    deal: int
    shows: str
    options: Mapping[str, str] = field(default_factory=dict)
    ruleset: str | None = None


#: The example of each game. The seeds were picked (by trying seeds in order) for deals that show
#: the game's special cards: the Oni and the Jizo, the willows and a Kusuri-gui payment, a Storm and the Sun,
#: an instant victory.
EXAMPLES: dict[str, ExampleSpec] = {
    ex.game: ex for ex in (
        ExampleSpec("koikoi", 12, 12, 1, "a player forms a yaku and calls koi-koi; the opponent then stops with "
                    "seven points, doubled for reaching seven and doubled again for the koi-koi",
                    {"length": "1"}),
        ExampleSpec("kusurigui", 4, 4, 1, "willows (Oni-fuda) capturing the pile, and Kusuri-gui payments made on "
                    "the spot", {"rounds": "6"}),
        ExampleSpec("kujuroku", 23, 23, 1, "the Jizo variant: the Oni-fuda dealt to the table, taken by the dealer "
                    "with a card of their choice; the Jizo-fuda drawn; chips settled from card points", {"jizo": "on"}),
        ExampleSpec("musashino", 9, 9, 1, "three players with the Storm house rule (its cards version) and the Sun: "
                    "a Storm card takes the Moon's dekiyaku away from one player, and the Crane, taken after the "
                    "Rain Man, calls off the Rain Man's Storm for another", {"storm": "cards", "length": "3"}),
        ExampleSpec("kekoro", 1, 1, 1, "card values and thirty-point yaku, and a player three yaku ahead "
                    "declaring the instant victory", {"round_limit": "3"}),
    )
}


class ExampleError(ValueError):
    """An example record is missing or does not validate: the build must stop."""


def records_dir() -> Path:
    """Where the example records are committed (``docs/examples/records``)."""
    from hanafuda.rulebook.build import docs_dir

    return docs_dir() / "examples" / "records"


# -- writing ------------------------------------------------------------------------------------


def _captured(s: Snapshot) -> int:
    return sum(len(c) for n, c in s.zones if n.startswith("captured."))


def _choose(g: Any, m: Match[Any, Any], legal: Sequence[Action], rng: SplitMix64) -> Action:
    """Greedy play: the action that captures most (ties broken by the seeded generator); a stop or
    a declaration is preferred when offered, so that rounds end the way the rules allow."""
    for a in legal:
        if a.kind in ("declare",):
            return a
    before = _captured(g.snapshot(m.state, m.info))
    gains = [_captured(g.snapshot(g.do(m.state, a), m.info)) - before for a in legal]
    best = max(gains)
    top = [a for a, n in zip(legal, gains, strict=True) if n == best]
    return top[rng.below(len(top))]


def make_record(ex: ExampleSpec) -> dict[str, JsonValue]:
    """Play the example's match (greedy play, :func:`_choose`) and return its record: every action
    in text form, the shown deal's actions with their seat and the position after them."""
    g = game(ex.game)
    return record_match(g, ex.ruleset, ex.options, ex.seed, ex.policy_seed,
                        policy=lambda m, legal, rng: _choose(g, m, legal, rng), snapshot_deal=ex.deal)


def write_records(out: Path) -> list[Path]:
    """Write every example's record (``<game>.json``) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for ex in EXAMPLES.values():
        p = out / f"{ex.game}.json"
        p.write_text(json.dumps(make_record(ex), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        paths.append(p)
    return paths


# -- checking -----------------------------------------------------------------------------------


def check_record(doc: Mapping[str, Any], ex: ExampleSpec) -> list[str]:
    """Every problem of an example record: it must be the example's game, seed and rules, carry the
    position after each action of the shown deal, and replay through the reference without one."""
    out = [str(p) for p in problems_of(dict(doc))]
    if out:
        return out
    if doc.get("game") != ex.game or doc.get("seed") != ex.seed:
        out.append(f"the record is not the example's (game {ex.game}, seed {ex.seed})")
    g = game(ex.game)
    want = g.spec.resolve(ex.ruleset, ex.options)
    rules = doc.get("rules")
    if not isinstance(rules, dict) or rules.get("options") != want:
        out.append("the record's options are not the example's")
    rounds = doc.get("result", {}).get("rounds", []) if isinstance(doc.get("result"), dict) else []
    if not isinstance(rounds, list) or len(rounds) < ex.deal or not rounds[ex.deal - 1].get("actions"):
        out.append(f"deal {ex.deal} is not a deal with play in the record")
    else:
        start = sum(int(r.get("actions", 0)) for r in rounds[:ex.deal - 1])
        shown = doc.get("actions", [])[start:start + int(rounds[ex.deal - 1]["actions"])]
        if not all(isinstance(a, dict) and "after" in a for a in shown):
            out.append(f"the actions of deal {ex.deal} must carry the position after them")
    return out


def load_checked(key: str, directory: Path | None = None) -> dict[str, Any] | None:
    """The example record of a game, checked; None if the game has no example. Raises
    :class:`ExampleError` (one line naming the file and the first problem) when it is missing or
    does not validate."""
    ex = EXAMPLES.get(key)
    if ex is None:
        return None
    path = (directory or records_dir()) / f"{key}.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ExampleError(f"{path}: cannot read the example record ({e})") from e
    if not isinstance(doc, dict):
        raise ExampleError(f"{path}: not a record")
    problems = check_record(doc, ex)
    if problems:
        raise ExampleError(f"{path}: the example record does not validate against the rules ({len(problems)} "
                           f"problem(s)); first: {problems[0]}. If the rules changed on purpose, write the "
                           f"records again: python -m hanafuda.rulebook.example docs/examples/records")
    return doc


# -- replaying for the page ---------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """What one player did in one turn: the actions and the cards that moved."""

    seat: int
    actions: tuple[str, ...]
    at_deal: bool
    played: tuple[int, ...]
    drawn: tuple[int, ...]
    captured: tuple[int, ...]
    to_table: tuple[int, ...]
    elsewhere: tuple[tuple[str, tuple[int, ...]], ...]
    new_yaku: tuple[ScoredYaku, ...]
    after: Snapshot


@dataclass(frozen=True)
class DealView:
    """The shown deal of an example: the position dealt, the turns, the final position and result."""

    start: Snapshot
    turns: tuple[Turn, ...]
    end: Snapshot
    result: RoundResult
    before: MatchInfo
    #: The game's own state at the end of the deal (the example page asks the game about it).
    end_state: Any = None


def _zones(s: Snapshot) -> dict[str, tuple[int, ...]]:
    return dict(s.zones)


def _pile_yaku(g: Any, rules: Any, s: Snapshot) -> dict[str, set[tuple[str, int]]]:
    deck = g.deck(rules)
    month = (s.round - 1) % 12 + 1
    out = {}
    for name, cards in s.zones:
        if name.startswith("captured."):
            ps = g.score(rules, [deck.by_id(c) for c in cards], month)
            out[name] = {(y.id, y.points) for y in ps.yaku}
    return out


def replay_deal(doc: Mapping[str, Any], ex: ExampleSpec) -> DealView:
    """Replay a checked record up to and through the shown deal."""
    g = game(ex.game)
    rules = g.rules(ex.ruleset, ex.options)
    finals: list[tuple[Snapshot, MatchInfo]] = []
    states: list[Any] = []

    def seen(state: Any, info: MatchInfo) -> None:
        finals.append((g.snapshot(state, info), info))
        states.append(state)

    m: Match[Any, Any] = Match.start(g, rules, int(doc["seed"]), int(doc.get("first_dealer", 0)), seen)
    texts = [a["action"] if isinstance(a, dict) else a for a in doc["actions"]]
    i = 0
    while len(m.info.history) + 1 < ex.deal:
        m = m.apply(Action.parse(texts[i]), seen)
        i += 1
    start = g.snapshot(m.state, m.info)
    before = m.info
    turns: list[Turn] = []
    prev = start
    yaku = _pile_yaku(g, rules, start)
    group: list[str] = []
    group_start = start
    seat = _mover(g, m.state)
    while len(m.info.history) < ex.deal:
        mover = _mover(g, m.state)
        text = texts[i]
        if group and (mover != seat or _at_deal(group[-1]) != _at_deal(text)):
            turns.append(_turn(g, rules, seat, group, group_start, prev, yaku))
            yaku = _pile_yaku(g, rules, prev)
            group, group_start = [], prev
        seat = mover
        nxt = g.do(m.state, Action.parse(text))
        after = g.snapshot(nxt, m.info)
        m = m.apply(Action.parse(text), seen)
        group.append(text)
        prev = after
        i += 1
    turns.append(_turn(g, rules, seat, group, group_start, prev, yaku))
    end, _ = finals[ex.deal - 1] if len(finals) >= ex.deal else (prev, m.info)
    return DealView(start, tuple(turns), end, m.info.history[ex.deal - 1], before,
                    states[ex.deal - 1] if len(states) >= ex.deal else None)


def _mover(g: Any, state: Any) -> int:
    seat = g.to_move(state)
    if not isinstance(seat, int):
        raise ExampleError("the example's deal ended before its recorded actions did")
    return seat


def _at_deal(text: str) -> bool:
    """Whether an action is a take at the deal (Kujuroku's dealer collecting jokers and triples)."""
    return text.split(maxsplit=1)[0] == "collect"


def _turn(g: Any, rules: Any, seat: int, actions: Sequence[str], a: Snapshot, b: Snapshot,
          yaku_before: dict[str, set[tuple[str, int]]]) -> Turn:
    za, zb = _zones(a), _zones(b)
    hand = f"hand.{seat}"
    played = tuple(c for c in za.get(hand, ()) if c not in zb.get(hand, ()))
    in_hands = {c for name, cards in zb.items() if name.startswith("hand.") for c in cards}
    left_stock = [c for c in za.get("stock", ()) if c not in zb.get("stock", ())]
    drawn = tuple(c for c in left_stock if c not in in_hands)
    redealt = tuple(c for c in left_stock if c in in_hands)
    captured: list[int] = []
    elsewhere: list[tuple[str, tuple[int, ...]]] = [("redeal", redealt)] if redealt else []
    to_table: tuple[int, ...] = ()
    for name, cards in zb.items():
        new = tuple(c for c in cards if c not in za.get(name, ()))
        if not new or name in ("stock", "drawn") or name.startswith("hand."):
            continue
        if name.startswith("captured."):
            captured.extend(new)
        elif name in ("field", "pile"):
            to_table = new
        else:
            elsewhere.append((name, new))
    after = _pile_yaku(g, rules, b)
    new_yaku = tuple(ScoredYaku(yid, pts) for name, ys in after.items() for yid, pts in sorted(ys)
                     if (yid, pts) not in yaku_before.get(name, set()))
    return Turn(seat, tuple(actions), all(_at_deal(a) for a in actions), played, drawn, tuple(sorted(captured)),
                to_table, tuple(elsewhere), new_yaku, b)


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m hanafuda.rulebook.example DIR  (writes the example records)", file=sys.stderr)
        return 2
    for p in write_records(Path(argv[0])):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
