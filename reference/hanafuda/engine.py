"""The engine contract every game implements, and the match layer on top of it.

A game is a :class:`Game`: immutable round states, :meth:`Game.legal_actions` (sorted,
unique; every choice explicit), :meth:`Game.apply` (which rejects an illegal action with an
:class:`IllegalActionError` naming the rule id broken), a terminal test, a round result, a
neutral :class:`~hanafuda_spec.neutral.Snapshot`, a pile scorer and a settlement step that
carries a :class:`MatchInfo` (scores or chips, dealer, rounds) from round to round.

Seats are numbered from 0. Turn order is seat order going *to the right* of the dealer,
``(dealer + 1) % seats`` next — "anticlockwise" in the Hana-Awase sources. A *side* owns a capture
pile: a seat, or a team in Musashino-Bana's four-player game.

The match layer (:class:`Match`) shuffles with the documented generator of
:mod:`hanafuda_spec.shuffle`: one :class:`~hanafuda_spec.shuffle.SplitMix64` seeded with the
match seed shuffles the canonical deck for every deal, misdeals included.
"""

from __future__ import annotations

import enum
import functools
import operator
import re
import struct
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar

from hanafuda_spec.cards import BaseCard, Deck
from hanafuda_spec.catalogue import GameSpec
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.shuffle import SplitMix64, shuffled
from hanafuda_spec.yaku import ScoredYaku

from hanafuda._construct import HELD, LINK, SOURCE, Held, dict_init, evolve, filled, new, pair_builder, replayed

__all__ = [
    "ACTION_ORDER",
    "CARD_ORDER",
    "Action",
    "ActionSyntaxError",
    "FastRound",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "Match",
    "MatchInfo",
    "PileScore",
    "RoundGame",
    "RoundObserver",
    "RoundResult",
    "RoundSetup",
    "RulesOptions",
    "action",
    "evolve",
    "fast_shuffled",
    "pile_score",
    "play_match",
    "settled",
]


class IllegalActionError(ValueError):
    """An action that is not legal in the position; ``rule_id`` names the rule it breaks."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{message} [{rule_id}]")
        self.rule_id = rule_id
        self.reason = message


class ActionSyntaxError(ValueError):
    """Text that is not an action."""


class GameOverError(ValueError):
    """An action given after the round or match has ended."""


_TOKEN = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True, order=True)
class Action:
    """A player's choice: a kind, the card ids involved, and a label for declarations.

    Text form: the kind, then the card ids, then the label, separated by spaces::

        play 31        play card 31 (no match, one match, or three matches)
        play 31 30     play card 31 and capture 30 (when two table cards match)
        take 30        capture 30 with the drawn card (when two table cards match it)
        koikoi / stop  Koi-Koi's calls
        declare instant-victory

    >>> a = Action.parse("play 31 30")
    >>> a, str(a)
    (Action(kind='play', cards=(31, 30), label=''), 'play 31 30')
    >>> sorted([Action.parse("stop"), Action.parse("koikoi")])[0].kind
    'koikoi'
    """

    kind: str
    cards: tuple[int, ...] = ()
    label: str = ""

    def __eq__(self, other: object) -> bool:
        # the dataclass comparison, without building two tuples: legality tests compare an action
        # with each legal one in turn, so this is on the hot path of validation
        if self is other:
            return True
        if not isinstance(other, Action) or other.__class__ is not self.__class__:
            return NotImplemented
        return self.kind == other.kind and self.cards == other.cards and self.label == other.label

    def __hash__(self) -> int:
        return hash((self.kind, self.cards, self.label))

    def __str__(self) -> str:
        parts = [self.kind, *(str(c) for c in self.cards)]
        if self.label:
            parts.append(self.label)
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Action:
        tokens = text.split()
        if not tokens or not _TOKEN.match(tokens[0]):
            raise ActionSyntaxError(f"not an action: {text!r}")
        cards: list[int] = []
        label = ""
        for tok in tokens[1:]:
            if tok.isdigit():
                if label:
                    raise ActionSyntaxError(f"not an action: {text!r} (card after label)")
                cards.append(int(tok))
            elif _TOKEN.match(tok) and not label:
                label = tok
            else:
                raise ActionSyntaxError(f"not an action: {text!r}")
        return cls(tokens[0], tuple(cards), label)


#: Sort key giving the order of :class:`Action` (kind, then cards, then label) without calling the
#: dataclass comparison methods: ``sorted(actions, key=ACTION_ORDER) == sorted(actions)``.
ACTION_ORDER = attrgetter("kind", "cards", "label")

#: Sort key giving the order of cards (they compare by id alone): ``sorted(cards, key=CARD_ORDER)``.
CARD_ORDER = attrgetter("id")
#: A card's id (``CARD_ID(c) == c.id``), for ``map``.
CARD_ID = CARD_ORDER


def action(kind: str, cards: tuple[int, ...] = (), label: str = "") -> Action:
    """``Action(kind, cards, label)``, built once and then shared. Actions are immutable and compare
    by value, so sharing them changes nothing but the time spent building them on every turn, and
    lets a legality test find an action by identity first. (The cache is bounded: a record under
    validation may name any number of distinct actions.)"""
    return _shared_action(kind, cards, label)  # one cache key however the arguments are given


@functools.lru_cache(maxsize=16384)
def _shared_action(kind: str, cards: tuple[int, ...], label: str) -> Action:
    return Action(kind, cards, label)


@dataclass(frozen=True)
class PileScore:
    """What a capture pile is worth: its yaku (after exclusivity) and card points."""

    yaku: tuple[ScoredYaku, ...]
    card_points: int | None = None

    @property
    def yaku_total(self) -> int:
        return sum(y.points for y in self.yaku)


#: ``pile_score(yaku, card_points)`` is ``PileScore(yaku, card_points)`` without the frozen dataclass's
#: ``__init__`` (the scorers' hot path; :mod:`hanafuda._construct`).
pile_score: Callable[[tuple[ScoredYaku, ...], int | None], PileScore] = pair_builder(PileScore, "yaku", "card_points")


@dict_init
@dataclass(frozen=True)
class RoundSetup:
    """What a round needs from the match: its number, dealer, seats in play and the scores."""

    number: int
    dealer: int
    seats_in_play: tuple[int, ...]
    scores: tuple[int, ...]


@dict_init
@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what it changed.

    ``deltas`` is the change to each seat's score or chips. ``counts`` is False for a misdeal:
    the deal is void, the same dealer deals again and no round is used up.
    """

    reason: str
    deltas: tuple[int, ...]
    winner: int | None = None
    yaku: tuple[tuple[ScoredYaku, ...], ...] = ()
    card_points: tuple[int, ...] | None = None
    counts: bool = True
    ends_game: bool = False
    next_dealer: int | None = None
    notes: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "reason": self.reason,
            "deltas": list(self.deltas),
            "winner": self.winner,
            "yaku": [[{"id": y.id, "points": y.points} for y in side] for side in self.yaku],
            "card_points": None if self.card_points is None else list(self.card_points),
            "counts": self.counts,
            "ends_game": self.ends_game,
            "next_dealer": self.next_dealer,
            "notes": dict(self.notes),
        }


@dict_init
@dataclass(frozen=True)
class MatchInfo:
    """The state of a match between rounds."""

    scores: tuple[int, ...]
    dealer: int
    rounds_played: int = 0
    deals: int = 0
    over: bool = False
    winners: tuple[int, ...] = ()
    end_reason: str = ""
    history: tuple[RoundResult, ...] = field(default=(), repr=False)


S = TypeVar("S")
R = TypeVar("R")
T = TypeVar("T")
E = TypeVar("E", bound=enum.StrEnum)


class RulesOptions:
    """What every game's rules object shares: its resolved option values (``values``, sorted pairs, as
    records and the command line spell them) and their typed reading, :meth:`value`, as the enums of
    its game's ``catalogue`` (``rules.value(Multiplier) is Multiplier.NONE``), each converted once per rules object."""

    catalogue: ClassVar[GameSpec]
    values: tuple[tuple[str, str], ...]

    @functools.cached_property
    def opt(self) -> Mapping[str, str]:
        """The option values by key, as strings."""
        return dict(self.values)

    @functools.cached_property
    def _typed(self) -> dict[type[enum.StrEnum], enum.StrEnum]:
        return {}

    def __getstate__(self) -> dict[str, object]:
        """What a pickle keeps: the rules' own fields, not the readings cached from them (compiled
        scorers are closures, rebuilt on first use after unpickling)."""
        cls = type(self)
        return {k: v for k, v in self.__dict__.items()
                if not isinstance(getattr(cls, k, None), functools.cached_property)}

    def value(self, kind: type[E]) -> E:
        """The value of the option whose values are the enum ``kind`` (see :meth:`GameSpec.value
        <hanafuda_spec.catalogue.GameSpec.value>`)."""
        try:  # (read on every round: the lookup alone once the value is known)
            return self._typed[kind]  # type: ignore[return-value]  # (each kind's value is a member of it)
        except KeyError:
            found = self._typed[kind] = self.catalogue.value(self.opt, kind)
            return found


def settled(info: MatchInfo, result: RoundResult, over: bool, reason: str,
            winners: tuple[int, ...] | None = None) -> MatchInfo:
    """The match after ``result`` is settled: its deltas added to the scores, a round used up unless the
    deal was void, the next dealer, and the game's verdict (``over``, the end ``reason``). The winners, when
    over and not given, are the seats with the top score.

    >>> info = settled(MatchInfo((0, 0), 0), RoundResult("x", (5, -5), next_dealer=1), False, "")
    >>> info.scores, info.dealer, info.rounds_played, info.deals
    ((5, -5), 1, 1, 1)
    """
    before, deltas = info.scores, result.deltas
    if len(deltas) != len(before):
        raise ValueError(f"a round result of {len(deltas)} deltas for a match of {len(before)} scores")
    scores = tuple(map(operator.add, before, deltas))
    if over and winners is None:
        top = max(scores)
        winners = tuple([i for i, v in enumerate(scores) if v == top])
    return MatchInfo(scores, info.dealer if result.next_dealer is None else result.next_dealer,
                     info.rounds_played + (1 if result.counts else 0), info.deals + 1, over,
                     (winners or ()) if over else (), reason if over else "", (*info.history, result))


_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
#: n -> the rejection limit of ``SplitMix64.below(n)``, for the deck sizes shuffled.
_LIMITS = tuple((1 << 64) - ((1 << 64) % n) if n else 0 for n in range(65))


def fast_shuffled(items: Sequence[T], rng: SplitMix64) -> list[T]:
    """:func:`hanafuda_spec.shuffle.shuffled` (Fisher–Yates driven by ``rng.below``), computed faster:
    the documented shuffle, the same output and the same generator state after it
    (``tests/test_fast_paths.py`` checks both against the spec's). For 2 to 64 items the generator's
    outputs are computed all at once (``_outputs``); where one of them would be rejected by
    ``below`` (about once in 3·10^17 shuffles) the steps are taken one by one as the spec takes them."""
    n = len(items)
    if n >= len(_LIMITS):
        return shuffled(items, rng)
    if n < 2:
        return list(items)
    ones, lanes_mask, steps, unpack, positions, sizes = _lanes(n)
    s0 = rng.state
    data = _output_bytes(s0, ones, lanes_mask, steps, unpack.size)
    if _UNSAFE in data:  # a rejection is possible: the one-by-one steps
        return _stepped(items, rng)
    out = list(items)
    for i, j in zip(positions, map(_mod, unpack.unpack(data), sizes), strict=False):  # as many of each
        out[i], out[j] = out[j], out[i]
    rng.state = (s0 + (n - 1) * _GOLDEN) & _MASK64
    return out


_mod = operator.mod
#: Seven bytes 0xFF in a row: every output that ``SplitMix64.below(n)`` may reject for some n <= 64 (at
#: least ``2**64 - 64``, below its rejection limit ``2**64 - 2**64 % n`` otherwise) has them as its seven
#: high bytes, so an :func:`_output_bytes` without them holds no such output (the bytes across two lanes,
#: a lane's high half holding the next one's low bits, may show them too, rarely: the one-by-one steps
#: then give the same answer).
_UNSAFE = b"\xff" * 7
#: The width of a lane in :func:`_outputs`: a 64-bit value times a 64-bit constant fits in it.
_LANE = 128


@functools.cache
def _lanes(n: int) -> tuple[int, int, int, struct.Struct, tuple[int, ...], tuple[int, ...]]:
    """The constants of :func:`_outputs` for a shuffle of ``n`` items (``n - 1`` generator steps, one
    per lane): a 1 in each lane, the 64-bit mask in each lane, the k-th multiple of the generator's
    increment in lane k - 1 (mod 2**64), the unpacking of the lanes' low halves, and the positions i
    and sizes i + 1 of the Fisher–Yates steps in order."""
    k = n - 1
    ones = sum(1 << (_LANE * i) for i in range(k))
    steps = sum((((i + 1) * _GOLDEN) & _MASK64) << (_LANE * i) for i in range(k))
    return (ones, _MASK64 * ones, steps, struct.Struct("<" + "Q8x" * k), tuple(range(n - 1, 0, -1)),
            tuple(range(n, 1, -1)))


def _outputs(s0: int, ones: int, lanes_mask: int, steps: int, unpack: struct.Struct) -> tuple[int, ...]:
    """The next outputs of a SplitMix64 generator in state ``s0``, all at once (:func:`_output_bytes`)."""
    out: tuple[int, ...] = unpack.unpack(_output_bytes(s0, ones, lanes_mask, steps, unpack.size))
    return out


def _output_bytes(s0: int, ones: int, lanes_mask: int, steps: int, size: int) -> bytes:
    """The next outputs of a SplitMix64 generator in state ``s0`` as the little-endian bytes of lanes of
    16 bytes, the output in each lane's low 8: lane k of one large integer holds the generator state after
    k + 1 steps (``s0 + (k + 1)·increment`` mod 2**64, the generator's state being a counter), and the
    output function's shifts, xors and multiplications are applied to every lane together. Each lane is
    128 bits wide and masked back to 64 bits before each shift and multiplication, so nothing crosses from
    one lane into another's low half."""
    z = (s0 * ones + steps) & lanes_mask
    z = (((z ^ (z >> 30)) & lanes_mask) * 0xBF58476D1CE4E5B9) & lanes_mask
    z = (((z ^ (z >> 27)) & lanes_mask) * 0x94D049BB133111EB) & lanes_mask
    return (z ^ (z >> 31)).to_bytes(size, "little")


def _stepped(items: Sequence[T], rng: SplitMix64) -> list[T]:
    """The shuffle with the generator's steps written out one by one (rejections included)."""
    out = list(items)
    state = rng.state
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n]
        while True:  # SplitMix64.next, until below(n) accepts the output
            state = (state + _GOLDEN) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    rng.state = state
    return out


class FastRound(ABC, Generic[S]):
    """A round played in place: one mutable object for the whole round, whose methods are the game's
    steps. In the games here it is the one implementation of the turn (:class:`RoundGame`): the immutable
    path (:meth:`Game.apply`) plays each action on a round built from the state, and :func:`play_match`,
    record validation and identify play whole rounds on one. :meth:`state` gives the position as the
    game's immutable state."""

    @abstractmethod
    def over(self) -> bool:
        """Whether the round has ended."""

    @abstractmethod
    def legal(self) -> Sequence[Action]:
        """:meth:`~hanafuda.engine.Game.legal_actions` of the current position."""

    @abstractmethod
    def play(self, action: Action) -> None:
        """:meth:`~hanafuda.engine.Game.do`, in place: ``action`` must be one of
        :meth:`~hanafuda.engine.FastRound.legal` (it is not checked)."""

    @abstractmethod
    def state(self) -> S:
        """The current position as the game's immutable state."""

    def position(self) -> S:
        """:meth:`~hanafuda.engine.FastRound.state`, possibly deferred: a game may return a state whose fields
        are read from this round when first used (``hanafuda._construct.deferred``);
        :meth:`~hanafuda.engine.RoundGame.do` then plays on a :meth:`~hanafuda.engine.FastRound.copy` and
        leaves the state this one (the default: :meth:`~hanafuda.engine.FastRound.state` itself)."""
        return self.state()

    def copy(self) -> FastRound[S]:
        """An independent round at the same position (needed where
        :meth:`~hanafuda.engine.FastRound.position` defers)."""
        raise NotImplementedError(f"{type(self).__name__} has no copy()")

    def replay(self, actions: Sequence[Action | None], pos: int, stop: int) -> int:
        """Play ``actions[pos:stop]`` in turn, each while it is legal where it stands and the round is not
        over; return the index of the first one not played (``stop`` when all were). ``None`` stops it, and
        so does an action that :meth:`~hanafuda.engine.FastRound.legal` does not list as the very object
        given (actions are shared instances, :func:`action`; an equal copy is left to the caller, which
        compares values). A game may check legality more directly, accepting at least what this accepts
        (the fishing games' :meth:`~hanafuda.fishing.FishingRound.replay` also accepts an equal copy)."""
        over, legal, play = self.over, self.legal, self.play
        while pos < stop and not over():
            a = actions[pos]
            if a is None:
                break
            for x in legal():
                if x is a:
                    break
            else:
                break
            play(a)
            pos += 1
        return pos

    def result(self) -> RoundResult | None:
        """The result of the round once it is over (then :meth:`~hanafuda.engine.Game.round_result` of
        :meth:`~hanafuda.engine.FastRound.state`); None
        (the default) leaves it to the game."""
        return None


class Game(ABC, Generic[S, R]):
    """The contract of one game (see the module docstring). ``S`` is the round state, ``R`` the
    typed rules (a frozen dataclass built from resolved option values)."""

    spec: ClassVar[GameSpec]

    # -- rules ---------------------------------------------------------------------------
    def rules(self, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> R:
        """Typed rules from a ruleset name and option overrides (raises ``OptionError``)."""
        return self.make_rules(self.spec.resolve(ruleset, options))

    @abstractmethod
    def make_rules(self, values: Mapping[str, str]) -> R:
        """Typed rules from a complete mapping of option values."""

    @abstractmethod
    def deck(self, rules: R) -> Deck:
        """The deck these rules play with."""

    @abstractmethod
    def seats(self, rules: R) -> int:
        """Seats at the table (players, including one who sits a round out)."""

    # -- a round -------------------------------------------------------------------------
    @abstractmethod
    def start_round(self, rules: R, order: Sequence[BaseCard], setup: RoundSetup) -> S:
        """Deal from ``order`` (top first) and return the first position of the round."""

    @abstractmethod
    def legal_actions(self, state: S) -> tuple[Action, ...]:
        """Every legal action, sorted and unique; empty exactly when the round is over."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat that chooses next, None when the round is over."""

    def is_terminal(self, state: S) -> bool:
        return self.to_move(state) is None

    def apply(self, state: S, action: Action) -> S:
        """The position after ``action``; raises :class:`IllegalActionError` if it is not legal."""
        if self.is_terminal(state):
            raise GameOverError("the round is over: no action is legal")
        legal = self.legal(state)
        self._refuse_unless_legal(state, legal, action)
        return self.do(state, action)

    def _refuse_unless_legal(self, state: S, legal: Sequence[Action], action: Action) -> None:
        """Raise :class:`IllegalActionError` with the rule it breaks unless ``action`` is among ``legal``."""
        for x in legal:  # the shared instance (:func:`action`) first: no comparison of values
            if x is action:
                return
        if action not in legal:
            rule_id, reason = self.explain_illegal(state, action)
            raise IllegalActionError(rule_id, reason)

    def legal(self, state: S) -> tuple[Action, ...]:
        """:meth:`legal_actions`, computed once per state object (states are immutable)."""
        memo = getattr(state, "__dict__", None)
        if memo is None:
            return self.legal_actions(state)
        found = memo.get(_LEGAL)
        if found is None:
            found = memo[_LEGAL] = self.legal_actions(state)
        return found  # type: ignore[no-any-return]

    @abstractmethod
    def do(self, state: S, action: Action) -> S:
        """Apply an action already known to be legal."""

    def fast_round(self, state: S) -> FastRound[S] | None:
        """The round from ``state`` on, played in place (see :class:`~hanafuda.engine.FastRound`), or None where the
        game has no fast path for these rules (the default)."""
        return None

    def deal_fast(self, rules: R, order: Sequence[int], setup: RoundSetup) -> FastRound[S] | None:
        """The round dealt from ``order`` (the card ids of a permutation of :meth:`deck`, top first),
        played in place from its first position: the same round as ``fast_round(start_round(rules, cards,
        setup))``, without building the immutable first position (its ``FastRound.state`` builds it
        when asked). None (the default) where the game does not offer it for these rules or this deal
        (a deal the rules void, for one): the caller then deals through :meth:`start_round`."""
        return None

    @abstractmethod
    def explain_illegal(self, state: S, action: Action) -> tuple[str, str]:
        """The rule id an illegal action breaks and a one-line reason."""

    @abstractmethod
    def round_result(self, state: S) -> RoundResult:
        """The result of a finished round."""

    @abstractmethod
    def snapshot(self, state: S, info: MatchInfo | None = None) -> Snapshot:
        """The neutral form of the position."""

    # -- scoring and the match ------------------------------------------------------------
    @abstractmethod
    def score(self, rules: R, cards: Sequence[BaseCard], month: int | None = None) -> PileScore:
        """Score a capture pile (for ``hanafuda score`` and the scoring vectors)."""

    def yaku_names(self, rules: R) -> Mapping[str, str]:
        """English names of the yaku ids :meth:`score` reports (for display; ids are the API)."""
        return {}

    def month_matters(self, rules: R) -> bool:
        """Whether :meth:`score` looks at the round's month under these rules (a round-dependent
        yaku such as Koi-Koi's Cards of the Month)."""
        return False

    def table_matters(self, rules: R) -> bool:
        """Whether a pile's yaku depend on the cards on the table under these rules (Koi-Koi's
        ``viewing=weather``); if so, :meth:`score_on_table` scores it."""
        return False

    def score_on_table(self, rules: R, cards: Sequence[BaseCard], table: Sequence[BaseCard],
                       month: int | None = None) -> PileScore:
        """Score a capture pile with the cards on the table known (they matter only where
        :meth:`table_matters`)."""
        return self.score(rules, cards, month)

    @abstractmethod
    def new_match(self, rules: R, first_dealer: int = 0) -> MatchInfo:
        """The match before its first round."""

    @abstractmethod
    def seats_in_play(self, rules: R, info: MatchInfo) -> tuple[int, ...]:
        """Who plays the next round (Kujuroku's fourth seat sits out)."""

    @abstractmethod
    def settle(self, rules: R, info: MatchInfo, result: RoundResult) -> MatchInfo:
        """The match after a round: scores, next dealer, rounds, and whether it is over."""


class RoundGame(Game[S, R]):
    """A game whose turn is written once, in its round class: :meth:`round_of` builds the round (a
    :class:`FastRound`) at a position, and the immutable contract is read from it. :meth:`do` plays the
    action on a round built from the state and returns its new position; the legal actions, the in-place
    round and the result are the round's."""

    @abstractmethod
    def round_of(self, state: S) -> FastRound[S]:
        """The round at position ``state``, to be played in place (``state`` itself is not changed)."""

    def legal_actions(self, state: S) -> tuple[Action, ...]:
        memo: dict[str, Any] | None = getattr(state, "__dict__", None)
        if memo is None:
            return tuple(self.round_of(state).legal())
        held = memo.get(_HELD)  # _held(memo), inlined: this, legal and apply are the path of every action
        r = held[0] if held else memo.get(SOURCE) or self.held_round(state)
        return tuple(r.legal())

    def legal(self, state: S) -> tuple[Action, ...]:
        """:meth:`Game.legal <hanafuda.engine.Game.legal>` (memoised in the state), reading the round the
        state holds directly."""
        try:
            memo: dict[str, Any] = state.__dict__
        except AttributeError:  # a state with slots: nothing memoised
            return tuple(self.round_of(state).legal())
        found: tuple[Action, ...] | None = memo.get(_LEGAL)
        if found is None:
            held = memo.get(_HELD)
            r = held[0] if held else memo.get(SOURCE) or self.held_round(state)
            found = memo[_LEGAL] = tuple(r.legal())
        return found

    def apply(self, state: S, action: Action) -> S:
        """:meth:`Game.apply <hanafuda.engine.Game.apply>` on the round the state holds
        (:meth:`~hanafuda.engine.RoundGame.held_round`): the legal actions (memoised in the state, as
        :meth:`~hanafuda.engine.RoundGame.legal`; none exactly when the round is over), then
        :meth:`~hanafuda.engine.RoundGame.do`'s move."""
        try:
            memo: dict[str, Any] = state.__dict__
        except AttributeError:  # a state with slots: nothing memoised
            return super().apply(state, action)
        legal = memo.get(_LEGAL) or self.legal(state)
        for x in legal:  # the shared instance (:func:`action`) first: no comparison of values
            if x is action:
                break
        else:
            if not legal:
                raise GameOverError("the round is over: no action is legal")
            self._refuse_unless_legal(state, legal, action)
        return self._moved(state, memo, action)

    def do(self, state: S, action: Action) -> S:
        """Play ``action`` on the round at ``state`` and return its new position, which keeps the round
        (:meth:`~hanafuda.engine.RoundGame.held_round`): the next action goes on in place, as
        :func:`~hanafuda.engine.play_match` plays."""
        memo: dict[str, Any] | None = getattr(state, "__dict__", None)
        if memo is None:
            r = self.round_of(state)
            r.play(action)
            return self.holding(r)
        return self._moved(state, memo, action)

    def _moved(self, state: S, memo: dict[str, Any], action: Action) -> S:
        """The move of :meth:`do`: the round held by ``state`` (whose ``__dict__`` is ``memo``) leaves it (no one
        else plays it), plays ``action`` and is held by the position it gives. A state whose fields are still
        to be read from that round keeps a way back to it: its link (:data:`hanafuda._construct.LINK`, the
        position before and the action from it, replayed when the state is read again), else a copy of the
        round. A deferred position made here gets its link."""
        r: FastRound[S] | None = memo.pop(SOURCE, None)
        if r is None:
            held = memo.pop(_HELD, None)
            if held:
                r = held[0]
            else:  # a deferred state whose round moved on (replayed, its link kept), or one holding none yet
                r = self.held_round(state)
                memo.pop(_HELD, None)
                memo.pop(SOURCE, None)
        elif LINK not in memo:
            memo[SOURCE] = r.copy()
        r.play(action)
        after = r.position()
        try:
            kept = after.__dict__
        except AttributeError:  # a position with slots holds nothing
            return after
        if SOURCE in kept:  # deferred: its fields are to be read from r
            kept[LINK] = (self, state, action)
        else:
            kept[_HELD] = Held((r,))
        return after

    def holding(self, r: FastRound[S]) -> S:
        """The position of round ``r`` (:meth:`~hanafuda.engine.FastRound.position`), holding ``r``
        (:meth:`~hanafuda.engine.RoundGame.held_round`): for a game's :meth:`~hanafuda.engine.Game.start_round`
        and :class:`~hanafuda.engine.Match`'s deal, whose round is played nowhere else. A deferred position (its
        fields still to be read from ``r``) holds ``r`` as that source."""
        after = r.position()
        memo = getattr(after, "__dict__", None)
        if memo is not None and memo.get(SOURCE) is not r:
            memo[_HELD] = Held((r,))
        return after

    def held_round(self, state: S) -> FastRound[S]:
        """The round at ``state``, kept with the state (a private entry of its ``__dict__``, not a field:
        equality and ``repr`` ignore it; a pickled or copied state holds none; a deferred state's source, the
        round its fields are to be read from, is at its position and serves) for
        :meth:`~hanafuda.engine.Game.legal_actions`, :meth:`~hanafuda.engine.Game.round_result` and the next
        :meth:`~hanafuda.engine.RoundGame.do`, which takes it and plays on. Read it, never play it."""
        memo = getattr(state, "__dict__", None)
        if memo is None:
            return self.round_of(state)
        found = _held(memo)
        if found is None:
            link = memo.get(LINK)
            if link is not None:  # a deferred state whose source moved on: that round again, as its source
                found = memo[SOURCE] = replayed(link)
            else:
                found = self.round_of(state)
                memo[_HELD] = Held((found,))
        return found

    def fast_round(self, state: S) -> FastRound[S] | None:
        return None if self.is_terminal(state) else self.round_of(state)

    def round_result(self, state: S) -> RoundResult:
        result = self.held_round(state).result() if self.is_terminal(state) else None
        if result is None:
            raise ValueError("the round is not over")
        return result


#: The keys, in a state's ``__dict__``, of the round it holds (:meth:`RoundGame.held_round`) and of its legal
#: actions (:meth:`Game.legal`).
_HELD, _LEGAL = HELD, "_legal_actions"


def _held(memo: dict[str, Any]) -> FastRound[Any] | None:
    """The round a state holds, from its ``__dict__``: its held round, else its source while its fields are
    still to be read (:meth:`FastRound.position`: that round, at the state's position), else None."""
    held = memo.get(_HELD)
    found: FastRound[Any] | None = held[0] if held else memo.get(SOURCE)
    return found


G = TypeVar("G")

#: Called with a finished round's final position and the match info before it is settled.
RoundObserver = Callable[[S, MatchInfo], None]


class _RoundCell:
    """What a :class:`Match` the match layer makes holds beside its fields, its cell ``[round, legal, before,
    action, shared]``: the round at the match's position (None once an action has moved it on, or its state
    has taken it), the match's legal actions (None until asked), the match before it and the action from
    there (None for a round's first match), and the dictionary of the fields the matches of the round share
    (:meth:`Match.apply` copies it). A base that is no dataclass, to declare the attribute without making it
    a field: equality, ``repr``, copies and pickles ignore it. A match made through its state (``Match._applied``)
    holds an empty one, a match made otherwise (its ``__init__``, a copy, a pickle) none."""

    __slots__ = ()
    _cell: list[Any]


#: The places in a match's cell (:class:`_RoundCell`).
_ROUND, _LEGAL_ACTIONS, _BEFORE, _ACTION, _SHARED = range(5)


@dataclass(frozen=True)
class Match(_RoundCell, Generic[S, R]):
    """A whole match: the match info, the current round and the shuffle generator's state.

    >>> from hanafuda.games.koikoi import GAME
    >>> m = Match.start(GAME, GAME.rules(), seed=7)
    >>> m.deck_order[:4]
    (21, 61, 50, 12)

    A match the match layer makes (the deal, :meth:`apply`) where the game plays its rounds in place
    (:meth:`Game.deal_fast`) holds the round at its position (its cell, ``_RoundCell``) instead of a
    state, and builds its ``state`` when first read (``RoundGame.holding``); an action then plays on the
    round it holds, which the match it returns holds in turn, while the one left behind keeps the match
    before it and the action from there (its state, if read later, is dealt again and replayed). Equality,
    ``repr``, :func:`dataclasses.replace` and pickling read the state, so they see the same match.
    """

    game: Game[S, R]
    rules: R
    info: MatchInfo
    state: S
    deck_order: tuple[int, ...]
    rng_state: int

    @classmethod
    def start(cls, game: Game[S, R], rules: R, seed: int, first_dealer: int = 0,
              on_round_end: RoundObserver[S] | None = None) -> Match[S, R]:
        info = game.new_match(rules, first_dealer)
        return cls.advance(cls._deal(game, rules, info, SplitMix64(seed)), on_round_end)

    @classmethod
    def _deal(cls, game: Game[S, R], rules: R, info: MatchInfo, rng: SplitMix64) -> Match[S, R]:
        """The next deal: the deck shuffled (on its card ids) and dealt as :func:`play_match` deals, into the
        game's round where it offers one (:meth:`Game.deal_fast`), which the match holds, else by
        :meth:`Game.start_round`."""
        deck = game.deck(rules)
        order = fast_shuffled(deck.ids, rng)
        setup = _setup(game, rules, info)
        fast = game.deal_fast(rules, order, setup)
        if fast is not None and isinstance(game, RoundGame):  # its state built when read (_MatchState)
            shared = {"game": game, "rules": rules, "info": info, "deck_order": tuple(order), "rng_state": rng.state,
                      "over": info.over}
            return new(cls, **shared, _cell=[fast, None, None, None, shared])  # without the dataclass's __init__
        if fast is None:
            by_id = {c.id: c for c in deck.cards}
            state = game.start_round(rules, [by_id[i] for i in order], setup)
        else:
            state = fast.state()
        return new(cls, game=game, rules=rules, info=info, state=state, deck_order=tuple(order),
                   rng_state=rng.state)

    def _built_state(self) -> S:
        """The match's state, built from the round it holds (which the state then holds) or, where that round
        has moved on, from the round's deal again and the actions played since (each match made by
        :meth:`apply` keeping the match before it and the action from there)."""
        game = self.game
        assert isinstance(game, RoundGame)
        cell = self._cell
        r: FastRound[S] | None = cell[_ROUND]
        cell[_ROUND] = None
        if r is None:
            played: list[Action] = []
            first = self
            while (before := first._cell[_BEFORE]) is not None:
                played.append(first._cell[_ACTION])
                first = before
            r = game.deal_fast(self.rules, first.deck_order, _setup(game, self.rules, first.info))
            assert r is not None  # (it was dealt so before)
            for a in reversed(played):
                r.play(a)
        state: S = game.holding(r)
        self.__dict__["state"] = state
        return state

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle or a copy keeps: the fields (the state built first), not the round held."""
        return {f: getattr(self, f) for f in _MATCH_FIELDS}

    @functools.cached_property
    def over(self) -> bool:
        """Whether the match has ended (its info's ``over``; a match the match layer makes holds it already)."""
        return self.info.over

    def legal_actions(self) -> tuple[Action, ...]:
        try:
            cell = self._cell
        except AttributeError:  # a match made otherwise (its __init__, a copy, a pickle): its state's
            return () if self.info.over else self.game.legal(self.state)
        found: tuple[Action, ...] | None = cell[_LEGAL_ACTIONS]
        if found is None:
            r: FastRound[S] | None = cell[_ROUND]
            if r is not None:  # (the last match of a game holds its final round, and no legal actions already)
                found = cell[_LEGAL_ACTIONS] = tuple(r.legal())
            elif self.info.over:
                return ()
            else:
                found = cell[_LEGAL_ACTIONS] = self.game.legal(self.state)
        return found

    def apply(self, action: Action, on_round_end: RoundObserver[S] | None = None) -> Match[S, R]:
        """Apply an action; when the round ends, settle it and deal the next one. ``on_round_end``
        sees the final position of every round that ends (see :meth:`advance`)."""
        try:
            cell = self._cell
        except AttributeError:  # a match made otherwise (its __init__, a copy, a pickle): no round held
            return self._applied(action, on_round_end)
        r: FastRound[S] | None = cell[_ROUND]
        if r is None:
            return self._applied(action, on_round_end)
        for x in cell[_LEGAL_ACTIONS] or self.legal_actions():  # (none once the match is over)
            if x is action:
                break
        else:  # not the shared instance: the state's Game.apply says why (or takes an equal one)
            return self._applied(action, on_round_end)
        cell[_ROUND] = None  # the round leaves this match (whose state is dealt and replayed if read later)
        r.play(action)  # Game.apply's check and move on the round held (RoundGame.apply), no state built
        shared = cell[_SHARED]  # the fields, one dictionary copied at once
        m = filled(Match, shared, _cell=[r, None, self, action, shared])
        return self.advance(m, on_round_end) if r.over() else m

    def _applied(self, action: Action, on_round_end: RoundObserver[S] | None) -> Match[S, R]:
        """:meth:`apply` through the state: :meth:`Game.apply` (its check, its error and rule id) on it."""
        if self.info.over:
            raise GameOverError("the match is over: no action is legal")
        game = self.game
        state = game.apply(self.state, action)
        m = filled(Match, self.__dict__, state=state, _cell=[None, None, None, None, None])  # no round held
        return self.advance(m, on_round_end) if game.is_terminal(state) else m

    @staticmethod
    def advance(m: Match[S, R], on_round_end: RoundObserver[S] | None = None) -> Match[S, R]:
        """Settle finished rounds (including rounds over at the deal) until play is needed.
        ``on_round_end(state, info)`` is called with each finished round's final position and the
        match info before that round is settled."""
        while not m.info.over and _round_over(m):
            if on_round_end is not None:
                on_round_end(m.state, m.info)
            r = _held_by(m)  # the round held gives its result as in play_match (no state built for it)
            found = r.result() if r is not None else None
            result = found if found is not None else m.game.round_result(m.state)
            info = m.game.settle(m.rules, m.info, result)
            if info.over:
                if r is None or m._cell[_BEFORE] is None:  # (a round over at its deal is dealt again with m's info)
                    return replace(m, info=info)
                cell = m._cell  # the last match holds the round instead, as Match.apply moves it on
                last = filled(Match, m.__dict__, info=info, over=True,
                              _cell=[r, (), cell[_BEFORE], cell[_ACTION], None])
                cell[_ROUND] = None  # (m's state is dealt and replayed if read later)
                return last
            m = Match._deal(m.game, m.rules, info, SplitMix64(m.rng_state))
        return m

    def snapshot(self) -> Snapshot:
        return self.game.snapshot(self.state, self.info)


def _setup(game: Game[Any, R], rules: R, info: MatchInfo) -> RoundSetup:
    """The setup of the round dealt after ``info``."""
    return RoundSetup(info.rounds_played + 1, info.dealer, game.seats_in_play(rules, info), info.scores)


_MATCH_FIELDS = tuple(f.name for f in dataclass_fields(Match))


def _held_by(m: Match[S, Any]) -> FastRound[S] | None:
    """The round match ``m`` holds, or None."""
    cell = m.__dict__.get("_cell")
    return None if cell is None else cell[_ROUND]


def _round_over(m: Match[Any, Any]) -> bool:
    """Whether the round of match ``m`` is over, read from the round it holds where it holds one."""
    r = _held_by(m)
    return r.over() if r is not None else m.game.is_terminal(m.state)


class _MatchState:
    """:attr:`Match.state` for a match holding its round instead (``Match._built_state``): built on first read,
    then kept in the instance's ``__dict__``, which is read first (no ``__set__``)."""

    def __get__(self, obj: Match[Any, Any] | None, owner: type | None = None) -> Any:
        return self if obj is None else obj._built_state()


setattr(Match, "state", _MatchState())  # noqa: B010  (the field, read from a match's __dict__ first)


def play_match(game: Game[S, R], rules: R, seed: int, choose: Callable[[Sequence[Action]], Action],
               first_dealer: int = 0) -> tuple[MatchInfo, list[list[Action]]]:
    """Play a whole match, ``choose`` picking each action among the legal ones; return the finished
    match's info and the actions of every deal (a list per deal, in order; empty for a deal over at
    once, such as a misdeal). The same as the reference loop::

        m = Match.start(game, rules, seed, first_dealer)
        while not m.over:
            m = m.apply(choose(m.legal_actions()))

    but each round is dealt and played in place where the game offers it (:meth:`Game.deal_fast`,
    :meth:`Game.fast_round`), its result taken from the fast round where it gives one
    (:meth:`FastRound.result`), and no :class:`Match` is built: the deals (the same shuffles of the one
    generator), results and settlements are :class:`Match`'s. ``tests/test_fast_paths.py`` checks that
    both give the same actions and results, and the golden records are recorded through it."""
    info = game.new_match(rules, first_dealer)
    rng = SplitMix64(seed)
    cards = game.deck(rules).cards
    ids = tuple(map(CARD_ID, cards))
    by_id = dict(zip(ids, cards, strict=True))
    deal_fast, fast_round, is_terminal, seats_in_play = game.deal_fast, game.fast_round, game.is_terminal, \
        game.seats_in_play
    deals: list[list[Action]] = []
    while not info.over:  # Match._deal, Match.advance
        order = fast_shuffled(ids, rng)  # the shuffle of the cards, on their ids
        setup = RoundSetup(info.rounds_played + 1, info.dealer, seats_in_play(rules, info), info.scores)
        played: list[Action] = []
        fast = deal_fast(rules, order, setup)
        state: S | None = None
        if fast is None:
            state = game.start_round(rules, list(map(by_id.__getitem__, order)), setup)
            if not is_terminal(state):
                fast = fast_round(state)
        if fast is None:  # the reference loop, for one round
            assert state is not None
            while not is_terminal(state):
                a = choose(game.legal(state))
                played.append(a)
                state = game.apply(state, a)
            result = game.round_result(state)
        else:
            over, legal, play, keep = fast.over, fast.legal, fast.play, played.append
            while not over():
                a = choose(legal())
                keep(a)
                play(a)
            found = fast.result()
            result = found if found is not None else game.round_result(fast.state())
        info = game.settle(rules, info, result)
        deals.append(played)
    return info, deals
