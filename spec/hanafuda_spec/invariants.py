"""Invariants over the neutral form, and the one harness that runs them for every game.

An invariant looks at one :class:`Step` — the position before, the action taken, the
position after, the legal actions offered after it and the round that ended, if any — and
returns a one-line description of what is wrong, or ``None``. Generic invariants hold for every
game; each game's catalogue module adds its own through its :class:`GameProfile`.

The harness drives an :class:`~hanafuda_spec.adapter.EngineAdapter` with random legal play
(the documented SplitMix64 generator picks the actions, so a failing run is reproduced from its
seeds) and returns every violation with the action list that led to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SplitMix64

__all__ = [
    "GENERIC",
    "GameProfile",
    "Invariant",
    "RunReport",
    "Step",
    "Violation",
    "action_sort_key",
    "run_random",
]


def action_sort_key(text: str) -> tuple[str, tuple[int, ...], str]:
    """The canonical order of actions: by kind, then card ids as numbers, then label."""
    toks = text.split()
    nums = tuple(int(t) for t in toks[1:] if t.isdigit())
    label = " ".join(t for t in toks[1:] if not t.isdigit())
    return (toks[0] if toks else "", nums, label)


@dataclass(frozen=True)
class Step:
    """One transition, as the invariants see it."""

    options: Mapping[str, str]
    before: Snapshot | None
    action: str | None
    after: Snapshot
    legal: tuple[str, ...]
    outcomes: tuple[RoundOutcome, ...]
    match_over: bool
    round_actions: int


Invariant = Callable[[Step], str | None]


@dataclass(frozen=True)
class GameProfile:
    """What the harness needs to know about a game.

    ``deck`` gives the card ids of the deck the options select; ``zero_sum`` whether every
    settlement must sum to zero; ``max_round_actions`` bounds a round's length.
    """

    game: str
    deck: Callable[[Mapping[str, str]], tuple[int, ...]]
    zero_sum: Callable[[Mapping[str, str]], bool]
    max_round_actions: int
    invariants: tuple[tuple[str, Invariant], ...] = ()
    option_sets: tuple[Mapping[str, str], ...] = field(default=({},))


def conservation(profile: GameProfile) -> Invariant:
    def check(step: Step) -> str | None:
        cards = step.after.all_cards()
        want = profile.deck(step.options)
        if len(cards) != len(set(cards)):
            dup = sorted({c for c in cards if cards.count(c) > 1})
            return f"cards in two places at once: {dup}"
        if sorted(cards) != sorted(want):
            missing = sorted(set(want) - set(cards))
            extra = sorted(set(cards) - set(want))
            return f"card conservation broken: missing {missing}, unexpected {extra}"
        return None

    return check


def legal_sorted_unique(step: Step) -> str | None:
    keys = [action_sort_key(a) for a in step.legal]
    if keys != sorted(keys):
        return f"legal actions not sorted: {list(step.legal)}"
    if len(set(step.legal)) != len(step.legal):
        return f"legal actions not unique: {list(step.legal)}"
    return None


def nonempty_until_end(step: Step) -> str | None:
    if step.match_over and step.legal:
        return "legal actions offered after the match ended"
    if not step.match_over and not step.legal:
        return "no legal action although the match is not over"
    if not step.match_over and step.after.to_move is None:
        return "nobody to move although the match is not over"
    return None


def zero_sum(profile: GameProfile) -> Invariant:
    def check(step: Step) -> str | None:
        if not profile.zero_sum(step.options):
            return None
        for o in step.outcomes:
            if sum(o.deltas) != 0:
                return f"settlement is not zero-sum: {o.deltas}"
        return None

    return check


def bounded_round(profile: GameProfile) -> Invariant:
    def check(step: Step) -> str | None:
        if step.round_actions > profile.max_round_actions:
            return f"round longer than {profile.max_round_actions} actions"
        return None

    return check


def scores_follow_deltas(step: Step) -> str | None:
    if step.before is None:
        return None
    want = list(step.before.scores)
    for o in step.outcomes:
        want = [a + d for a, d in zip(want, o.deltas, strict=True)]
    if step.after.scores != tuple(want):
        deltas = [o.deltas for o in step.outcomes]
        return f"scores {step.after.scores} do not equal {step.before.scores} + {deltas}"
    return None


def final_positions(profile: GameProfile) -> Invariant:
    """A round's final position, where the implementation reports it: the game's own position, every
    card in exactly one place, and the scores it shows are those before the round was settled."""
    cards_ok = conservation(profile)

    def check(step: Step) -> str | None:
        scores = step.before.scores if step.before is not None else None
        for o in step.outcomes:
            f = o.final
            if f is None:
                continue
            if f.game != profile.game:
                return f"a {profile.game} round ended in a {f.game} position"
            bad = cards_ok(Step(step.options, None, None, f, (), (), False, 0))
            if bad is not None:
                return f"final position of a {o.reason} round: {bad}"
            if scores is not None and f.scores != scores:
                return f"final position of a {o.reason} round shows scores {f.scores}, before it was {scores}"
            if scores is not None:
                scores = tuple(a + d for a, d in zip(scores, o.deltas, strict=True))
        return None

    return check


def GENERIC(profile: GameProfile) -> tuple[tuple[str, Invariant], ...]:  # noqa: N802
    """The invariants every game must keep."""
    return (
        ("card-conservation", conservation(profile)),
        ("legal-sorted-unique", legal_sorted_unique),
        ("legal-nonempty-until-end", nonempty_until_end),
        ("zero-sum-settlement", zero_sum(profile)),
        ("bounded-round-length", bounded_round(profile)),
        ("scores-follow-settlement", scores_follow_deltas),
        ("final-positions", final_positions(profile)),
    )


@dataclass(frozen=True)
class Violation:
    """A broken invariant, with everything needed to reproduce it."""

    game: str
    invariant: str
    message: str
    options: Mapping[str, str]
    seed: int
    policy_seed: int
    actions: tuple[str, ...]

    def __str__(self) -> str:
        return (f"{self.game}: {self.invariant}: {self.message} (seed {self.seed}, policy {self.policy_seed}, "
                f"after {len(self.actions)} actions)")


@dataclass(frozen=True)
class RunReport:
    games: int
    actions: int
    rounds: int
    violations: tuple[Violation, ...]


def run_random(adapter: EngineAdapter, profile: GameProfile, options: Mapping[str, str], seed: int,
               policy_seed: int, max_actions: int = 100_000,
               deck: Sequence[int] | None = None) -> RunReport:
    """Play one match with random legal actions, checking every invariant after every step.

    Stops at the first violation (the action list in it reproduces the run)."""
    checks = (*GENERIC(profile), *profile.invariants)
    adapter.start(profile.game, options, seed, deck)
    rng = SplitMix64(policy_seed)
    actions: list[str] = []
    before: Snapshot | None = None
    action: str | None = None
    round_actions = 0
    rounds = 0
    for _ in range(max_actions + 1):
        snap = adapter.snapshot()
        legal = tuple(adapter.legal_actions())
        outcomes = tuple(adapter.rounds_ended()) if action is not None else ()
        over = adapter.match_over()
        rounds += sum(1 for o in outcomes if o.counts)
        step = Step(options, before, action, snap, legal, outcomes, over, round_actions)
        for name, inv in checks:
            msg = inv(step)
            if msg is not None:
                v = Violation(profile.game, name, msg, dict(options), seed, policy_seed, tuple(actions))
                return RunReport(1, len(actions), rounds, (v,))
        if outcomes:
            round_actions = 0
        if over:
            return RunReport(1, len(actions), rounds, ())
        action = legal[rng.below(len(legal))]
        before = snap
        try:
            adapter.apply(action)
        except ValueError as e:
            v = Violation(profile.game, "legal-action-accepted", f"{action!r} was offered but refused: {e}",
                          dict(options), seed, policy_seed, tuple(actions))
            return RunReport(1, len(actions), rounds, (v,))
        actions.append(action)
        round_actions += 1
    v = Violation(profile.game, "bounded-match-length", f"no end after {max_actions} actions", dict(options),
                  seed, policy_seed, tuple(actions))
    return RunReport(1, len(actions), rounds, (v,))
