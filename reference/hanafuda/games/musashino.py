"""Musashino-Bana (武蔵野花), the old fishing game scored on dekiyaku alone.

Rules, citations and decisions: :mod:`hanafuda_spec.games.musashino`. Three players each play
for themselves, or four play as two teams of partners sitting opposite (seats 0 and 2 are team
0, seats 1 and 3 team 1). A *side* owns a capture pile: a seat, or a team. The oya (dealer) plays
first and play passes to the right (seat ``dealer + 1``). Dekiyaku (scoring combinations) are
read from the spec's table; the two insta-win dekiyaku stop the round at once.

>>> from hanafuda.engine import Match
>>> from hanafuda_spec.cards import card
>>> m = Match.start(GAME, GAME.rules(), seed=1)
>>> [len(h) for h in m.state.table.hands], len(m.state.table.field), len(m.state.table.stock)
([7, 7, 7], 6, 21)
>>> m.state.table.index is INDEX
True
>>> GAME.score(GAME.rules(), [card(i) for i in (10, 80, 113, 120)]).yaku_total
4
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card
from hanafuda_spec.games import musashino as spec
from hanafuda_spec.yaku import ScoredYaku

from hanafuda._construct import new
from hanafuda.engine import Action, MatchInfo, PileScore, RoundResult, RoundSetup, RulesOptions, settled
from hanafuda.fishing import (
    FOURS,
    NAMED_OF_TWO,
    PLAY,
    TAKE,
    CardIndex,
    FishingGame,
    FishingRound,
    Table,
    bits_of,
    deal_packets,
    explain_hand_play,
    lands,
    plays_of,
    suit_counts,
    takes_of,
)

__all__ = ["GAME", "INDEX", "Musashino", "MusashinoRound", "MusashinoRules", "MusashinoState", "Phase", "score_mask"]

INSTA_WIN = "insta-win"
HANDS_EMPTY = "hands-empty"
MISDEAL = "misdeal"


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a hand card
    TAKE = "take"  #: the drawn card matches two field cards: choose one
    OVER = "over"


# -- the dekiyaku table as bit masks ------------------------------------------------------------


#: The hanafuda deck as bits: hands, field and capture piles of a Musashino table are masks over
#: this index (``INDEX.by_id`` finds a card by id, ``INDEX.cards_of`` decodes a mask).
INDEX: CardIndex[Card] = CardIndex(c for c in HANAFUDA.cards if isinstance(c, Card))
assert tuple(INDEX.suits.values()) == tuple(0xF << 4 * i for i in range(12))  # what suit_counts reads


def _mask(ids: Iterable[int]) -> int:
    return INDEX.mask_of(map(INDEX.by_id.__getitem__, ids))


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A :class:`hanafuda_spec.games.musashino.Dekiyaku` row as bit masks (same meaning): every
    card of ``required`` (the one-card parts) and one card of each of ``any_of``."""

    yid: str
    scored: ScoredYaku
    required: int
    any_of: tuple[int, ...]
    stops_round: bool
    absorbs: tuple[str, ...]

    def formed(self, pile: int) -> bool:
        """Whether ``pile`` forms this row (the definition; :class:`_Judge` finds every row at once)."""
        return pile & self.required == self.required and all(pile & m for m in self.any_of)


@dataclass(frozen=True, slots=True)
class _Judge:
    """The dekiyaku table, prepared to find every row a pile forms in one pass over the months.

    A set of rows is a bit set (bit ``i`` for ``rows[i]``, in table order). Every part of a
    dekiyaku lies within one month (a single card, or a choice of two cards of one month), so a
    pile forms a row exactly when, month by month, its cards of that month meet the row's parts in
    that month. ``months`` holds each month's cards as a mask, with a map from the pile's cards of
    that month to the rows whose parts there are met; the rows formed are the AND of the twelve.
    ``insta`` are the insta-win rows, ``absorbing`` pairs a row with the rows it absorbs,
    ``banquets`` are the Moon and Flower Banquets."""

    rows: tuple[_Compiled, ...]
    months: tuple[tuple[int, dict[int, int]], ...]
    insta: int
    absorbing: tuple[tuple[int, int], ...]
    banquets: int

    def rows_formed(self, pile: int) -> int:
        """The rows ``pile`` forms (those whose :meth:`_Compiled.formed` is true)."""
        rows = (1 << len(self.rows)) - 1
        for month, met in self.months:
            rows &= met[pile & month]
        return rows

    def scored(self, rows: int) -> tuple[ScoredYaku, ...]:
        """The scored dekiyaku of a set of rows, in table order."""
        return tuple([self.rows[b.bit_length() - 1].scored for b in bits_of(rows)])


@functools.lru_cache(maxsize=64)
def _judge_for(insta_value: spec.InstaWinValue, four_brights: spec.FourBrights) -> _Judge:
    """The judge of the dekiyaku table these option values give (rows in table order)."""
    rows = tuple(_Compiled(y.id, ScoredYaku(y.id, y.points), _mask(next(iter(p)) for p in y.parts if len(p) == 1),
                           tuple(_mask(p) for p in y.parts if len(p) > 1), y.stops_round, y.absorbs)
                 for y in spec.yaku_table({"insta_win_value": insta_value, "four_brights": four_brights}))
    months = tuple(INDEX.suits.values())
    if any(not any(part & m == part for m in months) for y in rows for part in y.any_of):
        raise ValueError("a dekiyaku part spans two months: the month-by-month judge does not apply")
    bit, deck = {y.yid: 1 << i for i, y in enumerate(rows)}, INDEX.mask_of(INDEX.cards)

    def row_set(ids: Iterable[str]) -> int:
        return sum(bit[i] for i in ids)

    def met(m: int) -> dict[int, int]:
        """Each subset of month ``m`` -> the rows whose parts in ``m`` it meets: those it forms with every
        card of the other months."""
        cards = [c.mask for c in INDEX.cards_of(m)]
        subsets = (sum(cs) for k in range(len(cards) + 1) for cs in itertools.combinations(cards, k))
        return {sub: row_set(y.yid for y in rows if y.formed(sub | (deck & ~m))) for sub in subsets}

    absorbing = tuple((bit[y.yid], row_set(y.absorbs)) for y in rows if y.absorbs)
    return _Judge(rows, tuple((m, met(m)) for m in months), row_set(y.yid for y in rows if y.stops_round),
                  absorbing, row_set(spec.BANQUETS))


_VICTIMS = _mask(spec.STORM_VICTIMS)
#: The cards whose taker :attr:`MusashinoState.taken` records: the storm cards and the Crane.
_SPECIAL = _mask({*spec.STORM_CARDS, spec.SUN_CARD})


@dataclass(frozen=True)
class MusashinoRules(RulesOptions):
    """Typed Musashino rules, built from resolved option values (see the catalogue's options)."""

    catalogue = spec.SPEC
    values: tuple[tuple[str, str], ...]
    seats: int
    sides: int
    length: int
    cap: int | None
    check_on_capture: bool
    storm: spec.Storm
    sun: spec.Sun
    judge: _Judge
    insta: tuple[_Compiled, ...]
    side_of: tuple[int, ...]  #: each seat's side (MB-EQ-2)
    sides_from: tuple[tuple[int, ...], ...]  #: by seat: every side once, in turn order from that seat
    deals: tuple[tuple[tuple[str, int], ...], ...]  #: by dealer: the packets dealt, see :func:`_packets`

    def side(self, seat: int) -> int:
        """The side (capture pile) of a seat (MB-EQ-2)."""
        return self.side_of[seat]

    @functools.cached_property
    def named_captures(self) -> int:
        """MB-CAP-2, MB-CAP-3: the numbers of matching field cards among which a played or drawn card names the
        one it takes (:data:`~hanafuda.fishing.NAMED_OF_TWO`); a hook :mod:`hanafuda.deviations_other` overrides."""
        return NAMED_OF_TWO

    def next_dealer(self, dealer: int, winner: int) -> int:
        """MB-END-2: the round's winner deals next (in the team game, the dealer when the dealer's team won,
        else the next seat); a hook that :mod:`hanafuda.deviations_other` overrides."""
        return winner

    def pay(self, amount: int) -> int:
        """What a side pays, after the round limit (MB-SCORE-4)."""
        return amount if self.cap is None else min(amount, self.cap)


def score_mask(rules: MusashinoRules, pile: int, banquets_void: bool = False) -> tuple[ScoredYaku, ...]:
    """The dekiyaku of a capture pile given as a bit mask (MB-YAKU-1…23): only the insta-win
    dekiyaku if one is formed, else all formed, less those absorbed. ``banquets_void`` drops the
    Moon and Flower Banquets (Storm Rule, second version)."""
    judge = rules.judge
    formed = judge.rows_formed(pile)
    if formed & judge.insta:
        return judge.scored(formed & judge.insta)
    absorbed = judge.banquets if banquets_void else 0
    for row, gone in judge.absorbing:
        if formed & row:
            absorbed |= gone
    return judge.scored(formed & ~absorbed)


@dataclass(frozen=True)
class MusashinoState:
    """One position of a Musashino round.

    ``table`` holds the hands (one per seat), the field and the capture piles (one per side) as
    bit masks over :data:`INDEX`. ``taken`` records who took the Crane, the Rain Man and the
    Lightning and in which turn, as ``(card, side, turn)``, for the Storm and Sun rules. ``turns``
    counts the turns begun in the round.
    """

    rules: MusashinoRules
    setup: RoundSetup
    table: Table[Card]
    turn: int
    phase: Phase
    pending: Card | None = None
    turns: int = 1
    taken: tuple[tuple[int, int, int], ...] = ()
    end: str = ""
    winner: int | None = None  #: the winning side of an insta-win

    @property
    def dealer(self) -> int:
        return self.setup.dealer


def _packets(plan: spec.DealPlan, dealer: int) -> tuple[tuple[str, int], ...]:
    """The deal of ``dealer`` as packets (recipient, size) for :func:`deal_packets`: in each round of
    the plan, a packet to every seat from the dealer's right, then one to the field (MB-DEAL-3)."""
    n = plan.players
    seats_order = [(dealer + k) % n for k in range(1, n + 1)]  # MB-DEAL-3: dealer's right first
    out: list[tuple[str, int]] = []
    for per_hand, to_field in plan.packets:
        out.extend((str(p), per_hand) for p in seats_order)
        if to_field:
            out.append(("field", to_field))
    return tuple(out)


_SUIT_OF = INDEX.suit_of
#: The phases and the Storm's values as module constants (an enum class's attribute is a slow read).
_PLAYING, _TAKING, _OVER = Phase.PLAY, Phase.TAKE, Phase.OVER
_STORM_OFF, _STORM_CARDS, _STORM_BANQUETS = spec.Storm.OFF, spec.Storm.CARDS, spec.Storm.BANQUETS


def _choices(phase: Phase, hand: int, field: int, pending: Card | None, named: int = NAMED_OF_TWO) -> list[Action]:
    """The legal actions: a hand play (MB-CAP-5), or the drawn card's choice of two field cards (MB-CAP-6);
    ``named``: :attr:`MusashinoRules.named_captures`."""
    if phase is _PLAYING:
        return plays_of(INDEX, hand, field, False, named)
    if phase is _TAKING:
        assert pending is not None
        return takes_of(INDEX, field, pending, named)
    return []


class MusashinoRound(FishingRound[MusashinoState, Card]):
    """A Musashino-Bana round played in place, the one implementation of its turn: the fields are
    :class:`MusashinoState`'s, with the hands, field and capture piles (``piles``, one per side) as masks over
    :data:`INDEX` and the draw pile as ``stock[top:]``; the methods are the steps of a turn and the round's
    result. The rules' ``named_captures``, read on every turn, is kept as ``named``."""

    __slots__ = ("end", "field", "hands", "named", "pending", "phase", "piles", "rules", "setup", "stock", "taken",
                 "top", "turn", "turns", "winner")
    index = INDEX

    def __init__(self, s: MusashinoState) -> None:
        t = s.table
        self.rules, self.setup, self.turn, self.phase, self.pending = s.rules, s.setup, s.turn, s.phase, s.pending
        self.hands, self.field, self.piles = list(t.hand_masks), t.field_mask, list(t.captured_masks)
        self.stock, self.top = t.stock, 0
        self.turns, self.taken, self.end, self.winner = s.turns, s.taken, s.end, s.winner
        self.named = s.rules.named_captures

    @classmethod
    def dealt(cls, rules: MusashinoRules, order: Sequence[int], setup: RoundSetup) -> MusashinoRound:
        """The round dealt from ``order`` (card ids, top first): packets from the dealer's right (MB-DEAL-3), the
        dealer to play first; over at once when the field holds a whole month (MB-DEAL-4; never a hand, MB-DEAL-5)."""
        if len(order) != 48:
            raise ValueError("Musashino-Bana deals from the 48-card hanafuda deck")
        dealt, mask_of = deal_packets([INDEX.by_id[i] for i in order], rules.deals[setup.dealer]), INDEX.mask_of
        r = cls.__new__(cls)
        r.rules, r.setup, r.named, r.turn, r.pending = rules, setup, rules.named_captures, setup.dealer, None
        r.hands = [mask_of(dealt[str(p)]) for p in range(rules.seats)]
        r.field, r.piles, r.stock, r.top = mask_of(dealt.get("field", ())), [0] * rules.sides, tuple(dealt["stock"]), 0
        r.phase, r.turns, r.taken, r.end, r.winner = _PLAYING, 1, (), "", None
        if suit_counts(r.field) & FOURS:  # a whole month on the field
            r.phase, r.end = _OVER, MISDEAL
        return r

    def over(self) -> bool:
        return self.phase is _OVER

    def legal(self) -> Sequence[Action]:
        return _choices(self.phase, self.hands[self.turn], self.field, self.pending, self.named)

    def plays_from_masks(self) -> int | None:
        """A hand play is due (MB-CAP-5 lists every play the masks allow): the shared replay checks it so."""
        return 0 if self.phase is _PLAYING else None

    def play(self, action: Action) -> None:
        if action.kind == PLAY:
            self.play_card(*INDEX.play_masks[action.cards])
        elif action.kind == TAKE:
            self.take(INDEX.by_id[action.cards[0]].mask)
        else:
            raise AssertionError(action)

    def play_card(self, card: int, target: int) -> None:
        """The hand play (MB-CAP-1…5), then the draw, unless its capture wins the round at once (MB-END-1,
        insta_win_check=capture: no draw)."""
        self.hands[self.turn] &= ~card
        if self.capture(card, target) and self.rules.check_on_capture and self.insta_win():
            return
        drawn = self.stock[self.top]  # MB-TURN-2: the top card of the draw pile
        self.top += 1
        if self.named >> (self.field & _SUIT_OF[drawn.mask]).bit_count() & 1:  # MB-CAP-6: two targets
            self.phase, self.pending = _TAKING, drawn
        else:
            self.end_turn(self.capture(drawn.mask, 0))

    def take(self, target: int) -> None:
        """The drawn card takes ``target``, one of the two field cards of its month (MB-CAP-6)."""
        assert self.pending is not None
        drawn, self.pending, self.phase = self.pending, None, _PLAYING
        self.end_turn(self.capture(drawn.mask, target))

    def capture(self, card: int, target: int) -> int:
        """Card ``card`` (a mask) played against the field (MB-CAP-1…4, :func:`~hanafuda.fishing.resolve` on
        masks): with no field card of its month it joins the field; it takes one or three, or ``target`` of
        two. What it takes goes to the mover's side, and the storm cards and the Crane are noted with their
        taker and the turn (MB-CAP-7). Returns the cards taken (0 for none)."""
        self.field, got = lands(self.field, card, self.field & _SUIT_OF[card], target)
        if not got:
            return 0
        side = self.rules.side_of[self.turn]
        self.piles[side] |= got
        if got & _SPECIAL:
            self.taken += tuple([(c.id, side, self.turns) for c in INDEX.cards_of(got & _SPECIAL)])
        return got

    def end_turn(self, got: int) -> None:
        """After the draw, which took ``got``: the insta-win check (MB-END-1: after both plays, or with
        insta_win_check=capture after a capture); the round ends when the next seat's hand (and so the draw
        pile) is empty (MB-END-1); else the next seat moves (MB-TURN-1)."""
        if (got or not self.rules.check_on_capture) and self.insta_win():
            return
        nxt = (self.turn + 1) % self.rules.seats
        if not self.hands[nxt]:
            self.phase, self.end = _OVER, HANDS_EMPTY
        else:
            self.turn, self.turns = nxt, self.turns + 1

    def insta_win(self) -> bool:
        """MB-END-1 / MB-10: the first side, the mover's then in turn order, holding an insta-win wins the
        round. (What a side's dekiyaku see is part of its pile, so a row needing a card the pile lacks is
        passed over before the Storm is looked at.)"""
        rules, piles = self.rules, self.piles
        for side in rules.sides_from[self.turn]:
            pile = piles[side]
            for y in rules.insta:
                if pile & y.required == y.required and y.formed(self.seen(side)):
                    self.phase, self.end, self.winner = _OVER, INSTA_WIN, side
                    return True
        return False

    # -- the Storm and the Sun ---------------------------------------------------------------
    def stormed(self, side: int) -> bool:
        """Whether an active storm card is held by an opponent of ``side`` (MB-STORM-1…4)."""
        rules, taken = self.rules, self.taken
        if rules.storm is _STORM_OFF or not taken:
            return False
        crane = next(((s, t) for c, s, t in taken if c == spec.SUN_CARD), None)
        for c, holder, when in taken:
            if c == spec.SUN_CARD or holder == side:
                continue
            if (rules.sun is not spec.Sun.OFF and crane is not None and crane[0] != holder
                    and (rules.sun is spec.Sun.ANY_ORDER or crane[1] > when)):
                continue  # the Sun cancels this storm card: an opponent of its holder has the Crane
            return True
        return False

    def seen(self, side: int) -> int:
        """A side's pile as its dekiyaku see it: without the Storm's victim cards (storm=cards)."""
        pile = self.piles[side]
        return pile & ~_VICTIMS if self.rules.storm is _STORM_CARDS and self.taken and self.stormed(side) else pile

    def dekiyaku(self, side: int) -> tuple[ScoredYaku, ...]:
        """The dekiyaku a side scores now, the Storm and the Sun applied."""
        return score_mask(self.rules, self.seen(side), self.rules.storm is _STORM_BANQUETS and self.stormed(side))

    def state(self) -> MusashinoState:
        return new(MusashinoState, rules=self.rules, setup=self.setup, table=self.table_now(self.piles),
                   turn=self.turn, phase=self.phase, pending=self.pending, turns=self.turns, taken=self.taken,
                   end=self.end, winner=self.winner)

    def result(self) -> RoundResult | None:
        """The result of the round once it is over: a misdeal counts for nothing (MB-DEAL-4); an insta-win
        pays its value once (MB-SCORE-1), else each side pays the difference to the best (MB-SCORE-2, ties
        to the first from the dealer, MB-SCORE-3), within the round limit (MB-SCORE-4)."""
        if self.phase is not _OVER:
            return None
        rules, d, w = self.rules, self.setup.dealer, self.winner
        n, sides = rules.seats, range(rules.sides)
        if self.end == MISDEAL:
            return RoundResult(MISDEAL, (0,) * n, counts=False, next_dealer=d)
        if self.end == INSTA_WIN:  # MB-SCORE-1: the value once, however many formed (MB-22)
            assert w is not None
            won = self.dekiyaku(w)
            yaku = tuple([won if sd == w else () for sd in sides])
            totals = [sum([y.points for y in ys]) for ys in yaku]
            amount = rules.pay(max(y.points for y in won))  # MB-SCORE-1, MB-SCORE-4
            side_delta = [0 if sd == w else -amount for sd in sides]
        else:  # MB-SCORE-2: each side pays the difference to the best
            yaku = tuple([self.dekiyaku(sd) for sd in sides])
            totals = [sum([y.points for y in ys]) for ys in yaku]
            top = max(totals)
            w = next(sd for sd in rules.sides_from[d] if totals[sd] == top)  # MB-SCORE-3
            side_delta = [0 if sd == w else -rules.pay(top - totals[sd]) for sd in sides]  # MB-SCORE-2/4
        side_delta[w] = -sum(side_delta)  # every losing side pays the winning side
        deltas = tuple([side_delta[sd] for sd in rules.side_of])  # MB-SCORE-5
        seat = w if rules.sides == 3 else (d if rules.side_of[d] == w else (d + 1) % n)  # the winning seat
        notes = (*[(f"total.{sd}", totals[sd]) for sd in sides], (f"won.{w}", 1))
        return RoundResult(self.end, deltas, seat, yaku, None, True, False, rules.next_dealer(d, seat), notes)


class Musashino(FishingGame[MusashinoState, MusashinoRules]):
    """Musashino-Bana under the completed FudaWiki rules and the catalogue's decisions; its turn is
    :class:`MusashinoRound`'s."""

    spec, over = spec.SPEC, Phase.OVER

    def make_rules(self, values: Mapping[str, str]) -> MusashinoRules:
        o = spec.SPEC.value
        players, cap = o(values, spec.Players), o(values, spec.PaymentCap)
        plan = spec.DEALS[players]
        judge = _judge_for(o(values, spec.InstaWinValue), o(values, spec.FourBrights))
        seats, sides = plan.players, spec.sides(players)
        side_of = tuple(seat % sides for seat in range(seats))  # MB-EQ-2: 3 sides, or teams 0-2 and 1-3
        return MusashinoRules(
            values=tuple(sorted(values.items())), seats=seats, sides=sides,
            length=int(o(values, spec.Length)), cap=None if cap is spec.PaymentCap.NONE else int(cap),
            check_on_capture=o(values, spec.InstaWinCheck) is spec.InstaWinCheck.CAPTURE,
            storm=o(values, spec.Storm), sun=o(values, spec.Sun),
            judge=judge, insta=tuple(y for y in judge.rows if y.stops_round), side_of=side_of,
            sides_from=tuple(tuple(dict.fromkeys(side_of[(seat + k) % seats] for k in range(seats)))
                             for seat in range(seats)),
            deals=tuple(_packets(plan, dealer) for dealer in range(seats)))

    def seats(self, rules: MusashinoRules) -> int:
        return rules.seats

    # -- a round: MusashinoRound's steps ------------------------------------------------------
    def start_round(self, rules: MusashinoRules, order: Sequence[BaseCard], setup: RoundSetup) -> MusashinoState:
        return MusashinoRound.dealt(rules, [c.id for c in order if isinstance(c, Card)], setup).state()

    def deal_fast(self, rules: MusashinoRules, order: Sequence[int], setup: RoundSetup) -> MusashinoRound | None:
        """:meth:`start_round`'s deal as a round; None for a misdeal (MB-DEAL-4), left to :meth:`start_round`."""
        r = MusashinoRound.dealt(rules, order, setup)
        return None if r.phase is Phase.OVER else r

    def round_of(self, state: MusashinoState) -> MusashinoRound:
        return MusashinoRound(state)

    def explain_illegal(self, state: MusashinoState, action: Action) -> tuple[str, str]:
        p = state.turn
        if action.kind == PLAY:
            if state.phase is not Phase.PLAY:
                return "MB-CAP-6", f"seat {p} must first choose what the drawn card takes"
            found = explain_hand_play(state.table.hand(p), state.table.field, action, p,
                                      ("MB-TURN-2", "MB-CAP-2", "MB-CAP-1"))
            return found or ("MB-CAP-1", f"card {action.cards[0]} cannot be played so")
        if action.kind == TAKE:
            if state.phase is not Phase.TAKE:
                return "MB-CAP-6", "no drawn card is waiting for a choice of target"
            return "MB-CAP-2", f"{list(action.cards)} is not one of the two field cards the drawn card matches"
        return "MB-TURN-2", f"Musashino-Bana has no {action.kind!r} action: a turn is a hand play and a draw"

    # -- the Storm and the Sun ---------------------------------------------------------------
    def stormed(self, state: MusashinoState, side: int) -> bool:
        """Whether an active storm card is held by an opponent of ``side`` (MB-STORM-1…4)."""
        return MusashinoRound(state).stormed(side)

    def side_dekiyaku(self, state: MusashinoState, side: int) -> tuple[ScoredYaku, ...]:
        """The dekiyaku a side scores now, the Storm and Sun applied."""
        return MusashinoRound(state).dekiyaku(side)

    # -- results -------------------------------------------------------------------------
    def score(self, rules: MusashinoRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        return PileScore(score_mask(rules, INDEX.mask_of(cards)), None)  # MB-EQ-1: no card points

    # -- the match -----------------------------------------------------------------------
    def new_match(self, rules: MusashinoRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((0,) * rules.seats, first_dealer)  # MB-DEAL-6

    def settle(self, rules: MusashinoRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        played = info.rounds_played + (1 if result.counts else 0)
        return settled(info, result, played >= rules.length, "rounds")  # MB-GAME-1; MB-GAME-2: the top scores win


GAME = Musashino()
