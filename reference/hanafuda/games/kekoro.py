"""Kekoro (けころ), the two-player fishing game of card values, 26 thirty-point yaku and the
instant victory, played until one player leads by 90.

Rules, citations and decisions: :mod:`hanafuda_spec.games.kekoro`. The oya is the dealer; seat
numbers are 0 and 1. A round is the Hana-Awase turn (:mod:`hanafuda.fishing`) repeated until both
hands are empty (8 cards stay undrawn); each player then scores their card values plus 30 per yaku
(yaku: 役, scoring sets). At the end of their own turn a player three yaku ahead may declare the
instant victory, which ends the whole game.

>>> from hanafuda.engine import Match
>>> from hanafuda_spec.cards import card
>>> m = Match.start(GAME, GAME.rules(), seed=1)
>>> len(m.state.table.hands[0]), len(m.state.table.field), len(m.state.table.stock)
(8, 8, 24)
>>> ps = GAME.score(GAME.rules(), [card(i) for i in (120, 40, 20)])
>>> [y.id for y in ps.yaku], ps.yaku_total, ps.card_points
(['mist-island'], 30, 20)
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card, Deck
from hanafuda_spec.games import kekoro as spec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import (
    CARD_ORDER,
    Action,
    Game,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    evolve,
)
from hanafuda.fishing import PLAY, TAKE, Table, capture, explain_hand_play, hand_plays, matches, take_choices

__all__ = ["GAME", "Kekoro", "KekoroRules", "KekoroState", "Phase", "Scorer"]

DECLARE = spec.DECLARE
CONTINUE = "continue"
DECLARE_ACTION = Action(DECLARE, (), spec.INSTANT_VICTORY)
CONTINUE_ACTION = Action(CONTINUE)

#: Round end reasons (RoundResult.reason) and game end reasons (MatchInfo.end_reason).
PLAYED_OUT, MISDEAL, INSTANT_VICTORY = "played-out", "misdeal", spec.INSTANT_VICTORY
LEAD_REACHED, ROUND_LIMIT = "90-point-lead", "round-limit"


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a hand card
    TAKE = "take"  #: the drawn card matches two field cards: choose one
    DECLARE = "declare"  #: a yaku lead of 3 at the end of the turn: declare or continue
    OVER = "over"


# -- scoring -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scorer:
    """The yaku table and the card values as bit masks (same meaning as the catalogue's data)."""

    yaku: tuple[tuple[str, int], ...]
    value_masks: tuple[tuple[int, int], ...]

    def yaku_of(self, pile: int) -> tuple[ScoredYaku, ...]:
        """Every yaku the pile forms, 30 points each, in table order (KE-YAKU-1, KE-YAKU-2)."""
        return tuple(ScoredYaku(yid, spec.YAKU_POINTS) for yid, m in self.yaku if pile & m == m)

    def yaku_count(self, pile: int) -> int:
        """How many yaku the pile forms (KE-IV-2)."""
        return len([m for _, m in self.yaku if pile & m == m])

    def card_points(self, pile: int) -> int:
        """The value of the cards in the pile (KE-VAL-1, KE-VAL-2)."""
        return sum(v * (pile & m).bit_count() for v, m in self.value_masks)


#: Every hanafuda card by id (``card(id)`` parses text; this is a plain table for the hot paths).
_CARD: dict[int, Card] = {c.id: c for c in HANAFUDA.cards if isinstance(c, Card)}


def _mask(ids: frozenset[int] | set[int]) -> int:
    m = 0
    for i in ids:
        m |= _CARD[i].mask
    return m


@functools.lru_cache(maxsize=64)
def _scorer(values: tuple[tuple[str, str], ...]) -> Scorer:
    opt = dict(values)
    yaku = tuple((y.id, _mask(y.pool)) for y in spec.yaku_table(opt))
    by_value: dict[int, set[int]] = {}
    for cid, v in spec.CARD_VALUES[opt["values"]].items():
        by_value.setdefault(v, set()).add(cid)
    return Scorer(yaku, tuple((v, _mask(ids)) for v, ids in sorted(by_value.items())))


def _pile_mask(cards: Sequence[BaseCard]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.bit  # c.mask, without the property call
    return m


@dataclass(frozen=True)
class KekoroRules:
    """Typed Kekoro rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]

    def __getitem__(self, key: str) -> str:
        return self.opt[key]

    @functools.cached_property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    @functools.cached_property
    def scorer(self) -> Scorer:
        return _scorer(self.values)

    @property
    def round_limit(self) -> int | None:
        v = self.opt["round_limit"]
        return None if v == "none" else int(v)


@dataclass(frozen=True)
class KekoroState:
    """One position of a Kekoro round."""

    rules: KekoroRules
    setup: RoundSetup
    table: Table[Card]
    turn: int
    phase: Phase
    pending: Card | None = None
    end: str = ""
    winner: int | None = None

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    def yaku_counts(self) -> tuple[int, int]:
        sc = self.rules.scorer
        c = self.table.captured
        return sc.yaku_count(_pile_mask(c[0])), sc.yaku_count(_pile_mask(c[1]))


def _four_of_a_month(cards: Sequence[BaseCard]) -> bool:
    return 4 in Counter([c.suit for c in cards]).values()


class Kekoro(Game[KekoroState, KekoroRules]):
    """Kekoro under the FudaWiki rules (SEED-004, completed by FW-KE) and their variants."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> KekoroRules:
        return KekoroRules(tuple(sorted(values.items())))

    def deck(self, rules: KekoroRules) -> Deck:
        return HANAFUDA

    def seats(self, rules: KekoroRules) -> int:
        return 2

    # -- the deal ----------------------------------------------------------------------------
    def start_round(self, rules: KekoroRules, order: Sequence[BaseCard], setup: RoundSetup) -> KekoroState:
        cards = [c for c in order if isinstance(c, Card)]
        if len(cards) != 48:
            raise ValueError("Kekoro deals from the 48-card hanafuda deck")
        dealer = setup.dealer
        other = 1 - dealer
        packet = int(rules["packets"])
        want = {other: 8, -1: 8, dealer: 8}
        got: dict[int, list[Card]] = {other: [], -1: [], dealer: []}
        i = 0
        while any(len(got[k]) < want[k] for k in want):  # KE-DEAL-1: opponent, table, dealer
            for who in (other, -1, dealer):
                n = min(packet, want[who] - len(got[who]))
                got[who].extend(cards[i:i + n])
                i += n
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[other] = tuple(sorted(got[other], key=CARD_ORDER))
        hands[dealer] = tuple(sorted(got[dealer], key=CARD_ORDER))
        table = Table(tuple(hands), tuple(sorted(got[-1], key=CARD_ORDER)), tuple(cards[i:]), ((), ()))
        state = KekoroState(rules, setup, table, dealer, Phase.PLAY)  # KE-TURN-1: the dealer leads
        mode = rules["misdeal"]  # KE-DEAL-3; no lucky hands are looked for (KE-DEAL-4)
        void = mode != "off" and _four_of_a_month(table.field)
        if mode == "field-or-hand":
            void = void or any(_four_of_a_month(h) for h in table.hands)
        return evolve(state, phase=Phase.OVER, end=MISDEAL) if void else state

    # -- play ---------------------------------------------------------------------------------
    def to_move(self, state: KekoroState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: KekoroState) -> tuple[Action, ...]:
        if state.phase is Phase.PLAY:  # KE-CAP-5: a non-matching card may always be played
            return tuple(hand_plays(state.table.hands[state.turn], state.table.field))
        if state.phase is Phase.TAKE:
            assert state.pending is not None
            return tuple(take_choices(state.table.field, state.pending))
        if state.phase is Phase.DECLARE:
            return (CONTINUE_ACTION, DECLARE_ACTION)  # sorted: 'continue' < 'declare'
        return ()

    def do(self, state: KekoroState, action: Action) -> KekoroState:
        t = state.table
        p = state.turn
        if action.kind == PLAY:
            c = _CARD[action.cards[0]]
            target = action.cards[1] if len(action.cards) > 1 else None
            hand = tuple(x for x in t.hands[p] if x.id != c.id)
            field, got = capture(t.field, c, target)  # KE-CAP-1…4
            t = evolve(t.with_hand(p, hand), field=field).add_captured(p, got)
            drawn, t = t.stock[0], evolve(t, stock=t.stock[1:])  # KE-TURN-2
            if len(matches(t.field, drawn)) == 2:
                return evolve(state, table=t, phase=Phase.TAKE, pending=drawn)
            field, got = capture(t.field, drawn, None)  # KE-CAP-6
            return self._end_turn(evolve(state, table=evolve(t, field=field).add_captured(p, got)))
        if action.kind == TAKE:
            assert state.pending is not None
            field, got = capture(t.field, state.pending, action.cards[0])
            t = evolve(t, field=field).add_captured(p, got)
            return self._end_turn(evolve(state, table=t, pending=None))
        if action == DECLARE_ACTION:  # KE-IV-1, KE-GAME-2
            return evolve(state, phase=Phase.OVER, end=INSTANT_VICTORY, winner=p)
        if action == CONTINUE_ACTION:  # KE-IV-3
            return self._pass(state)
        raise AssertionError(action)

    def _end_turn(self, state: KekoroState) -> KekoroState:
        """KE-IV-1: after both plays, a yaku lead of 3 or more offers the instant victory."""
        p = state.turn
        counts = state.yaku_counts()
        state = evolve(state, phase=Phase.PLAY, pending=None)
        if counts[p] - counts[1 - p] >= spec.YAKU_LEAD:
            return evolve(state, phase=Phase.DECLARE)
        return self._pass(state)

    def _pass(self, state: KekoroState) -> KekoroState:
        nxt = 1 - state.turn
        if not state.table.hands[nxt]:
            return evolve(state, phase=Phase.OVER, end=PLAYED_OUT)  # KE-END-1
        return evolve(state, turn=nxt, phase=Phase.PLAY)

    def explain_illegal(self, state: KekoroState, action: Action) -> tuple[str, str]:
        p = state.turn
        if action.kind == PLAY:
            if state.phase is not Phase.PLAY:
                return "KE-TURN-2", f"seat {p} cannot play a hand card now (phase {state.phase.value})"
            found = explain_hand_play(state.table.hands[p], state.table.field, action, p,
                                      ("KE-TURN-2", "KE-CAP-2", "KE-CAP-1"))
            return found or ("KE-CAP-1", f"card {action.cards[0]} cannot be played so")
        if action.kind == TAKE:
            if state.phase is not Phase.TAKE:
                return "KE-CAP-6", "no drawn card is waiting for a choice of target"
            return "KE-CAP-2", f"{action.cards} is not one of the two field cards the drawn card matches"
        if action.kind == DECLARE:
            if action.label != spec.INSTANT_VICTORY or action.cards:
                return "KE-IV-1", f"the only declaration in Kekoro is '{DECLARE_ACTION}'"
            a, b = state.yaku_counts()
            mine, theirs = (a, b) if p == 0 else (b, a)
            return "KE-IV-1", (f"the instant victory is declared at the end of one's own turn with a yaku lead of "
                               f"{spec.YAKU_LEAD}; seat {p} has {mine} yaku to {theirs} (phase {state.phase.value})")
        if action.kind == CONTINUE:
            return "KE-IV-3", "'continue' answers the instant-victory choice only"
        return "KE-TURN-2", f"unknown action kind {action.kind!r} for Kekoro"

    # -- results ------------------------------------------------------------------------------
    def round_result(self, state: KekoroState) -> RoundResult:
        if state.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        d = state.dealer
        if state.end == MISDEAL:
            return RoundResult(MISDEAL, (0, 0), counts=False, next_dealer=d)
        sc = state.rules.scorer
        piles = [_pile_mask(c) for c in state.table.captured]
        yaku = (sc.yaku_of(piles[0]), sc.yaku_of(piles[1]))
        cp = (sc.card_points(piles[0]), sc.card_points(piles[1]))
        if state.end == INSTANT_VICTORY:  # KE-IV-3: the interrupted round is not scored
            w = state.winner
            assert w is not None
            lead = len(yaku[w]) - len(yaku[1 - w])
            return RoundResult(INSTANT_VICTORY, (0, 0), w, yaku, cp, ends_game=True,
                               notes=(("yaku_lead", lead),))
        deltas = (cp[0] + spec.YAKU_POINTS * len(yaku[0]), cp[1] + spec.YAKU_POINTS * len(yaku[1]))  # KE-SCORE-1
        if deltas[0] != deltas[1]:
            winner: int | None = 0 if deltas[0] > deltas[1] else 1
            nxt = winner  # KE-END-2
        else:
            winner = None
            nxt = d if state.rules["tie_dealer"] == "stay" else 1 - d  # KE-END-3
        return RoundResult(PLAYED_OUT, deltas, winner, yaku, cp, next_dealer=nxt,
                           notes=(("yaku.0", len(yaku[0])), ("yaku.1", len(yaku[1]))))

    def snapshot(self, state: KekoroState, info: MatchInfo | None = None) -> Snapshot:
        t = state.table
        zones: list[tuple[str, tuple[int, ...]]] = [
            ("hand.0", tuple(c.id for c in t.hands[0])),
            ("hand.1", tuple(c.id for c in t.hands[1])),
            ("field", tuple(c.id for c in t.field)),
            ("stock", tuple(c.id for c in t.stock)),
            ("drawn", (state.pending.id,) if state.pending else ()),
            ("captured.0", tuple(c.id for c in t.captured[0])),
            ("captured.1", tuple(c.id for c in t.captured[1])),
        ]
        scores = info.scores if info else (0, 0)
        return Snapshot("kekoro", tuple(zones), self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KekoroRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        pile = _pile_mask(cards)
        return PileScore(rules.scorer.yaku_of(pile), rules.scorer.card_points(pile))

    # -- the match ----------------------------------------------------------------------------
    def new_match(self, rules: KekoroRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((0, 0), first_dealer)  # KE-DEAL-2

    def seats_in_play(self, rules: KekoroRules, info: MatchInfo) -> tuple[int, ...]:
        return (0, 1)

    def settle(self, rules: KekoroRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        scores = (info.scores[0] + result.deltas[0], info.scores[1] + result.deltas[1])
        played = info.rounds_played + (1 if result.counts else 0)
        dealer = result.next_dealer if result.next_dealer is not None else info.dealer
        history = (*info.history, result)
        if result.ends_game:  # KE-GAME-2
            assert result.winner is not None
            return MatchInfo(scores, dealer, played, info.deals + 1, True, (result.winner,), INSTANT_VICTORY,
                             history)
        lead = abs(scores[0] - scores[1])
        reached = lead > spec.LEAD if rules["lead_test"] == "more-than" else lead >= spec.LEAD  # KE-GAME-1
        limit = rules.round_limit
        over, reason = reached, LEAD_REACHED
        if not over and limit is not None and played >= limit:  # KE-GAME-3
            over, reason = True, ROUND_LIMIT
        winners: tuple[int, ...] = ()
        if over:
            top = max(scores)
            winners = tuple(i for i in (0, 1) if scores[i] == top)
        return MatchInfo(scores, dealer, played, info.deals + 1, over, winners, reason if over else "", history)


GAME = Kekoro()
