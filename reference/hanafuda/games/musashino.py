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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card, Deck
from hanafuda_spec.games import musashino as spec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import Action, FastRound, Game, MatchInfo, PileScore, RoundResult, RoundSetup, evolve
from hanafuda.fishing import (
    PLAY,
    TAKE,
    CardIndex,
    Table,
    deal_packets,
    explain_hand_play,
    hand_plays,
    plays_of,
    resolve,
    take_choices,
    takes_of,
)

__all__ = ["GAME", "INDEX", "Musashino", "MusashinoRules", "MusashinoState", "Phase", "score_mask"]

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


def _mask(ids: frozenset[int]) -> int:
    m = 0
    for i in ids:
        m |= INDEX.by_id[i].mask
    return m


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


def _compile(y: spec.Dekiyaku) -> _Compiled:
    required = _mask(frozenset(next(iter(p)) for p in y.parts if len(p) == 1))
    any_of = tuple(_mask(p) for p in y.parts if len(p) > 1)
    return _Compiled(y.id, ScoredYaku(y.id, y.points), required, any_of, y.stops_round, y.absorbs)


#: Every card of the deck, as a mask.
_DECK = INDEX.mask_of(INDEX.cards)


def _subsets(mask: int) -> list[int]:
    """Every subset of a mask (the empty set included)."""
    out, sub = [], mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    out.append(0)
    return out


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
        out = []
        while rows:
            low = rows & -rows
            out.append(self.rows[low.bit_length() - 1].scored)
            rows ^= low
        return tuple(out)


def _judge(rows: tuple[_Compiled, ...]) -> _Judge:
    """The judge of a dekiyaku table (rows in table order)."""
    months = tuple(INDEX.suits.values())
    if any(not any(part & m == part for m in months) for y in rows for part in y.any_of):
        raise ValueError("a dekiyaku part spans two months: the month-by-month judge does not apply")

    bit = {y.yid: 1 << i for i, y in enumerate(rows)}

    def row_set(ids: Iterable[str]) -> int:
        return sum(bit[i] for i in ids)

    def formed(pile: int) -> int:
        return row_set(y.yid for y in rows if y.formed(pile))

    # a row's parts in month m are met by the cards sub of m when the row is formed by sub and every
    # card of the other months
    met = tuple((m, {sub: formed(sub | (_DECK & ~m)) for sub in _subsets(m)}) for m in months)
    absorbing = tuple((bit[y.yid], row_set(y.absorbs)) for y in rows if y.absorbs)
    return _Judge(rows, met, row_set(y.yid for y in rows if y.stops_round), absorbing, row_set(spec.BANQUETS))


@functools.lru_cache(maxsize=64)
def _judge_for(insta_value: str, four_brights: str) -> _Judge:
    return _judge(tuple(_compile(y) for y in spec.yaku_table({"insta_win_value": insta_value,
                                                              "four_brights": four_brights})))


_VICTIMS = _mask(spec.STORM_VICTIMS)
#: The cards whose taker :attr:`MusashinoState.taken` records: the storm cards and the Crane.
_SPECIAL = _mask(frozenset({*spec.STORM_CARDS, spec.SUN_CARD}))


@dataclass(frozen=True)
class MusashinoRules:
    """Typed Musashino rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]
    players: str
    seats: int
    sides: int
    length: int
    cap: int | None
    check_on_capture: bool
    storm: str
    sun: str
    judge: _Judge
    insta: tuple[_Compiled, ...]
    side_of: tuple[int, ...]  #: each seat's side (MB-EQ-2)
    sides_from: tuple[tuple[int, ...], ...]  #: by seat: every side once, in turn order from that seat
    deals: tuple[tuple[tuple[str, int], ...], ...]  #: by dealer: the packets dealt, see :func:`_packets`

    @functools.cached_property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    def side(self, seat: int) -> int:
        """The side (capture pile) of a seat (MB-EQ-2)."""
        return self.side_of[seat]

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


def _gain(side: int, piles: tuple[int, ...], taken: tuple[tuple[int, int, int], ...], got: int, turn: int,
          ) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """Add captured cards (a mask) to a side's pile; note who took a storm card or the Crane."""
    pl = list(piles)
    pl[side] |= got
    if got & _SPECIAL:
        taken += tuple((c.id, side, turn) for c in INDEX.cards_of(got & _SPECIAL))
    return tuple(pl), taken


def _stormed(rules: MusashinoRules, taken: tuple[tuple[int, int, int], ...], side: int) -> bool:
    """Whether an active storm card is held by an opponent of ``side`` (MB-STORM-1…4)."""
    if rules.storm == "off" or not taken:
        return False
    crane = next(((s, t) for c, s, t in taken if c == spec.SUN_CARD), None)
    for c, holder, when in taken:
        if c == spec.SUN_CARD or holder == side:
            continue
        if (rules.sun != "off" and crane is not None and crane[0] != holder
                and (rules.sun == "any-order" or crane[1] > when)):
            continue  # the Sun cancels this storm card: an opponent of its holder has the Crane
        return True
    return False


def _effective(rules: MusashinoRules, piles: tuple[int, ...], taken: tuple[tuple[int, int, int], ...],
               side: int) -> int:
    """A side's pile as its dekiyaku see it: without the Storm's victim cards (storm=cards)."""
    pile = piles[side]
    if rules.storm == "cards" and taken and _stormed(rules, taken, side):
        return pile & ~_VICTIMS
    return pile


def _sides_from(side_of: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Every side once, in turn order from ``seat`` (``side_of`` gives each seat's side)."""
    n = len(side_of)
    return tuple(dict.fromkeys(side_of[(seat + k) % n] for k in range(n)))


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


class Musashino(Game[MusashinoState, MusashinoRules]):
    """Musashino-Bana under the completed FudaWiki rules and the catalogue's decisions."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> MusashinoRules:
        players = values["players"]
        plan = spec.DEALS[players]
        judge = _judge_for(values["insta_win_value"], values["four_brights"])
        seats, sides = plan.players, spec.sides(players)
        side_of = tuple(seat % sides for seat in range(seats))  # MB-EQ-2: 3 sides, or teams 0-2 and 1-3
        return MusashinoRules(
            values=tuple(sorted(values.items())),
            players=players,
            seats=seats,
            sides=sides,
            length=int(values["length"]),
            cap=None if values["payment_cap"] == "none" else int(values["payment_cap"]),
            check_on_capture=values["insta_win_check"] == "capture",
            storm=values["storm"],
            sun=values["sun"],
            judge=judge,
            insta=tuple(y for y in judge.rows if y.stops_round),
            side_of=side_of,
            sides_from=tuple(_sides_from(side_of, seat) for seat in range(seats)),
            deals=tuple(_packets(plan, dealer) for dealer in range(seats)),
        )

    def deck(self, rules: MusashinoRules) -> Deck:
        return HANAFUDA

    def seats(self, rules: MusashinoRules) -> int:
        return rules.seats

    # -- the deal ------------------------------------------------------------------------
    def start_round(self, rules: MusashinoRules, order: Sequence[BaseCard], setup: RoundSetup) -> MusashinoState:
        cards = [c for c in order if isinstance(c, Card)]
        if len(cards) != 48:
            raise ValueError("Musashino-Bana deals from the 48-card hanafuda deck")
        dealt = deal_packets(cards, rules.deals[setup.dealer])  # MB-DEAL-3
        table = Table.deal(INDEX, [dealt.get(str(p), []) for p in range(rules.seats)], dealt.get("field", []),
                           dealt["stock"], [()] * rules.sides)
        state = MusashinoState(rules, setup, table, setup.dealer, Phase.PLAY)
        field = table.field_mask
        if any(field & month == month for month in INDEX.suits.values()):  # MB-DEAL-4 (never a hand: MB-DEAL-5)
            return evolve(state, phase=Phase.OVER, end=MISDEAL)
        return state

    # -- play ----------------------------------------------------------------------------
    def to_move(self, state: MusashinoState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: MusashinoState) -> tuple[Action, ...]:
        if state.phase is Phase.PLAY:
            return tuple(hand_plays(state.table, state.turn))  # MB-CAP-5
        if state.phase is Phase.TAKE:
            assert state.pending is not None
            return tuple(take_choices(state.table, state.pending))
        return ()

    def do(self, state: MusashinoState, action: Action) -> MusashinoState:
        rules = state.rules
        p = state.turn
        side = rules.side_of[p]
        t = state.table
        hands, field, stock, piles, taken = t.hand_masks, t.field_mask, t.stock, t.captured_masks, state.taken
        if action.kind == PLAY:
            cards = action.cards
            played = INDEX.by_id[cards[0]]
            hand = list(hands)
            hand[p] &= ~played.mask
            hands = tuple(hand)
            field, got = resolve(INDEX, field, played, cards[1] if len(cards) > 1 else None)  # MB-CAP-1…5
            if got:
                piles, taken = _gain(side, piles, taken, got, state.turns)  # MB-CAP-7
                if rules.check_on_capture:
                    w = self._insta_side(rules, p, piles, taken)
                    if w is not None:  # an insta-win on the hand play: no draw
                        return evolve(state, table=Table(INDEX, hands, field, stock, piles), taken=taken,
                                      phase=Phase.OVER, end=INSTA_WIN, winner=w)
            drawn, stock = stock[0], stock[1:]  # MB-TURN-2
            if (field & INDEX.suit_mask(drawn.suit)).bit_count() == 2:
                return evolve(state, table=Table(INDEX, hands, field, stock, piles), taken=taken,
                              phase=Phase.TAKE, pending=drawn)
            target = None
        elif action.kind == TAKE:
            assert state.pending is not None
            drawn, target = state.pending, action.cards[0]
        else:
            raise AssertionError(action)
        field, got = resolve(INDEX, field, drawn, target)  # MB-CAP-6
        if got:
            piles, taken = _gain(side, piles, taken, got, state.turns)
        table = Table(INDEX, hands, field, stock, piles)
        if got or not rules.check_on_capture:  # MB-END-1: after both plays, or after a capture
            w = self._insta_side(rules, p, piles, taken)
            if w is not None:
                return evolve(state, table=table, taken=taken, phase=Phase.OVER, end=INSTA_WIN, winner=w,
                              pending=None)
        nxt = (p + 1) % rules.seats
        if not hands[nxt]:  # MB-END-1: the hands (and the draw pile) are empty
            return evolve(state, table=table, taken=taken, phase=Phase.OVER, end=HANDS_EMPTY, pending=None)
        return evolve(state, table=table, taken=taken, phase=Phase.PLAY, pending=None, turn=nxt,
                      turns=state.turns + 1)  # MB-TURN-1

    def _insta_side(self, rules: MusashinoRules, mover: int, piles: tuple[int, ...],
                    taken: tuple[tuple[int, int, int], ...]) -> int | None:
        """MB-END-1 / MB-10: the first side, the mover's then in turn order, holding an insta-win.
        (What a side's dekiyaku see is part of its pile, so a row needing a card the pile lacks is
        passed over before the Storm is looked at.)"""
        insta = rules.insta
        for sd in rules.sides_from[mover]:
            pile = piles[sd]
            for y in insta:
                if pile & y.required == y.required and y.formed(_effective(rules, piles, taken, sd)):
                    return sd
        return None

    # -- the Storm and the Sun ---------------------------------------------------------------
    def stormed(self, state: MusashinoState, side: int) -> bool:
        """Whether an active storm card is held by an opponent of ``side`` (MB-STORM-1…4)."""
        return _stormed(state.rules, state.taken, side)

    def side_dekiyaku(self, state: MusashinoState, side: int) -> tuple[ScoredYaku, ...]:
        """The dekiyaku a side scores now, the Storm and Sun applied."""
        rules = state.rules
        void = rules.storm == "banquets" and _stormed(rules, state.taken, side)
        return score_mask(rules, _effective(rules, state.table.captured_masks, state.taken, side), void)

    def fast_round(self, state: MusashinoState) -> FastRound[MusashinoState] | None:
        """The round played in place (``_FastMusashino``), under every option."""
        return None if state.phase is not Phase.PLAY else _FastMusashino(self, state)

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

    # -- results -------------------------------------------------------------------------
    def round_result(self, state: MusashinoState) -> RoundResult:
        if state.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        rules = state.rules
        n, d, sides = rules.seats, state.dealer, range(rules.sides)
        if state.end == MISDEAL:
            return RoundResult(MISDEAL, (0,) * n, counts=False, next_dealer=d)  # MB-DEAL-4
        if state.end == INSTA_WIN:
            w = state.winner
            assert w is not None
            won = self.side_dekiyaku(state, w)
            yaku = tuple([won if sd == w else () for sd in sides])
            totals = [sum([y.points for y in ys]) for ys in yaku]
            # MB-SCORE-1 (MB-22): the win pays the insta-win value once, however many formed; MB-SCORE-4
            amount = rules.pay(max(y.points for y in won))
            side_delta = [0 if sd == w else -amount for sd in sides]
        else:
            yaku = tuple([self.side_dekiyaku(state, sd) for sd in sides])
            totals = [sum([y.points for y in ys]) for ys in yaku]
            top = max(totals)
            w = next(sd for sd in rules.sides_from[d] if totals[sd] == top)  # MB-SCORE-3
            side_delta = [0 if sd == w else -rules.pay(top - totals[sd]) for sd in sides]  # MB-SCORE-2
        side_delta[w] = -sum(side_delta)  # every losing side pays the winning side
        deltas = tuple([side_delta[sd] for sd in rules.side_of])  # MB-SCORE-5
        nxt = w if rules.sides == 3 else (d if rules.side_of[d] == w else (d + 1) % n)  # MB-END-2
        notes = (*[(f"total.{sd}", totals[sd]) for sd in sides], (f"won.{w}", 1))
        return RoundResult(state.end, deltas, nxt, yaku, None, True, False, nxt, notes)

    def snapshot(self, state: MusashinoState, info: MatchInfo | None = None) -> Snapshot:
        t = state.table
        ids_of = INDEX.ids_of
        zones: list[tuple[str, tuple[int, ...]]] = [(f"hand.{s}", ids_of(h)) for s, h in enumerate(t.hand_masks)]
        zones += [
            ("field", ids_of(t.field_mask)),
            ("stock", tuple(c.id for c in t.stock)),
            ("drawn", (state.pending.id,) if state.pending else ()),
        ]
        zones += [(f"captured.{sd}", ids_of(cap)) for sd, cap in enumerate(t.captured_masks)]
        scores = info.scores if info else (0,) * state.rules.seats
        return Snapshot("musashino", tuple(zones), self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: MusashinoRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        pile = 0
        for c in cards:
            pile |= c.mask
        return PileScore(score_mask(rules, pile), None)  # MB-EQ-1: no card points

    # -- the match -----------------------------------------------------------------------
    def new_match(self, rules: MusashinoRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((0,) * rules.seats, first_dealer)  # MB-DEAL-6

    def seats_in_play(self, rules: MusashinoRules, info: MatchInfo) -> tuple[int, ...]:
        return tuple(range(rules.seats))

    def settle(self, rules: MusashinoRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        scores = tuple(a + b for a, b in zip(info.scores, result.deltas, strict=True))
        played = info.rounds_played + (1 if result.counts else 0)
        dealer = result.next_dealer if result.next_dealer is not None else info.dealer
        over = played >= rules.length  # MB-GAME-1
        winners: tuple[int, ...] = ()
        if over:
            top = max(scores)
            winners = tuple(i for i, v in enumerate(scores) if v == top)  # MB-GAME-2
        return MatchInfo(scores, dealer, played, info.deals + 1, over, winners, "rounds" if over else "",
                         (*info.history, result))


#: ``play c`` and ``play c t`` (the shared instances :func:`plays_of` lists), by the id of the object,
#: -> the masks of c and of t (0 for none). Keyed by identity: INDEX keeps these objects alive, so no
#: other object has their ids.
_PLAY_MASKS: dict[int, tuple[int, int]] = {
    **{id(a): (m, 0) for m, a in INDEX.plays.items()},
    **{id(a): (m, t) for m, on in INDEX.plays_on.items() for t, a in on.items()},
}


class _FastMusashino(FastRound[MusashinoState]):
    """A Musashino-Bana round played in place (see :class:`~hanafuda.engine.FastRound`): hands, field
    and capture piles as masks (the piles and the ``taken`` record as tuples, since :func:`_gain` and
    :meth:`Musashino._insta_side` take them so), the stock as a tuple and the index of its top card.
    The turn is :meth:`Musashino.do`: a hand card (MB-CAP-1…5), an insta-win checked on a capture where
    check_on_capture says so, the draw (MB-TURN-2, MB-CAP-6), the insta-win after the turn (MB-END-1),
    and the next seat (MB-TURN-1) unless the hands are empty."""

    __slots__ = ("end", "field", "game", "hands", "pending", "phase", "piles", "rules", "start", "stock", "taken",
                 "top", "turn", "turns", "winner")

    def __init__(self, game: Musashino, s: MusashinoState) -> None:
        t = s.table
        self.game, self.start, self.rules = game, s, s.rules
        self.hands, self.field, self.piles = list(t.hand_masks), t.field_mask, t.captured_masks
        self.stock, self.top = t.stock, 0  # the draw pile is stock[top:]
        self.turn, self.phase, self.pending, self.turns = s.turn, s.phase, s.pending, s.turns
        self.taken, self.end, self.winner = s.taken, s.end, s.winner

    def over(self) -> bool:
        return self.phase is Phase.OVER

    def legal(self) -> Sequence[Action]:
        if self.phase is Phase.PLAY:
            return plays_of(INDEX, self.hands[self.turn], self.field)  # MB-CAP-5
        if self.phase is Phase.TAKE:
            assert self.pending is not None
            return takes_of(INDEX, self.field, self.pending)
        return ()

    def replay(self, actions: Sequence[Action | None], pos: int, stop: int) -> int:
        """:meth:`FastRound.replay`, a hand play's legality read from the masks: ``play c`` is listed by
        :func:`plays_of` when c is in the hand and the field does not hold exactly two cards of its month,
        ``play c t`` when it holds two, t one of them (in the other phases the listed actions are
        searched)."""
        plays, suit_of, default = _PLAY_MASKS.get, INDEX.suit_of, FastRound.replay
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
            a = actions[pos]
            found = plays(id(a))
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
            self.play(a)  # type: ignore[arg-type]
            pos += 1
        return pos

    def play(self, a: Action) -> None:
        rules = self.rules
        p = self.turn
        side = rules.side_of[p]
        if a.kind == PLAY:
            cards = a.cards
            played = INDEX.by_id[cards[0]]
            self.hands[p] &= ~played.mask
            field, got = resolve(INDEX, self.field, played, cards[1] if len(cards) > 1 else None)  # MB-CAP-1…5
            self.field = field
            if got:
                self.piles, self.taken = _gain(side, self.piles, self.taken, got, self.turns)  # MB-CAP-7
                if rules.check_on_capture:
                    w = self.game._insta_side(rules, p, self.piles, self.taken)
                    if w is not None:  # an insta-win on the hand play: no draw
                        self.phase, self.end, self.winner = Phase.OVER, INSTA_WIN, w
                        return
            drawn = self.stock[self.top]  # MB-TURN-2
            self.top += 1
            if (field & INDEX.suits.get(drawn.suit, 0)).bit_count() == 2:
                self.phase, self.pending = Phase.TAKE, drawn
                return
            target = None
        elif a.kind == TAKE:
            assert self.pending is not None
            drawn, target = self.pending, a.cards[0]
        else:
            raise AssertionError(a)
        self.pending = None
        self.field, got = resolve(INDEX, self.field, drawn, target)  # MB-CAP-6
        if got:
            self.piles, self.taken = _gain(side, self.piles, self.taken, got, self.turns)
        if got or not rules.check_on_capture:  # MB-END-1: after both plays, or after a capture
            w = self.game._insta_side(rules, p, self.piles, self.taken)
            if w is not None:
                self.phase, self.end, self.winner = Phase.OVER, INSTA_WIN, w
                return
        nxt = (p + 1) % rules.seats
        if not self.hands[nxt]:  # MB-END-1: the hands (and the draw pile) are empty
            self.phase, self.end = Phase.OVER, HANDS_EMPTY
            return
        self.phase, self.turn, self.turns = Phase.PLAY, nxt, self.turns + 1  # MB-TURN-1

    def state(self) -> MusashinoState:
        table = Table(INDEX, tuple(self.hands), self.field, self.stock[self.top:], self.piles)
        return evolve(self.start, table=table, turn=self.turn, phase=self.phase, pending=self.pending,
                      turns=self.turns, taken=self.taken, end=self.end, winner=self.winner)


GAME = Musashino()
