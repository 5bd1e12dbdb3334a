"""Kusuri-gui (薬食い, "medicine-eating"): the discard-pile game with wild willows and payments on the spot.

Rules, citations and decisions: :mod:`hanafuda_spec.games.kusurigui`. The oya is the dealer, the
ko the other player; seat numbers are 0 and 1. There is no field of cards: one discard pile
(``pile``, bottom first) is taken whole by a card of its top card's month or by a willow (the
willows are Oni-fuda, wild cards). Eating a card the opponent has just discarded onto an emptied
pile is a *kusuri-gui* and costs the opponent chips at once. A round is settled in chips by the
difference of the dekiyaku (scoring combinations) totals; the scores of a match are the chips.

Payments made during a round are kept in the round state and booked in the round's
:class:`~hanafuda.engine.RoundResult` together with the settlement, so the match's chips change
only when a round is settled and every transfer is zero-sum.

>>> from hanafuda.engine import Match
>>> m = Match.start(GAME, GAME.rules(), seed=1)
>>> [len(h) for h in m.state.hands], len(m.state.pile), len(m.state.stock), m.info.scores
([4, 4], 1, 32, (100, 100))
>>> GAME.score(GAME.rules(), [card(i) for i in (10, 30, 80, 120, 70, 100)]).yaku_total
7
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, KUSURIGUI, BaseCard, Card, Deck, card
from hanafuda_spec.games import kusurigui as spec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda.engine import (
    ACTION_ORDER,
    CARD_ORDER,
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

__all__ = ["GAME", "KusuriGui", "KusuriGuiRules", "KusuriGuiState", "Phase", "score_mask"]

PLAY = "play"
DISCARD = "discard"
WILLOW = 11


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a card from the hand
    OVER = "over"  #: the round is over (played out, or a misdeal)


@dataclass(frozen=True)
class KusuriGuiRules:
    """Typed Kusuri-gui rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]
    exclusive: bool
    payment: int
    rounds: int
    chips: int
    bust_ends: bool
    tie_passes: bool
    oni_choice: bool
    oni_pays: bool
    rainy_higher: bool

    @functools.cached_property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    @functools.cached_property
    def table(self) -> tuple[tuple[_Row, ...], tuple[frozenset[int], ...]]:
        """The compiled dekiyaku rows and, per row, the rows it is part of."""
        return _table(self.values)


@dataclass(frozen=True)
class KusuriGuiState:
    """One position of a Kusuri-gui round.

    ``bait`` is the seat whose discard onto the empty pile is the pile's only card, put there by
    the play just before (KG-PAY-1); ``paid`` the chips each seat has gained (+) or paid (−) in
    Kusuri-gui payments this round; ``eaten`` how many Kusuri-gui each seat has made.
    """

    rules: KusuriGuiRules
    setup: RoundSetup
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    pile: tuple[Card, ...]
    stock: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    facedown: tuple[Card, ...]
    willows: tuple[Card, ...]
    turn: int
    phase: Phase
    plays: int = 0
    redeals: int = 0
    bait: int | None = None
    paid: tuple[int, int] = (0, 0)
    eaten: tuple[int, int] = (0, 0)
    end: str = ""

    @property
    def dealer(self) -> int:
        return self.setup.dealer


# -- scoring ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    """A dekiyaku row as bit masks (same meaning as :meth:`YakuDef.value`)."""

    yid: str
    points: int
    pool: int
    need: int
    required: int
    extra_pool: int
    extra_from: int

    def value(self, pile: int) -> int:
        if pile & self.required != self.required or (pile & self.pool).bit_count() < self.need:
            return 0
        if not self.extra_pool:
            return self.points
        return self.points + max(0, (pile & self.extra_pool).bit_count() - self.extra_from)


#: Every hanafuda card by id (``card(id)`` parses text; this is a plain table for the hot paths).
_CARD: dict[int, Card] = {c.id: c for c in HANAFUDA.cards if isinstance(c, Card)}


def _mask(ids: frozenset[int]) -> int:
    m = 0
    for i in ids:
        m |= _CARD[i].mask
    return m


def _row(y: YakuDef) -> _Row:
    if y.forbidden or y.doubled or (y.extra_pool and y.extra != 1):
        raise ValueError(f"{y.id}: not a plain counting dekiyaku")
    return _Row(y.id, y.points, _mask(y.pool), y.need, _mask(y.required), _mask(y.extra_pool), y.extra_from)


@functools.lru_cache(maxsize=64)
def _table(values: tuple[tuple[str, str], ...]) -> tuple[tuple[_Row, ...], tuple[frozenset[int], ...]]:
    """The compiled rows and, per row, the indices of the rows it is part of (KG-YAKU-2)."""
    rows = spec.yaku_table(dict(values))
    index = {y.id: i for i, y in enumerate(rows)}
    bigger = tuple(frozenset(index[b] for a, b in spec.PART_OF if a == y.id) for y in rows)
    return tuple(_row(y) for y in rows), bigger


_THREE, _RAINY = "three-brights", "rainy-three-brights"


def score_mask(rules: KusuriGuiRules, pile: int) -> tuple[ScoredYaku, ...]:
    """The dekiyaku of a capture pile given as a bit mask (KG-YAKU-1…15), in table order."""
    rows, bigger = rules.table
    values = [r.value(pile) for r in rows]
    formed = [i for i, v in enumerate(values) if v > 0]
    if not formed:
        return ()
    if rules.exclusive:
        top = max(formed, key=lambda i: (values[i], -i))
        return (ScoredYaku(rows[top].yid, values[top]),)
    have = frozenset(formed)
    kept = [i for i in formed if not bigger[i] & have]
    if rules.rainy_higher and any(rows[i].yid == _THREE for i in formed):
        kept = [i for i in kept if rows[i].yid != _RAINY]
    return tuple(ScoredYaku(rows[i].yid, values[i]) for i in kept)


def _pile_mask(cards: Sequence[BaseCard]) -> int:
    m = 0
    for c in cards:
        m |= c.mask
    return m


def _is_willow(c: Card) -> bool:
    return c.suit == WILLOW


# -- the game ----------------------------------------------------------------------------------


class KusuriGui(Game[KusuriGuiState, KusuriGuiRules]):
    """Kusuri-gui under the FudaWiki rules (SEED-000) and the recorded decisions."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> KusuriGuiRules:
        return KusuriGuiRules(
            values=tuple(sorted(values.items())),
            exclusive=values["dekiyaku"] == "exclusive",
            payment=int(values["payment"]),
            rounds=int(values["rounds"]),
            chips=int(values["chips"]),
            bust_ends=values["bust"] == "end",
            tie_passes=values["tie_dealer"] == "pass",
            oni_choice=values["oni_play"] == "choice",
            oni_pays=values["oni_pays"] == "yes",
            rainy_higher=values["rainy_overlap"] == "higher",
        )

    def deck(self, rules: KusuriGuiRules) -> Deck:
        return KUSURIGUI

    def seats(self, rules: KusuriGuiRules) -> int:
        return 2

    # -- the deal ------------------------------------------------------------------------
    def start_round(self, rules: KusuriGuiRules, order: Sequence[BaseCard], setup: RoundSetup) -> KusuriGuiState:
        cards = [c for c in order if isinstance(c, Card)]
        if len(cards) != len(KUSURIGUI) or sorted(c.id for c in cards) != list(spec.DECK):
            raise ValueError("Kusuri-gui deals from the 44-card Kusuri-gui deck")
        dealer = setup.dealer
        ko = 1 - dealer
        # KG-DEAL-2: ko 2, oya 2, field 3 face down, ko 2, oya 2, field 1 face up.
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[ko] = tuple(sorted(cards[0:2] + cards[7:9], key=CARD_ORDER))
        hands[dealer] = tuple(sorted(cards[2:4] + cards[9:11], key=CARD_ORDER))
        facedown, up = cards[4:7], cards[11]
        state = KusuriGuiState(rules, setup, (hands[0], hands[1]), (up,), tuple(cards[12:]), ((), ()),
                               tuple(facedown), (), dealer, Phase.PLAY)
        if not _is_willow(up):
            return state  # KG-DEAL-3
        # KG-DEAL-4: turn the face-down cards in the order dealt until a non-willow shows.
        turned = [up]
        for i, c in enumerate(facedown):
            if not _is_willow(c):
                return evolve(state, pile=(c,), facedown=tuple(facedown[i + 1:]), willows=tuple(turned))
            turned.append(c)
        # KG-DEAL-5: four willows on the field: a misdeal.
        return evolve(state, pile=(), facedown=(), willows=tuple(turned), phase=Phase.OVER, end="misdeal")

    # -- play ----------------------------------------------------------------------------
    def to_move(self, state: KusuriGuiState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: KusuriGuiState) -> tuple[Action, ...]:
        if state.phase is Phase.OVER:
            return ()
        hand = state.hands[state.turn]
        plays = [action(PLAY, (c.id,)) for c in hand]
        if state.rules.oni_choice and state.pile:
            # KG-ONI-1 with oni_play=choice: a willow may be discarded onto a non-empty pile.
            plays.extend(action(DISCARD, (c.id,)) for c in hand if _is_willow(c))
        return tuple(sorted(plays, key=ACTION_ORDER))

    def captures(self, state: KusuriGuiState, c: Card) -> bool:
        """Whether playing ``c`` takes the pile (KG-PLAY-2, KG-ONI-1/2): a non-empty pile whose top card
        is of ``c``'s month, or any non-empty pile when ``c`` is a willow."""
        return bool(state.pile) and (_is_willow(c) or c.suit == state.pile[-1].suit)

    def do(self, state: KusuriGuiState, action: Action) -> KusuriGuiState:
        p = state.turn
        c = _CARD[action.cards[0]]
        hands = list(state.hands)
        hands[p] = tuple(x for x in hands[p] if x.id != c.id)
        s = evolve(state, hands=(hands[0], hands[1]), plays=state.plays + 1)
        if action.kind == PLAY and self.captures(state, c):
            s = self._eat(s, p, c)
        elif not state.pile:
            s = evolve(s, pile=(c,), bait=p)  # KG-PLAY-3, KG-ONI-2: onto an empty pile
        else:
            s = evolve(s, pile=(*state.pile, c), bait=None)  # KG-PLAY-3 (or a discarded willow)
        return self._next(s)

    def _eat(self, s: KusuriGuiState, p: int, c: Card) -> KusuriGuiState:
        """Take the whole pile (KG-PLAY-2, KG-ONI-1); a Kusuri-gui is paid at once (KG-PAY-1…4)."""
        pile = s.pile
        kusurigui = (len(pile) == 1 and s.bait == 1 - p and not _is_willow(pile[0])  # KG-PAY-1, KG-PAY-3
                     and (s.rules.oni_pays or not _is_willow(c)))  # KG-PAY-4
        caps = list(s.captured)
        caps[p] = tuple(sorted((*caps[p], *pile, c), key=CARD_ORDER))
        s = evolve(s, pile=(), captured=(caps[0], caps[1]), bait=None)
        return self._pay(s, 1 - p, p) if kusurigui else s

    def _pay(self, s: KusuriGuiState, payer: int, payee: int) -> KusuriGuiState:
        """KG-PAY-2, KG-PAY-5, KG-SCORE-3: the payment, cut to the payer's chips with bust=end, is booked
        for the round's result."""
        amount = s.rules.payment
        if s.rules.bust_ends:
            amount = max(0, min(amount, s.setup.scores[payer] + s.paid[payer]))
        paid, eaten = list(s.paid), list(s.eaten)
        paid[payer] -= amount
        paid[payee] += amount
        eaten[payee] += 1
        return evolve(s, paid=(paid[0], paid[1]), eaten=(eaten[0], eaten[1]))

    def _next(self, s: KusuriGuiState) -> KusuriGuiState:
        """Pass the turn; re-deal when both hands are empty (KG-PLAY-4); end the round when the stock is
        exhausted too (KG-END-1)."""
        nxt = 1 - s.turn
        if s.hands[0] or s.hands[1]:
            return evolve(s, turn=nxt)
        if not s.stock:
            return evolve(s, turn=nxt, phase=Phase.OVER, end="played-out")
        dealer, st = s.dealer, s.stock
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[1 - dealer] = tuple(sorted(st[0:2] + st[4:6], key=CARD_ORDER))  # KG-PLAY-4: non-dealer first (KG-17)
        hands[dealer] = tuple(sorted(st[2:4] + st[6:8], key=CARD_ORDER))
        return evolve(s, hands=(hands[0], hands[1]), stock=st[8:], redeals=s.redeals + 1, turn=nxt)

    def fast_round(self, state: KusuriGuiState) -> FastRound[KusuriGuiState] | None:
        """The round played in place (``_FastKusuriGui``), under every option."""
        return None if state.phase is Phase.OVER else _FastKusuriGui(state)

    def explain_illegal(self, state: KusuriGuiState, action: Action) -> tuple[str, str]:
        p = state.turn
        if action.kind not in (PLAY, DISCARD):
            return "KG-PLAY-1", f"unknown action kind {action.kind!r} for Kusuri-gui (play CARD or discard CARD)"
        if len(action.cards) != 1 or action.label:
            return "KG-PLAY-1", f"'{action}': a turn plays exactly one card from the hand"
        cid = action.cards[0]
        if all(c.id != cid for c in state.hands[p]):
            return "KG-PLAY-1", f"card {cid} is not in seat {p}'s hand"
        if card(cid).suit != WILLOW:
            return "KG-PLAY-3", f"card {cid} is not a willow: play it, and it is discarded if it does not match"
        if not state.rules.oni_choice:
            return "KG-ONI-1", f"willow {cid} played onto a non-empty pile captures it; discarding it instead " \
                               "needs oni_play=choice"
        return "KG-ONI-2", f"the pile is empty: 'play {cid}' discards willow {cid}"

    # -- results -------------------------------------------------------------------------
    def round_result(self, state: KusuriGuiState) -> RoundResult:
        if state.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        d = state.dealer
        if state.end == "misdeal":
            return RoundResult("misdeal", (0, 0), counts=False, next_dealer=d)  # KG-DEAL-5
        rules = state.rules
        yaku = tuple(score_mask(rules, _pile_mask(side)) for side in state.captured)
        totals = [sum(y.points for y in side) for side in yaku]
        chips = [state.setup.scores[i] + state.paid[i] for i in (0, 1)]
        settle = [0, 0]
        winner: int | None = None
        if totals[0] != totals[1]:  # KG-SCORE-1
            winner = 0 if totals[0] > totals[1] else 1
            amount = abs(totals[0] - totals[1])
            if rules.bust_ends:
                amount = max(0, min(amount, chips[1 - winner]))  # KG-SCORE-3
            settle[winner], settle[1 - winner] = amount, -amount
        deltas = (state.paid[0] + settle[0], state.paid[1] + settle[1])
        if winner is not None:
            nxt = winner  # KG-END-2
        else:
            nxt = 1 - d if rules.tie_passes else d  # KG-SCORE-2
        after = (state.setup.scores[0] + deltas[0], state.setup.scores[1] + deltas[1])
        ends = state.setup.number >= rules.rounds or (rules.bust_ends and min(after) <= 0)
        notes = (("kusurigui.0", state.eaten[0]), ("kusurigui.1", state.eaten[1]),
                 ("payments.0", state.paid[0]), ("payments.1", state.paid[1]),
                 ("settlement", abs(settle[0])), ("left_on_pile", len(state.pile)))
        return RoundResult("played-out", deltas, winner, (yaku[0], yaku[1]), None, True, ends, nxt, notes)

    def snapshot(self, state: KusuriGuiState, info: MatchInfo | None = None) -> Snapshot:
        zones: tuple[tuple[str, tuple[int, ...]], ...] = (
            ("hand.0", tuple(c.id for c in state.hands[0])),
            ("hand.1", tuple(c.id for c in state.hands[1])),
            ("pile", tuple(c.id for c in state.pile)),
            ("stock", tuple(c.id for c in state.stock)),
            ("captured.0", tuple(c.id for c in state.captured[0])),
            ("captured.1", tuple(c.id for c in state.captured[1])),
            ("out.facedown", tuple(c.id for c in state.facedown)),
            ("out.willows", tuple(c.id for c in state.willows)),
        )
        scores = info.scores if info else state.setup.scores
        return Snapshot("kusurigui", zones, self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KusuriGuiRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        return PileScore(score_mask(rules, _pile_mask(cards)), None)

    # -- the match -----------------------------------------------------------------------
    def new_match(self, rules: KusuriGuiRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((rules.chips, rules.chips), first_dealer)  # KG-EQ-2

    def seats_in_play(self, rules: KusuriGuiRules, info: MatchInfo) -> tuple[int, ...]:
        return (0, 1)

    def settle(self, rules: KusuriGuiRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        scores = (info.scores[0] + result.deltas[0], info.scores[1] + result.deltas[1])
        played = info.rounds_played + (1 if result.counts else 0)
        dealer = result.next_dealer if result.next_dealer is not None else info.dealer
        bust = rules.bust_ends and result.counts and min(scores) <= 0  # KG-GAME-3
        over = bust or played >= rules.rounds  # KG-GAME-1
        winners: tuple[int, ...] = ()
        if over:  # KG-GAME-2
            top = max(scores)
            winners = tuple(i for i in (0, 1) if scores[i] == top)
        reason = ("bust" if bust else "rounds") if over else ""
        return MatchInfo(scores, dealer, played, info.deals + 1, over, winners, reason, (*info.history, result))


class _FastKusuriGui(FastRound[KusuriGuiState]):
    """A Kusuri-gui round played in place (see :class:`~hanafuda.engine.FastRound`): hands, pile and
    capture piles as lists, the stock as a tuple and the index of its top. The turn is
    :meth:`KusuriGui.do` with :meth:`KusuriGui._eat`, :meth:`KusuriGui._pay` and
    :meth:`KusuriGui._next`: a card played onto a pile whose top is of its month, or a willow onto any
    pile, takes it (KG-PLAY-2, KG-ONI-1), a Kusuri-gui is paid at once (KG-PAY-1…5), else the card
    joins the pile (KG-PLAY-3); empty hands are dealt again from the stock (KG-PLAY-4) until it is
    exhausted (KG-END-1). Capture piles are sorted when :meth:`state` is asked for."""

    __slots__ = ("bait", "captured", "eaten", "end", "hands", "paid", "phase", "pile", "plays", "redeals", "rules",
                 "start", "stock", "top", "turn")

    def __init__(self, s: KusuriGuiState) -> None:
        self.start, self.rules = s, s.rules
        self.hands = [list(s.hands[0]), list(s.hands[1])]
        self.pile = list(s.pile)
        self.captured = [list(s.captured[0]), list(s.captured[1])]
        self.stock, self.top = s.stock, 0  # the stock is stock[top:]
        self.turn, self.phase, self.plays, self.redeals, self.bait = s.turn, s.phase, s.plays, s.redeals, s.bait
        self.paid, self.eaten, self.end = list(s.paid), list(s.eaten), s.end

    def over(self) -> bool:
        return self.phase is Phase.OVER

    def legal(self) -> Sequence[Action]:
        hand = self.hands[self.turn]
        plays = [_PLAY[c.id] for c in hand]  # the hand is in id order: so are its plays
        if self.rules.oni_choice and self.pile:  # KG-ONI-1 with oni_play=choice ("discard" sorts first)
            return [_DISCARD[c.id] for c in hand if c.suit == WILLOW] + plays
        return plays

    def play(self, a: Action) -> None:
        p = self.turn
        cid = a.cards[0]
        hand = self.hands[p]
        c = next(x for x in hand if x.id == cid)
        hand.remove(c)
        self.plays += 1
        pile = self.pile
        if a.kind == PLAY and pile and (c.suit == WILLOW or c.suit == pile[-1].suit):  # KG-PLAY-2, KG-ONI-1
            r = self.rules
            kusurigui = (len(pile) == 1 and self.bait == 1 - p and pile[0].suit != WILLOW  # KG-PAY-1, KG-PAY-3
                         and (r.oni_pays or c.suit != WILLOW))  # KG-PAY-4
            self.captured[p] += (*pile, c)
            self.pile = []
            self.bait = None
            if kusurigui:  # KG-PAY-2, KG-PAY-5, KG-SCORE-3
                payer = 1 - p
                amount = r.payment
                if r.bust_ends:
                    amount = max(0, min(amount, self.start.setup.scores[payer] + self.paid[payer]))
                self.paid[payer] -= amount
                self.paid[p] += amount
                self.eaten[p] += 1
        elif not pile:
            pile.append(c)
            self.bait = p  # KG-PLAY-3, KG-ONI-2: onto an empty pile
        else:
            pile.append(c)
            self.bait = None
        # KusuriGui._next
        nxt = 1 - p
        self.turn = nxt
        if self.hands[0] or self.hands[1]:
            return
        if self.top >= len(self.stock):
            self.phase, self.end = Phase.OVER, "played-out"  # KG-END-1
            return
        dealer, t = self.start.setup.dealer, self.top
        st = self.stock[t:t + 8]
        self.hands[1 - dealer] = sorted(st[0:2] + st[4:6], key=CARD_ORDER)  # KG-PLAY-4: non-dealer first
        self.hands[dealer] = sorted(st[2:4] + st[6:8], key=CARD_ORDER)
        self.top += 8
        self.redeals += 1

    def state(self) -> KusuriGuiState:
        caps = [tuple(sorted(c, key=CARD_ORDER)) for c in self.captured]
        return evolve(self.start, hands=(tuple(self.hands[0]), tuple(self.hands[1])), pile=tuple(self.pile),
                      stock=self.stock[self.top:], captured=(caps[0], caps[1]), turn=self.turn, phase=self.phase,
                      plays=self.plays, redeals=self.redeals, bait=self.bait, paid=(self.paid[0], self.paid[1]),
                      eaten=(self.eaten[0], self.eaten[1]), end=self.end)


#: ``play c`` and ``discard c`` by card id, built once.
_PLAY = {i: action(PLAY, (i,)) for i in _CARD}
_DISCARD = {i: action(DISCARD, (i,)) for i in _CARD}


GAME = KusuriGui()
