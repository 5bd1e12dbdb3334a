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
>>> GAME.score(GAME.rules(), [card(i) for i in (10, 80, 113, 120)]).yaku_total
4
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card, Deck
from hanafuda_spec.games import musashino as spec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku

from hanafuda.engine import CARD_ORDER, Action, Game, MatchInfo, PileScore, RoundResult, RoundSetup, evolve
from hanafuda.fishing import (
    PLAY,
    TAKE,
    Table,
    capture,
    deal_packets,
    explain_hand_play,
    hand_plays,
    matches,
    take_choices,
)

__all__ = ["GAME", "Musashino", "MusashinoRules", "MusashinoState", "Phase", "score_mask"]

INSTA_WIN = "insta-win"
HANDS_EMPTY = "hands-empty"
MISDEAL = "misdeal"


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a hand card
    TAKE = "take"  #: the drawn card matches two field cards: choose one
    OVER = "over"


# -- the dekiyaku table as bit masks ------------------------------------------------------------


#: Every hanafuda card by id (``card(id)`` parses text; this is a plain table for the hot paths).
_CARD: dict[int, Card] = {c.id: c for c in HANAFUDA.cards if isinstance(c, Card)}


def _mask(ids: frozenset[int]) -> int:
    m = 0
    for i in ids:
        m |= _CARD[i].mask
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
        if pile & self.required != self.required:
            return False
        return all(pile & m for m in self.any_of)


def _compile(y: spec.Dekiyaku) -> _Compiled:
    required = _mask(frozenset(next(iter(p)) for p in y.parts if len(p) == 1))
    any_of = tuple(_mask(p) for p in y.parts if len(p) > 1)
    return _Compiled(y.id, ScoredYaku(y.id, y.points), required, any_of, y.stops_round, y.absorbs)


@functools.lru_cache(maxsize=64)
def _compiled(insta_value: str, four_brights: str) -> tuple[_Compiled, ...]:
    return tuple(_compile(y) for y in spec.yaku_table({"insta_win_value": insta_value,
                                                        "four_brights": four_brights}))


_VICTIMS = _mask(spec.STORM_VICTIMS)
_STORM_IDS = tuple(sorted(spec.STORM_CARDS))
_SPECIAL = frozenset({*spec.STORM_CARDS, spec.SUN_CARD})


@dataclass(frozen=True)
class MusashinoRules:
    """Typed Musashino rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]
    players: str
    seats: int
    sides: int
    plan: spec.DealPlan
    length: int
    cap: int | None
    check_on_capture: bool
    storm: str
    sun: str
    table: tuple[_Compiled, ...]
    insta: tuple[_Compiled, ...]
    others: tuple[_Compiled, ...]

    @functools.cached_property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    def side(self, seat: int) -> int:
        """The side (capture pile) of a seat (MB-EQ-2)."""
        return seat if self.sides == 3 else seat % 2

    def pay(self, amount: int) -> int:
        """What a side pays, after the round limit (MB-SCORE-4)."""
        return amount if self.cap is None else min(amount, self.cap)


def score_mask(rules: MusashinoRules, pile: int, banquets_void: bool = False) -> tuple[ScoredYaku, ...]:
    """The dekiyaku of a capture pile given as a bit mask (MB-YAKU-1…23): only the insta-win
    dekiyaku if one is formed, else all formed, less those absorbed. ``banquets_void`` drops the
    Moon and Flower Banquets (Storm Rule, second version)."""
    insta = tuple(y.scored for y in rules.insta if y.formed(pile))
    if insta:
        return insta
    formed = [y for y in rules.others if y.formed(pile)]
    absorbed = {a for y in formed for a in y.absorbs}
    if banquets_void:
        absorbed.update(spec.BANQUETS)
    if absorbed:
        return tuple(y.scored for y in formed if y.yid not in absorbed)
    return tuple(y.scored for y in formed)


@dataclass(frozen=True)
class MusashinoState:
    """One position of a Musashino round.

    ``piles`` mirrors ``table.captured`` as bit masks. ``taken`` records who took the Crane, the
    Rain Man and the Lightning and in which turn, as ``(card, side, turn)``, for the Storm and Sun
    rules. ``turns`` counts the turns begun in the round.
    """

    rules: MusashinoRules
    setup: RoundSetup
    table: Table[Card]
    turn: int
    phase: Phase
    piles: tuple[int, ...]
    pending: Card | None = None
    turns: int = 1
    taken: tuple[tuple[int, int, int], ...] = ()
    end: str = ""
    winner: int | None = None  #: the winning side of an insta-win

    @property
    def dealer(self) -> int:
        return self.setup.dealer


def _gain(side: int, captured: tuple[tuple[Card, ...], ...], piles: tuple[int, ...],
          taken: tuple[tuple[int, int, int], ...], got: Sequence[Card], turn: int,
          ) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], tuple[tuple[int, int, int], ...]]:
    """Add captured cards to a side's pile (and its mask); note who took a storm card or the Crane."""
    caps = list(captured)
    caps[side] = tuple(sorted((*caps[side], *got), key=CARD_ORDER))
    pl = list(piles)
    for g in got:
        pl[side] |= g.mask
        if g.id in _SPECIAL:
            taken = (*taken, (g.id, side, turn))
    return tuple(caps), tuple(pl), taken


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


class Musashino(Game[MusashinoState, MusashinoRules]):
    """Musashino-Bana under the completed FudaWiki rules and the catalogue's decisions."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> MusashinoRules:
        players = values["players"]
        plan = spec.DEALS[players]
        table = _compiled(values["insta_win_value"], values["four_brights"])
        return MusashinoRules(
            values=tuple(sorted(values.items())),
            players=players,
            seats=plan.players,
            sides=spec.sides(players),
            plan=plan,
            length=int(values["length"]),
            cap=None if values["payment_cap"] == "none" else int(values["payment_cap"]),
            check_on_capture=values["insta_win_check"] == "capture",
            storm=values["storm"],
            sun=values["sun"],
            table=table,
            insta=tuple(y for y in table if y.stops_round),
            others=tuple(y for y in table if not y.stops_round),
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
        n, dealer = rules.seats, setup.dealer
        seats_order = [(dealer + k) % n for k in range(1, n + 1)]  # MB-DEAL-3: dealer's right first
        plan: list[tuple[str, int]] = []
        for per_hand, to_field in rules.plan.packets:
            plan.extend((str(p), per_hand) for p in seats_order)
            if to_field:
                plan.append(("field", to_field))
        dealt = deal_packets(cards, plan)
        hands = tuple(tuple(sorted(dealt.get(str(p), []), key=CARD_ORDER)) for p in range(n))
        field = tuple(sorted(dealt.get("field", []), key=CARD_ORDER))
        table = Table(hands, field, tuple(dealt["stock"]), tuple(() for _ in range(rules.sides)))
        state = MusashinoState(rules, setup, table, dealer, Phase.PLAY, (0,) * rules.sides)
        months = [c.month for c in field]
        if any(months.count(m) == 4 for m in set(months)):  # MB-DEAL-4 (never a hand: MB-DEAL-5)
            return evolve(state, phase=Phase.OVER, end=MISDEAL)
        return state

    # -- play ----------------------------------------------------------------------------
    def to_move(self, state: MusashinoState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: MusashinoState) -> tuple[Action, ...]:
        if state.phase is Phase.PLAY:
            return tuple(hand_plays(state.table.hands[state.turn], state.table.field))  # MB-CAP-5
        if state.phase is Phase.TAKE:
            assert state.pending is not None
            return tuple(take_choices(state.table.field, state.pending))
        return ()

    def do(self, state: MusashinoState, action: Action) -> MusashinoState:
        rules = state.rules
        p = state.turn
        side = rules.side(p)
        t = state.table
        field, stock, captured, piles, taken = t.field, t.stock, t.captured, state.piles, state.taken
        hands = t.hands
        if action.kind == PLAY:
            cid = action.cards[0]
            played = _CARD[cid]
            hl = list(hands)
            hl[p] = tuple(x for x in hands[p] if x.id != cid)
            hands = tuple(hl)
            field, got = capture(field, played, action.cards[1] if len(action.cards) > 1 else None)  # MB-CAP-1…5
            if got:
                captured, piles, taken = _gain(side, captured, piles, taken, got, state.turns)  # MB-CAP-7
                if rules.check_on_capture:
                    w = self._insta_side(rules, p, piles, taken)
                    if w is not None:  # an insta-win on the hand play: no draw
                        return evolve(state, table=Table(hands, field, stock, captured), piles=piles, taken=taken,
                                      phase=Phase.OVER, end=INSTA_WIN, winner=w)
            drawn, stock = stock[0], stock[1:]  # MB-TURN-2
            if len(matches(field, drawn)) == 2:
                return evolve(state, table=Table(hands, field, stock, captured), piles=piles, taken=taken,
                              phase=Phase.TAKE, pending=drawn)
            target = None
        elif action.kind == TAKE:
            assert state.pending is not None
            drawn, target = state.pending, action.cards[0]
        else:
            raise AssertionError(action)
        field, got = capture(field, drawn, target)  # MB-CAP-6
        if got:
            captured, piles, taken = _gain(side, captured, piles, taken, got, state.turns)
        table = Table(hands, field, stock, captured)
        if got or not rules.check_on_capture:  # MB-END-1: after both plays, or after a capture
            w = self._insta_side(rules, p, piles, taken)
            if w is not None:
                return evolve(state, table=table, piles=piles, taken=taken, phase=Phase.OVER, end=INSTA_WIN,
                              winner=w, pending=None)
        nxt = (p + 1) % rules.seats
        if not hands[nxt]:  # MB-END-1: the hands (and the draw pile) are empty
            return evolve(state, table=table, piles=piles, taken=taken, phase=Phase.OVER, end=HANDS_EMPTY,
                          pending=None)
        return evolve(state, table=table, piles=piles, taken=taken, phase=Phase.PLAY, pending=None, turn=nxt,
                      turns=state.turns + 1)  # MB-TURN-1

    def _insta_side(self, rules: MusashinoRules, mover: int, piles: tuple[int, ...],
                    taken: tuple[tuple[int, int, int], ...]) -> int | None:
        """MB-END-1 / MB-10: the first side, the mover's then in turn order, holding an insta-win."""
        if rules.sides == 3:
            order: tuple[int, ...] = (mover, (mover + 1) % 3, (mover + 2) % 3)
        else:
            order = (mover % 2, 1 - mover % 2)
        for sd in order:
            pile = _effective(rules, piles, taken, sd)
            for y in rules.insta:
                if y.formed(pile):
                    return sd
        return None

    def _sides_from(self, rules: MusashinoRules, seat: int) -> list[int]:
        out: list[int] = []
        for k in range(rules.seats):
            sd = rules.side((seat + k) % rules.seats)
            if sd not in out:
                out.append(sd)
        return out

    # -- the Storm and the Sun ---------------------------------------------------------------
    def stormed(self, state: MusashinoState, side: int) -> bool:
        """Whether an active storm card is held by an opponent of ``side`` (MB-STORM-1…4)."""
        return _stormed(state.rules, state.taken, side)

    def side_dekiyaku(self, state: MusashinoState, side: int) -> tuple[ScoredYaku, ...]:
        """The dekiyaku a side scores now, the Storm and Sun applied."""
        rules = state.rules
        void = rules.storm == "banquets" and _stormed(rules, state.taken, side)
        return score_mask(rules, _effective(rules, state.piles, state.taken, side), void)

    def explain_illegal(self, state: MusashinoState, action: Action) -> tuple[str, str]:
        p = state.turn
        if action.kind == PLAY:
            if state.phase is not Phase.PLAY:
                return "MB-CAP-6", f"seat {p} must first choose what the drawn card takes"
            found = explain_hand_play(state.table.hands[p], state.table.field, action, p,
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
        n, d = rules.seats, state.dealer
        if state.end == MISDEAL:
            return RoundResult(MISDEAL, (0,) * n, counts=False, next_dealer=d)  # MB-DEAL-4
        order = self._sides_from(rules, d)
        if state.end == INSTA_WIN:
            w = state.winner
            assert w is not None
            won = self.side_dekiyaku(state, w)
            yaku = tuple(won if sd == w else () for sd in range(rules.sides))
            amount = rules.pay(sum(y.points for y in won))  # MB-SCORE-1, MB-SCORE-4
            pay = {sd: amount for sd in order if sd != w}
        else:
            yaku = tuple(self.side_dekiyaku(state, sd) for sd in range(rules.sides))
            totals = [sum(y.points for y in ys) for ys in yaku]
            top = max(totals)
            w = next(sd for sd in order if totals[sd] == top)  # MB-SCORE-3
            pay = {sd: rules.pay(top - totals[sd]) for sd in order if sd != w}  # MB-SCORE-2
        side_delta = {sd: -v for sd, v in pay.items()}
        side_delta[w] = sum(pay.values())
        deltas = tuple(side_delta[rules.side(seat)] for seat in range(n))  # MB-SCORE-5
        nxt = w if rules.sides == 3 else (d if rules.side(d) == w else (d + 1) % n)  # MB-END-2
        notes = tuple((f"total.{sd}", sum(y.points for y in yaku[sd])) for sd in range(rules.sides))
        notes += ((f"won.{w}", 1),)
        return RoundResult(state.end, deltas, nxt, yaku, None, True, False, nxt, notes)

    def snapshot(self, state: MusashinoState, info: MatchInfo | None = None) -> Snapshot:
        t = state.table
        zones: list[tuple[str, tuple[int, ...]]] = [
            (f"hand.{s}", tuple(c.id for c in h)) for s, h in enumerate(t.hands)
        ]
        zones += [
            ("field", tuple(c.id for c in t.field)),
            ("stock", tuple(c.id for c in t.stock)),
            ("drawn", (state.pending.id,) if state.pending else ()),
        ]
        zones += [(f"captured.{sd}", tuple(c.id for c in cap)) for sd, cap in enumerate(t.captured)]
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


GAME = Musashino()
