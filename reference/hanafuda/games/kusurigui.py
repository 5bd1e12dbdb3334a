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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, KUSURIGUI, BaseCard, Card, Deck, card
from hanafuda_spec.games import kusurigui as spec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.yaku import ScoredYaku, YakuDef

from hanafuda._construct import new
from hanafuda.engine import (
    CARD_ORDER,
    Action,
    FastRound,
    MatchInfo,
    PileScore,
    RoundGame,
    RoundResult,
    RoundSetup,
    RulesOptions,
    action,
    settled,
)
from hanafuda.games._options import flag, number
from hanafuda.yakumask import YakuRow

__all__ = ["GAME", "KusuriGui", "KusuriGuiRound", "KusuriGuiRules", "KusuriGuiState", "Phase", "score_mask"]

PLAY = "play"
DISCARD = "discard"
WILLOW = 11


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a card from the hand
    OVER = "over"  #: the round is over (played out, or a misdeal)


@dataclass(frozen=True)
class KusuriGuiRules(RulesOptions):
    """Typed Kusuri-gui rules, built from resolved option values (see the catalogue's options)."""

    catalogue = spec.SPEC
    values: tuple[tuple[str, str], ...]

    # The options' readings the steps use (:mod:`hanafuda.games._options`), each with the rule it decides.
    exclusive = flag(spec.Dekiyaku.EXCLUSIVE, "KG-YAKU-1: only the best dekiyaku of a pile counts.")
    payment = number(spec.Payment, "KG-PAY-2: the chips a Kusuri-gui costs.")
    rounds = number(spec.Rounds, "KG-GAME-1: the rounds of a game.")
    chips = number(spec.Chips, "KG-EQ-2: each player's chips at the start.")
    bust_ends = flag(spec.Bust.END, "KG-SCORE-3, KG-GAME-3: payments are capped by the chips held; none left ends.")
    tie_passes = flag(spec.TieDealer.PASS, "KG-SCORE-2: after equal totals the deal passes.")
    oni_choice = flag(spec.OniPlay.CHOICE, "KG-ONI-1: a willow may be discarded onto a pile it could take.")
    oni_pays = flag(spec.OniPays.YES, "KG-PAY-4: a Kusuri-gui made with a willow is paid.")
    rainy_higher = flag(spec.RainyOverlap.HIGHER, "KG-YAKU-6: no Rainy Three Brights beside the Three Brights.")

    @functools.cached_property
    def table(self) -> tuple[tuple[YakuRow, ...], tuple[frozenset[int], ...]]:
        """The compiled dekiyaku rows and, per row, the rows it is part of."""
        return _table(self.values)

    # Hooks: the rule as the reference plays it, which :mod:`hanafuda.deviations_other` overrides (a diagnosis).

    def settlement(self, winner_total: int, loser_total: int) -> int:
        """KG-SCORE-1: the loser of the round pays the difference of the dekiyaku totals."""
        return winner_total - loser_total

    def bait_pays(self, bait: Card) -> bool:
        """KG-PAY-3: eating a willow bait is no Kusuri-gui."""
        return bait.suit != WILLOW

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        """KG-END-2: the winner deals next; KG-SCORE-2: after equal totals the dealer stays, or the deal passes."""
        if winner is not None:
            return winner
        return 1 - dealer if self.tie_passes else dealer


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


def _mask(cards: Iterable[BaseCard]) -> int:
    return sum(c.mask for c in cards)


#: Every hanafuda card by id, and its mask (plain tables for the hot paths).
_CARD: dict[int, Card] = {c.id: c for c in HANAFUDA.cards if isinstance(c, Card)}
_MASK_OF = {i: c.mask for i, c in _CARD.items()}


@functools.lru_cache(maxsize=64)
def _table(values: tuple[tuple[str, str], ...]) -> tuple[tuple[YakuRow, ...], tuple[frozenset[int], ...]]:
    """The compiled rows and, per row, the indices of the rows it is part of (KG-YAKU-2)."""
    return compile_table(spec.yaku_table(dict(values)))


def compile_table(rows: Sequence[YakuDef]) -> tuple[tuple[YakuRow, ...], tuple[frozenset[int], ...]]:
    """:attr:`KusuriGuiRules.table` of the dekiyaku ``rows``."""
    index = {y.id: i for i, y in enumerate(rows)}
    bigger = tuple(frozenset(index[b] for a, b in spec.PART_OF if a == y.id) for y in rows)
    return tuple(YakuRow.of(y, _MASK_OF) for y in rows), bigger


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


# -- the game ----------------------------------------------------------------------------------


class KusuriGui(RoundGame[KusuriGuiState, KusuriGuiRules]):
    """Kusuri-gui under the FudaWiki rules (SEED-000) and the recorded decisions."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> KusuriGuiRules:
        return KusuriGuiRules(tuple(sorted(values.items())))

    def deck(self, rules: KusuriGuiRules) -> Deck:
        return KUSURIGUI  # KG-EQ-1: 44 cards

    def seats(self, rules: KusuriGuiRules) -> int:
        return 2  # KG-EQ-1: two players

    # -- the deal ------------------------------------------------------------------------
    def start_round(self, rules: KusuriGuiRules, order: Sequence[BaseCard], setup: RoundSetup) -> KusuriGuiState:
        cards = [c for c in order if isinstance(c, Card)]
        if len(cards) != len(KUSURIGUI) or sorted(c.id for c in cards) != list(spec.DECK):
            raise ValueError("Kusuri-gui deals from the 44-card Kusuri-gui deck")
        return KusuriGuiRound.dealt(rules, cards, setup).state()

    def deal_fast(self, rules: KusuriGuiRules, order: Sequence[int], setup: RoundSetup) -> KusuriGuiRound | None:
        """The round :meth:`start_round` deals, played in place; None for a misdeal (KG-DEAL-5)."""
        r = KusuriGuiRound.dealt(rules, list(map(_CARD.__getitem__, order)), setup)
        return None if r.over() else r

    # -- play ----------------------------------------------------------------------------
    def to_move(self, state: KusuriGuiState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def round_of(self, state: KusuriGuiState) -> KusuriGuiRound:
        return KusuriGuiRound(state)

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
    def snapshot(self, state: KusuriGuiState, info: MatchInfo | None = None) -> Snapshot:
        zones = tuple((name, tuple(c.id for c in cards)) for name, cards in (
            ("hand.0", state.hands[0]), ("hand.1", state.hands[1]), ("pile", state.pile), ("stock", state.stock),
            ("captured.0", state.captured[0]), ("captured.1", state.captured[1]), ("out.facedown", state.facedown),
            ("out.willows", state.willows)))
        scores = info.scores if info else state.setup.scores
        return Snapshot("kusurigui", zones, self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KusuriGuiRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        return PileScore(score_mask(rules, _mask(cards)), None)

    # -- the match -----------------------------------------------------------------------
    def new_match(self, rules: KusuriGuiRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((rules.chips, rules.chips), first_dealer)  # KG-EQ-2; KG-DEAL-1: the first dealer as given

    def seats_in_play(self, rules: KusuriGuiRules, info: MatchInfo) -> tuple[int, ...]:
        return (0, 1)

    def settle(self, rules: KusuriGuiRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        after = settled(info, result, False, "")
        bust = rules.bust_ends and result.counts and min(after.scores) <= 0  # KG-GAME-3
        over = bust or after.rounds_played >= rules.rounds  # KG-GAME-1; KG-GAME-2: the top scores win
        return settled(info, result, over, "bust" if bust else "rounds")


def _cut(rules: KusuriGuiRules, amount: int, chips: int) -> int:
    """KG-SCORE-3: with bust=end, a player pays no more than the chips they have left."""
    return max(0, min(amount, chips)) if rules.bust_ends else amount


#: The phases as module constants (an enum class's attribute is a slow read).
_PLAYING, _OVER = Phase.PLAY, Phase.OVER


class KusuriGuiRound(FastRound[KusuriGuiState]):
    """A Kusuri-gui round played in place, the one implementation of its turn: hands, pile and capture
    piles as lists (the capture piles sorted when :meth:`state` is asked for), the stock as
    ``stock[top:]``."""

    __slots__ = ("bait", "captured", "eaten", "end", "facedown", "hands", "paid", "phase", "pile", "plays", "redeals",
                 "rules", "setup", "stock", "top", "turn", "willows")

    def __init__(self, s: KusuriGuiState) -> None:
        self.rules, self.setup, self.facedown, self.willows = s.rules, s.setup, s.facedown, s.willows
        self.hands = [list(s.hands[0]), list(s.hands[1])]
        self.pile, self.captured = list(s.pile), [list(s.captured[0]), list(s.captured[1])]
        self.stock, self.top = s.stock, 0
        self.turn, self.phase, self.plays, self.redeals, self.bait = s.turn, s.phase, s.plays, s.redeals, s.bait
        self.paid, self.eaten, self.end = list(s.paid), list(s.eaten), s.end

    @classmethod
    def dealt(cls, rules: KusuriGuiRules, cards: list[Card], setup: RoundSetup) -> KusuriGuiRound:
        """The round dealt from ``cards`` (the deck order, top first), over at once for a misdeal."""
        r = cls.__new__(cls)
        r.rules, r.setup, r.hands, r.captured = rules, setup, [[], []], [[], []]
        # KG-DEAL-2: ko 2, oya 2, field 3 face down, ko 2, oya 2, field 1 face up
        r._give(cards[0:2] + cards[7:9], cards[2:4] + cards[9:11])
        facedown, up = tuple(cards[4:7]), cards[11]
        r.pile, r.facedown, r.willows, r.stock, r.top = [up], facedown, (), tuple(cards[12:]), 0
        r.turn, r.phase, r.plays, r.redeals, r.bait, r.paid, r.eaten, r.end = \
            setup.dealer, _PLAYING, 0, 0, None, [0, 0], [0, 0], ""
        if up.suit == WILLOW:  # KG-DEAL-4: the face-down cards are turned in the order dealt until a non-willow
            for i, c in enumerate(facedown):
                if c.suit != WILLOW:
                    r.pile, r.facedown, r.willows = [c], facedown[i + 1:], (up, *facedown[:i])
                    break
            else:  # KG-DEAL-5: four willows on the field, a misdeal
                r.pile, r.facedown, r.willows, r.phase, r.end = [], (), (up, *facedown), _OVER, "misdeal"
        return r  # KG-DEAL-3: the dealer plays first

    def _give(self, ko: Sequence[Card], oya: Sequence[Card]) -> None:
        """New hands for the ko and the oya (the dealer), each in id order."""
        dealer = self.setup.dealer
        self.hands[1 - dealer] = sorted(ko, key=CARD_ORDER)
        self.hands[dealer] = sorted(oya, key=CARD_ORDER)

    def over(self) -> bool:
        return self.phase is _OVER

    def legal(self) -> Sequence[Action]:
        """Any card of the hand (in id order, so its plays are sorted) is played (KG-PLAY-1); with oni_play=choice
        a willow may be discarded onto a non-empty pile (KG-ONI-1)."""
        if self.phase is _OVER:
            return []
        hand = self.hands[self.turn]
        plays = [_PLAY[c.id] for c in hand]
        if self.pile and self.rules.oni_choice:  # ('discard' sorts before 'play')
            return [_DISCARD[c.id] for c in hand if c.suit == WILLOW] + plays
        return plays

    def play(self, a: Action) -> None:
        """A card from the hand: it takes the pile when its top card is of the card's month, a willow any
        pile (KG-PLAY-2, KG-ONI-1), unless discarded; else it joins the pile (KG-PLAY-3), as the pile's only
        card the bait of a Kusuri-gui (KG-ONI-2 for a willow)."""
        p = self.turn
        c = _CARD[a.cards[0]]
        self.hands[p].remove(c)
        self.plays += 1
        pile = self.pile
        if a.kind == PLAY and pile and (c.suit == WILLOW or c.suit == pile[-1].suit):  # KG-PLAY-2, KG-ONI-1
            self._eat(c)
        else:
            self.bait = None if pile else p
            pile.append(c)
        self._next()

    def _eat(self, c: Card) -> None:
        """``c`` takes the whole pile; eating the opponent's bait is a Kusuri-gui, paid at once (KG-PAY-1),
        unless the bait is a willow (KG-PAY-3) or, with oni_pays=no, the eater is one (KG-PAY-4)."""
        p, pile = self.turn, self.pile
        kusurigui = (len(pile) == 1 and self.bait == 1 - p and self.rules.bait_pays(pile[0])  # KG-PAY-1, KG-PAY-3
                     and (self.rules.oni_pays or c.suit != WILLOW))  # KG-PAY-4
        self.captured[p] += (*pile, c)  # KG-PLAY-2
        self.pile, self.bait = [], None
        if kusurigui:  # KG-PAY-1: paid at once
            self._pay(1 - p, p)

    def _pay(self, payer: int, payee: int) -> None:
        """KG-PAY-2, KG-PAY-5: the payment is booked for the round's result."""
        amount = _cut(self.rules, self.rules.payment, self.setup.scores[payer] + self.paid[payer])
        self.paid[payer] -= amount
        self.paid[payee] += amount
        self.eaten[payee] += 1

    def _next(self) -> None:
        """The turn passes; both hands empty are dealt again from the stock, the non-dealer first
        (KG-PLAY-4), and the round ends when the stock is exhausted too (KG-END-1)."""
        self.turn = 1 - self.turn  # KG-PLAY-5: the dealer leads every cycle of eight; then KG-PLAY-4, KG-END-1
        if self.hands[0] or self.hands[1]:
            return
        if self.top >= len(self.stock):
            self.phase, self.end = _OVER, "played-out"
            return
        st = self.stock[self.top:self.top + 8]
        self._give(st[0:2] + st[4:6], st[2:4] + st[6:8])
        self.top += 8
        self.redeals += 1

    def result(self) -> RoundResult | None:
        """The round's result once it is over, its Kusuri-gui payments booked with the settlement (KG-SCORE-1)."""
        if self.phase is not _OVER:
            return None
        rules, setup, paid, d = self.rules, self.setup, self.paid, self.setup.dealer
        if self.end == "misdeal":
            return RoundResult("misdeal", (0, 0), counts=False, next_dealer=d)  # KG-DEAL-5
        yaku = tuple(score_mask(rules, _mask(side)) for side in self.captured)
        totals = [sum(y.points for y in side) for side in yaku]
        settle = [0, 0]
        winner: int | None = None
        if totals[0] != totals[1]:  # KG-SCORE-1
            winner, loser = (0, 1) if totals[0] > totals[1] else (1, 0)
            amount = _cut(rules, rules.settlement(totals[winner], totals[loser]), setup.scores[loser] + paid[loser])
            settle[winner], settle[loser] = amount, -amount
        deltas = (paid[0] + settle[0], paid[1] + settle[1])
        nxt = rules.next_dealer(d, winner)  # KG-END-2, KG-SCORE-2
        after = (setup.scores[0] + deltas[0], setup.scores[1] + deltas[1])
        ends = setup.number >= rules.rounds or (rules.bust_ends and min(after) <= 0)
        notes = (("kusurigui.0", self.eaten[0]), ("kusurigui.1", self.eaten[1]),
                 ("payments.0", paid[0]), ("payments.1", paid[1]),
                 ("settlement", abs(settle[0])), ("left_on_pile", len(self.pile)))
        return RoundResult("played-out", deltas, winner, (yaku[0], yaku[1]), None, True, ends, nxt, notes)

    def state(self) -> KusuriGuiState:
        hands, caps = self.hands, self.captured
        return new(KusuriGuiState, rules=self.rules, setup=self.setup, hands=(tuple(hands[0]), tuple(hands[1])),
                   pile=tuple(self.pile), stock=self.stock[self.top:],
                   captured=(tuple(sorted(caps[0], key=CARD_ORDER)), tuple(sorted(caps[1], key=CARD_ORDER))),
                   facedown=self.facedown, willows=self.willows, turn=self.turn, phase=self.phase, plays=self.plays,
                   redeals=self.redeals, bait=self.bait, paid=(self.paid[0], self.paid[1]),
                   eaten=(self.eaten[0], self.eaten[1]), end=self.end)


#: ``play c`` and ``discard c`` by card id, built once.
_PLAY = {i: action(PLAY, (i,)) for i in _CARD}
_DISCARD = {i: action(DISCARD, (i,)) for i in _CARD}

GAME = KusuriGui()
