"""Koi-Koi (こいこい), the two-player fishing game of koi-koi ("come on") and shōbu ("stop").

Rules, citations and decisions: :mod:`hanafuda_spec.games.koikoi`. The oya is the dealer,
the ko the other player; seat numbers are 0 and 1.

>>> from hanafuda.engine import Match
>>> from hanafuda_spec.cards import card
>>> m = Match.start(GAME, GAME.rules(), seed=1)
>>> len(m.state.table.hands[0]), len(m.state.table.field), len(m.state.table.stock)
(8, 8, 24)
>>> GAME.score(GAME.rules(), [card(i) for i in (10, 30, 80, 110, 120)]).yaku_total
15
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hanafuda_spec.cards import HANAFUDA, BaseCard, Card, Deck
from hanafuda_spec.games import koikoi as spec
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
from hanafuda.fishing import PLAY, TAKE, Table, capture, explain_hand_play, hand_plays, matches, take_choices

__all__ = ["GAME", "KoiKoi", "KoiKoiRules", "KoiKoiState", "Phase"]

KOIKOI = "koikoi"
STOP = "stop"
DRAW = "draw"


class Phase(enum.Enum):
    PLAY = "play"  #: the player to move plays a hand card
    PLAY_SECOND = "play-second"  #: a second hand card (turn=draw-first, or turn=keep-unmatched)
    DRAW = "draw"  #: both hands are empty: turn the draw pile's top card (after_hands=draw-pile)
    TAKE = "take"  #: the drawn card matches two field cards: choose one
    CALL = "call"  #: a new or improved yaku: koi-koi or shōbu
    OVER = "over"


@dataclass(frozen=True)
class KoiKoiRules:
    """Typed Koi-Koi rules, built from resolved option values (see the catalogue's options)."""

    values: tuple[tuple[str, str], ...]

    def __getitem__(self, key: str) -> str:
        return dict(self.values)[key]

    @functools.cached_property
    def opt(self) -> Mapping[str, str]:
        return dict(self.values)

    @functools.cached_property
    def _yaku_tables(self) -> dict[tuple[int | None, str | None], tuple[_Block, ...]]:
        return {}

    def yaku_table(self, month: int | None, sake: str | None) -> tuple[_Block, ...]:
        """The compiled yaku table for a month and sake-cup reading, built once per rules object
        (so that scoring never hashes the long option tuple)."""
        key = (month, sake)
        found = self._yaku_tables.get(key)
        if found is None:
            found = self._yaku_tables[key] = _table(self.values, month, sake)
        return found

    @property
    def hand_size(self) -> int:
        return int(self.opt["hand_size"])


@dataclass(frozen=True)
class KoiKoiState:
    """One position of a Koi-Koi round."""

    rules: KoiKoiRules
    setup: RoundSetup
    table: Table[Card]
    turn: int
    phase: Phase
    pending: Card | None = None
    calls: tuple[int, int] = (0, 0)
    seen: tuple[tuple[ScoredYaku, ...], tuple[ScoredYaku, ...]] = ((), ())
    last_improver: int | None = None
    field_brights: int = 0
    end: str = ""
    winner: int | None = None
    teyaku_points: tuple[int, int] = (0, 0)
    lightning_wild: bool = False

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    @property
    def month(self) -> int:
        return (self.setup.number - 1) % 12 + 1


# -- scoring -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A yaku row as bit masks (same meaning as :class:`YakuDef.value`)."""

    yid: str
    group: str | None
    points: int
    pool: int
    need: int
    required: int
    forbidden: int
    extra_pool: int
    extra_from: int
    extra: int
    doubled: int

    def value(self, pile: int) -> int:
        if pile & self.required != self.required or pile & self.forbidden:
            return 0
        held = pile & self.pool
        if held.bit_count() + (held & self.doubled).bit_count() < self.need:
            return 0
        if not self.extra_pool:
            return self.points
        ex = pile & self.extra_pool
        return self.points + self.extra * max(0, ex.bit_count() + (ex & self.doubled).bit_count() - self.extra_from)


#: Every hanafuda card by id (``card(id)`` parses text; this is a plain table for the hot paths).
_CARD: dict[int, Card] = {c.id: c for c in HANAFUDA.cards if isinstance(c, Card)}


def _mask(ids: frozenset[int]) -> int:
    m = 0
    for i in ids:
        m |= _CARD[i].mask
    return m


def _compile(y: YakuDef) -> _Compiled:
    return _Compiled(y.id, y.group, y.points, _mask(y.pool), y.need, _mask(y.required), _mask(y.forbidden),
                     _mask(y.extra_pool), y.extra_from, y.extra, _mask(y.doubled))


@dataclass(frozen=True, slots=True)
class _Block:
    """Rows scored together: a run of rows of one group, or one ungrouped row. ``pool`` and
    ``doubled`` are the union of the rows' and ``need`` the least of theirs, so that a pile with
    too few of the block's cards skips every row of the block at once."""

    pool: int
    doubled: int
    need: int
    rows: tuple[tuple[int, _Compiled], ...]  #: (index in the table, row)


def _blocks(rows: tuple[_Compiled, ...]) -> tuple[_Block, ...]:
    runs: list[list[tuple[int, _Compiled]]] = []
    for i, y in enumerate(rows):
        if y.group is not None and runs and runs[-1][0][1].group == y.group:
            runs[-1].append((i, y))
        else:
            runs.append([(i, y)])
    out = []
    for run in runs:
        pool = doubled = 0
        for _, y in run:
            pool |= y.pool
            doubled |= y.doubled
        out.append(_Block(pool, doubled, min(y.need for _, y in run), tuple(run)))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _table(values: tuple[tuple[str, str], ...], month: int | None, sake: str | None) -> tuple[_Block, ...]:
    return _blocks(tuple(_compile(y) for y in spec.yaku_table(dict(values), month, sake)))


_WILLOW = _mask(frozenset({110, 111, 112, 113}))
_PAULOWNIA = _mask(frozenset({120, 121, 122, 123}))
_VIEWING = ("flower-viewing", "moon-viewing")


#: ``ScoredYaku(id, points)``, built once and then shared (it is immutable and compares by value).
_scored = functools.cache(ScoredYaku)


def _score_with(table: tuple[_Block, ...], pile: int) -> list[ScoredYaku]:
    """The yaku of ``pile`` in table order, keeping the best of each group (the first on a tie)."""
    best: dict[str, tuple[int, int, str]] = {}
    chosen: list[tuple[int, int, str]] = []
    for block in table:
        held = pile & block.pool
        if held.bit_count() + (held & block.doubled).bit_count() < block.need:
            continue  # too few of the block's cards for any of its rows: most blocks stop here
        for i, y in block.rows:
            v = y.value(pile)
            if v <= 0:
                continue
            if y.group is None:
                chosen.append((i, v, y.yid))
            else:
                cur = best.get(y.group)
                if cur is None or v > cur[1]:
                    best[y.group] = (i, v, y.yid)
    chosen.extend(best.values())
    chosen.sort()
    return [_scored(yid, v) for _, v, yid in chosen]


def score_mask(rules: KoiKoiRules, pile: int, month: int | None, field: int = 0) -> tuple[ScoredYaku, ...]:
    """The yaku of a capture pile given as a bit mask, after every scoring option
    (KK-YAKU-1…15; viewing, sake_cup and yaku_count options)."""
    opt = rules.opt
    if opt["sake_cup"] == "either":
        a = _score_with(rules.yaku_table(month, "animal"), pile)
        c = _score_with(rules.yaku_table(month, "chaff"), pile)
        a, c = _filter(opt, a, field), _filter(opt, c, field)
        found = a if sum(y.points for y in a) >= sum(y.points for y in c) else c
    else:
        found = _filter(opt, _score_with(rules.yaku_table(month, None), pile), field)
    if opt["yaku_count"] == "best" and found:
        top = max(found, key=lambda y: y.points)
        found = [top]
    return tuple(found)


def _filter(opt: Mapping[str, str], found: list[ScoredYaku], field: int) -> list[ScoredYaku]:
    mode = opt["viewing"]
    if mode == "need-other" and not any(y.id not in _VIEWING for y in found):
        return [y for y in found if y.id not in _VIEWING]
    if mode == "weather":
        if field & _WILLOW:
            found = [y for y in found if y.id != "flower-viewing"]
        if field & _PAULOWNIA:
            found = [y for y in found if y.id != "moon-viewing"]
    return found


def _pile_mask(cards: Sequence[BaseCard]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.bit  # c.mask, without the property call
    return m


# -- lucky hands ---------------------------------------------------------------------------


LIGHTNING = 113


def _non_willow(field: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(f for f in field if f.suit != 11)


def _lightning_wild(rules: KoiKoiRules, field: Sequence[Card]) -> bool:
    """KK-WILD-5: whether the Lightning is wild this round (always, or only if Susuki was dealt to the table)."""
    mode = rules.opt["lightning"]
    return mode == "wild" or (mode == "wild-if-susuki" and any(c.suit == 8 for c in field))


def _teshi(cards: Sequence[BaseCard]) -> bool:
    return 4 in Counter([c.suit for c in cards]).values()


def _kuttsuki(cards: Sequence[BaseCard]) -> bool:
    """At least four pairs of a month; four of a month counts as two pairs (decision KK-16)."""
    return sum([n // 2 for n in Counter([c.suit for c in cards]).values()]) >= 4


class KoiKoi(Game[KoiKoiState, KoiKoiRules]):
    """Koi-Koi under the FudaWiki rules and their variations."""

    spec = spec.SPEC

    def make_rules(self, values: Mapping[str, str]) -> KoiKoiRules:
        return KoiKoiRules(tuple(sorted(values.items())))

    def deck(self, rules: KoiKoiRules) -> Deck:
        return HANAFUDA

    def seats(self, rules: KoiKoiRules) -> int:
        return 2

    # -- the deal ----------------------------------------------------------------------
    def start_round(self, rules: KoiKoiRules, order: Sequence[BaseCard], setup: RoundSetup) -> KoiKoiState:
        cards = [c for c in order if isinstance(c, Card)]
        if len(cards) != 48:
            raise ValueError("Koi-Koi deals from the 48-card hanafuda deck")
        dealer = setup.dealer
        ko = 1 - dealer
        size, packet = rules.hand_size, int(rules["packets"])
        want = {ko: size, -1: 8, dealer: size}
        got: dict[int, list[Card]] = {ko: [], -1: [], dealer: []}
        i = 0
        while any(len(got[k]) < want[k] for k in want):  # KK-DEAL-1: opponent, table, dealer
            for who in (ko, -1, dealer):
                n = min(packet, want[who] - len(got[who]))
                got[who].extend(cards[i:i + n])
                i += n
        stock = tuple(cards[i:])
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[ko] = tuple(sorted(got[ko], key=CARD_ORDER))
        hands[dealer] = tuple(sorted(got[dealer], key=CARD_ORDER))
        table = Table(tuple(hands), tuple(sorted(got[-1], key=CARD_ORDER)), stock, ((), ()))
        state = KoiKoiState(rules, setup, table, dealer, Phase.PLAY,
                            field_brights=sum(1 for c in table.field if c.id in spec.BRIGHTS),
                            lightning_wild=_lightning_wild(rules, table.field))
        state = self._check_deal(state)
        return self._begin_turn(state) if state.phase is Phase.PLAY else state

    def _check_deal(self, s: KoiKoiState) -> KoiKoiState:
        opt = s.rules.opt
        field = s.table.field
        mode = opt["field_teyaku"]
        four, pairs = _teshi(field), _kuttsuki(field)
        if (mode == "misdeal" and (four or pairs)) or (mode == "four-kind-only" and four):
            return evolve(s, phase=Phase.OVER, end="misdeal")  # KK-DEAL-3
        if mode == "dealer-wins" and four:
            return evolve(s, phase=Phase.OVER, end="field-teyaku", winner=s.dealer,
                           teyaku_points=(6, 0) if s.dealer == 0 else (0, 6))
        if mode == "dealer-captures":
            while _teshi(s.table.field):
                if len(s.table.stock) < 4:  # KK-DEAL-8: the draw pile cannot replace the four cards
                    return evolve(s, phase=Phase.OVER, end="misdeal")
                month = Counter(c.suit for c in s.table.field).most_common(1)[0][0]
                quad = tuple(c for c in s.table.field if c.suit == month)
                rest = [c for c in s.table.field if c.suit != month]
                new = s.table.stock[:4]
                t = evolve(s.table, field=tuple(sorted(rest + list(new), key=CARD_ORDER)), stock=s.table.stock[4:])
                s = evolve(s, table=t.add_captured(s.dealer, quad))
        hand_mode = opt["teyaku"]
        if hand_mode == "off":
            return s
        pts = []
        for h in s.table.hands:
            a, b = _teshi(h), _kuttsuki(h)
            pts.append(int(opt["teyaku_both"]) if a and b else 6 if a or b else 0)
        if not any(pts):
            return s
        if hand_mode == "misdeal":
            return evolve(s, phase=Phase.OVER, end="misdeal")
        if all(pts):
            return evolve(s, phase=Phase.OVER, end="teyaku-draw")
        w = 0 if pts[0] else 1  # KK-DEAL-4; points not multiplied (KK-DEAL-6)
        return evolve(s, phase=Phase.OVER, end="teyaku", winner=w, teyaku_points=(pts[0], pts[1]))

    # -- play ----------------------------------------------------------------------------
    def to_move(self, state: KoiKoiState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: KoiKoiState) -> tuple[Action, ...]:
        if state.phase is Phase.DRAW:
            return (action(DRAW),)
        if state.phase in (Phase.PLAY, Phase.PLAY_SECOND):
            must = state.rules.opt["discard"] == "must-capture"
            hand, field = state.table.hands[state.turn], state.table.field
            plays = hand_plays(hand, field, must)
            if state.lightning_wild and any(c.id == LIGHTNING for c in hand):  # KK-WILD-1
                wild = {action(PLAY, (LIGHTNING, f.id)) for f in _non_willow(field)}
                plays = sorted(set(plays) | wild, key=ACTION_ORDER)
                if must and wild:
                    plays = [a for a in plays if a in wild or matches(field, _CARD[a.cards[0]])]
            return tuple(plays)
        if state.phase is Phase.TAKE:
            assert state.pending is not None
            if state.lightning_wild and state.pending.id == LIGHTNING:  # KK-WILD-3
                return tuple(action(TAKE, (f.id,)) for f in _non_willow(state.table.field))
            return tuple(take_choices(state.table.field, state.pending))
        if state.phase is Phase.CALL:
            return (action(KOIKOI), action(STOP))
        return ()

    def do(self, state: KoiKoiState, action: Action) -> KoiKoiState:
        t = state.table
        p = state.turn
        mode = state.rules.opt["turn"]
        if action.kind == PLAY:
            c = _CARD[action.cards[0]]
            target = action.cards[1] if len(action.cards) > 1 else None
            hand = tuple(x for x in t.hands[p] if x.id != c.id)
            got: tuple[Card, ...]
            if state.lightning_wild and c.id == LIGHTNING and target is not None and _CARD[target].suit != 11:
                field, got = tuple(f for f in t.field if f.id != target), (c, _CARD[target])  # KK-WILD-1
            else:
                field, got = capture(t.field, c, target)
            t = evolve(t.with_hand(p, hand), field=field).add_captured(p, got)
            if state.phase is Phase.PLAY_SECOND:  # the turn's second hand play ends it (KK-TURN-6, KK-TURN-7)
                return self._end_turn(evolve(state, table=t))
            if mode == "draw-first":
                if not hand:  # nothing left for a second play (only when the draw pile ran dry)
                    return self._end_turn(evolve(state, table=t))
                return evolve(state, table=t, phase=Phase.PLAY_SECOND)  # KK-TURN-6
            if not t.stock:  # only after dealer-captures with 10-card hands (KK-TURN-5)
                return self._end_turn(evolve(state, table=t))
            drawn, t = t.stock[0], evolve(t, stock=t.stock[1:])  # KK-TURN-2
            return self._play_drawn(state, t, drawn, keep=mode == "keep-unmatched")
        if action.kind == DRAW:  # KK-END-5: a draw-only turn once both hands are empty
            drawn, t = t.stock[0], evolve(t, stock=t.stock[1:])
            return self._play_drawn(state, t, drawn, keep=False)
        if action.kind == TAKE:
            assert state.pending is not None
            if state.lightning_wild and state.pending.id == LIGHTNING:  # KK-WILD-3
                taken = _CARD[action.cards[0]]
                field, got = tuple(f for f in t.field if f.id != taken.id), (state.pending, taken)
            else:
                field, got = capture(t.field, state.pending, action.cards[0])
            t = evolve(t, field=field).add_captured(p, got)
            return self._end_turn(evolve(state, table=t, pending=None))
        if action.kind == KOIKOI:
            calls = (state.calls[0] + (p == 0), state.calls[1] + (p == 1))
            return self._pass(evolve(state, calls=calls))
        if action.kind == STOP:
            return evolve(state, phase=Phase.OVER, end="shobu", winner=p)
        raise AssertionError(action)

    def _play_drawn(self, state: KoiKoiState, t: Table[Card], drawn: Card, keep: bool) -> KoiKoiState:
        """Play the card turned from the draw pile (KK-CAP-6), with the wild Lightning rules
        (KK-WILD-2…4) and turn=keep-unmatched (KK-TURN-7)."""
        p = state.turn
        if state.lightning_wild:
            lightning = next((f for f in t.field if f.id == LIGHTNING), None)
            if drawn.id == LIGHTNING:
                if not t.stock:  # KK-WILD-4: the last card of the draw pile takes everything left
                    everything = (drawn, *t.field)
                    return self._end_turn(evolve(state, table=evolve(t, field=()).add_captured(p, everything)))
                targets = _non_willow(t.field)
                if len(targets) > 1:  # KK-WILD-3: the player chooses which card it takes
                    return evolve(state, table=t, phase=Phase.TAKE, pending=drawn)
                if len(targets) == 1:
                    field = tuple(f for f in t.field if f.id != targets[0].id)
                    pair = (drawn, targets[0])
                    return self._end_turn(evolve(state, table=evolve(t, field=field).add_captured(p, pair)))
                if keep:  # nothing it may take: an unmatched drawn card (KK-TURN-7)
                    return evolve(state, table=t.with_hand(p, (*t.hands[p], drawn)), phase=Phase.PLAY_SECOND)
                return self._end_turn(evolve(state, table=evolve(t, field=tuple(sorted((*t.field, drawn))))))
            if lightning is not None and drawn.suit != 11:  # KK-WILD-2: the first non-Willow drawn takes it
                field = tuple(f for f in t.field if f.id != LIGHTNING)
                pair = (drawn, lightning)
                return self._end_turn(evolve(state, table=evolve(t, field=field).add_captured(p, pair)))
        if keep and not matches(t.field, drawn):  # KK-TURN-7
            return evolve(state, table=t.with_hand(p, (*t.hands[p], drawn)), phase=Phase.PLAY_SECOND)
        if len(matches(t.field, drawn)) == 2:
            return evolve(state, table=t, phase=Phase.TAKE, pending=drawn)
        field, got = capture(t.field, drawn, None)  # KK-CAP-6
        return self._end_turn(evolve(state, table=evolve(t, field=field).add_captured(p, got)))

    def _yaku_now(self, state: KoiKoiState, seat: int) -> tuple[ScoredYaku, ...]:
        weather = state.rules.opt["viewing"] == "weather"  # only the weather rule looks at the field
        return score_mask(state.rules, _pile_mask(state.table.captured[seat]), self._month(state),
                          _pile_mask(state.table.field) if weather else 0)

    def _month(self, state: KoiKoiState) -> int | None:
        return state.month if state.rules.opt["month_cards"] == "on" else None

    def _end_turn(self, state: KoiKoiState) -> KoiKoiState:
        """KK-TURN-3: after both plays, a new or improved yaku gives the koi-koi/shōbu choice."""
        p = state.turn
        now = self._yaku_now(state, p)
        before = {y.id: y.points for y in state.seen[p]}
        new = any(y.id not in before for y in now)
        improved = new or any(y.points > before[y.id] for y in now if y.id in before)
        seen = (now, state.seen[1]) if p == 0 else (state.seen[0], now)
        last_improver = p if improved else state.last_improver
        state = evolve(state, seen=seen, phase=Phase.PLAY, pending=None, last_improver=last_improver)
        decides = new if state.rules.opt["koikoi_on"] == "new" else improved
        if decides:
            if sum(y.points for y in now) < int(state.rules.opt["koikoi_min"]):
                return evolve(state, phase=Phase.OVER, end="shobu", winner=p)  # KK-TURN-4
            return evolve(state, phase=Phase.CALL)
        return self._pass(state)

    def _pass(self, state: KoiKoiState) -> KoiKoiState:
        nxt = 1 - state.turn
        t = state.table
        if not t.hands[nxt]:
            if state.rules.opt["after_hands"] == "draw-pile" and not t.hands[state.turn] and t.stock:
                return evolve(state, turn=nxt, phase=Phase.DRAW)  # KK-END-5
            return evolve(state, phase=Phase.OVER, end="exhaustive")  # KK-END-2
        return self._begin_turn(evolve(state, turn=nxt, phase=Phase.PLAY))

    def _begin_turn(self, state: KoiKoiState) -> KoiKoiState:
        """KK-TURN-6: with turn=draw-first the turn starts by drawing the top card into the hand."""
        t = state.table
        if state.rules.opt["turn"] != "draw-first" or not t.stock:
            return state
        t = evolve(t.with_hand(state.turn, (*t.hands[state.turn], t.stock[0])), stock=t.stock[1:])
        return evolve(state, table=t)

    def explain_illegal(self, state: KoiKoiState, action: Action) -> tuple[str, str]:
        p = state.turn
        if action.kind == PLAY:
            if state.phase not in (Phase.PLAY, Phase.PLAY_SECOND):
                return "KK-TURN-2", f"seat {p} cannot play a hand card now (phase {state.phase.value})"
            found = explain_hand_play(state.table.hands[p], state.table.field, action, p,
                                      ("KK-TURN-2", "KK-CAP-2", "KK-CAP-1"))
            return found or ("KK-CAP-5", f"card {action.cards[0]} captures nothing while a capture is possible "
                                         "(discard=must-capture)")
        if action.kind == TAKE:
            if state.phase is not Phase.TAKE:
                return "KK-CAP-6", "no drawn card is waiting for a choice of target"
            return "KK-CAP-2", f"{action.cards} is not one of the two field cards the drawn card matches"
        if action.kind == DRAW:
            return "KK-END-5", "a draw-only turn comes only once both hands are empty (after_hands=draw-pile)"
        if action.kind in (KOIKOI, STOP):
            return "KK-TURN-3", "koi-koi and shōbu are called only after forming a new or improved yaku"
        return "KK-TURN-2", f"unknown action kind {action.kind!r} for Koi-Koi"

    # -- results -------------------------------------------------------------------------
    def round_result(self, state: KoiKoiState) -> RoundResult:
        if state.phase is not Phase.OVER:
            raise ValueError("the round is not over")
        opt = state.rules.opt
        d = state.dealer
        zero = opt["zero_sum"] == "on"
        yaku = (self._yaku_now(state, 0), self._yaku_now(state, 1))
        if state.end == "misdeal":
            return RoundResult("misdeal", (0, 0), counts=False, next_dealer=d)
        if state.end in ("teyaku", "field-teyaku"):
            w = state.winner
            assert w is not None
            pts = max(state.teyaku_points)
            return RoundResult(state.end, _deltas(w, pts, zero), w, next_dealer=w)
        if state.end == "shobu" or (state.end == "exhaustive" and opt["exhaustive"] == "last-yaku"
                                    and state.last_improver is not None):
            w = state.winner if state.end == "shobu" else state.last_improver
            assert w is not None
            pts, notes = self._shobu_points(state, w, yaku)
            return RoundResult(state.end, _deltas(w, pts, zero), w, yaku, next_dealer=w, notes=notes)
        # exhaustive draw or both players holding lucky hands: a drawn round
        priv = int(opt["oyaken"])
        nxt = d if opt["draw_dealer"] == "stay" else 1 - d
        return RoundResult(state.end, _deltas(d, priv, zero), None, yaku, next_dealer=nxt,
                           notes=(("oyaken", priv),))

    def _shobu_points(self, state: KoiKoiState, w: int,
                      yaku: tuple[tuple[ScoredYaku, ...], ...]) -> tuple[int, tuple[tuple[str, int], ...]]:
        opt = state.rules.opt
        base = sum(y.points for y in yaku[w])
        if opt["yaku_count"] == "both-players":
            base += sum(y.points for y in yaku[1 - w])
        seven = 2 if opt["seven_double"] == "on" and base >= 7 else 1
        own, other = state.calls[w], state.calls[1 - w]
        mode = opt["multiplier"]
        koi = {"opponent": 2 if other else 1, "self": 2 if own else 1, "anyone": 2 if own or other else 1,
               "count": other + 1, "none": 1}[mode]
        n = state.field_brights
        fm = {"off": 1, "double": 2 if n else 1, "count": n + 1}[opt["field_multiplier"]]
        return base * seven * koi * fm, (("base", base), ("seven", seven), ("koikoi", koi), ("field", fm))

    def snapshot(self, state: KoiKoiState, info: MatchInfo | None = None) -> Snapshot:
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
        return Snapshot("koikoi", tuple(zones), self.to_move(state), state.phase.value, state.dealer,
                        state.setup.number, scores)

    def score(self, rules: KoiKoiRules, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        m = month if rules.opt["month_cards"] == "on" else None
        return PileScore(score_mask(rules, _pile_mask(cards), m), None)

    def yaku_names(self, rules: KoiKoiRules) -> Mapping[str, str]:
        return {y.id: y.name for y in spec.yaku_table(rules.opt, 1)}

    # -- the match -----------------------------------------------------------------------
    def new_match(self, rules: KoiKoiRules, first_dealer: int = 0) -> MatchInfo:
        return MatchInfo((0, 0), first_dealer)

    def seats_in_play(self, rules: KoiKoiRules, info: MatchInfo) -> tuple[int, ...]:
        return (0, 1)

    def settle(self, rules: KoiKoiRules, info: MatchInfo, result: RoundResult) -> MatchInfo:
        scores = (info.scores[0] + result.deltas[0], info.scores[1] + result.deltas[1])
        played = info.rounds_played + (1 if result.counts else 0)
        dealer = result.next_dealer if result.next_dealer is not None else info.dealer
        length = rules.opt["length"]
        if length == "to-50":
            over, reason = max(scores) >= 50, "target"  # KK-GAME-2
        else:
            over, reason = played >= int(length), "rounds"  # KK-GAME-1
        winners: tuple[int, ...] = ()
        if over:
            top = max(scores)
            winners = tuple(i for i in (0, 1) if scores[i] == top)
        return MatchInfo(scores, dealer, played, info.deals + 1, over, winners, reason if over else "",
                         (*info.history, result))


def _deltas(winner: int, pts: int, zero_sum: bool) -> tuple[int, int]:
    loser = -pts if zero_sum else 0
    return (pts, loser) if winner == 0 else (loser, pts)


GAME = KoiKoi()
