"""Hypothesis state machines: random legal play of any game through any adapter, with every
invariant of the game's profile checked after every step, and stacked decks that reach rare
situations on purpose.

:class:`Stepper` is the one place that turns an action list into checked steps; the state
machine, ``hanafuda verify --replay`` and the planted-bug tests all use it, so a counterexample
(game, options, seed, stacked deck, action list) means the same thing everywhere.

Stacked decks (:data:`DECKS`) exist per game for the situations random shuffles almost never
deal: for Koi-Koi, four of a month or four pairs on the table (misdeals, KK-DEAL-3, and the
field_teyaku variants) and in a hand (teyaku, KK-DEAL-4/5), for either seat or both; for
Kujuroku, the Oni-fuda and Jizo-fuda on the field or in hands and three of a rank on the field;
for Kusuri-gui, one to four willows among the field cards (flips and the misdeal); for Kekoro
and Musashino-Bana, the cards of several yaku (of an insta-win dekiyaku) face up with their
month-mates in one hand, so that the instant victory and the insta-win come within a few turns.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from hypothesis import HealthCheck, Verbosity, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule, run_state_machine_as_test

from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import profile_for, spec_for
from hanafuda_spec.invariants import GENERIC, Step, Violation
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SplitMix64, shuffled

__all__ = [
    "DECKS",
    "InvariantError",
    "Stepper",
    "counterexample",
    "deal_order",
    "machine_for",
    "run_machine",
]


class InvariantError(AssertionError):
    """A broken invariant found by a state machine; ``counterexample`` replays it."""

    def __init__(self, violation: Violation, deck: Sequence[int] | None) -> None:
        self.counterexample = counterexample(violation, deck)
        super().__init__(f"{violation.invariant}: {violation.message}\nreplay: {json.dumps(self.counterexample)}")


def counterexample(v: Violation, deck: Sequence[int] | None = None) -> dict[str, object]:
    """The replayable form of a violation (``hanafuda verify --replay`` reads it)."""
    out: dict[str, object] = {"kind": "play", "game": v.game, "options": dict(v.options), "seed": v.seed,
                              "actions": list(v.actions), "invariant": v.invariant, "message": v.message}
    if v.policy_seed:
        out["policy_seed"] = v.policy_seed
    if deck is not None:
        out["deck"] = list(deck)
    return out


@dataclass
class Stepper:
    """Drive one match through an adapter, checking every invariant after every step."""

    adapter: EngineAdapter
    game: str
    options: Mapping[str, str]
    seed: int = 0
    deck: Sequence[int] | None = None
    actions: list[str] = field(default_factory=list)
    legal: tuple[str, ...] = ()
    over: bool = False
    _before: Snapshot | None = None
    _round_actions: int = 0

    def __post_init__(self) -> None:
        profile = profile_for(self.game)
        self._checks = (*GENERIC(profile), *profile.invariants)

    def start(self) -> Violation | None:
        try:
            self.adapter.start(self.game, self.options, self.seed, self.deck)
        except ValueError:
            raise
        except Exception as e:
            return self.violation("engine-error", f"the deal raised {type(e).__name__}: {e}")
        self.actions, self._before, self._round_actions = [], None, 0
        return self._check(None, ())

    def _check(self, action: str | None, outcomes: tuple[RoundOutcome, ...]) -> Violation | None:
        snap = self.adapter.snapshot()
        self.legal = tuple(self.adapter.legal_actions())
        self.over = self.adapter.match_over()
        step = Step(self.options, self._before, action, snap, self.legal, outcomes, self.over, self._round_actions)
        self._before = snap
        if outcomes:
            self._round_actions = 0
        for name, inv in self._checks:
            msg = inv(step)
            if msg is not None:
                return self.violation(name, msg)
        return None

    def violation(self, name: str, msg: str) -> Violation:
        return Violation(self.game, name, msg, dict(self.options), self.seed, 0, tuple(self.actions))

    def step(self, action: str) -> Violation | None:
        """Apply one action (it must be legal) and check every invariant."""
        if action not in self.legal:
            return self.violation("replay", f"{action!r} is not a legal action here ({list(self.legal)[:12]})")
        try:
            self.adapter.apply(action)
        except ValueError as e:
            return self.violation("legal-action-accepted", f"{action!r} was offered but refused: {e}")
        except Exception as e:  # an engine crash is a failure to report, with its replay
            return self.violation("engine-error", f"{action!r} raised {type(e).__name__}: {e}")
        self.actions.append(action)
        self._round_actions += 1
        return self._check(action, tuple(self.adapter.rounds_ended()))


# -- stacked decks ------------------------------------------------------------------------------------


def deal_order(plan: Sequence[tuple[str, int]], wanted: Mapping[str, Sequence[int]], rest: Sequence[int]
               ) -> list[int]:
    """A deck order (top first) that deals ``wanted`` cards to each recipient when dealt by
    ``plan`` (recipient, packet size); other places are filled from ``rest`` in order, and what
    is left of ``rest`` follows (the draw pile)."""
    want = {k: list(v) for k, v in wanted.items()}
    used = {c for v in wanted.values() for c in v}
    filler = [c for c in rest if c not in used]
    out: list[int] = []
    for who, n in plan:
        for _ in range(n):
            out.append(want[who].pop(0) if want.get(who) else filler.pop(0))
    if any(want.values()):
        raise ValueError(f"more cards wanted than the deal gives: {want}")
    return out + filler


def _koikoi_plan(options: Mapping[str, str]) -> list[tuple[str, int]]:
    """KK-DEAL-1 with seat 0 dealing: opponent (seat 1), table, dealer, in packets."""
    h, p = int(options.get("hand_size", "8")), int(options.get("packets", "4"))
    got = {"hand.1": 0, "field": 0, "hand.0": 0}
    want = {"hand.1": h, "field": 8, "hand.0": h}
    plan: list[tuple[str, int]] = []
    while any(got[k] < want[k] for k in want):
        for k in ("hand.1", "field", "hand.0"):
            n = min(p, want[k] - got[k])
            if n:
                plan.append((k, n))
                got[k] += n
    return plan


def _month(m: int) -> list[int]:
    return [m * 10 + i for i in range(4)]


@st.composite
def koikoi_decks(draw: st.DrawFn, options: Mapping[str, str]) -> list[int]:
    """A first deal with a lucky hand or a table misdeal (four of a month or four pairs, on the
    table, in one hand or in both), or three of a month on the table with the fourth in a hand."""
    months = draw(st.permutations(range(1, 13)))
    where = draw(st.sampled_from(["field", "hand.0", "hand.1", "both", "three"]))
    shape = draw(st.sampled_from(["four", "pairs", "both"]))
    wanted: dict[str, list[int]] = {}
    mi = iter(months)

    def lucky(shape: str) -> list[int]:
        if shape == "four":
            return _month(next(mi))
        if shape == "pairs":
            return [c for _ in range(4) for c in _month(next(mi))[:2]]
        return _month(next(mi)) + [c for _ in range(2) for c in _month(next(mi))[:2]]

    if where == "three":  # three of a month on the table, the fourth in a hand: KK-CAP-3
        quad = _month(next(mi))
        wanted = {"field": quad[:3], draw(st.sampled_from(["hand.0", "hand.1"])): quad[3:]}
    for w in (["hand.0", "hand.1"] if where == "both" else [] if where == "three" else [where]):
        cards = lucky(shape if w != "field" or shape != "both" else "four")
        wanted[w] = cards[: 8 if w == "field" else int(options.get("hand_size", "8"))]
    rest = draw(st.permutations(sorted(c for m in range(1, 13) for c in _month(m))))
    return deal_order(_koikoi_plan(options), wanted, rest)


def probe_layout(adapter: EngineAdapter, game: str, options: Mapping[str, str],
                 clean: Callable[[Snapshot], bool] = lambda s: s.phase == "play") -> dict[str, list[int]]:
    """Where each deck position lands in the first position of a round, learnt by dealing a few
    shuffled decks through the adapter and keeping one whose deal had no special event (``clean``).

    This lets stacked decks be built for any implementation without knowing its packets; the deal
    itself is checked by each game's deal invariants."""
    deck = sorted(profile_for(game).deck(options))
    rng = SplitMix64(20261121)
    for _ in range(200):
        order = shuffled(deck, rng)
        adapter.start(game, options, 0, order)
        snap = adapter.snapshot()
        if snap.round != 1 or not clean(snap):
            continue
        pos = {c: i for i, c in enumerate(order)}
        return {name: sorted(pos[c] for c in cards) for name, cards in snap.zones if cards}
    raise ValueError(f"{game}: no clean deal found to learn the deal's layout")


def place(layout: Mapping[str, Sequence[int]], wanted: Mapping[str, Sequence[int]], rest: Sequence[int]
          ) -> list[int]:
    """A deck order putting ``wanted`` cards into the named zones' positions of ``layout`` (in
    order; ``stock.bottom`` fills the draw pile from its bottom), the other cards from ``rest`` in
    order."""
    size = sum(len(v) for v in layout.values())
    order: list[int | None] = [None] * size
    used: set[int] = set()
    for zone, cards in wanted.items():
        # "stock.bottom": the last cards of the draw pile, the last one deepest
        slots = list(layout.get(zone, ())) if zone != "stock.bottom" else list(layout.get("stock", ()))[::-1]
        if len(cards) > len(slots):
            raise ValueError(f"{len(cards)} cards wanted in {zone}, which gets {len(slots)}")
        for slot, c in zip(slots, cards, strict=False):
            order[slot] = c
            used.add(c)
    filler = iter(c for c in rest if c not in used)
    return [c if c is not None else next(filler) for c in order]


def _layout_decks(game: str, clean: Callable[[Snapshot], bool],
                  targets: Callable[[st.DrawFn, Mapping[str, str]], dict[str, list[int]]],
                  ) -> Callable[[Mapping[str, str]], st.SearchStrategy[list[int]]]:
    cache: dict[tuple[tuple[str, str], ...], dict[str, list[int]]] = {}

    def decks(options: Mapping[str, str]) -> st.SearchStrategy[list[int]]:
        @st.composite
        def build(draw: st.DrawFn) -> list[int]:
            key = tuple(sorted(options.items()))
            if key not in cache:
                factory = _LAYOUT_ADAPTER[0]
                if factory is None:
                    raise ValueError("machine_for() sets the adapter used to learn deal layouts")
                cache[key] = probe_layout(factory(), game, options, clean)
            wanted = targets(draw, options)
            rest = draw(st.permutations(sorted(profile_for(game).deck(options))))
            return place(cache[key], wanted, rest)
        return build()
    return decks


#: The adapter factory stacked decks learn layouts with (set by :func:`machine_for`).
_LAYOUT_ADAPTER: list[Callable[[], EngineAdapter] | None] = [None]

_KJ_ONI, _KJ_JIZO = 0, 1


def _kujuroku_targets(draw: st.DrawFn, options: Mapping[str, str]) -> dict[str, list[int]]:
    """The Oni-fuda (and the Jizo-fuda) where they meet: on the field at the deal (KJ-DEAL-4), in a
    hand (KJ-ONI-1…4), both in hands (KJ-JIZO-2/3), or three of a rank on the field (KJ-4)."""
    jizo = options.get("jizo") == "on"
    seats = [f"hand.{i}" for i in range(3)]
    kind = draw(st.sampled_from(["oni-field", "oni-hand", "triple", *(["jizo-field", "both-hands"] if jizo else [])]))
    if kind == "oni-field":
        return {"field": [_KJ_ONI]}
    if kind == "oni-hand":
        return {draw(st.sampled_from(seats)): [_KJ_ONI]}
    if kind == "jizo-field":
        return {"field": [_KJ_JIZO]}
    if kind == "both-hands":
        a, b = draw(st.sampled_from([(x, y) for x in seats for y in seats]))
        return {a: [_KJ_ONI]} | ({b: [_KJ_JIZO]} if b != a else {a: [_KJ_ONI, _KJ_JIZO]})
    rank = draw(st.integers(1, 10))
    return {"field": [rank * 10 + i for i in range(3)]}


def _kusurigui_targets(draw: st.DrawFn, options: Mapping[str, str]) -> dict[str, list[int]]:
    """Willows (all Oni-fuda) among the field cards: the face-up card a willow, flipped until a
    non-willow shows (KG-4), up to all four (a misdeal, KG-5)."""
    n = draw(st.integers(1, 4))
    willows = list(draw(st.permutations([110, 111, 112, 113])))[:n]
    return {"pile": willows[:1], "out.facedown": willows[1:]}


def _capture_setup(draw: st.DrawFn, targets: Sequence[int], seats: Sequence[str], field: int, hand: int
                   ) -> dict[str, list[int]]:
    """The ``targets`` face up on the field and, in one player's hand, a card of the same month for
    each, the other cards of those months at the bottom of the draw pile: that player alone can
    capture them all in the first turns."""
    seat = draw(st.sampled_from(list(seats)))
    chosen = list(targets)[:min(field, hand)]
    mates = []
    for c in chosen:
        others = [x for x in _month(c // 10) if x not in chosen and x not in mates]
        mates.append(draw(st.sampled_from(others)))
    buried = [x for c in chosen for x in _month(c // 10) if x not in chosen and x not in mates]
    return {"field": chosen, seat: mates, "stock.bottom": buried}


def _kekoro_targets(draw: st.DrawFn, options: Mapping[str, str]) -> dict[str, list[int]]:
    """Cards of several yaku on the field and their month-mates in one hand: a quick lead of three
    yaku, for the instant victory (KE-IV-1)."""
    from hanafuda_spec.games import kekoro

    rows = list(kekoro.yaku_table(options))
    picked: list[int] = []
    for i in draw(st.permutations(range(len(rows)))):
        pool = sorted(rows[i].pool - set(picked))
        if len(picked) + len(pool) <= 8 and len({c // 10 for c in (*picked, *pool)}) == len(picked) + len(pool):
            picked += pool
    return _capture_setup(draw, picked, ["hand.0", "hand.1"], 8, 8)


def _musashino_targets(draw: st.DrawFn, options: Mapping[str, str]) -> dict[str, list[int]]:
    """The cards of an insta-win dekiyaku (Five Kings, or part of Seven Red Ribbons) on the field and
    their month-mates in one hand (MB-YAKU-1: the round stops)."""
    from hanafuda_spec.games import musashino

    plan = musashino.DEALS[options.get("players", "3")]
    insta = [y for y in musashino.yaku_table(options) if y.stops_round]
    row = draw(st.sampled_from(insta))
    cards = sorted(next(iter(p)) for p in row.parts)
    if plan.field == 0:
        return {"hand.0": cards[:plan.hand]}
    return _capture_setup(draw, cards, [f"hand.{i}" for i in range(plan.players)], plan.field, plan.hand)


#: Per game: a strategy of stacked first deals for rare situations (options → strategy).
DECKS: dict[str, Callable[[Mapping[str, str]], st.SearchStrategy[list[int]]]] = {
    "koikoi": koikoi_decks,
    "kujuroku": _layout_decks("kujuroku", lambda s: s.phase == "play" and _KJ_ONI not in s.zone("field"),
                              _kujuroku_targets),
    "kusurigui": _layout_decks("kusurigui", lambda s: s.phase == "play" and not s.zone("out.willows"),
                               _kusurigui_targets),
    "kekoro": _layout_decks("kekoro", lambda s: s.phase == "play", _kekoro_targets),
    "musashino": _layout_decks("musashino", lambda s: s.phase == "play", _musashino_targets),
}


# -- the state machine --------------------------------------------------------------------------------


def machine_for(adapter_factory: Callable[[], EngineAdapter], game: str,
                options: Mapping[str, str] | None = None, stacked: bool = True) -> type[RuleBasedStateMachine]:
    """A state machine class playing ``game`` through adapters from ``adapter_factory``: each
    example starts a match (sometimes from a stacked deck), then takes random legal actions,
    checking every invariant after every step and starting a new match when one ends."""
    opts = dict(options) if options is not None else spec_for(game).resolve()
    _LAYOUT_ADAPTER[0] = adapter_factory
    decks = DECKS.get(game) if stacked else None
    deck_strategy: st.SearchStrategy[list[int] | None] = (
        st.one_of(st.none(), decks(opts)) if decks is not None else st.none())

    class GameMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.stepper: Stepper | None = None

        def _fail(self, v: Violation | None) -> None:
            if v is not None:
                assert self.stepper is not None
                raise InvariantError(v, self.stepper.deck)

        @initialize(seed=st.integers(0, 2**32 - 1), deck=deck_strategy)
        def begin(self, seed: int, deck: list[int] | None) -> None:
            self.stepper = Stepper(adapter_factory(), game, opts, seed, deck)
            self._fail(self.stepper.start())

        @precondition(lambda self: self.stepper is not None and not self.stepper.over)
        @rule(pick=st.integers(0, 1 << 16))
        def act(self, pick: int) -> None:
            assert self.stepper is not None
            legal = self.stepper.legal
            self._fail(self.stepper.step(legal[pick % len(legal)]))

        @precondition(lambda self: self.stepper is not None and self.stepper.over)
        @rule(seed=st.integers(0, 2**32 - 1))
        def new_match(self, seed: int) -> None:
            assert self.stepper is not None
            self.stepper = Stepper(self.stepper.adapter, game, opts, seed, None)
            self._fail(self.stepper.start())

    GameMachine.__name__ = GameMachine.__qualname__ = f"{game.capitalize()}Machine"
    return GameMachine


def run_machine(adapter_factory: Callable[[], EngineAdapter], game: str, options: Mapping[str, str] | None,
                examples: int, steps: int = 200, stacked: bool = True) -> dict[str, object] | None:
    """Run a state machine as ``verify`` does (derandomized, quiet); the replayable
    counterexample of the smallest failure Hypothesis finds, or ``None``."""
    cls = machine_for(adapter_factory, game, options, stacked)
    conf = settings(max_examples=examples, stateful_step_count=steps, derandomize=True, database=None,
                    deadline=None, verbosity=Verbosity.quiet, print_blob=False,
                    suppress_health_check=list(HealthCheck))
    try:
        run_state_machine_as_test(cls, settings=conf)
    except InvariantError as e:
        return e.counterexample
    return None
