"""Every invariant of every game is shown to fire.

The reference is right, so random play alone never shows that an invariant can fail: an invariant
weakened or deleted would go unnoticed. Each case here takes a match the reference really played
(recorded through the adapter protocol as :class:`~hanafuda_spec.invariants.Step` values), feeds its
first steps to every invariant of the game (they must all pass), then one hand-made wrong step — a
real step with one thing changed, as a wrong engine would report it — and asserts that exactly the
named invariant fails (plus, where a wrong step cannot avoid it, the invariants listed as firing with
it, each with the reason).

:func:`test_every_invariant_has_a_firing_case` lists the invariants from the data (the generic ones
and each game's ``PROFILE``) and fails when one has no case here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec.adapter import RoundOutcome
from hanafuda_spec.games import GAME_KEYS, profile_for, spec_for
from hanafuda_spec.games.kekoro import DECLARE, INSTANT_VICTORY
from hanafuda_spec.games.kujuroku import ONI
from hanafuda_spec.games.kusurigui import WILLOWS
from hanafuda_spec.invariants import GENERIC, GameProfile, Invariant, Step, action_sort_key, run_random
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SplitMix64
from hanafuda_spec.yaku import ScoredYaku

from tests.wrapping import Delegate

Options = tuple[tuple[str, str], ...]


# -- recording real play and changing one step -----------------------------------------------------

@functools.cache
def record(game: str, options: Options = (), seed: int = 1, policy: int = 1) -> tuple[Step, ...]:
    """Every step of one match the reference plays with random legal actions (as ``run_random`` sees it)."""
    opts = dict(spec_for(game).resolve(None, dict(options)))  # every option named, as ``verify`` runs it
    adapter = ReferenceAdapter()
    adapter.start(game, opts, seed)
    rng = SplitMix64(policy)
    steps: list[Step] = []
    before: Snapshot | None = None
    action: str | None = None
    round_actions = 0
    while True:
        snap = adapter.snapshot()
        legal = tuple(adapter.legal_actions())
        outcomes = tuple(adapter.rounds_ended()) if action is not None else ()
        over = adapter.match_over()
        steps.append(Step(opts, before, action, snap, legal, outcomes, over, round_actions))
        if outcomes:
            round_actions = 0
        if over:
            return tuple(steps)
        action = legal[rng.below(len(legal))]
        before = snap
        adapter.apply(action)
        round_actions += 1


def checks(game: str) -> tuple[tuple[str, Invariant], ...]:
    """All invariants of a game, as ``run_random`` runs them."""
    profile = profile_for(game)
    return (*GENERIC(profile), *profile.invariants)


def failing(game: str, steps: Iterable[Step], bad: Step) -> set[str]:
    """Feed ``steps`` (which must all pass) then ``bad``; the names of the invariants ``bad`` breaks."""
    all_checks = checks(game)
    for i, s in enumerate(steps):
        broken = {name: msg for name, inv in all_checks if (msg := inv(s)) is not None}
        assert not broken, f"the real step {i} already fails: {broken}"
    return {name for name, inv in all_checks if inv(bad) is not None}


def zone_set(s: Snapshot, name: str, cards: Iterable[int]) -> Snapshot:
    """``s`` with zone ``name`` holding ``cards`` (the zone is added if missing)."""
    cards = tuple(cards)
    if name not in s.zone_names():
        return replace(s, zones=(*s.zones, (name, cards)))
    return replace(s, zones=tuple((n, cards if n == name else c) for n, c in s.zones))


def move(s: Snapshot, card: int, src: str, dst: str) -> Snapshot:
    """``s`` with ``card`` moved from zone ``src`` to the end of zone ``dst``."""
    assert card in s.zone(src), (card, src, s.zone(src))
    s = zone_set(s, src, [c for c in s.zone(src) if c != card])
    return zone_set(s, dst, (*s.zone(dst), card))


def swap(s: Snapshot, a: int, b: int) -> Snapshot:
    """``s`` with cards ``a`` and ``b`` exchanged wherever they are (hands kept sorted)."""
    def one(name: str, cards: tuple[int, ...]) -> tuple[int, ...]:
        out = tuple(b if c == a else a if c == b else c for c in cards)
        return tuple(sorted(out)) if name.startswith("hand.") else out
    return replace(s, zones=tuple((n, one(n, c)) for n, c in s.zones))


def where(s: Snapshot, card: int) -> str:
    return next(n for n, cards in s.zones if card in cards)


def find(steps: tuple[Step, ...], pred: Callable[[Step], bool], start: int = 1) -> int:
    """Index of the first step from ``start`` that ``pred`` accepts."""
    for i in range(start, len(steps)):
        if pred(steps[i]):
            return i
    raise AssertionError("no recorded step fits this case; pick another seed")


def mid(s: Step) -> bool:
    """A step inside a round: an action was taken, no round ended, someone is to play a hand card."""
    return s.before is not None and not s.outcomes and s.after.phase == "play" and s.after.to_move is not None


def round_end(s: Step) -> bool:
    """A step after which a round that counts ended and the match goes on."""
    return any(o.counts for o in s.outcomes) and not s.match_over


def ended_early(s: Step) -> Step:
    """The match reported over after a round that was not its last."""
    return replace(s, match_over=True, legal=())


def with_deltas(s: Step, k: int, deltas: tuple[int, ...]) -> Step:
    """Outcome ``k`` settled as ``deltas``, the scores after the step changed to follow."""
    o = s.outcomes[k]
    diff = [n - d for n, d in zip(deltas, o.deltas, strict=True)]
    outs = tuple(replace(x, deltas=deltas) if i == k else x for i, x in enumerate(s.outcomes))
    scores = tuple(a + d for a, d in zip(s.after.scores, diff, strict=True))
    return replace(s, outcomes=outs, after=replace(s.after, scores=scores))


def with_scores(snap: Snapshot, seat: int, by: int) -> Snapshot:
    return replace(snap, scores=tuple(x + by if i == seat else x for i, x in enumerate(snap.scores)))


# -- the cases ------------------------------------------------------------------------------------

Mutation = Callable[[tuple[Step, ...]], tuple[int, Step]]


@dataclass(frozen=True)
class Case:
    """A wrong step: ``mutate`` picks a step of the recorded match and returns its index and the
    changed step; ``also`` are the invariants that cannot help failing with it (with the reason)."""

    game: str
    invariant: str
    what: str
    mutate: Mutation
    options: Options = ()
    also: tuple[str, ...] = ()
    seed: int = 1

    @property
    def id(self) -> str:
        return f"{self.game}:{self.invariant}:{self.what}"


CASES: list[Case] = []

#: Invariants that no wrong step can make fail, with the reason (reported, not deleted).
CANNOT_FIRE: dict[tuple[str, str], str] = {
    ("kekoro", "zero-sum-settlement"): "Kekoro is not zero-sum (its profile's zero_sum is always False): "
                                       "both players score their own cards, so the check never applies.",
}


def case(game: str, invariant: str, what: str, options: Mapping[str, str] | None = None,
         also: tuple[str, ...] = (), seed: int = 1) -> Callable[[Mutation], Mutation]:
    def register(f: Mutation) -> Mutation:
        CASES.append(Case(game, invariant, what, f, tuple(sorted((options or {}).items())), also, seed))
        return f
    return register


# generic invariants, for every game

def _conservation(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and len(s.after.zone("stock")) > 8)
    s = steps[i]
    stock = s.after.zone("stock")
    return i, replace(s, after=zone_set(s.after, "stock", (*stock[:-1], 999)))  # the bottom card swapped


def _unsorted(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and len(set(s.legal)) > 1)
    return i, replace(steps[i], legal=tuple(reversed(steps[i].legal)))


def _duplicate(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and len(s.legal) > 1)
    legal = steps[i].legal
    return i, replace(steps[i], legal=(legal[0], *legal))  # the first action offered twice, still in order


def _no_action(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    return i, replace(steps[i], legal=())


def _long_round(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    return i, replace(steps[i], round_actions=10_000)


def _scores_drift(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    return i, replace(s, after=with_scores(with_scores(s.after, 0, 1), 1, -1))


def _final_scores(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.final is not None for o in s.outcomes))
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if o.final is not None)
    o = s.outcomes[k]
    assert o.final is not None
    bad = replace(o, final=with_scores(o.final, 0, 7))
    return i, replace(s, outcomes=tuple(bad if j == k else x for j, x in enumerate(s.outcomes)))


def _actions_after_end(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = len(steps) - 1
    assert steps[i].match_over
    return i, replace(steps[i], legal=steps[find(steps, mid)].legal)  # plays, as in the middle of a round


def _final_cards(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.final is not None for o in s.outcomes))
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if o.final is not None)
    o = s.outcomes[k]
    assert o.final is not None
    # a card not in the deck left in the draw pile (the capture piles, which the settlement reads, untouched)
    bad = replace(o, final=zone_set(o.final, "stock", (*o.final.zone("stock"), 999)))
    return i, replace(s, outcomes=tuple(bad if j == k else x for j, x in enumerate(s.outcomes)))


def _not_zero_sum(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.counts and any(o.deltas) for o in s.outcomes) and not s.match_over)
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if o.counts and any(o.deltas))
    w = max(range(len(s.outcomes[k].deltas)), key=lambda j: s.outcomes[k].deltas[j])
    return i, with_deltas(s, k, tuple(d + 1 if j == w else d for j, d in enumerate(s.outcomes[k].deltas)))


def _second_round(steps: tuple[Step, ...], forget: bool) -> tuple[int, Step]:
    """A step that ends a round and then a void deal (two outcomes), the void deal's final position
    showing the scores before (``forget``) or after the first round's settlement."""
    def ok(s: Step) -> bool:
        return round_end(s) and len(s.outcomes) == 1 and any(s.outcomes[0].deltas) and s.before is not None
    i = find(steps, ok)
    s = steps[i]
    assert s.before is not None
    shown = s.before.scores if forget else s.after.scores
    void = RoundOutcome("misdeal", (0,) * len(shown), False, tuple(() for _ in shown),
                        final=replace(s.after, scores=shown))
    return i, replace(s, outcomes=(*s.outcomes, void))


case("koikoi", "final-positions", "a second round's final position forgets the first settlement",
     {"length": "3"})(lambda steps: _second_round(steps, True))


def test_two_rounds_in_one_step_settled_in_order_pass() -> None:
    """The other side of the case above: final positions that follow each settlement in turn pass."""
    steps = record("koikoi", (("length", "3"),))
    i, good = _second_round(steps, False)
    assert failing("koikoi", steps[:i], good) == set()


#: Options under which a game settles zero-sum, and what else a non-zero-sum settlement breaks there.
_ZERO_SUM: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "koikoi": ({"zero_sum": "on", "length": "3"}, ()),
    # the total of chips is an invariant of its own, and the settlement is checked exactly
    "kujuroku": ({}, ("KJ-EQ-4 chips are conserved", "KJ-SCORE-3 settlement shape",
                      "KJ-SCORE-1 settlement from the final capture piles")),
    "kusurigui": ({"rounds": "6"}, ("KG-EQ-2 chips conserved", "KG-PAY-1 plays, re-deals, payments and settlement")),
    "musashino": ({"length": "3"}, ("MB-SCORE-1..5 settlement follows the dekiyaku",)),
}

for _g in GAME_KEYS:
    _short = {"koikoi": {"length": "3"}, "kusurigui": {"rounds": "6"}, "musashino": {"length": "3"},
              "kujuroku": {}, "kekoro": {}}[_g]
    case(_g, "card-conservation", "a card replaced by one not in the deck", _short)(_conservation)
    case(_g, "legal-sorted-unique", "legal actions out of order", _short)(_unsorted)
    case(_g, "legal-sorted-unique", "a legal action offered twice", _short)(_duplicate)
    case(_g, "legal-nonempty-until-end", "no legal action in a live round", _short)(_no_action)
    case(_g, "bounded-round-length", "a round that never ends", _short)(_long_round)
    case(_g, "scores-follow-settlement", "scores moved without a round ending", _short)(_scores_drift)
    case(_g, "final-positions", "a final position showing the wrong scores", _short)(_final_scores)
    case(_g, "final-positions", "a final position with a card not in the deck", _short)(_final_cards)
    case(_g, "legal-nonempty-until-end", "legal actions offered after the match ended", _short)(_actions_after_end)
    if _g in _ZERO_SUM:
        _o, _also = _ZERO_SUM[_g]
        case(_g, "zero-sum-settlement", "the winner paid one more than the losers lost", _o, _also)(_not_zero_sum)


# Koi-Koi

@case("koikoi", "KK-DEAL-1 deal sizes", "nine cards dealt to the table", {"length": "3"})
def _kk_deal(steps: tuple[Step, ...]) -> tuple[int, Step]:
    s = steps[0]
    return 0, replace(s, after=move(s.after, s.after.zone("stock")[0], "stock", "field"))


@case("koikoi", "KK-TURN-1 turn order", "the wrong player to move", {"length": "3"})
def _kk_turn(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    assert s.after.to_move is not None
    return i, replace(s, after=replace(s.after, to_move=1 - s.after.to_move))


@case("koikoi", "KK-TURN-1 turn order", "a draw-only turn while a hand still holds a card",
      {"length": "3", "after_hands": "draw-pile"})
def _kk_draw_turn(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: s.after.phase == "draw" and not s.outcomes and len(s.after.zone("stock")) > 1)
    s = steps[i]
    assert s.after.to_move is not None
    return i, replace(s, after=move(s.after, s.after.zone("stock")[-1], "stock", f"hand.{s.after.to_move}"))


@case("koikoi", "KK-SCORE-1 only the stopper scores", "the loser scores too", {"length": "3"})
def _kk_stopper(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(max(o.deltas) > 0 for o in s.outcomes) and not s.match_over)
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if max(o.deltas) > 0)
    return i, with_deltas(s, k, tuple(max(d, 1) for d in s.outcomes[k].deltas))


@case("koikoi", "KK-SCORE-1 only the stopper scores", "the loser pays without zero-sum", {"length": "3"})
def _kk_no_zero_sum(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(max(o.deltas) > 0 for o in s.outcomes) and not s.match_over)
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if max(o.deltas) > 0)
    return i, with_deltas(s, k, tuple(d if d > 0 else -1 for d in s.outcomes[k].deltas))


@case("koikoi", "KK-GAME-1 game length", "a game of 3 rounds ended after the first", {"length": "3"})
def _kk_length(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, round_end)
    return i, ended_early(steps[i])


@case("koikoi", "KK-GAME-1 game length", "a fourth round dealt in a game of 3", {"length": "3"})
def _kk_extra_round(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    return i, replace(steps[i], after=replace(steps[i].after, round=4))


@case("koikoi", "KK-GAME-1 game length", "a game to 50 ended below 50", {"length": "to-50"})
def _kk_to_50(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, round_end)
    return i, ended_early(steps[i])


# Kekoro

def _kk_lead3(s: Step) -> bool:
    return s.after.phase == "declare"


@case("kekoro", "KE-DEAL-1 deal sizes", "a card dealt straight to a capture pile")
def _ke_deal(steps: tuple[Step, ...]) -> tuple[int, Step]:
    s = steps[0]
    return 0, replace(s, after=move(s.after, s.after.zone("field")[0], "field", "captured.0"))


@case("kekoro", "KE-DEAL-1 deal sizes", "a misdeal (a whole month on the table) played on")
def _ke_misdeal(steps: tuple[Step, ...]) -> tuple[int, Step]:
    s = steps[0]
    field = s.after.zone("field")
    month = field[0] // 10
    after = s.after
    others = [c for c in field[1:] if c // 10 != month]
    for c in (month * 10 + k for k in range(4)):
        if c not in after.zone("field"):
            after = swap(after, c, others.pop())
    return 0, replace(s, after=after)


@case("kekoro", "KE-END-1 eight cards undrawn", "a card of the draw pile turned onto the table")
def _ke_undrawn(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    return i, replace(s, after=move(s.after, s.after.zone("stock")[-1], "stock", "field"))


@case("kekoro", "KE-TURN-1 turn order", "the wrong player to move")
def _ke_turn(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    assert s.after.to_move is not None
    return i, replace(s, after=replace(s.after, to_move=1 - s.after.to_move))


_IV = "KE-IV-1 instant victory exactly on a lead of 3"
_DECLARE_TEXT = f"{DECLARE} {INSTANT_VICTORY}"


@case("kekoro", _IV, "the declaration offered in the middle of a turn")
def _ke_iv_offered(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    return i, replace(s, legal=tuple(sorted((*s.legal, _DECLARE_TEXT), key=action_sort_key)))


@case("kekoro", _IV, "the declaration offered to the wrong seat")
def _ke_iv_seat(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, _kk_lead3)
    s = steps[i]
    assert s.after.to_move is not None
    return i, replace(s, after=replace(s.after, to_move=1 - s.after.to_move))


@case("kekoro", _IV, "a lead of three and no declaration offered")
def _ke_iv_missing(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, _kk_lead3)
    s = steps[i]
    assert s.after.to_move is not None
    after = replace(s.after, phase="play", to_move=1 - s.after.to_move)  # play simply passes on
    return i, replace(s, after=after, legal=("continue",))


@case("kekoro", _IV, "the declaration offered without 'continue' beside it")
def _ke_iv_choices(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, _kk_lead3)
    s = steps[i]
    return i, replace(s, legal=(_DECLARE_TEXT,))


@case("kekoro", _IV, "the declaration offered again after 'continue'")
def _ke_iv_twice(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, _kk_lead3)
    s = steps[i]
    # the next step as a wrong engine reports it: 'continue' chosen, and the same choice comes back
    again = replace(s, before=s.after, action="continue", outcomes=(), match_over=False,
                    round_actions=s.round_actions + 1)
    return i + 1, again


@case("kekoro", "KE-SCORE-1 round score", "a yaku worth 31")
def _ke_score(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.reason == "played-out" and any(o.yaku) for o in s.outcomes))
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if o.reason == "played-out" and any(o.yaku))
    o = s.outcomes[k]
    yaku = tuple(tuple(ScoredYaku(y.id, 31) for y in side) for side in o.yaku)
    return i, replace(s, outcomes=tuple(replace(o, yaku=yaku) if j == k else x for j, x in enumerate(s.outcomes)))


@case("kekoro", "KE-SCORE-1 round score", "card points misreported")
def _ke_card_points(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.card_points is not None for o in s.outcomes))
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if o.card_points is not None)
    o = s.outcomes[k]
    assert o.card_points is not None
    bad = replace(o, card_points=(o.card_points[0] + 1, *o.card_points[1:]))
    return i, replace(s, outcomes=tuple(bad if j == k else x for j, x in enumerate(s.outcomes)))


@case("kekoro", "KE-GAME-1 game end", "the game ended without a 90-point lead")
def _ke_end(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, round_end)
    return i, ended_early(steps[i])


@case("kekoro", "KE-GAME-1 game end", "the game ended in the middle of a round")
def _ke_end_mid(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    return i, ended_early(steps[i])


# Kujuroku (four players: seat (dealer + 3) % 4 sits out)

def _participant_not_dealer(s: Snapshot) -> int:
    return (s.dealer + 1) % 4


@case("kujuroku", "KJ-DEAL-2 deal sizes", "two table cards dealt to a player's capture pile")
def _kj_deal(steps: tuple[Step, ...]) -> tuple[int, Step]:
    s = steps[0]
    after, p = s.after, _participant_not_dealer(s.after)
    for c in [c for c in after.zone("field") if c > 1][:2]:
        after = move(after, c, "field", f"captured.{p}")
    return 0, replace(s, after=after)


@case("kujuroku", "KJ-EQ-3 the fourth seat sits out", "the seat out holds a captured card")
def _kj_sitting_out(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def ok(s: Step) -> bool:
        return mid(s) and any(s.after.zone(f"captured.{p}") for p in range(4))
    i = find(steps, ok)
    s = steps[i]
    p = next(p for p in range(4) if s.after.zone(f"captured.{p}"))
    out = (s.after.dealer + 3) % 4
    return i, replace(s, after=move(s.after, s.after.zone(f"captured.{p}")[0], f"captured.{p}", f"captured.{out}"))


@case("kujuroku", "KJ-TURN-3 the draw pile never runs short", "a card of the draw pile lost to a pile")
def _kj_draw_pile(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and len(s.after.zone("stock")) > 2)
    s = steps[i]
    p = s.after.dealer
    return i, replace(s, after=move(s.after, s.after.zone("stock")[-1], "stock", f"captured.{p}"))


@case("kujuroku", "KJ-TURN-3 a round played out uses every draw", "a round played out with a card left to draw")
def _kj_exact_draws(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.reason == "card-points" for o in s.outcomes))
    s = steps[i]
    assert s.before is not None
    b = s.before
    p = b.dealer
    c = next(c for c in b.zone(f"captured.{p}"))
    return i, replace(s, before=move(b, c, f"captured.{p}", "stock"))


@case("kujuroku", "KJ-TURN-3 the draw pile never runs short", "a seat to play with an empty hand")
def _kj_empty_hand(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def fits(s: Step) -> bool:
        return mid(s) and s.after.to_move is not None and len(s.after.zone(f"hand.{s.after.to_move}")) >= 1
    i = find(steps, fits)
    s = steps[i]
    p = s.after.to_move
    assert p is not None
    other = next(q for q in range(4) if q != p and s.after.zone(f"hand.{q}"))
    after = s.after
    for c in after.zone(f"hand.{p}"):  # the cards held stay in hands, so the draw pile still fits
        after = move(after, c, f"hand.{p}", f"hand.{other}")
    return i, replace(s, after=replace(after, zones=tuple((n, tuple(sorted(c)) if n.startswith("hand.") else c)
                                                         for n, c in after.zones)))


@case("kujuroku", "KJ-ONI-5 jokers never stay on the field", "the Oni left on the field")
def _kj_oni(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and where(s.after, ONI).startswith(("captured.", "out.")))
    s = steps[i]
    return i, replace(s, after=move(s.after, ONI, where(s.after, ONI), "field"))


@case("kujuroku", "KJ-ONI-5 jokers never stay on the field", "another card set aside with the Oni")
def _kj_out_oni(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and any(s.after.zone(f"captured.{p}") for p in range(4)))
    s = steps[i]
    p = next(p for p in range(4) if s.after.zone(f"captured.{p}"))
    return i, replace(s, after=move(s.after, s.after.zone(f"captured.{p}")[0], f"captured.{p}", "out.oni"))


@case("kujuroku", "KJ-ONI-3 field parity (KJ-25)", "an odd table while the Oni is unplayed")
def _kj_parity(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def ok(s: Step) -> bool:
        return mid(s) and len(s.after.zone("field")) > 0 and where(s.after, ONI).startswith(("hand.", "stock"))
    i = find(steps, ok)
    s = steps[i]
    c = next(c for c in s.after.zone("field") if c > 1)
    return i, replace(s, after=move(s.after, c, "field", f"captured.{s.after.dealer}"))


@case("kujuroku", "KJ-YAKU-2 dekiyaku payments", "a dekiyaku paid by one player only")
def _kj_payment(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.reason == "dekiyaku" for o in s.outcomes) and not s.match_over)
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if o.reason == "dekiyaku")
    d = s.outcomes[k].deltas
    payer = next(j for j, x in enumerate(d) if x < 0)
    other = next(j for j, x in enumerate(d) if x < 0 and j != payer)
    # the payer pays twice, the other nothing: chips still balance
    new = tuple(2 * x if j == payer else 0 if j == other else x for j, x in enumerate(d))
    return i, with_deltas(s, k, new)


@case("kujuroku", "KJ-SCORE-3 settlement shape", "a drawn round that moved chips")
def _kj_shape(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.reason == "card-points" and any(o.deltas) for o in s.outcomes))
    s = steps[i]
    outs = tuple(replace(o, reason="draw") if o.reason == "card-points" else o for o in s.outcomes)
    return i, replace(s, outcomes=outs)


@case("kujuroku", "KJ-SCORE-1 settlement from the final capture piles", "card points misreported")
def _kj_exact(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: any(o.reason == "card-points" and o.card_points for o in s.outcomes))
    s = steps[i]
    k = next(k for k, o in enumerate(s.outcomes) if o.reason == "card-points" and o.card_points)
    o = s.outcomes[k]
    assert o.card_points is not None and o.final is not None
    p = o.final.dealer
    cp = tuple(x + 1 if j == p else x for j, x in enumerate(o.card_points))
    return i, replace(s, outcomes=tuple(replace(o, card_points=cp) if j == k else x
                                        for j, x in enumerate(s.outcomes)))


@case("kujuroku", "KJ-EQ-4 chips are conserved", "a chip appears from nowhere")
def _kj_chips(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    assert s.before is not None
    return i, replace(s, before=with_scores(s.before, 0, 1), after=with_scores(s.after, 0, 1))


@case("kujuroku", "KJ-END-2 the deal passes to the right", "the deal skips a seat", {"players": "3"})
def _kj_rotation(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def ok(s: Step) -> bool:
        # a round starting with the field untouched, so that any seat could have dealt it
        return round_end(s) and not any(s.after.zone(f"captured.{p}") for p in range(3))
    i = find(steps, ok)
    s = steps[i]
    assert s.before is not None
    return i, replace(s, after=replace(s.after, dealer=(s.before.dealer + 2) % 3))


# Kusuri-gui

_KG = {"rounds": "6"}


@case("kusurigui", "KG-DEAL-3 zones and cards out of play", "an unknown zone", _KG)
def _kg_zones(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    return i, replace(steps[i], after=zone_set(steps[i].after, "out.lost", ()))


@case("kusurigui", "KG-DEAL-3 zones and cards out of play", "a non-willow set aside", _KG)
def _kg_willows(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and bool(s.after.zone("out.willows")) and len(s.after.zone("stock")) > 8)
    s = steps[i]
    return i, replace(s, after=swap(s.after, s.after.zone("out.willows")[0], s.after.zone("stock")[-1]))


@case("kusurigui", "KG-DEAL-2 the deal", "a round started on a willow", _KG)
def _kg_deal(steps: tuple[Step, ...]) -> tuple[int, Step]:
    s = steps[0]
    willow = next(c for c in s.after.zone("stock") if c in WILLOWS)
    return 0, replace(s, after=swap(s.after, s.after.zone("pile")[0], willow))


@case("kusurigui", "KG-PLAY-5 the dealer leads every cycle", "the wrong player to move", _KG)
def _kg_cycle(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    assert s.after.to_move is not None
    return i, replace(s, after=replace(s.after, to_move=1 - s.after.to_move))


@case("kusurigui", "KG-EQ-2 chips conserved", "a chip appears from nowhere", _KG)
def _kg_chips(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    assert s.before is not None
    return i, replace(s, before=with_scores(s.before, 0, 1), after=with_scores(s.after, 0, 1))


@case("kusurigui", "KG-GAME-1 game length", "a game of 6 rounds ended after the first", _KG)
def _kg_end(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, round_end)
    return i, ended_early(steps[i])


@case("kusurigui", "KG-PAY-1 plays, re-deals, payments and settlement", "a card played from nowhere", _KG)
def _kg_ledger(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    return i, replace(steps[i], action="play 999")


@case("kusurigui", "KG-PAY-1 plays, re-deals, payments and settlement", "a settlement off by one chip", _KG)
def _kg_settle(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, round_end)
    s = steps[i]
    d = s.outcomes[0].deltas
    return i, with_deltas(s, 0, (d[0] + 1, d[1] - 1))


# Musashino-Bana (three players unless stated)

_MB = {"length": "3"}


@case("musashino", "MB-DEAL-1/2 deal sizes", "a table card dealt straight to a capture pile", _MB)
def _mb_deal(steps: tuple[Step, ...]) -> tuple[int, Step]:
    s = steps[0]
    return 0, replace(s, after=move(s.after, s.after.zone("field")[0], "field", "captured.0"))


@case("musashino", "MB-END-1 hands and draw pile run out together", "a card of the draw pile lost", _MB)
def _mb_run_out(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    return i, replace(s, after=move(s.after, s.after.zone("stock")[-1], "stock", "field"))


@case("musashino", "MB-TURN-1 turn order", "the wrong player to move", _MB)
def _mb_turn(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    assert s.after.to_move is not None
    return i, replace(s, after=replace(s.after, to_move=(s.after.to_move + 1) % 3))


@case("musashino", "MB-TURN-1 turn order", "a player skipped (hand sizes out of turn order)", _MB)
def _mb_turn_sizes(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def ok(s: Step) -> bool:
        return mid(s) and len({len(s.after.zone(f"hand.{p}")) for p in range(3)}) == 1
    i = find(steps, ok)
    s = steps[i]
    last, dealer = (s.after.dealer + 2) % 3, s.after.dealer
    return i, replace(s, after=move(s.after, s.after.zone(f"hand.{last}")[0], f"hand.{last}", f"hand.{dealer}"))


@case("musashino", "MB-TURN-1 turn order", "hand sizes in turn order but two apart", _MB)
def _mb_turn_gap(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def ok(s: Step) -> bool:
        return mid(s) and len({len(s.after.zone(f"hand.{p}")) for p in range(3)}) == 1
    i = find(steps, ok)
    s = steps[i]
    last, dealer = (s.after.dealer + 2) % 3, s.after.dealer
    # from equal hands, the dealer's card to the last seat: sizes rise in turn order, but by two (the
    # last seat, first with the most cards, to move: only the sizes are wrong)
    after = move(s.after, s.after.zone(f"hand.{dealer}")[0], f"hand.{dealer}", f"hand.{last}")
    return i, replace(s, after=replace(after, to_move=last))


@case("musashino", "MB-EQ-2 teams share a pile and a score", "one pair of partners settled differently",
      {"players": "4", "length": "3"},
      also=("MB-SCORE-1..5 settlement follows the dekiyaku", "scores-follow-settlement"))
def _mb_partner_deltas(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: round_end(s) and len(s.outcomes) == 1)
    s = steps[i]
    d = s.outcomes[0].deltas
    # seats 0 and 2 (partners) settled apart, seats 1 and 3 alike; the scores after left as they were
    return i, replace(s, outcomes=(replace(s.outcomes[0], deltas=(d[0] + 1, d[1], d[2] - 1, d[3])),))


@case("musashino", "MB-EQ-2 teams share a pile and a score", "a capture pile for a side that does not exist", _MB)
def _mb_sides(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    return i, replace(steps[i], after=zone_set(steps[i].after, "captured.3", ()))


@case("musashino", "MB-EQ-2 teams share a pile and a score", "partners' scores differ",
      {"players": "4", "length": "3"})
def _mb_partners(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, mid)
    s = steps[i]
    assert s.before is not None
    # seat 0 gains what seat 1 loses, before and after: the totals and the settlement are untouched
    before = with_scores(with_scores(s.before, 0, 1), 1, -1)
    return i, replace(s, before=before, after=with_scores(with_scores(s.after, 0, 1), 1, -1))


@case("musashino", "MB-CAP-7 captures go to the mover's side", "a capture put in another side's pile", _MB)
def _mb_captures(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, lambda s: mid(s) and bool(s.after.zone("field")))
    s = steps[i]
    assert s.before is not None and s.before.to_move is not None
    other = (s.before.to_move + 1) % 3
    return i, replace(s, after=move(s.after, s.after.zone("field")[0], "field", f"captured.{other}"))


@case("musashino", "MB-SCORE-1..5 settlement follows the dekiyaku", "a settlement moved between losers", _MB)
def _mb_settle(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, round_end)
    s = steps[i]
    d = s.outcomes[0].deltas
    return i, with_deltas(s, 0, (d[0], d[1] + 1, d[2] - 1))


@case("musashino", "MB-SCORE-1..5 settlement follows the dekiyaku", "an insta-win reported for ordinary dekiyaku",
      _MB)
def _mb_not_insta(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def one_side(s: Step) -> bool:
        return round_end(s) and len(s.outcomes) == 1 and sum(1 for side in s.outcomes[0].yaku if side) == 1
    i = find(steps, one_side)
    s = steps[i]
    return i, replace(s, outcomes=(replace(s.outcomes[0], reason="insta-win"),))


_FIVE_KINGS = (10, 30, 80, 110, 120)


@case("musashino", "MB-END-1 insta-win stops the round", "a side holds Five Kings and play goes on", _MB)
def _mb_insta(steps: tuple[Step, ...]) -> tuple[int, Step]:
    def plan(s: Step) -> tuple[int, list[int], list[int]] | None:
        """A side whose pile has room for the Five Kings missing from it, every missing king lying
        in the same zone (not a capture pile) before and after the step."""
        if not mid(s) or s.before is None:
            return None
        b, a = s.before, s.after
        for side in range(3):
            pile = f"captured.{side}"
            missing = [k for k in _FIVE_KINGS if k not in a.zone(pile)]
            spare = sorted(set(b.zone(pile)) & set(a.zone(pile)) - set(_FIVE_KINGS))
            if missing and len(spare) >= len(missing) and all(
                    where(b, k) == where(a, k) and not where(a, k).startswith(("captured.", "drawn"))
                    for k in missing):
                return side, missing, spare
        return None
    i = find(steps, lambda s: plan(s) is not None)
    s = steps[i]
    p = plan(s)
    assert p is not None and s.before is not None
    before, after = s.before, s.after
    for king, c in zip(p[1], p[2], strict=False):
        before, after = swap(before, king, c), swap(after, king, c)
    return i, replace(s, before=before, after=after)


@case("musashino", "MB-GAME-1 game length", "a game of 3 rounds ended after the first", _MB)
def _mb_end(steps: tuple[Step, ...]) -> tuple[int, Step]:
    i = find(steps, round_end)
    s = steps[i]
    final = s.outcomes[-1].final
    assert final is not None
    # a match that ends shows the round's final position (hands and draw pile empty)
    return i, replace(ended_early(s), after=replace(final, scores=s.after.scores, to_move=None))


# -- the tests ------------------------------------------------------------------------------------

def invariant_names(profiles: Iterable[GameProfile]) -> set[tuple[str, str]]:
    """Every (game, invariant) pair the harness runs, read from the profiles themselves."""
    return {(p.game, name) for p in profiles for name, _ in (*GENERIC(p), *p.invariants)}


def missing_cases(profiles: Iterable[GameProfile]) -> list[tuple[str, str]]:
    covered = {(c.game, c.invariant) for c in CASES} | set(CANNOT_FIRE)
    return sorted(invariant_names(profiles) - covered)


def test_every_invariant_has_a_firing_case() -> None:
    missing = missing_cases(profile_for(g) for g in GAME_KEYS)
    assert not missing, f"invariants without a case in tests/test_invariants_fire.py that makes them fire: {missing}"


def test_a_new_invariant_without_a_case_is_reported() -> None:
    """The check above is not vacuous: an invariant added to a profile and nowhere else is found."""
    p = profile_for("kekoro")
    grown = replace(p, invariants=(*p.invariants, ("a rule added today with no case", lambda _s: None)))
    assert missing_cases([grown]) == [("kekoro", "a rule added today with no case")]


def test_no_case_names_an_invariant_that_does_not_exist() -> None:
    known = invariant_names(profile_for(g) for g in GAME_KEYS)
    assert not [c.id for c in CASES if (c.game, c.invariant) not in known]
    assert not set(CANNOT_FIRE) - known
    assert not set(CANNOT_FIRE) & {(c.game, c.invariant) for c in CASES}


@pytest.mark.parametrize("c", CASES, ids=lambda c: c.id)
def test_invariant_fires(c: Case) -> None:
    steps = record(c.game, c.options, c.seed)
    i, bad = c.mutate(steps)
    assert bad != steps[i]
    got = failing(c.game, steps[:i], bad)
    assert got == {c.invariant, *c.also}, f"{c.what}: broke {sorted(got)}"
    # the real step passed: the invariant fires on the change alone
    assert failing(c.game, steps[:i], steps[i]) == set()


def test_outcome_helpers_are_consistent() -> None:
    """``with_deltas`` keeps scores following the settlement (else the cases above would prove nothing)."""
    o = RoundOutcome("x", (3, -3), True, ((), ()))
    s = Step({}, Snapshot("koikoi", (), 0, "play", 0, 1, (0, 0)), "play 10", Snapshot("koikoi", (), 0, "play", 0, 2,
                                                                                       (3, -3)), (), (o,), False, 1)
    t = with_deltas(s, 0, (4, -3))
    assert t.after.scores == (4, -3) and t.outcomes[0].deltas == (4, -3)


# -- the harness's own checks, through a wrong engine behind the adapter protocol -------------------

class _RefusesItsFifthAction(Delegate):
    """An engine that refuses an action it has just offered."""

    def __init__(self) -> None:
        super().__init__()
        self.applied = 0

    def apply(self, action: str) -> None:
        self.applied += 1
        if self.applied == 5:
            raise ValueError("refused")
        super().apply(action)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_an_offered_action_refused_is_reported(game: str) -> None:
    opts = dict(spec_for(game).resolve(None, {}))
    rep = run_random(_RefusesItsFifthAction(), profile_for(game), opts, 1, 1)
    assert [v.invariant for v in rep.violations] == ["legal-action-accepted"]
    assert len(rep.violations[0].actions) == 4


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_match_that_does_not_end_is_reported(game: str) -> None:
    opts = dict(spec_for(game).resolve(None, {}))
    rep = run_random(Delegate(), profile_for(game), opts, 1, 1, max_actions=6)
    assert [v.invariant for v in rep.violations] == ["bounded-match-length"]
    assert run_random(Delegate(), profile_for(game), opts, 1, 1).violations == ()


def test_a_violation_says_how_to_reproduce_it() -> None:
    """A broken invariant is reported with its game, rule, message, seeds and the number of actions played
    (spec/hanafuda_spec/invariants.py: ``Violation.__str__`` answering None went unnoticed)."""
    from hanafuda_spec.invariants import Violation

    v = Violation("kekoro", "KE-TURN-1 turn order", "seat 1 plays twice", {}, 7, 3, ("play 10", "play 20"))
    assert str(v) == "kekoro: KE-TURN-1 turn order: seat 1 plays twice (seed 7, policy 3, after 2 actions)"


def test_run_random_counts_the_actions_of_each_round_once() -> None:
    """``run_random`` gives each step the number of actions since the last round ended, which
    bounded-round-length checks (spec/hanafuda_spec/invariants.py: counting two per action went
    unnoticed, the bounds being generous)."""
    seen: list[Step] = []

    def spy(s: Step) -> str | None:
        seen.append(s)
        return None

    p = profile_for("kekoro")
    grown = replace(p, invariants=(*p.invariants, ("spy", spy)))
    rep = run_random(ReferenceAdapter(), grown, spec_for("kekoro").resolve(None, {}), 1, 1)
    assert not rep.violations and len(seen) == rep.actions + 1
    count = 0
    for s in seen:
        assert s.round_actions == count, (count, s.action)
        count = 1 if s.outcomes else count + 1


def test_a_match_that_does_not_end_is_reported_as_one_game() -> None:
    """``run_random`` stopped by ``max_actions`` reports bounded-match-length for its one game, with the
    actions played (spec/hanafuda_spec/invariants.py: that report counted two games)."""
    rep = run_random(ReferenceAdapter(), profile_for("kekoro"), spec_for("kekoro").resolve(None, {}), 1, 1,
                     max_actions=5)
    assert (rep.games, rep.actions) == (1, 6)
    assert [v.invariant for v in rep.violations] == ["bounded-match-length"]
