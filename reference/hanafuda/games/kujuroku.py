"""Kujuroku (九十六, "ninety-six"): three-handed fishing with the Daini deck, the Oni-fuda and Jizo-fuda.

Rules, citations and decisions: :mod:`hanafuda_spec.games.kujuroku` (rule ids ``KJ-…``). Seats
are 0–3 (0–2 with ``players=3``). Three seats play each round: the dealer (oya) and the next two
to the dealer's right, ``(dealer + 1) % seats`` and ``(dealer + 2) % seats``, in that turn order;
in the four-player game the fourth seat sits the round out.

Phases of a round:

* ``deal-oni`` – the Oni-fuda (demon joker) was dealt to the field: the dealer names the field
  card it takes (``collect 0 X``);
* ``deal-triple`` – three cards of a number lie on the field: the dealer names the two they take
  (``collect X Y``);
* ``play`` – the player to move plays a hand card: ``play C`` (no match, one match), ``play C T``
  (two matches: T is the one captured), ``play 0 T`` (the Oni captures T), ``play 0`` (the Oni onto
  an empty field), ``play 1`` (the Jizo-fuda, Buddha joker, put on the field);
* ``take`` – the drawn card matches two field cards, or is the Oni facing several: ``take T``.

Chips are the match scores (30 each at the start); a round's deltas are per seat, 0 for the seat
sitting out.

>>> from hanafuda.engine import Match
>>> m = Match.start(GAME, GAME.rules(), seed=1)
>>> [len(h) for h in m.state.table.hands], len(m.state.table.stock), m.state.participants
([6, 6, 6, 0], 17, (0, 1, 2))
>>> GAME.score(GAME.rules(), [DAINI.by_id(i) for i in (40, 41, 42, 43)]).yaku_total
4
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from hanafuda_spec.cards import DAINI, DAINI_JIZO, BaseCard, DainiCard, Deck
from hanafuda_spec.games import kujuroku as spec
from hanafuda_spec.games.kujuroku import JIZO, ONI
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda.engine import (
    ACTION_ORDER,
    CARD_ORDER,
    Action,
    Game,
    MatchInfo,
    PileScore,
    RoundResult,
    RoundSetup,
    action,
    evolve,
)
from hanafuda.fishing import PLAY, TAKE, Table, capture, matches

__all__ = ["COLLECT", "GAME", "Kujuroku", "KujurokuRules", "KujurokuState", "Phase", "score_mask"]

COLLECT = "collect"

#: Every Daini card by id (the Jizo deck holds all of them).
_CARDS: dict[int, DainiCard] = {c.id: c for c in DAINI_JIZO.cards if isinstance(c, DainiCard)}


#: The participants of a round by number of seats and dealer: the dealer and the next two to the right.
_PARTICIPANTS = {n: tuple(tuple((d + i) % n for i in range(spec.PLAYERS_PER_ROUND)) for d in range(n))
                 for n in (3, 4)}


class Phase(enum.Enum):
    DEAL_ONI = "deal-oni"  #: the dealer chooses the card the dealt Oni takes (KJ-DEAL-4)
    DEAL_TRIPLE = "deal-triple"  #: the dealer chooses two of three cards of a number (KJ-DEAL-6)
    PLAY = "play"  #: the player to move plays a hand card
    TAKE = "take"  #: the drawn card waits for its target
    OVER = "over"


@dataclass(frozen=True)
class KujurokuRules:
    """Typed Kujuroku rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]
    seats: int
    jizo: bool
    configuration: str
    stack: bool
    confirmed: bool
    draw_dealer_stays: bool

    @property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    @property
    def deck(self) -> Deck:
        return DAINI_JIZO if self.jizo else DAINI


@dataclass(frozen=True)
class KujurokuState:
    """One position of a Kujuroku round.

    ``captive`` is the numbered card the Oni-fuda captured while that capture stands (KJ-ONI-6);
    ``oni_from_hand`` records that the Oni was played from the hand during the current turn (for
    the Jizo meetings, KJ-JIZO-2/3); ``out`` holds the removed Oni (zone ``out.oni``).
    """

    rules: KujurokuRules
    setup: RoundSetup
    table: Table[DainiCard]
    phase: Phase
    turn: int
    out: tuple[DainiCard, ...] = ()
    pending: DainiCard | None = None
    captive: DainiCard | None = None
    oni_from_hand: bool = False
    draws: int = 0
    end: str = ""
    winner: int | None = None
    won: tuple[ScoredYaku, ...] = ()
    remaining: DainiCard | None = None

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    @property
    def participants(self) -> tuple[int, ...]:
        """The three seats playing this round in turn order, the dealer first (KJ-EQ-3, KJ-TURN-1)."""
        return _PARTICIPANTS[self.rules.seats][self.dealer]

    def oni_holder(self) -> int | None:
        """The seat whose capture pile holds the Oni-fuda."""
        for seat, pile in enumerate(self.table.captured):
            if any(c.id == ONI for c in pile):
                return seat
        return None


# -- dekiyaku ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Dekiyaku:
    """A dekiyaku row as bit masks: every card of ``required`` and ``need`` cards of ``pool``."""

    yid: str
    points: int
    required: int
    pool: int
    need: int

    def formed(self, pile: int) -> bool:
        return pile & self.required == self.required and (pile & self.pool).bit_count() >= self.need


def _mask(ids: Iterable[int]) -> int:
    m = 0
    for i in ids:
        m |= _CARDS[i].mask
    return m


def _compile(y: YakuDef) -> _Dekiyaku:
    if y.forbidden or y.extra_pool or y.doubled:
        raise ValueError(f"dekiyaku {y.id}: only required cards and a pool are supported")
    return _Dekiyaku(y.id, y.points, _mask(y.required), _mask(y.pool), y.need)


@functools.cache
def _table(configuration: str) -> tuple[_Dekiyaku, ...]:
    return tuple(_compile(y) for y in spec.CONFIGURATIONS[configuration])


def score_mask(rules: KujurokuRules, pile: int) -> tuple[ScoredYaku, ...]:
    """The dekiyaku a pile (bit mask) forms: the most valuable only, or all with
    ``dekiyaku_count=stack`` (KJ-YAKU-3, KJ-YAKU-4)."""
    formed = [y for y in _table(rules.configuration) if y.formed(pile)]
    if not formed:
        return ()
    if rules.stack:
        return tuple(ScoredYaku(y.yid, y.points) for y in formed)
    best = max(formed, key=lambda y: y.points)
    return (ScoredYaku(best.yid, best.points),)


def _pile_mask(cards: Iterable[BaseCard]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.bit  # c.mask, without the property call
    return m


def _find(cards: Sequence[DainiCard], cid: int) -> DainiCard | None:
    for c in cards:
        if c.id == cid:
            return c
    return None


def _without(cards: Sequence[DainiCard], *gone: DainiCard) -> tuple[DainiCard, ...]:
    return tuple(c for c in cards if c not in gone)


def _with(cards: Sequence[DainiCard], *more: DainiCard) -> tuple[DainiCard, ...]:
    return tuple(sorted((*cards, *more), key=CARD_ORDER))


def _triple_rank(field: Sequence[DainiCard]) -> int | None:
    """The lowest number with three cards on the field (KJ-DEAL-6), if any."""
    counts = Counter(c.suit for c in field if c.suit)
    ranks = sorted(r for r, n in counts.items() if n == 3)
    return ranks[0] if ranks else None


class Kujuroku(Game[KujurokuState, KujurokuRules]):
    """Kujuroku under the FudaWiki rules (SEED-001, FW-KJ) and their variations."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> KujurokuRules:
        return KujurokuRules(
            values=tuple(sorted(values.items())),
            seats=int(values["players"]),
            jizo=values["jizo"] == "on",
            configuration=values["configuration"],
            stack=values["dekiyaku_count"] == "stack",
            confirmed=values["remaining_card"] == "confirmed",
            draw_dealer_stays=values["draw_dealer"] == "stay",
        )

    def deck(self, rules: KujurokuRules) -> Deck:
        return rules.deck

    def seats(self, rules: KujurokuRules) -> int:
        return rules.seats

    # -- the deal ----------------------------------------------------------------------------------
    def start_round(self, rules: KujurokuRules, order: Sequence[BaseCard], setup: RoundSetup) -> KujurokuState:
        deck = rules.deck
        cards = [c for c in order if isinstance(c, DainiCard)]
        if sorted(c.id for c in cards) != [c.id for c in deck.cards]:
            raise ValueError(f"Kujuroku deals the whole {deck.name} deck ({len(deck)} cards)")
        seats, d = rules.seats, setup.dealer
        second, third = (d + 1) % seats, (d + 2) % seats
        who = {"2nd": second, "3rd": third, "dealer": d, "field": -1}
        got: dict[int, list[DainiCard]] = {second: [], third: [], d: [], -1: []}
        i = 0
        for name, n in spec.DEAL_PLAN:  # KJ-DEAL-2
            got[who[name]].extend(cards[i:i + n])
            i += n
        hands: list[tuple[DainiCard, ...]] = [() for _ in range(seats)]
        for p in (second, third, d):
            hands[p] = tuple(sorted(got[p], key=CARD_ORDER))
        empty: tuple[tuple[DainiCard, ...], ...] = tuple(() for _ in range(seats))
        table = Table(tuple(hands), tuple(sorted(got[-1], key=CARD_ORDER)), tuple(cards[i:]), empty)
        state = KujurokuState(rules, setup, table, Phase.PLAY, d)
        counts = Counter(c.suit for c in table.field if c.suit)
        if any(n == 4 for n in counts.values()):
            return evolve(state, phase=Phase.OVER, end="misdeal")  # KJ-DEAL-3, checked first (KJ-4)
        return self._continue_deal(state)

    def _continue_deal(self, s: KujurokuState) -> KujurokuState:
        """The dealer's takes at the deal, in the order of decision KJ-4, then the first turn."""
        t, d = s.table, s.dealer
        oni, jizo = _find(t.field, ONI), _find(t.field, JIZO)
        if jizo is not None:  # KJ-DEAL-5: the Jizo, and the Oni with it if dealt too
            taken = (jizo, oni) if oni is not None else (jizo,)
            t = evolve(t, field=_without(t.field, *taken)).add_captured(d, taken)
            s = evolve(s, table=t)
        elif oni is not None:
            return evolve(s, phase=Phase.DEAL_ONI, turn=d)  # KJ-DEAL-4
        if _triple_rank(t.field) is not None:
            return evolve(s, phase=Phase.DEAL_TRIPLE, turn=d)  # KJ-DEAL-6
        s = evolve(s, phase=Phase.PLAY, turn=d)
        return self._check_dekiyaku(s)  # KJ-YAKU-1: after the dealer's takes

    # -- legal actions -----------------------------------------------------------------------------
    def to_move(self, state: KujurokuState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: KujurokuState) -> tuple[Action, ...]:
        t = state.table
        if state.phase is Phase.PLAY:
            return self._hand_plays(t.hands[state.turn], t.field)
        if state.phase is Phase.TAKE:
            assert state.pending is not None
            if state.pending.id == ONI:  # KJ-ONI-3
                return tuple(action(TAKE, (c.id,)) for c in t.field)
            return tuple(action(TAKE, (c.id,)) for c in matches(t.field, state.pending))
        if state.phase is Phase.DEAL_ONI:
            return tuple(Action(COLLECT, (ONI, c.id)) for c in t.field if c.id != ONI)
        if state.phase is Phase.DEAL_TRIPLE:
            r = _triple_rank(t.field)
            three = [c for c in t.field if c.suit == r]
            return tuple(Action(COLLECT, (a.id, b.id)) for a, b in combinations(three, 2))
        return ()

    @staticmethod
    def _hand_plays(hand: Sequence[DainiCard], field: Sequence[DainiCard]) -> tuple[Action, ...]:
        out: list[Action] = []
        for c in hand:
            if c.id == ONI:
                if field:  # KJ-ONI-1/2: it must capture one card of the player's choice
                    out.extend(action(PLAY, (ONI, f.id)) for f in field)
                else:  # KJ-ONI-4
                    out.append(action(PLAY, (ONI,)))
            elif c.id == JIZO:  # KJ-JIZO-1
                out.append(action(PLAY, (JIZO,)))
            else:
                m = matches(field, c)  # KJ-CAP-1
                if len(m) == 2:  # KJ-CAP-3
                    out.extend(action(PLAY, (c.id, x.id)) for x in m)
                else:  # KJ-CAP-2/4/5; KJ-CAP-6: a non-matching card may always be played
                    out.append(action(PLAY, (c.id,)))
        return tuple(sorted(out, key=ACTION_ORDER))

    # -- applying actions --------------------------------------------------------------------------
    def do(self, state: KujurokuState, action: Action) -> KujurokuState:
        if action.kind == COLLECT:
            return self._collect(state, action.cards)
        if action.kind == PLAY:
            return self._play(state, action)
        if action.kind == TAKE:
            return self._take(state, action.cards[0])
        raise AssertionError(action)

    def _collect(self, s: KujurokuState, ids: Sequence[int]) -> KujurokuState:
        t = s.table
        taken = tuple(c for c in t.field if c.id in ids)
        t = evolve(t, field=_without(t.field, *taken)).add_captured(s.dealer, taken)
        captive = s.captive
        if s.phase is Phase.DEAL_ONI:  # KJ-DEAL-4: the card taken with the Oni is its capture (KJ-3)
            captive = next(c for c in taken if c.id != ONI)
        return self._continue_deal(evolve(s, table=t, captive=captive))

    def _play(self, s: KujurokuState, action: Action) -> KujurokuState:
        t, p = s.table, s.turn
        c = _find(t.hands[p], action.cards[0])
        assert c is not None
        target = action.cards[1] if len(action.cards) > 1 else None
        t = t.with_hand(p, _without(t.hands[p], c))
        got: tuple[DainiCard, ...] = ()
        if c.id == ONI:
            if target is not None:  # KJ-ONI-1
                x = _find(t.field, target)
                assert x is not None
                got = (c, x)
                t = evolve(t, field=_without(t.field, x)).add_captured(p, got)
                s = evolve(s, captive=x)
            else:  # KJ-ONI-4: onto the empty field, removed when the turn ends
                t = evolve(t, field=_with(t.field, c))
            s = evolve(s, oni_from_hand=True)
        elif c.id == JIZO:  # KJ-JIZO-1: on the field, to the capture pile when the turn ends
            t = evolve(t, field=_with(t.field, c))
        else:
            field, got = capture(t.field, c, target)
            t = evolve(t, field=field).add_captured(p, got)
        s = evolve(s, table=t)
        if got:
            s = self._check_dekiyaku(s)  # KJ-YAKU-1: after the hand card
            if s.phase is Phase.OVER:
                return s
        return self._draw(s)

    def _draw(self, s: KujurokuState) -> KujurokuState:
        t, p = s.table, s.turn
        if not t.stock:  # KJ-TURN-3: the last player of a 41-card round does not draw
            return self._end_turn(s)
        drawn, t = t.stock[0], evolve(t, stock=t.stock[1:])
        s = evolve(s, draws=s.draws + 1)
        got: tuple[DainiCard, ...] = ()
        if drawn.id == ONI:
            jizo = _find(t.field, JIZO)
            if jizo is not None:  # KJ-JIZO-4: the Oni captures the Jizo and nothing else (KJ-18)
                got = (drawn, jizo)
                t = evolve(t, field=_without(t.field, jizo)).add_captured(p, got)
            elif not t.field:  # KJ-ONI-4: discarded onto the empty field
                t = evolve(t, field=(drawn,))
            elif len(t.field) == 1:  # KJ-ONI-3 with a single card: no choice to make (KJ-25)
                x = t.field[0]
                got = (drawn, x)
                t = evolve(t, field=()).add_captured(p, got)
                s = evolve(s, captive=x)
            else:  # KJ-ONI-3: the player chooses its capture
                return evolve(s, table=t, phase=Phase.TAKE, pending=drawn)
        elif drawn.id == JIZO:
            oni = _find(t.field, ONI)
            if oni is not None:  # KJ-JIZO-3: the Oni discarded from the hand is captured by the Jizo
                got = (oni, drawn)
                t = evolve(t, field=_without(t.field, oni)).add_captured(p, got)
            elif s.oni_from_hand and s.captive is not None:
                # KJ-JIZO-2: the Oni's capture goes back to the field; the Jizo captures the Oni
                x = s.captive
                caps = list(t.captured)
                caps[p] = _without(caps[p], x)
                t = evolve(t, field=_with(t.field, x), captured=tuple(caps)).add_captured(p, (drawn,))
                s = evolve(s, captive=None)
                got = (drawn,)
            else:  # KJ-JIZO-1: put on the field, into the capture pile as the turn ends
                t = t.add_captured(p, (drawn,))
        else:
            if len(matches(t.field, drawn)) == 2:  # KJ-CAP-3: the player chooses
                return evolve(s, table=t, phase=Phase.TAKE, pending=drawn)
            field, got = capture(t.field, drawn, None)  # KJ-CAP-2/4/5
            t = evolve(t, field=field).add_captured(p, got)
        s = evolve(s, table=t)
        if got:
            s = self._check_dekiyaku(s)  # KJ-YAKU-1: after the drawn card
            if s.phase is Phase.OVER:
                return s
        return self._end_turn(s)

    def _take(self, s: KujurokuState, target: int) -> KujurokuState:
        t, p = s.table, s.turn
        drawn = s.pending
        assert drawn is not None
        if drawn.id == ONI:  # KJ-ONI-3
            x = _find(t.field, target)
            assert x is not None
            t = evolve(t, field=_without(t.field, x)).add_captured(p, (drawn, x))
            s = evolve(s, captive=x)
        else:  # KJ-CAP-3
            field, got = capture(t.field, drawn, target)
            t = evolve(t, field=field).add_captured(p, got)
        s = self._check_dekiyaku(evolve(s, table=t, pending=None, phase=Phase.PLAY))
        if s.phase is Phase.OVER:
            return s
        return self._end_turn(s)

    def _end_turn(self, s: KujurokuState) -> KujurokuState:
        t, p = s.table, s.turn
        out = s.out
        oni = _find(t.field, ONI)
        if oni is not None:  # KJ-ONI-5: removed from the round
            t = evolve(t, field=_without(t.field, oni))
            out = (*out, oni)
        jizo = _find(t.field, JIZO)
        if jizo is not None:  # KJ-JIZO-1: to its player's capture pile
            t = evolve(t, field=_without(t.field, jizo)).add_captured(p, (jizo,))
        s = evolve(s, table=t, out=out, oni_from_hand=False, phase=Phase.PLAY, pending=None)
        parts = s.participants
        nxt = parts[(parts.index(p) + 1) % len(parts)]
        if not any(t.hands[i] for i in parts):  # KJ-TURN-4
            return self._finish(s)
        return evolve(s, turn=nxt)

    def _finish(self, s: KujurokuState) -> KujurokuState:
        """A round played out: the Oni-holder receives the remaining card (KJ-ONI-6), which may still
        complete a dekiyaku (with remaining_card=end), then the round is over."""
        s = evolve(s, phase=Phase.OVER, end="exhaustive")
        if s.captive is None:
            return s
        t = s.table
        rid = spec.remaining_card(s.captive.id, [c.id for pile in t.captured for c in pile])
        x = None if rid is None else _find(t.field, rid)
        holder = s.oni_holder()
        if x is None or holder is None:  # excluded by the parity argument of remaining_card()
            raise AssertionError(f"KJ-ONI-6: no single remaining card for the Oni's capture {s.captive.id}")
        t = evolve(t, field=_without(t.field, x)).add_captured(holder, (x,))
        s = evolve(s, table=t, remaining=x)
        found = score_mask(s.rules, _pile_mask(t.captured[holder]))
        if found:
            return evolve(s, end="dekiyaku", winner=holder, won=found)
        return s

    def _check_dekiyaku(self, s: KujurokuState) -> KujurokuState:
        """KJ-YAKU-1 (decision KJ-8): every participant, the player to move first. With
        remaining_card=confirmed the confirmed remaining card counts as the Oni-holder's (KJ-ONI-7)."""
        t = s.table
        extra, holder = 0, None
        if s.rules.confirmed and s.captive is not None:
            rid = spec.remaining_card(s.captive.id, [c.id for pile in t.captured for c in pile])
            if rid is not None:
                extra, holder = _CARDS[rid].mask, s.oni_holder()
        parts = s.participants
        i = parts.index(s.turn)
        for seat in parts[i:] + parts[:i]:
            if not t.captured[seat]:
                continue
            pile = _pile_mask(t.captured[seat]) | (extra if seat == holder else 0)
            found = score_mask(s.rules, pile)
            if found:
                return evolve(s, phase=Phase.OVER, end="dekiyaku", winner=seat, won=found, pending=None)
        return s

    # -- illegal actions ---------------------------------------------------------------------------
    def explain_illegal(self, state: KujurokuState, action: Action) -> tuple[str, str]:
        p, t = state.turn, state.table
        phase = state.phase.value
        if action.kind == COLLECT:
            if state.phase is Phase.DEAL_ONI:
                return "KJ-DEAL-4", f"the dealt Oni takes one field card: 'collect 0 X', not {action}"
            if state.phase is Phase.DEAL_TRIPLE:
                return "KJ-DEAL-6", f"the dealer takes two of the three cards of number {_triple_rank(t.field)}"
            return "KJ-DEAL-4", f"nothing is collected now (phase {phase})"
        if action.kind == PLAY:
            if state.phase is not Phase.PLAY:
                return "KJ-TURN-2", f"seat {p} cannot play a hand card now (phase {phase})"
            if not action.cards or _find(t.hands[p], action.cards[0]) is None:
                return "KJ-TURN-2", f"card {action.cards[0] if action.cards else '?'} is not in seat {p}'s hand"
            cid = action.cards[0]
            if cid == ONI:
                if len(action.cards) == 1:
                    return "KJ-ONI-2", "the Oni-fuda may not be discarded while the field has cards"
                return "KJ-ONI-1", f"the Oni-fuda captures one card that is on the field, not {action.cards[1:]}"
            if cid == JIZO:
                return "KJ-JIZO-1", "the Jizo-fuda captures nothing: play it as 'play 1'"
            m = matches(t.field, _CARDS[cid])
            if len(m) == 2:
                return "KJ-CAP-3", f"card {cid} matches {m[0].id} and {m[1].id}: name one of them as target"
            return "KJ-CAP-2", f"card {cid} has {len(m)} match(es) on the field: no target is chosen"
        if action.kind == TAKE:
            if state.phase is not Phase.TAKE or state.pending is None:
                return "KJ-CAP-3", "no drawn card is waiting for a choice of target"
            if state.pending.id == ONI:
                return "KJ-ONI-3", f"the drawn Oni-fuda captures one field card, not {action.cards}"
            return "KJ-CAP-3", f"{action.cards} is not one of the two field cards the drawn card matches"
        return "KJ-TURN-2", f"unknown action kind {action.kind!r} for Kujuroku"

    # -- results -----------------------------------------------------------------------------------
    def card_points(self, rules: KujurokuRules, cards: Iterable[BaseCard]) -> int:
        """KJ-SCORE-1 / KJ-JIZO-5: the card points of a pile."""
        return sum(spec.card_points(c.id, rules.jizo) for c in cards)

    def round_result(self, state: KujurokuState) -> RoundResult:
        if state.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        rules, d = state.rules, state.dealer
        seats, parts = rules.seats, state.participants
        zeros = (0,) * seats
        if state.end == "misdeal":  # KJ-DEAL-3
            return RoundResult("misdeal", zeros, counts=False, next_dealer=d, notes=(("dealer", d), ("deal-lost", 0)))
        notes: list[tuple[str, int]] = [("dealer", d)]
        if state.captive is not None:
            notes.append(("oni-captive", state.captive.id))
        if state.remaining is not None:
            notes.append(("remaining-card", state.remaining.id))
        if state.end == "dekiyaku":
            w = state.winner
            assert w is not None
            value = sum(y.points for y in state.won)  # one row unless dekiyaku_count=stack (KJ-YAKU-4)
            deltas = [0] * seats
            for i in parts:  # KJ-YAKU-2
                deltas[i] = 2 * value if i == w else -value
            lost = w != d  # KJ-END-1
            notes += [("deal-lost", int(lost)), ("value", value)]
            yaku = tuple(state.won if i == w else () for i in range(seats))
            return RoundResult("dekiyaku", tuple(deltas), w, yaku, None, next_dealer=(d + 1) % seats if lost else d,
                               notes=tuple(notes))
        pts = [self.card_points(rules, state.table.captured[i]) if i in parts else 0 for i in range(seats)]
        chips = [spec.chip_score(pts[i]) for i in parts]  # KJ-SCORE-2
        case = spec.settlement_case(chips)
        deltas = [0] * seats
        if case == "two-negative":  # KJ-SCORE-3
            w = next(i for i, c in zip(parts, chips, strict=True) if c > 0)
            for i, c in zip(parts, chips, strict=True):
                if i != w:
                    deltas[i] = c
                    deltas[w] -= c
        elif case == "two-positive":  # KJ-SCORE-4
            loser = next(i for i, c in zip(parts, chips, strict=True) if c < 0)
            for i, c in zip(parts, chips, strict=True):
                if i != loser:
                    deltas[i] = c
                    deltas[loser] -= c
        keeps = pts[d] >= max(pts[i] for i in parts)  # KJ-END-1, a tie keeps the deal (KJ-15)
        if case in ("all-positive", "all-negative") and rules.draw_dealer_stays:
            keeps = True  # KJ-SCORE-5/6, KJ-END-3 (decision KJ-14)
        reason = {"two-negative": "card-points", "two-positive": "card-points", "all-positive": "draw",
                  "all-negative": "draw-all-negative"}[case]
        notes.append(("deal-lost", int(not keeps)))
        notes += [(f"chips.{i}", c) for i, c in zip(parts, chips, strict=True)]
        gainers = [i for i in range(seats) if deltas[i] > 0]
        return RoundResult(reason, tuple(deltas), gainers[0] if len(gainers) == 1 else None,
                           tuple(() for _ in range(seats)), tuple(pts),
                           next_dealer=d if keeps else (d + 1) % seats, notes=tuple(notes))

    def snapshot(self, state: KujurokuState, info: MatchInfo | None = None) -> Snapshot:
        t, seats = state.table, state.rules.seats
        zones: list[tuple[str, tuple[int, ...]]] = [(f"hand.{i}", tuple(c.id for c in t.hands[i]))
                                                     for i in range(seats)]
        zones += [
            ("field", tuple(c.id for c in t.field)),
            ("stock", tuple(c.id for c in t.stock)),
            ("drawn", (state.pending.id,) if state.pending else ()),
        ]
        zones += [(f"captured.{i}", tuple(c.id for c in t.captured[i])) for i in range(seats)]
        zones.append(("out.oni", tuple(c.id for c in state.out)))
        scores = info.scores if info else state.setup.scores
        return Snapshot("kujuroku", tuple(zones), self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KujurokuRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        return PileScore(score_mask(rules, _pile_mask(cards)), self.card_points(rules, cards))

    # -- the match ---------------------------------------------------------------------------------
    def new_match(self, rules: KujurokuRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((spec.START_CHIPS,) * rules.seats, first_dealer)

    def seats_in_play(self, rules: KujurokuRules, info: MatchInfo) -> tuple[int, ...]:
        return tuple((info.dealer + i) % rules.seats for i in range(spec.PLAYERS_PER_ROUND))

    def settle(self, rules: KujurokuRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        scores = tuple(a + b for a, b in zip(info.scores, result.deltas, strict=True))
        dealer = result.next_dealer if result.next_dealer is not None else info.dealer
        played = info.rounds_played + (1 if result.counts else 0)
        history = (*info.history, result)
        losses = sum(dict(r.notes).get("deal-lost", 0) for r in history)
        over = losses >= rules.seats  # KJ-GAME-1
        winners: tuple[int, ...] = ()
        if over:  # KJ-GAME-2
            top = max(scores)
            winners = tuple(i for i, v in enumerate(scores) if v == top)
        return MatchInfo(scores, dealer, played, info.deals + 1, over, winners,
                         "every player dealt and lost the deal" if over else "", history)


GAME = Kujuroku()
