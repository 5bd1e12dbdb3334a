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
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card, Deck
from hanafuda_spec.games import kekoro as spec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import (
    Action,
    FastRound,
    Game,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    action,
    evolve,
)
from hanafuda.fishing import (
    PLAY,
    TAKE,
    CardIndex,
    Table,
    capture,
    deal_packets,
    explain_hand_play,
    hand_plays,
    packet_plan,
    plays_of,
    resolve,
    take_choices,
    takes_of,
)

__all__ = ["GAME", "INDEX", "Kekoro", "KekoroRules", "KekoroState", "Phase", "Scorer"]

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


# -- scoring -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scorer:
    """The yaku table and the card values as bit masks (same meaning as the catalogue's data): each
    yaku as it is reported (30 points, KE-YAKU-1) with the mask of its three cards, and each card
    value with the mask of the cards worth it."""

    yaku: tuple[tuple[ScoredYaku, int], ...]
    value_masks: tuple[tuple[int, int], ...]

    def yaku_of(self, pile: int) -> tuple[ScoredYaku, ...]:
        """Every yaku the pile forms, 30 points each, in table order (KE-YAKU-1, KE-YAKU-2)."""
        return tuple([y for y, m in self.yaku if pile & m == m])

    def yaku_count(self, pile: int) -> int:
        """How many yaku the pile forms (KE-IV-2): ``len(self.yaku_of(pile))``."""
        return len([m for _, m in self.yaku if pile & m == m])

    def card_points(self, pile: int) -> int:
        """The value of the cards in the pile (KE-VAL-1, KE-VAL-2)."""
        return sum([v * (pile & m).bit_count() for v, m in self.value_masks])

    @functools.cached_property
    def counters(self) -> tuple[dict[int, int], int, int]:
        """:meth:`yaku_count` kept as counters (for the fast round, which adds cards to a pile and counts
        again): yaku i has a 4-bit lane ``i`` of one integer, holding how many of its cards the pile has.
        Returns, for each card's mask, the counters it adds (1 in the lane of each yaku it belongs to); the
        lanes' complements to 8 (8 minus the yaku's size); and the lanes' top bits. A lane plus its
        complement reaches 8 exactly when the pile holds the whole yaku, so ``((counts + complement) &
        tops).bit_count()`` is the yaku count (yaku of 1 to 7 cards; the table's have 3)."""
        add: dict[int, int] = {}
        complement = tops = 0
        for i, (_, cards) in enumerate(self.yaku):
            size = cards.bit_count()
            if not 1 <= size <= 7:  # pragma: no cover - the catalogue's yaku are three cards
                raise ValueError("the yaku counters hold yaku of 1 to 7 cards")
            complement |= (8 - size) << (4 * i)
            tops |= 8 << (4 * i)
            m = cards
            while m:
                low = m & -m
                m ^= low
                add[low] = add.get(low, 0) + (1 << (4 * i))
        return add, complement, tops

    def count_of(self, pile: int) -> int:
        """The counters of a pile (:attr:`counters`): the sum of its cards' counters."""
        add = self.counters[0]
        total = 0
        while pile:
            low = pile & -pile
            pile ^= low
            total += add.get(low, 0)
        return total


#: The 48 hanafuda cards as bits: every Kekoro table is a set of masks over this index.
INDEX: CardIndex[Card] = CardIndex(c for c in HANAFUDA.cards if isinstance(c, Card))

#: Each month's four cards, as masks (for the four-of-a-month misdeal).
_MONTHS: tuple[int, ...] = tuple(INDEX.suits.values())


@functools.lru_cache(maxsize=64)
def _scorer(values: tuple[tuple[str, str], ...]) -> Scorer:
    opt = dict(values)
    yaku = tuple((ScoredYaku(y.id, spec.YAKU_POINTS), INDEX.mask_of(INDEX.by_id[i] for i in y.pool))
                 for y in spec.yaku_table(opt))
    by_value: dict[int, list[Card]] = {}
    for cid, v in spec.CARD_VALUES[opt["values"]].items():
        by_value.setdefault(v, []).append(INDEX.by_id[cid])
    return Scorer(yaku, tuple((v, INDEX.mask_of(cards)) for v, cards in sorted(by_value.items())))


def _four_of_a_month(mask: int) -> bool:
    """Whether the cards of ``mask`` include all four of a month (KE-DEAL-3)."""
    return any([mask & m == m for m in _MONTHS])


_DIGITS_1 = int("1" * 12, 16)
if tuple(0xF << 4 * i for i in range(12)) != _MONTHS:  # pragma: no cover - the deck's bit layout
    raise ImportError("Kekoro's month test expects each month's cards in four adjacent bits")


def _four_in(mask: int) -> bool:
    """:func:`_four_of_a_month` on every month at once: each month is a hexadecimal digit of the mask."""
    return bool(mask & (mask >> 1) & (mask >> 2) & (mask >> 3) & _DIGITS_1)


def _getter(positions: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A function giving the items at ``positions`` of a sequence, as a tuple."""
    get = operator.itemgetter(*positions)
    if len(positions) == 1:
        return lambda seq: (get(seq),)
    return get


def _with_seat(masks: tuple[int, ...], seat: int, mask: int) -> tuple[int, ...]:
    """Two seats' masks (hands or capture piles) with ``seat``'s replaced by ``mask``."""
    return (mask, masks[1]) if seat == 0 else (masks[0], mask)


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

    @functools.cached_property
    def dealing(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], Callable[[Sequence[int]], tuple[int, ...]],
                               Callable[[Sequence[int]], tuple[int, ...]]]:
        """KE-DEAL-1 as positions in the deck order: getters of the cards dealt to the ko (the dealer's
        opponent), the table and the dealer (the rest, from position 24, is the draw pile)."""
        plan = packet_plan((("ko", 8), ("field", 8), ("dealer", 8)), int(self.opt["packets"]))
        where: dict[str, list[int]] = {"ko": [], "field": [], "dealer": []}
        i = 0
        for who, k in plan:
            where[who] += range(i, i + k)
            i += k
        return _getter(where["ko"]), _getter(where["field"]), _getter(where["dealer"])

    @property
    def round_limit(self) -> int | None:
        v = self.opt["round_limit"]
        return None if v == "none" else int(v)


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
        # KE-DEAL-1: packets to the opponent, the table and the dealer in turn, 8 cards each
        got = deal_packets(cards, packet_plan((("ko", 8), ("field", 8), ("dealer", 8)), int(rules.opt["packets"])))
        hands = (got["dealer"], got["ko"]) if dealer == 0 else (got["ko"], got["dealer"])
        table = Table.deal(INDEX, hands, got["field"], got["stock"])
        mode = rules["misdeal"]  # KE-DEAL-3; no lucky hands are looked for (KE-DEAL-4)
        void = mode != "off" and _four_of_a_month(table.field_mask)
        if mode == "field-or-hand":
            void = void or any(_four_of_a_month(h) for h in table.hand_masks)
        if void:
            return KekoroState(rules, setup, table, dealer, Phase.OVER, end=MISDEAL)
        return KekoroState(rules, setup, table, dealer, Phase.PLAY)  # KE-TURN-1: the dealer leads

    # -- play ---------------------------------------------------------------------------------
    def to_move(self, state: KekoroState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: KekoroState) -> tuple[Action, ...]:
        if state.phase is Phase.PLAY:  # KE-CAP-5: a non-matching card may always be played
            return tuple(hand_plays(state.table, state.turn))
        if state.phase is Phase.TAKE:
            assert state.pending is not None
            return tuple(take_choices(state.table, state.pending))
        if state.phase is Phase.DECLARE:
            return (CONTINUE_ACTION, DECLARE_ACTION)  # sorted: 'continue' < 'declare'
        return ()

    def do(self, state: KekoroState, action: Action) -> KekoroState:
        t = state.table
        p = state.turn
        if action.kind == PLAY:
            c = t.index.by_id[action.cards[0]]
            field, got = capture(t, c, action.cards[1] if len(action.cards) > 1 else None)  # KE-CAP-1…4
            # KE-TURN-2: then the top card of the draw pile is played the same way (KE-CAP-6), against
            # the field the hand card left, so that the table of the turn is built once
            drawn = t.stock[0]
            choose = (field & t.index.suit_mask(drawn.suit)).bit_count() == 2  # the player takes one (KE-CAP-2)
            if not choose:  # it stays on the table, or captures its one match or all three (KE-CAP-1…4)
                field, got_drawn = resolve(t.index, field, drawn, None)
                got |= got_drawn
            t = evolve(t, hand_masks=_with_seat(t.hand_masks, p, t.hand_masks[p] & ~c.mask), field_mask=field,
                       stock=t.stock[1:], captured_masks=_with_seat(t.captured_masks, p, t.captured_masks[p] | got))
            if choose:
                return evolve(state, table=t, phase=Phase.TAKE, pending=drawn)
            return self._end_turn(state, t)
        if action.kind == TAKE:
            assert state.pending is not None
            field, got = capture(t, state.pending, action.cards[0])  # KE-CAP-6, KE-CAP-2
            t = evolve(t, field_mask=field, captured_masks=_with_seat(t.captured_masks, p, t.captured_masks[p] | got))
            return self._end_turn(state, t)
        if action == DECLARE_ACTION:  # KE-IV-1, KE-GAME-2
            return evolve(state, phase=Phase.OVER, end=INSTANT_VICTORY, winner=p)
        if action == CONTINUE_ACTION:  # KE-IV-3
            return self._pass(state, t)
        raise AssertionError(action)

    def _end_turn(self, state: KekoroState, table: Table[Card]) -> KekoroState:
        """KE-IV-1: after both plays (``table`` is the table then), a yaku lead of 3 or more offers
        the instant victory."""
        p = state.turn
        count = state.rules.scorer.yaku_count
        piles = table.captured_masks
        mine = count(piles[p])
        # a lead of 3 needs 3 yaku: the opponent's are counted only then
        if mine >= spec.YAKU_LEAD and mine - count(piles[1 - p]) >= spec.YAKU_LEAD:
            return evolve(state, table=table, phase=Phase.DECLARE, pending=None)
        return self._pass(state, table)

    def _pass(self, state: KekoroState, table: Table[Card]) -> KekoroState:
        """The turn passes to the other seat on ``table``, or the round ends when their hand is empty."""
        nxt = 1 - state.turn
        if not table.hand_masks[nxt]:
            return evolve(state, table=table, phase=Phase.OVER, pending=None, end=PLAYED_OUT)  # KE-END-1
        return evolve(state, table=table, turn=nxt, phase=Phase.PLAY, pending=None)

    def fast_round(self, state: KekoroState) -> FastRound[KekoroState] | None:
        """The round played in place (``_FastKekoro``), under every option."""
        return None if state.phase is not Phase.PLAY else _FastKekoro(state)

    def deal_fast(self, rules: KekoroRules, order: Sequence[int], setup: RoundSetup) -> FastRound[KekoroState] | None:
        """The deal of :meth:`start_round` straight into the fast round; None for a deal the rules void
        (KE-DEAL-3), left to :meth:`start_round`."""
        if len(order) != 48:
            return None
        ko_of, field_of, dealer_of = rules.dealing
        mask_of = _MASK_OF.__getitem__
        field = sum(map(mask_of, field_of(order)))  # distinct bits: the sum is the union
        ko, dealer = sum(map(mask_of, ko_of(order))), sum(map(mask_of, dealer_of(order)))
        mode = rules["misdeal"]  # KE-DEAL-3
        if mode != "off" and (_four_in(field) or (mode == "field-or-hand" and (_four_in(ko) or _four_in(dealer)))):
            return None
        h0, h1 = (dealer, ko) if setup.dealer == 0 else (ko, dealer)
        return _FastKekoro(None, self, rules, setup, (tuple(order), h0, h1, field))

    def explain_illegal(self, state: KekoroState, action: Action) -> tuple[str, str]:
        p = state.turn
        if action.kind == PLAY:
            if state.phase is not Phase.PLAY:
                return "KE-TURN-2", f"seat {p} cannot play a hand card now (phase {state.phase.value})"
            found = explain_hand_play(state.table.hand(p), state.table.field, action, p,
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
        return _result(state.rules, state.end, state.dealer, state.winner, state.table.captured_masks)

    def snapshot(self, state: KekoroState, info: MatchInfo | None = None) -> Snapshot:
        t = state.table
        ids = t.index.ids_of
        zones: list[tuple[str, tuple[int, ...]]] = [
            ("hand.0", ids(t.hand_masks[0])),
            ("hand.1", ids(t.hand_masks[1])),
            ("field", ids(t.field_mask)),
            ("stock", tuple(c.id for c in t.stock)),
            ("drawn", (state.pending.id,) if state.pending else ()),
            ("captured.0", ids(t.captured_masks[0])),
            ("captured.1", ids(t.captured_masks[1])),
        ]
        scores = info.scores if info else (0, 0)
        return Snapshot("kekoro", tuple(zones), self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KekoroRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        pile = INDEX.mask_of(cards)
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


def _result(rules: KekoroRules, end: str, dealer: int, winner: int | None, piles: Sequence[int]) -> RoundResult:
    """The result of a round that ended so, ``piles`` being the two capture piles
    (:meth:`Kekoro.round_result`, and the fast round's :meth:`_FastKekoro.result`)."""
    d = dealer
    if end == MISDEAL:
        return RoundResult(MISDEAL, (0, 0), counts=False, next_dealer=d)
    sc = rules.scorer
    yaku = (sc.yaku_of(piles[0]), sc.yaku_of(piles[1]))
    cp = (sc.card_points(piles[0]), sc.card_points(piles[1]))
    if end == INSTANT_VICTORY:  # KE-IV-3: the interrupted round is not scored
        w = winner
        assert w is not None
        lead = len(yaku[w]) - len(yaku[1 - w])
        return RoundResult(INSTANT_VICTORY, (0, 0), w, yaku, cp, ends_game=True, notes=(("yaku_lead", lead),))
    deltas = (cp[0] + spec.YAKU_POINTS * len(yaku[0]), cp[1] + spec.YAKU_POINTS * len(yaku[1]))  # KE-SCORE-1
    nxt: int | None
    if deltas[0] != deltas[1]:
        win: int | None = 0 if deltas[0] > deltas[1] else 1
        nxt = win  # KE-END-2
    else:
        win = None
        nxt = d if rules["tie_dealer"] == "stay" else 1 - d  # KE-END-3
    return RoundResult(PLAYED_OUT, deltas, win, yaku, cp, next_dealer=nxt,
                       notes=(("yaku.0", len(yaku[0])), ("yaku.1", len(yaku[1]))))


#: ``play c`` and ``play c t`` (the shared instances :func:`plays_of` lists), by the id of the object,
#: -> the masks of c and of t (0 for none). Keyed by identity: INDEX keeps these objects alive, so no
#: other object has their ids.
_PLAY_MASKS: dict[int, tuple[int, int]] = {
    **{id(a): (m, 0) for m, a in INDEX.plays.items()},
    **{id(a): (m, t) for m, on in INDEX.plays_on.items() for t, a in on.items()},
}
_MASK_OF: dict[int, int] = {c.id: c.mask for c in INDEX.cards}
_SUIT_OF: dict[int, int] = INDEX.suit_of
_BY_MASK: dict[int, Card] = INDEX.by_mask


class _FastKekoro(FastRound[KekoroState]):
    """A Kekoro round played in place (see :class:`~hanafuda.engine.FastRound`): the zones as mutable
    masks, the stock as a tuple and the index of its top card. The turn is :meth:`Kekoro.do` with
    :meth:`Kekoro._end_turn` and :meth:`Kekoro._pass`: a hand card, then the top of the draw pile,
    each captured as the fishing turn says (KE-CAP-1…6, KE-TURN-2); a yaku lead of 3 offers the
    instant victory (KE-IV-1, KE-IV-3); the round ends when the next hand is empty (KE-END-1)."""

    __slots__ = ("add", "caps", "complement", "counters", "deal", "dealer", "end", "field", "game", "hands",
                 "pending", "phase", "rules", "start", "stock", "top", "tops", "turn", "winner")
    start: KekoroState | None  # the first position, where it was built
    deal: tuple[tuple[int, ...], RoundSetup] | None  # the deck order and setup it was dealt from (deal_fast)
    game: Kekoro | None
    phase: Phase

    def __init__(self, s: KekoroState | None, game: Kekoro | None = None, rules: KekoroRules | None = None,
                 setup: RoundSetup | None = None, dealt: tuple[tuple[int, ...], int, int, int] | None = None) -> None:
        """From position ``s``; or, with ``s`` None, from the first position of a deal: ``game``, ``rules``,
        ``setup`` and ``dealt`` (the deck order's card ids, the two hands' masks, seat 0 first, and the
        field's). The stock is kept as masks, top first."""
        if s is not None:
            t = s.table
            self.start, self.deal, self.game, self.rules, self.dealer = s, None, None, s.rules, s.dealer
            self.hands, self.field, self.caps = list(t.hand_masks), t.field_mask, list(t.captured_masks)
            self.stock, self.top = tuple([c.mask for c in t.stock]), 0  # the draw pile is stock[top:]
            self.turn, self.phase, self.pending, self.end, self.winner = s.turn, s.phase, s.pending, s.end, s.winner
        else:  # Kekoro.start_round of a deal it lets play
            assert game is not None and rules is not None and setup is not None and dealt is not None
            order, h0, h1, field = dealt
            self.start, self.deal, self.game, self.rules, self.dealer = None, (order, setup), game, rules, setup.dealer
            self.hands, self.field, self.caps = [h0, h1], field, [0, 0]
            self.stock, self.top = tuple(map(_MASK_OF.__getitem__, order[24:])), 0
            self.turn, self.phase, self.pending, self.end, self.winner = setup.dealer, Phase.PLAY, None, "", None
        # the yaku counters of each capture pile (Scorer.counters): kept up to date as cards are captured
        sc = self.rules.scorer
        self.add, self.complement, self.tops = sc.counters
        self.counters = [sc.count_of(self.caps[0]), sc.count_of(self.caps[1])]

    def over(self) -> bool:
        return self.phase is Phase.OVER

    def legal(self) -> Sequence[Action]:
        if self.phase is Phase.PLAY:
            return plays_of(INDEX, self.hands[self.turn], self.field)
        if self.phase is Phase.TAKE:
            assert self.pending is not None
            return takes_of(INDEX, self.field, self.pending)
        if self.phase is Phase.DECLARE:
            return (CONTINUE_ACTION, DECLARE_ACTION)
        return ()

    def replay(self, actions: Sequence[Action | None], pos: int, stop: int) -> int:
        """:meth:`FastRound.replay`, a hand play's legality read from the masks: ``play c`` is listed by
        :func:`plays_of` when c is in the hand and the field does not hold exactly two cards of its month,
        ``play c t`` when it holds two, t one of them (in the other phases the listed actions are
        searched)."""
        plays, suit_of, default = _PLAY_MASKS.get, _SUIT_OF, FastRound.replay
        while pos < stop:
            phase = self.phase
            if phase is not Phase.PLAY:
                if phase is Phase.OVER:
                    break
                nxt = default(self, actions, pos, pos + 1)
                if nxt == pos:
                    break
                pos = nxt
                continue
            found = plays(id(actions[pos]))
            if found is None:
                break
            c, t = found
            if not self.hands[self.turn] & c:
                break
            if (self.field & suit_of[c]).bit_count() == 2:
                if not t & self.field:
                    break
            elif t:
                break
            self._play(c, t)
            pos += 1
        return pos

    def play(self, a: Action) -> None:
        p = self.turn
        if a.kind == PLAY:
            cards = a.cards
            self._play(_MASK_OF[cards[0]], _MASK_OF[cards[1]] if len(cards) > 1 else 0)
        elif a.kind == TAKE:
            assert self.pending is not None
            t = _MASK_OF[a.cards[0]]  # KE-CAP-6, KE-CAP-2
            self.field &= ~t
            self._capture(p, t | self.pending.mask)
            self.pending = None
            self._end_turn()
        elif a == DECLARE_ACTION:
            self.phase, self.end, self.winner = Phase.OVER, INSTANT_VICTORY, p
        elif a == CONTINUE_ACTION:
            self._pass()
        else:
            raise AssertionError(a)

    def _play(self, c: int, target: int) -> None:
        """A legal hand play of card ``c`` (its mask) on ``target`` (a mask, 0 for none), then the top
        card of the draw pile (KE-TURN-2): the captures of fishing.resolve written out on masks
        (KE-CAP-1…4, KE-CAP-6; a target is named exactly when two field cards match)."""
        p = self.turn
        field = self.field
        m = field & _SUIT_OF[c]
        if not m:
            field |= c
            got = 0
        else:
            if target:
                m = target
            field &= ~m
            got = m | c
        self.hands[p] &= ~c
        d = self.stock[self.top]
        self.top += 1
        m = field & _SUIT_OF[d]
        if m.bit_count() == 2:  # KE-CAP-2: the player takes one
            self.field, self.pending, self.phase = field, _BY_MASK[d], Phase.TAKE
            self._capture(p, got)
            return
        if not m:
            field |= d
        else:
            field &= ~m
            got |= m | d
        self.field = field
        self._capture(p, got)
        self._end_turn()

    def _capture(self, seat: int, got: int) -> None:
        """The cards of ``got`` join ``seat``'s capture pile, and its yaku counters."""
        if got:
            self.caps[seat] |= got
            add = self.add
            total = self.counters[seat]
            while got:
                low = got & -got
                got ^= low
                total += add.get(low, 0)
            self.counters[seat] = total

    def _end_turn(self) -> None:
        p = self.turn
        complement, tops = self.complement, self.tops
        mine = ((self.counters[p] + complement) & tops).bit_count()  # Scorer.yaku_count of the pile
        if mine >= spec.YAKU_LEAD and mine - ((self.counters[1 - p] + complement) & tops).bit_count() >= spec.YAKU_LEAD:
            self.phase, self.pending = Phase.DECLARE, None
            return
        self._pass()

    def _pass(self) -> None:
        self.pending = None
        nxt = 1 - self.turn
        if not self.hands[nxt]:
            self.phase, self.end = Phase.OVER, PLAYED_OUT
        else:
            self.turn, self.phase = nxt, Phase.PLAY

    def result(self) -> RoundResult | None:
        """:meth:`Kekoro.round_result` of :meth:`state`, from the round's own fields."""
        if self.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        return _result(self.rules, self.end, self.dealer, self.winner, self.caps)

    def state(self) -> KekoroState:
        s = self.start
        if s is None:  # made from a deal: its first position, as the reference deals it
            assert self.deal is not None and self.game is not None
            order, setup = self.deal
            s = self.start = self.game.start_round(self.rules, list(map(INDEX.by_id.__getitem__, order)), setup)
        table = evolve(s.table, hand_masks=tuple(self.hands), field_mask=self.field,
                       stock=tuple(map(_BY_MASK.__getitem__, self.stock[self.top:])), captured_masks=tuple(self.caps))
        return evolve(s, table=table, turn=self.turn, phase=self.phase, pending=self.pending, end=self.end,
                      winner=self.winner)


GAME = Kekoro()
