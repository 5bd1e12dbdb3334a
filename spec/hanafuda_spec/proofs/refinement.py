"""The free-standing count models tied to the game: refinement checks against the engine behind the
adapter, one action at a time (issue 32, item 3).

A count model (:class:`~hanafuda_spec.proofs.common.CountModel`) is proved inductive over its own
variables; nothing in the proof says that the game moves as the model does, so a wrong model proves
a wrong thing. Here the engine plays (random play, and stacked decks that force the rare cases) and
after every action the position is abstracted to the model's variables; the check fails unless

* a round's first position is an initial state of the model, and
* the abstraction after the action is reached from the abstraction before it by one transition of
  the model: one step for a model of whole turns (Kujuroku's field parity), one run of the
  model's steps up to the next choice of a player for a model of the turn's parts (the shared
  fishing model, ``fishing_turn_model`` of :mod:`hanafuda_spec.proofs.common`: the hand card, the
  draw, the choice of a drawn card's target, the pass).

Covered here: the shared fishing model (Kekoro, Musashino-Bana's three deals) and Kujuroku's parity
model. Kujuroku's cards and jokers are refined in :mod:`~hanafuda_spec.proofs.kujuroku_jokers`,
Kusuri-gui's chips by ``ChipWatch`` of :mod:`hanafuda_spec.proofs.kusurigui` (now also near 0 chips:
:mod:`~hanafuda_spec.proofs.settlement`), Koi-Koi's round model and Musashino-Bana's Storm and Sun
by their own play checks in their game's proofs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from hanafuda_spec import z3layer as z
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import kekoro as ke
from hanafuda_spec.games import kujuroku as kj
from hanafuda_spec.games import musashino as mb
from hanafuda_spec.machines import place, probe_layout
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.proofs import common
from hanafuda_spec.proofs.common import SAMPLED, Case, CountModel, Outcome, timed
from hanafuda_spec.shuffle import SplitMix64

__all__ = ["REPLAYS", "Refinement", "checks", "fishing_refinement", "parity_refinement", "replay_check", "run"]

Result = tuple[bool, str, Mapping[str, object], int, tuple[Case, ...]]
#: A position as the model sees it (None: a position the model does not cover), given the round's
#: turn order (seats, the leader first) when known.
Abstraction = Callable[[Snapshot, Sequence[int]], dict[str, int] | None]


@dataclass
class Refinement:
    """A model, how a position maps to its variables, and how many of its steps one action may take
    (``steps``: 1 for a model of whole turns). ``free`` names the variables left open in a final
    position (the round over: nobody to move)."""

    model: CountModel
    abstraction: Abstraction
    steps: int
    free: tuple[str, ...] = ()
    #: Actions whose position before and after the model only sees at turn boundaries (the whole
    #: turn is checked from one boundary to the next): a model of whole turns.
    turns: bool = False
    #: Whether a round's first position is one the model's initial states are meant to cover (a
    #: round that does not is played without checks until a covered phase).
    covers: Callable[[Snapshot], bool] = lambda _s: True
    #: Names a rare transition (None for the others); those seen are gathered in ``seen``.
    event: Callable[[Mapping[str, int], Mapping[str, int], Mapping[str, int]], str | None] = lambda _a, _b, _c: None
    seen: set[str] = field(default_factory=set)
    #: What the positions before and after an action show of the model's state after its first step
    #: (for a model of a turn's parts: the state after the hand card), as variable values.
    stage: Callable[[Snapshot, str, Snapshot], dict[str, int]] = lambda _a, _b, _c: {}
    _sessions: dict[int, tuple[z.Session, list[dict[str, z.Int]]]] = field(default_factory=dict)

    def _session(self, k: int) -> tuple[z.Session, list[dict[str, z.Int]]]:
        if k not in self._sessions:
            states = [{n: z.int_var(f"{n}@{i}") for n in self.model.names} for i in range(k + 1)]
            keep = [states[i][n].eq(states[i + 1][n]) for i in range(k) for n in self.model.names
                    if n.startswith("param_")]
            self._sessions[k] = (z.Session([*(self.model.step(states[i], states[i + 1]) for i in range(k)), *keep]),
                                 states)
        return self._sessions[k]

    def initial(self, a: Mapping[str, int]) -> bool:
        v = {n: z.int_var(n) for n in self.model.names}
        return z.find([self.model.init(v), self.model.params(v), *(v[n].eq(a[n]) for n in self.model.names)]) \
            is not None

    def reached(self, pre: Mapping[str, int], post: Mapping[str, int], mid: Mapping[str, int] | None = None,
                ) -> int | None:
        """The fewest steps of the model from ``pre`` to ``post`` (at most ``steps``; with ``mid``,
        through a first step to a state with those values), or None."""
        for k in range(1, self.steps + 1):
            session, states = self._session(k)
            fixed = [*(states[0][n].eq(pre[n]) for n in self.model.names),
                     *(states[k][n].eq(post[n]) for n in self.model.names if n in post),
                     *(states[1][n].eq(x) for n, x in (mid or {}).items())]
            if session.find_all(fixed, [states[k][self.model.names[0]]], 1):
                return k
        return None


def _order(seats: int, leader: int, step: int) -> list[int]:
    return [(leader + i * step) % seats for i in range(seats)]


def run(adapter: EngineAdapter, game: str, options: Mapping[str, str], ref: Refinement, seed: int,
        deck: Sequence[int] | None, rounds: int, prefer: Sequence[str] = (), script: Sequence[str] | None = None,
        ) -> tuple[str | None, list[str], int, int]:
    """Play ``rounds`` rounds (random actions from ``seed``, ``prefer`` taken whenever legal; or the
    actions of ``script``) and check every action against ``ref``. The first disagreement (None), the
    actions, the actions checked and the round starts outside the model's initial states (skipped)."""
    rng = SplitMix64(seed)
    adapter.start(game, options, seed, deck)
    actions: list[str] = []
    checked = skipped = done = 0
    order: list[int] = []
    state: dict[str, int] | None = None
    seats = len(adapter.snapshot().scores)

    def guess() -> list[int]:
        """The turn order, the seats not yet seen to move in seat order (their hands are alike until
        they play, and the order is known by then)."""
        return order if len(order) == seats else [*order, *(i for i in range(seats) if i not in order)]

    def begin(s: Snapshot) -> str | None:
        nonlocal state, order, skipped
        state, order = None, []
        if s.to_move is None:
            return None
        order = [s.to_move]
        a = ref.abstraction(s, guess())
        if a is None:
            return None
        if not ref.covers(s):
            skipped += 1
            return None
        if not ref.initial(a):
            return f"the round's first position {a} is not an initial state of the model"
        state = a
        return None

    bad = begin(adapter.snapshot())
    while bad is None and done < rounds and not adapter.match_over():
        if script is not None and len(actions) == len(script):
            break
        legal = adapter.legal_actions()
        act = script[len(actions)] if script is not None else next(
            (a for p in prefer for a in legal if a.split()[:len(p.split())] == p.split()), None) \
            or legal[rng.below(len(legal))]
        before = adapter.snapshot()
        adapter.apply(act)
        actions.append(act)
        ended = adapter.rounds_ended()
        final = ended[0].final if ended else adapter.snapshot()
        if final is None:  # an implementation that does not report a round's final position
            state = None
            done += len(ended)
            bad = begin(adapter.snapshot())
            continue
        after = final
        if len(order) == 1 and not ended and after.to_move is not None and after.to_move != order[0]:
            order = _order(seats, order[0], (after.to_move - order[0]) % seats)
        if state is not None and not (ref.turns and not ended and after.phase != "play"):
            post = ref.abstraction(after, guess())
            if ended and post is not None:
                post = {n: x for n, x in post.items() if n not in ref.free}
            if post is None:
                state = None
            elif ref.turns and ended:
                state = None  # a model of whole turns: the round's last turn has no successor
            else:
                checked += 1
                mid = ref.stage(before, act, after)
                if ref.reached(state, post, mid) is None:
                    shown = f" through {mid}" if mid else ""
                    bad = (f"after {act!r} (from {before.phase}): no transition of the model from {state} to "
                           f"{post}{shown}")
                    break
                seen = ref.event(state, mid, post)
                if seen:
                    ref.seen.add(seen)
                state = dict(post) if not ended else None
        if ended:
            done += len(ended)
            bad = begin(adapter.snapshot())
        elif state is None and order and after.phase == "play" and (ref.turns or len(order) == seats):
            state = ref.abstraction(after, guess())  # back in a covered phase: resume from here
    return bad, actions, checked, skipped


# -- the shared fishing model ----------------------------------------------------------------------


def fishing_abstraction(seats: int) -> Abstraction:
    """A fishing position as :func:`~hanafuda_spec.proofs.common.fishing_turn_model` sees it: hands
    in turn order from the leader (``h0`` leads), field, draw pile, all capture piles, the waiting
    drawn card, whose turn it is and the phase (Kekoro's declaration comes at the end of a turn)."""
    def abstraction(s: Snapshot, order: Sequence[int]) -> dict[str, int] | None:
        phase = {"play": common.PLAY, "take": common.TAKE, "declare": common.DONE, "over": common.PLAY}.get(s.phase)
        if phase is None:
            return None
        out = {f"h{i}": len(s.zone(f"hand.{seat}")) for i, seat in enumerate(order[:seats])}
        out.update(f=len(s.zone("field")), s=len(s.zone("stock")), d=len(s.zone("drawn")), ph=phase,
                   c=sum(len(s.zone(zn)) for zn in s.zone_names() if zn.startswith("captured.")),
                   t=order.index(s.to_move) if s.to_move is not None and s.to_move in order else 0)
        return out
    return abstraction


THREE_CARDS = "a three-card capture"


def _three(a: Mapping[str, int], mid: Mapping[str, int], _b: Mapping[str, int]) -> str | None:
    """The hand card took three field cards."""
    return THREE_CARDS if mid.get("c", a["c"]) - a["c"] == 4 else None


def hand_stage(before: Snapshot, action: str, after: Snapshot) -> dict[str, int]:
    """The field and the capture piles just after a hand card, from the positions around the action:
    the field cards of its month that it took (those now captured), unless the drawn card is of the
    same month (then the two captures cannot be told apart, and nothing is given)."""
    words = action.split()
    if words[0] != "play" or len(words) < 2 or not words[1].isdigit() or before.phase != "play":
        return {}
    card = int(words[1])
    stock = before.zone("stock")
    if stock and stock[0] // 10 == card // 10:
        return {}
    captured = {c for zn in after.zone_names() if zn.startswith("captured.") for c in after.zone(zn)}
    f, c = len(before.zone("field")), sum(len(before.zone(zn)) for zn in before.zone_names()
                                          if zn.startswith("captured."))
    if card not in captured:
        return {"f": f + 1, "c": c}
    took = sum(1 for x in before.zone("field") if x // 10 == card // 10 and x in captured)
    return {"f": f - took, "c": c + took + 1}


def fishing_refinement(seats: int, deck: int, field_: int, hand: int) -> Refinement:
    return Refinement(common.fishing_turn_model(seats, deck, field_, hand), fishing_abstraction(seats), 3,
                      free=("t", "ph"), event=_three, stage=hand_stage)


def _three_card_deck(adapter: EngineAdapter, game: str, options: Mapping[str, str]) -> tuple[list[int], str]:
    """A stacked first deal with three cards of January on the field and the fourth in the leader's
    hand: the leader's ``play 13`` takes all four (the three-card capture)."""
    layout = probe_layout(adapter, game, options)
    deck48 = [m * 10 + i for i in range(4) for m in range(1, 13)]  # the months interleaved: no special deal
    adapter.start(game, options, 0, place(layout, {}, deck48))
    leader = adapter.snapshot().to_move
    order = place(layout, {"field": [10, 11, 12], f"hand.{leader}": [13]}, [c for c in deck48 if c // 10 != 1])
    return order, "play 13"


def _fishing_check(adapter: EngineAdapter, game: str, label: str, options: Mapping[str, str],
                   seats: int, field_: int, hand: int, quick: bool) -> Result:
    ref = fishing_refinement(seats, 48, field_, hand)
    n = 0
    runs: list[tuple[str, Sequence[int] | None, int, tuple[str, ...]]] = [
        (f"random play, seed {seed}", None, seed, ()) for seed in range(1, 2 if quick else 4)]
    if field_:
        stacked, prefer = _three_card_deck(adapter, game, options)
        runs.append(("a stacked three-card capture", stacked, 0, (prefer,)))  # (the seed the layout was probed with)
    for what, deck, seed, pref in runs:
        bad, actions, checked, _ = run(adapter, game, options, ref, seed, deck, 1 if quick else 3, pref)
        n += checked
        if bad:
            cx: dict[str, object] = {"kind": "play", "game": game, "options": dict(options), "seed": seed,
                                     "actions": actions, "check": "fishing-refinement"}
            if deck is not None:
                cx["deck"] = list(deck)
            return False, f"{label}, {what}: {bad}", cx, n, ()
    if field_ and THREE_CARDS not in ref.seen:
        return False, f"{label}: the stacked deck no longer makes a three-card capture", {}, n, ()
    return True, (f"sampled: {n} actions (random play{' and a stacked three-card capture' if field_ else ''}) each "
                  f"one run of the model to the next choice"), {}, n, ()


# -- Kujuroku's field parity -----------------------------------------------------------------------------


def parity_abstraction(s: Snapshot, order: Sequence[int]) -> dict[str, int] | None:
    """A Kujuroku position at a turn's start as the parity model sees it: the field cards, and where the
    Oni is (0 gone or captured, 1 in a hand, 2 in the draw pile)."""
    if s.phase not in ("play", "over"):
        return None
    hands = [c for zn in s.zone_names() if zn.startswith("hand.") for c in s.zone(zn)]
    oni = 1 if kj.ONI in hands else 2 if kj.ONI in s.zone("stock") else 0
    return {"f": len(s.zone("field")), "oni": oni}


def parity_refinement() -> Refinement:
    from hanafuda_spec.proofs.kujuroku import parity_model
    return Refinement(parity_model(), parity_abstraction, 1, turns=True, covers=_plain_deal)


def _plain_deal(s: Snapshot) -> bool:
    """The dealer took nothing at the deal (no joker and no three of a number on the field): the
    parity model's start of six field cards."""
    return not any(s.zone(zn) for zn in s.zone_names() if zn.startswith("captured."))


def _parity_check(adapter: EngineAdapter, quick: bool) -> Result:
    ref = parity_refinement()
    opts = kj.SPEC.resolve(None, {})
    n = starts = skipped = 0
    for seed in range(1, 4 if quick else 10):
        bad, actions, checked, skip = run(adapter, "kujuroku", opts, ref, seed, None, 2 if quick else 4)
        n += checked
        starts += 1
        skipped += skip
        if bad:
            return False, f"seed {seed}: {bad}", {"kind": "play", "game": "kujuroku", "options": opts, "seed": seed,
                                                    "actions": actions, "check": "parity-refinement"}, n, ()
    return True, (f"sampled: {n} whole turns of {starts} matches each one step of the parity model from the "
                  f"abstraction of the turn's start ({skipped} rounds began after the dealer's takes, outside the "
                  "model's start, and were checked from their first turn on)"), {}, n, ()


def checks(adapter: EngineAdapter, game: str, quick: bool) -> Iterator[Outcome]:
    """The refinement checks of ``game``'s free-standing models."""
    if game == "kekoro":
        opts = ke.SPEC.resolve(None, {})
        yield timed(game, "refinement: each action one run of the shared fishing count model (sampled, random "
                          "play and a stacked three-card capture)",
                    lambda: _fishing_check(adapter, game, "8 + 8 + 8", opts, 2, 8, 8, quick), SAMPLED)
    elif game == "musashino":
        for key, plan in mb.DEALS.items():
            opts = mb.SPEC.resolve(None, {"players": key})
            yield timed(game, f"refinement: each action one run of the shared fishing count model, players={key} "
                              "(sampled, random play and a stacked three-card capture)",
                        partial(_fishing_check, adapter, game, f"players={key}", opts, plan.players, plan.field,
                                plan.hand, quick), SAMPLED)
    elif game == "kujuroku":
        yield timed(game, "refinement: each whole turn one step of the field-parity model (sampled, random play)",
                    lambda: _parity_check(adapter, quick), SAMPLED)


#: The counterexamples :func:`replay_check` re-runs (their ``check``).
REPLAYS = ("fishing-refinement", "parity-refinement")


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run a refinement counterexample (a match, from a stacked deal if ``deck`` is given): the
    disagreement with the model, or None."""
    game, seed, actions, deck = cx.get("game"), cx.get("seed"), cx.get("actions"), cx.get("deck")
    if not isinstance(game, str) or not isinstance(seed, int) or not isinstance(actions, list) or (
            deck is not None and not isinstance(deck, list)):
        raise ValueError("counterexample: 'game' must be a string, 'seed' an integer, 'actions' and 'deck' lists")
    if cx.get("check") == "parity-refinement":
        ref = parity_refinement()
    else:
        key = options.get("players")
        plan = mb.DEALS[key] if game == "musashino" and key is not None else None
        ref = fishing_refinement(plan.players, 48, plan.field, plan.hand) if plan else fishing_refinement(2, 48, 8, 8)
    bad, _, _, _ = run(adapter, game, options, ref, seed, None if deck is None else [int(c) for c in deck], 1 << 30,
                       script=[str(a) for a in actions])
    return bad
