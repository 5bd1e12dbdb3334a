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

import dataclasses
import enum
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card
from hanafuda_spec.games import kekoro as spec
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda._construct import new
from hanafuda.engine import (
    Action,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    RulesOptions,
    action,
    settled,
)
from hanafuda.fishing import (
    FOURS,
    NAMED_OF_TWO,
    PLAY,
    TAKE,
    CardIndex,
    FishingGame,
    FishingRound,
    Getter,
    Table,
    bits_of,
    deal_two,
    explain_hand_play,
    lands,
    plays_of,
    suit_counts,
    takes_of,
    two_hand_dealing,
)
from hanafuda.games._options import number

__all__ = ["GAME", "INDEX", "Kekoro", "KekoroRound", "KekoroRules", "KekoroState", "Phase", "Scorer"]

DECLARE = spec.DECLARE
CONTINUE = "continue"
DECLARE_ACTION = action(DECLARE, (), spec.INSTANT_VICTORY)
CONTINUE_ACTION = action(CONTINUE)

#: Round end reasons (RoundResult.reason) and game end reasons (MatchInfo.end_reason).
PLAYED_OUT, MISDEAL, INSTANT_VICTORY = "played-out", "misdeal", spec.INSTANT_VICTORY
LEAD_REACHED, ROUND_LIMIT = "90-point-lead", "round-limit"


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a hand card
    TAKE = "take"  #: the drawn card matches two field cards: choose one
    DECLARE = "declare"  #: a yaku lead of 3 at the end of the turn: declare or continue
    OVER = "over"


#: The phases as module constants (an enum class's attribute is a slow read).
_PLAYING, _TAKING, _DECLARING, _OVER = Phase.PLAY, Phase.TAKE, Phase.DECLARE, Phase.OVER


# -- scoring -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scorer:
    """The yaku table and the card values as bit masks (same meaning as the catalogue's data): each
    yaku as it is reported (30 points, KE-YAKU-1) with the mask of its three cards, and each card
    value with the mask of the cards worth it."""

    yaku: tuple[tuple[ScoredYaku, int], ...]
    value_masks: tuple[tuple[int, int], ...]
    #: The yaku as counters, set from ``yaku`` (for :class:`KekoroRound`, which adds cards to a pile and counts
    #: again): yaku i has a 4-bit lane ``i`` of one integer, how many of its cards a pile holds. Here: the counters
    #: of every set of cards of one month (what one capture takes), the lanes' complements to 8 (8 minus the
    #: yaku's size) and the lanes' top bits; a lane plus its complement reaches 8 exactly when the pile holds the
    #: whole yaku (yaku of 1 to 7 cards; the table's have 3).
    counters: tuple[dict[int, int], int, int] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        masks = [m for _, m in self.yaku]
        if not all(1 <= m.bit_count() <= 7 for m in masks):  # pragma: no cover - the catalogue's yaku are three cards
            raise ValueError("the yaku counters hold yaku of 1 to 7 cards")
        lanes = {c.mask: sum([1 << 4 * i for i, m in enumerate(masks) if m & c.mask]) for c in INDEX.cards}
        counts = {k * (month & -month): sum([lanes[c] for c in bits_of(k * (month & -month))])
                  for month in _MONTHS for k in range(16)}
        complement = sum([(8 - m.bit_count()) << 4 * i for i, m in enumerate(masks)])
        object.__setattr__(self, "counters", (counts, complement, sum([8 << 4 * i for i in range(len(masks))])))

    def yaku_of(self, pile: int) -> tuple[ScoredYaku, ...]:
        """Every yaku the pile forms, 30 points each, in table order (KE-YAKU-1, KE-YAKU-2)."""
        return tuple([y for y, m in self.yaku if pile & m == m])

    def card_points(self, pile: int) -> int:
        """The value of the cards in the pile (KE-VAL-1, KE-VAL-2)."""
        return sum([v * (pile & m).bit_count() for v, m in self.value_masks])

    def yaku_count(self, pile: int) -> int:
        """How many yaku the pile forms (KE-IV-2): ``len(self.yaku_of(pile))``."""
        return self.yaku_in(self.count_of(pile))

    def count_of(self, pile: int) -> int:
        """The counters of a pile (:attr:`counters`), a month at a time."""
        counts = self.counters[0]
        return sum([counts[pile & month] for month in _MONTHS])

    def yaku_in(self, counts: int) -> int:
        """How many yaku the counters of a pile (:meth:`count_of`) show complete."""
        _, complement, tops = self.counters
        return ((counts + complement) & tops).bit_count()


#: The 48 hanafuda cards as bits: every Kekoro table is a set of masks over this index.
INDEX: CardIndex[Card] = CardIndex(c for c in HANAFUDA.cards if isinstance(c, Card))
_MONTHS = tuple(INDEX.suits.values())


@functools.lru_cache(maxsize=64)
def _scorer(values: tuple[tuple[str, str], ...]) -> Scorer:
    opt = dict(values)
    return scorer_of(spec.yaku_table(opt), spec.CARD_VALUES[spec.SPEC.value(opt, spec.Values)])


def scorer_of(table: Sequence[YakuDef], card_values: Mapping[int, int]) -> Scorer:
    """The :class:`Scorer` of a yaku table (KE-YAKU-1) and the card values (card id -> value, KE-VAL-1)."""
    yaku = tuple((ScoredYaku(y.id, spec.YAKU_POINTS), sum([_MASK_OF[i] for i in y.pool])) for y in table)
    by_value: dict[int, int] = {}
    for cid, v in card_values.items():
        by_value[v] = by_value.get(v, 0) | _MASK_OF[cid]
    return Scorer(yaku, tuple(sorted(by_value.items())))


assert tuple(0xF << 4 * i for i in range(12)) == _MONTHS  # what suit_counts and Scorer.counters read


def _four_in(mask: int) -> bool:
    """Whether the cards of ``mask`` include all four of a month (KE-DEAL-3)."""
    return bool(suit_counts(mask) & FOURS)


@dataclass(frozen=True)
class KekoroRules(RulesOptions):
    """Typed Kekoro rules, built from resolved option values (see the catalogue's options), read as the
    catalogue's enums (:meth:`~hanafuda.engine.RulesOptions.value`)."""

    catalogue = spec.SPEC
    values: tuple[tuple[str, str], ...]

    @functools.cached_property
    def scorer(self) -> Scorer:
        return _scorer(self.values)

    # Hooks: the rule as the reference plays it, which :mod:`hanafuda.deviations_other` overrides (a diagnosis).

    @functools.cached_property
    def named_captures(self) -> int:
        """KE-CAP-2, KE-CAP-3: the numbers of matching table cards among which a played or drawn card names
        the one it takes (:data:`~hanafuda.fishing.NAMED_OF_TWO`: two; one match or three are taken whole)."""
        return NAMED_OF_TWO

    def stock_order(self, order: Sequence[int]) -> Sequence[int]:
        """KE-DEAL-1: the draw pile, top first: the deck order's cards after the deal."""
        return order[24:]

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        """KE-END-2: the greater round score deals next; KE-END-3: on equal scores the deal stays or passes."""
        if winner is not None:
            return winner
        return dealer if self.value(spec.TieDealer) is spec.TieDealer.STAY else 1 - dealer

    @functools.cached_property
    def dealing(self) -> tuple[Getter[int], Getter[int], Getter[int]]:
        """KE-DEAL-1 as positions in the deck order: the cards dealt to the ko (the dealer's opponent), the
        table and the dealer, in packets of ``packets`` cards (the rest, from position 24, is the draw pile)."""
        return two_hand_dealing(8, 8, self.packets)

    packets = number(spec.Packets, "KE-DEAL-1: the packet size of the deal.")

    @property
    def round_limit(self) -> int | None:
        v = self.value(spec.RoundLimit)
        return None if v is spec.RoundLimit.NONE else int(v)


@dataclass(frozen=True)
class KekoroState:
    """One position of a Kekoro round. The table's masks are over :data:`INDEX`."""

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
        """How many yaku each seat's capture pile forms (KE-IV-2)."""
        count = self.rules.scorer.yaku_count
        piles = self.table.captured_masks
        return count(piles[0]), count(piles[1])


class Kekoro(FishingGame[KekoroState, KekoroRules]):
    """Kekoro under the FudaWiki rules (SEED-004, completed by FW-KE) and their variants. The turn is
    :class:`KekoroRound`'s."""

    spec, over = spec.SPEC, Phase.OVER

    def make_rules(self, values: Mapping[str, str]) -> KekoroRules:
        return KekoroRules(tuple(sorted(values.items())))

    def seats(self, rules: KekoroRules) -> int:
        return 2  # KE-EQ-1: two players

    # -- the deal ----------------------------------------------------------------------------
    def start_round(self, rules: KekoroRules, order: Sequence[BaseCard], setup: RoundSetup) -> KekoroState:
        ids = [c.id for c in order if isinstance(c, Card)]
        if len(ids) != 48:
            raise ValueError("Kekoro deals from the 48-card hanafuda deck")
        return KekoroRound.dealt(rules, ids, setup).state()

    def deal_fast(self, rules: KekoroRules, order: Sequence[int], setup: RoundSetup) -> KekoroRound | None:
        """The round :meth:`start_round` deals, played in place; None for a misdeal (KE-DEAL-3)."""
        if len(order) != 48:
            return None
        r = KekoroRound.dealt(rules, order, setup)
        return None if r.phase is Phase.OVER else r

    # -- play ---------------------------------------------------------------------------------
    def round_of(self, state: KekoroState) -> KekoroRound:
        return KekoroRound(state)

    def explain_illegal(self, state: KekoroState, action: Action) -> tuple[str, str]:
        p, phase = state.turn, state.phase
        if action.kind == PLAY:
            if phase is not Phase.PLAY:
                return "KE-TURN-2", f"seat {p} cannot play a hand card now (phase {phase.value})"
            found = explain_hand_play(state.table.hand(p), state.table.field, action, p,
                                      ("KE-TURN-2", "KE-CAP-2", "KE-CAP-1"))
            return found or ("KE-CAP-1", f"card {action.cards[0]} cannot be played so")
        if action.kind == TAKE:
            if phase is not Phase.TAKE:
                return "KE-CAP-6", "no drawn card is waiting for a choice of target"
            return "KE-CAP-2", f"{action.cards} is not one of the two field cards the drawn card matches"
        if action.kind == DECLARE:
            if action.label != spec.INSTANT_VICTORY or action.cards:
                return "KE-IV-1", f"the only declaration in Kekoro is '{DECLARE_ACTION}'"
            n = state.yaku_counts()
            return "KE-IV-1", (f"the instant victory is declared at the end of one's own turn with a yaku lead of "
                               f"{spec.YAKU_LEAD}; seat {p} has {n[p]} yaku to {n[1 - p]} (phase {phase.value})")
        if action.kind == CONTINUE:
            return "KE-IV-3", "'continue' answers the instant-victory choice only"
        return "KE-TURN-2", f"unknown action kind {action.kind!r} for Kekoro"

    # -- results ------------------------------------------------------------------------------
    def score(self, rules: KekoroRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        pile = INDEX.mask_of(cards)
        return PileScore(rules.scorer.yaku_of(pile), rules.scorer.card_points(pile))

    # -- the match ----------------------------------------------------------------------------
    def new_match(self, rules: KekoroRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((0, 0), first_dealer)  # KE-DEAL-2

    def settle(self, rules: KekoroRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        if result.ends_game:  # KE-GAME-2
            assert result.winner is not None
            return settled(info, result, True, INSTANT_VICTORY, (result.winner,))
        lead = abs(info.scores[0] + result.deltas[0] - info.scores[1] - result.deltas[1])
        more_than = rules.value(spec.LeadTest) is spec.LeadTest.MORE_THAN
        if lead > spec.LEAD if more_than else lead >= spec.LEAD:  # KE-GAME-1
            return settled(info, result, True, LEAD_REACHED)
        limit, played = rules.round_limit, info.rounds_played + (1 if result.counts else 0)
        return settled(info, result, limit is not None and played >= limit, ROUND_LIMIT)  # KE-GAME-3


class KekoroRound(FishingRound[KekoroState, Card]):
    """A Kekoro round played in place, the one implementation of its turn: the zones as masks over
    :data:`INDEX`, the draw pile as ``stock[top:]``, and each capture pile's yaku counters
    (:attr:`Scorer.counters`) with the number of yaku they show (``yakus``), kept up to date as cards are
    captured. The rules' ``named_captures`` and ``scorer``, read on every turn, are kept as ``named`` and
    ``scorer``."""

    __slots__ = ("caps", "counters", "end", "field", "hands", "named", "pending", "phase", "rules", "scorer", "setup",
                 "stock", "top", "turn", "winner", "yakus")
    index = INDEX
    counters: list[int]
    yakus: list[int]

    def __init__(self, s: KekoroState) -> None:
        t = s.table
        self.rules, self.setup, self.named, self.scorer = s.rules, s.setup, s.rules.named_captures, s.rules.scorer
        self.hands, self.field, self.caps = list(t.hand_masks), t.field_mask, list(t.captured_masks)
        self.stock, self.top, sc = t.stock, 0, self.scorer
        self.counters = [sc.count_of(self.caps[0]), sc.count_of(self.caps[1])]
        self.yakus = [sc.yaku_in(self.counters[0]), sc.yaku_in(self.counters[1])]
        self.turn, self.phase, self.pending, self.end, self.winner = s.turn, s.phase, s.pending, s.end, s.winner

    @classmethod
    def dealt(cls, rules: KekoroRules, order: Sequence[int], setup: RoundSetup) -> KekoroRound:
        """The round dealt from ``order`` (card ids, top first), over at once for a misdeal."""
        r = cls.__new__(cls)
        r.hands, field = deal_two(rules.dealing, _MASK_OF, order, setup.dealer)  # KE-DEAL-1
        r.rules, r.setup, r.field, r.caps, r.counters, r.yakus = rules, setup, field, [0, 0], [0, 0], [0, 0]
        r.named, r.scorer = rules.named_captures, rules.scorer
        r.stock, r.top = tuple(map(INDEX.by_id.__getitem__, rules.stock_order(order))), 0
        r.turn, r.phase, r.pending, r.end, r.winner = setup.dealer, _PLAYING, None, "", None  # KE-TURN-1
        mode = rules.value(spec.Misdeal)  # KE-DEAL-3; no lucky hands are looked for (KE-DEAL-4)
        if mode is not spec.Misdeal.OFF and (_four_in(field) or (
                mode is spec.Misdeal.FIELD_OR_HAND and any(map(_four_in, r.hands)))):
            r.phase, r.end = _OVER, MISDEAL
        return r

    def over(self) -> bool:
        return self.phase is _OVER

    def legal(self) -> Sequence[Action]:
        """A hand card (KE-CAP-5: matching or not), a target for the drawn card, or the instant-victory choice."""
        phase = self.phase
        if phase is _PLAYING:
            return plays_of(INDEX, self.hands[self.turn], self.field, False, self.named)
        if phase is _TAKING:
            assert self.pending is not None
            return takes_of(INDEX, self.field, self.pending, self.named)
        if phase is _DECLARING:
            return (CONTINUE_ACTION, DECLARE_ACTION)  # sorted: 'continue' < 'declare'
        return ()

    def plays_from_masks(self) -> int | None:
        return 0 if self.phase is _PLAYING else None

    def play(self, a: Action) -> None:
        if a.kind == PLAY:
            cards = a.cards
            self.play_card(_MASK_OF[cards[0]], _MASK_OF[cards[1]] if len(cards) > 1 else 0)
        elif a.kind == TAKE:  # KE-CAP-6, KE-CAP-2: the drawn card takes the field card chosen
            assert self.pending is not None
            d = self.pending.mask
            self.field, got = lands(self.field, d, self.field & _SUIT_OF[d], _MASK_OF[a.cards[0]])
            self._capture(got)
            self._end_turn()
        elif a == DECLARE_ACTION:  # KE-IV-1, KE-GAME-2
            self.phase, self.end, self.winner = _OVER, INSTANT_VICTORY, self.turn
        elif a == CONTINUE_ACTION:  # KE-IV-3
            self._pass()
        else:
            raise AssertionError(a)

    def play_card(self, card: int, target: int) -> None:
        """The hand play of ``card`` on ``target`` (masks, 0 for none), then the top card of the draw pile
        (KE-TURN-2), unless it matches two field cards: the player then chooses (KE-CAP-2, KE-CAP-6)."""
        field = self.field
        field, got = lands(field, card, field & _SUIT_OF[card], target)  # KE-CAP-1…4
        self.hands[self.turn] &= ~card
        drawn = self.stock[self.top]
        self.top += 1
        d = drawn.mask
        matched = field & _SUIT_OF[d]
        if self.named >> matched.bit_count() & 1:
            self.field, self.pending, self.phase = field, drawn, _TAKING
            self._capture(got)
            return
        self.field, got_drawn = lands(field, d, matched, 0)
        self._capture(got, got_drawn)
        self._end_turn()

    def _capture(self, got: int, more: int = 0) -> None:
        """The cards of ``got`` and ``more`` (what one capture takes each: cards of one month) join the capture
        pile of the player to move, and its yaku counters."""
        if got | more:
            p = self.turn
            self.caps[p] |= got | more
            counts = self.scorer.counters[0]
            add = counts[got] + counts[more]
            if add:  # some yaku card: count the pile's yaku again
                self.counters[p] += add
                self.yakus[p] = self.scorer.yaku_in(self.counters[p])

    def _end_turn(self) -> None:
        """KE-IV-1: after both plays, a yaku lead of 3 or more offers the instant victory."""
        p, yakus = self.turn, self.yakus
        mine = yakus[p]
        if mine >= spec.YAKU_LEAD and mine - yakus[1 - p] >= spec.YAKU_LEAD:
            self.phase, self.pending = _DECLARING, None
            return
        self._pass()

    def _pass(self) -> None:
        """The turn passes to the other seat, or the round ends when their hand is empty (KE-END-1)."""
        self.pending = None
        nxt = 1 - self.turn
        if not self.hands[nxt]:
            self.phase, self.end = _OVER, PLAYED_OUT
        else:
            self.turn, self.phase = nxt, _PLAYING

    def result(self) -> RoundResult:
        """The round's result (:meth:`Kekoro.round_result`), from the capture piles and how it ended."""
        if self.phase is not _OVER:
            raise ValueError("the round is not over")
        dealer, piles, sc, w = self.setup.dealer, self.caps, self.rules.scorer, self.winner
        if self.end == MISDEAL:
            return RoundResult(MISDEAL, (0, 0), counts=False, next_dealer=dealer)
        yaku = (sc.yaku_of(piles[0]), sc.yaku_of(piles[1]))
        cp = (sc.card_points(piles[0]), sc.card_points(piles[1]))
        if self.end == INSTANT_VICTORY:  # KE-IV-3: the interrupted round is not scored
            assert w is not None
            lead = len(yaku[w]) - len(yaku[1 - w])
            return RoundResult(INSTANT_VICTORY, (0, 0), w, yaku, cp, ends_game=True, notes=(("yaku_lead", lead),))
        deltas = (cp[0] + spec.YAKU_POINTS * len(yaku[0]), cp[1] + spec.YAKU_POINTS * len(yaku[1]))  # KE-SCORE-1
        win = None if deltas[0] == deltas[1] else int(deltas[1] > deltas[0])
        return RoundResult(PLAYED_OUT, deltas, win, yaku, cp, next_dealer=self.rules.next_dealer(dealer, win),
                           notes=(("yaku.0", len(yaku[0])), ("yaku.1", len(yaku[1]))))

    def state(self) -> KekoroState:
        return new(KekoroState, rules=self.rules, setup=self.setup, table=self.table_now(self.caps), turn=self.turn,
                   phase=self.phase, pending=self.pending, end=self.end, winner=self.winner)


_MASK_OF: dict[int, int] = {c.id: c.mask for c in INDEX.cards}
_SUIT_OF: dict[int, int] = INDEX.suit_of

GAME = Kekoro()
