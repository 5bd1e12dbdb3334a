"""The encodings shared by the game-AI views (:mod:`hanafuda.pettingzoo`, :mod:`hanafuda.openspiel`):
a fixed action space per game, a fixed-size observation of a position from one seat, and the record of
a played episode. No rule lives here: positions come from :meth:`~hanafuda.engine.Game.snapshot` and
actions are the engine's own (:class:`~hanafuda.engine.Action`); this module only numbers them.

**Actions.** A game's action space is fixed (:attr:`Encoding.num_actions`), whatever its options:

* first the actions without cards, in the order of :data:`NO_CARD` (Koi-Koi's ``koikoi``, ``stop``,
  ``draw``; Kekoro's ``declare instant-victory``, ``continue``);
* then, for each one-card kind of :data:`ONE_CARD`, one action per card of the game's card universe
  (:attr:`Encoding.cards`, sorted by id): ``play c``, ``take c``, ``discard c``;
* then, for each two-card kind of :data:`TWO_CARDS`, one action per ordered pair of cards
  (``U·U`` of them, most never legal): ``play c t`` (card ``c`` captures ``t``), Kujuroku's ``collect a b``.

>>> enc = encoding("koikoi")
>>> len(enc.cards), enc.num_actions
(48, 2403)
>>> from hanafuda.engine import Action
>>> i = enc.encode(Action.parse("play 31 30"))
>>> i, str(enc.decode(i))
(539, 'play 31 30')

**Observations.** A flat vector of ``float32`` values (:meth:`Encoding.observe`), from one seat:
for every card of the universe, one plane each for the seat's own hand, the table (``field``; Kusuri-gui's
``pile``), the drawn card waiting for its target, each side's capture pile (``captured.0`` …, sides in
absolute order) and the cards put out of play face up (``out.*`` but ``out.facedown``); then, per seat,
the number of cards in hand, the scores (or chips), the observer's seat, the dealer and the seat to move
as one-hot vectors; the cards left in the stock, the round number; and the phase as a one-hot vector over
:data:`PHASES` (with a last slot for a phase not listed).
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hanafuda_spec.catalogue import OptionError
from hanafuda_spec.neutral import JsonValue, Snapshot
from hanafuda_spec.records import FORMAT

from hanafuda.engine import Action, Game, MatchInfo, action
from hanafuda.fishing import CardIndex, FishingGame, FishingState
from hanafuda.registry import game

__all__ = [
    "NO_CARD",
    "ONE_CARD",
    "PHASES",
    "TWO_CARDS",
    "Encoding",
    "encoding",
    "episode_record",
]

#: The actions without cards of each game (kind, label), in action-number order.
NO_CARD: Mapping[str, tuple[tuple[str, str], ...]] = {
    "koikoi": (("koikoi", ""), ("stop", ""), ("draw", "")),
    "kusurigui": (),
    "kujuroku": (),
    "musashino": (),
    "kekoro": (("declare", "instant-victory"), ("continue", "")),
}
#: The one-card action kinds of each game.
ONE_CARD: Mapping[str, tuple[str, ...]] = {
    "koikoi": ("play", "take"),
    "kusurigui": ("play", "discard"),
    "kujuroku": ("play", "take"),
    "musashino": ("play", "take"),
    "kekoro": ("play", "take"),
}
#: The two-card action kinds of each game.
TWO_CARDS: Mapping[str, tuple[str, ...]] = {
    "koikoi": ("play",),
    "kusurigui": (),
    "kujuroku": ("play", "collect"),
    "musashino": ("play",),
    "kekoro": ("play",),
}
#: The phases of the neutral form (:attr:`~hanafuda_spec.neutral.Snapshot.phase`) given a slot of
#: their own in the observation; any other phase shares the last slot.
PHASES = ("play", "take", "call", "draw", "over")
_PHASE = {p: i for i, p in enumerate(PHASES)}

_TABLE = ("field", "pile")
_HIDDEN = ("out.facedown",)

_F32 = struct.Struct("=f")  # (native byte order, the order of numpy's float32)
#: A byte's eight bits, lowest first, as eight float32 values (0.0 or 1.0), for each byte value.
_BITS_F32 = tuple(b"".join(_F32.pack(float(v >> b & 1)) for b in range(8)) for v in range(256))


class _Packings(dict[int, struct.Struct]):
    """``n`` -> the packing of ``n`` native float32 values, made when first asked for."""

    def __missing__(self, n: int) -> struct.Struct:
        found = self[n] = struct.Struct(f"={n}f")
        return found


_F32S = _Packings()


@dataclass(frozen=True)
class Encoding:
    """The action numbers and the observation layout of one game (see the module docstring)."""

    key: str
    cards: tuple[int, ...]
    seats: int
    no_card: tuple[tuple[str, str], ...]
    one_card: tuple[str, ...]
    two_cards: tuple[str, ...]

    @functools.cached_property
    def index(self) -> Mapping[int, int]:
        """Card id -> its position in :attr:`cards`."""
        return {c: i for i, c in enumerate(self.cards)}

    @functools.cached_property
    def num_actions(self) -> int:
        u = len(self.cards)
        return len(self.no_card) + u * len(self.one_card) + u * u * len(self.two_cards)

    @functools.cached_property
    def _numbers(self) -> dict[Action, int]:
        out: dict[Action, int] = {}
        for i, (kind, label) in enumerate(self.no_card):
            out[action(kind, (), label)] = i
        base, u = len(self.no_card), len(self.cards)
        for k, kind in enumerate(self.one_card):
            for i, c in enumerate(self.cards):
                out[action(kind, (c,))] = base + k * u + i
        base += u * len(self.one_card)
        for k, kind in enumerate(self.two_cards):
            for i, c in enumerate(self.cards):
                for j, t in enumerate(self.cards):
                    out[action(kind, (c, t))] = base + k * u * u + i * u + j
        return out

    @functools.cached_property
    def _actions(self) -> tuple[Action, ...]:
        acts = [Action("")] * self.num_actions
        for a, i in self._numbers.items():
            acts[i] = a
        return tuple(acts)

    def encode(self, a: Action) -> int:
        """The number of ``a``; ``ValueError`` for an action this game's space does not hold."""
        found = self._numbers.get(a)
        if found is None:
            raise ValueError(f"{self.key}: the action {str(a)!r} has no number in the action space")
        return found

    def decode(self, number: int) -> Action:
        """The action numbered ``number``; ``ValueError`` outside the space."""
        if not 0 <= number < self.num_actions:
            raise ValueError(f"{self.key}: action number {number} is outside 0..{self.num_actions - 1}")
        return self._actions[number]

    def numbers(self, legal: Sequence[Action]) -> list[int]:
        """The numbers of ``legal`` (in their order); ``ValueError`` for an action without a number."""
        try:
            return list(map(self._numbers.__getitem__, legal))
        except KeyError:
            return list(map(self.encode, legal))  # (which names the action)

    def mark(self, legal: Sequence[Action], out: bytearray) -> None:
        """Set byte ``n`` of ``out`` to 1 for the number ``n`` of each of ``legal`` (an action mask);
        ``ValueError`` for an action without a number."""
        for n in self.numbers(legal):
            out[n] = 1

    def mask(self, legal: Sequence[Action]) -> list[int]:
        """The numbers of the legal actions (sorted)."""
        return sorted(self.numbers(legal))

    # -- observations -------------------------------------------------------------------------
    @functools.cached_property
    def planes(self) -> tuple[str, ...]:
        """The card planes of the observation, in order."""
        return ("hand", "table", "drawn", *(f"captured.{s}" for s in range(self.seats)), "out")

    @functools.cached_property
    def observation_size(self) -> int:
        return len(self.cards) * len(self.planes) + 5 * self.seats + 2 + len(PHASES) + 1

    @functools.cached_property
    def _zone_plans(self) -> tuple[dict[str, tuple[Mapping[int, int] | None, int]], ...]:
        """Per seat, the zones seen so far: name -> the observation position of each card id in the zone
        (None: its cards are not shown) and the position of the zone's size (-1: not shown)."""
        return tuple({} for _ in range(self.seats))

    def _zone_plan(self, seat: int, name: str) -> tuple[Mapping[int, int] | None, int]:
        """Where zone ``name`` goes in ``seat``'s observation (see :attr:`_zone_plans`)."""
        u, s = len(self.cards), self.seats
        sizes = u * len(self.planes)
        base, count = -1, -1
        if name == f"hand.{seat}":
            base, count = 0, sizes + seat
        elif name in _TABLE:
            base = u
        elif name == "drawn":
            base = 2 * u
        elif name.startswith("captured."):
            base = (3 + int(name[9:])) * u
        elif name.startswith("out.") and name not in _HIDDEN:
            base = (3 + s) * u
        elif name.startswith("hand."):
            count = sizes + int(name[5:])
        elif name == "stock":
            count = sizes + 5 * s
        plan = ({c: base + i for i, c in enumerate(self.cards)} if base >= 0 else None, count)
        self._zone_plans[seat][name] = plan
        return plan

    def features(self, snap: Snapshot, seat: int) -> tuple[list[int], list[int], list[float]]:
        """The observation of position ``snap`` from ``seat`` as the positions holding 1, and the other
        positions with their values (all others hold 0): see :meth:`observe`."""
        s = self.seats
        plans = self._zone_plans[seat]
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        for name, cards in snap.zones:
            pos, count = plans.get(name) or self._zone_plan(seat, name)
            if pos is not None:
                ones += map(pos.__getitem__, cards)
            if count >= 0:
                at.append(count)
                values.append(float(len(cards)))
        k = len(self.cards) * len(self.planes) + s
        at.extend(range(k, k + len(snap.scores)))
        values.extend(map(float, snap.scores))
        k += s
        ones.append(k + seat)
        ones.append(k + s + snap.dealer)
        if snap.to_move is not None:
            ones.append(k + 2 * s + snap.to_move)
        k += 3 * s
        at.append(k + 1)
        values.append(float(snap.round))
        ones.append(k + 2 + _PHASE.get(snap.phase, len(PHASES)))
        return ones, at, values

    def observe(self, snap: Snapshot, seat: int, info: MatchInfo | None = None) -> list[float]:
        """The observation of position ``snap`` from ``seat`` (see the module docstring): only what that
        seat sees (its own hand, the cards face up, the sizes of the other hands and of the stock)."""
        out = [0.0] * self.observation_size
        ones, at, values = self.features(snap, seat)
        for i in ones:
            out[i] = 1.0
        for i, v in zip(at, values, strict=True):
            out[i] = v
        return out

    def observation_bytes(self, g: Game[Any, Any], state: Any, info: MatchInfo, seat: int) -> bytearray:
        """:meth:`observe` of the position ``state`` of a match with ``info``, as native float32 values
        (for ``numpy.frombuffer``). A game whose neutral form is the fishing table's
        (:meth:`hanafuda.fishing.FishingGame.snapshot` itself), with cards whose bits follow
        :attr:`cards`, is read from the position's masks (``_fishing_bytes``) without building the
        snapshot; any other from :meth:`~hanafuda.engine.Game.snapshot`."""
        if type(g).snapshot is FishingGame.snapshot and (self._in_order.get(state.table.index)
                                                         or self._reads_masks(state.table.index)):
            return self._fishing_bytes(g, state, info, seat)  # type: ignore[arg-type]
        return bytearray(_F32S[self.observation_size].pack(*self.observe(g.snapshot(state, info), seat)))

    @functools.cached_property
    def _tail(self) -> tuple[int, int, struct.Struct, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """For :meth:`_fishing_bytes`: the number of bytes the card planes' bits fill, the number of bytes of
        the planes' values, the packing of the positions after the planes, the one-hot values over the
        seats of each seat (and, last, of none), and those over the phase slots of each slot."""
        planes, s = len(self.cards) * len(self.planes), self.seats
        seats = tuple(tuple(int(i == k) for i in range(s)) for k in range(s + 1))
        phases = tuple(tuple(int(i == k) for i in range(len(PHASES) + 1)) for k in range(len(PHASES) + 1))
        return (planes + 7) // 8, 4 * planes, _F32S[self.observation_size - planes], seats, phases

    @functools.cached_property
    def _in_order(self) -> dict[CardIndex[Any], bool]:
        """Per card index met (a few per game, each one object for good): whether bit ``i`` of its masks is
        card ``i`` of :attr:`cards` (so that a mask is a card plane as it stands)."""
        return {}

    def _reads_masks(self, index: CardIndex[Any]) -> bool:
        """Whether ``index`` is in order (see :attr:`_in_order`), remembered."""
        found = self._in_order[index] = all(c.bit == self.index[c.id] for c in index.cards)
        return found

    def _fishing_bytes(self, g: FishingGame[Any, Any], state: FishingState, info: MatchInfo,
                       seat: int) -> bytearray:
        """:meth:`observe` of a fishing game's position, from the fields
        :meth:`~hanafuda.fishing.FishingGame.snapshot` reads (the zones of :func:`hanafuda.fishing.zones`:
        each hand, ``field``, ``stock``, ``drawn``, each capture pile), taken as masks: the card planes are
        one integer whose bit ``i`` is position ``i``, turned into float32 values a byte at a time. Tested
        equal to :meth:`observe` of the snapshot."""
        t, u, s = state.table, len(self.cards), self.seats
        hands, caps = t.hand_masks, t.captured_masks
        pending = state.pending
        bits = (hands[seat] if seat < len(hands) else 0) | t.field_mask << u
        if pending is not None:
            bits |= pending.mask << 2 * u
        for k, m in enumerate(caps, 3):
            bits |= m << (k * u)
        nbytes, cut, tail, one_hot, phases = self._tail
        out = bytearray().join(map(_BITS_F32.__getitem__, bits.to_bytes(nbytes, "little")))
        del out[cut:]  # (the bits past the last plane, when the planes do not fill whole bytes)
        to_move, setup, scores, none = g.to_move(state), state.setup, info.scores, one_hot[s]
        out += tail.pack(*map(int.bit_count, hands), *none[len(hands):], *scores, *none[len(scores):],
                         *one_hot[seat], *one_hot[setup.dealer], *one_hot[s if to_move is None else to_move],
                         len(t.stock), setup.number, *phases[_PHASE.get(state.phase.value, len(PHASES))])
        return out

    def observation_string(self, snap: Snapshot, seat: int) -> str:
        """The observation of ``snap`` from ``seat`` as text: the same facts as :meth:`observe`."""
        parts = [f"seat {seat}", f"round {snap.round}", f"dealer {snap.dealer}", f"to_move {snap.to_move}",
                 f"phase {snap.phase}", "scores " + ",".join(map(str, snap.scores))]
        for name, cards in snap.zones:
            if name == f"hand.{seat}" or name in _TABLE or name == "drawn" or name.startswith("captured.") or (
                    name.startswith("out.") and name not in _HIDDEN):
                parts.append(f"{name} " + ",".join(map(str, cards)))
            elif name.startswith("hand.") or name == "stock" or name in _HIDDEN:
                parts.append(f"{name} #{len(cards)}")
        return " | ".join(parts)


@functools.cache
def encoding(key: str) -> Encoding:
    """The encoding of a game (by key or alias). The card universe is every card of the decks the game's
    named rulesets and single option changes play with; the seats, the most any of them seats."""
    g = game(key)
    spec = g.spec
    cards: set[int] = set()
    seats = 0
    tried: list[dict[str, str]] = [{}]
    for opt in spec.options:
        tried += [{opt.key: v} for v in opt.choices]
    for rs in spec.rulesets:
        for opts in tried:
            try:
                rules = g.rules(rs.name, opts)
            except (OptionError, ValueError):
                continue
            cards.update(c.id for c in g.deck(rules).cards)
            seats = max(seats, g.seats(rules))
    k = spec.key
    return Encoding(k, tuple(sorted(cards)), seats, NO_CARD[k], ONE_CARD[k], TWO_CARDS[k])


def episode_record(g: Any, ruleset: str | None, options: Mapping[str, str], info: MatchInfo,
                   orders: Sequence[Sequence[int]], actions: Sequence[Action], counts: Sequence[int],
                   seed: int | None = None, first_dealer: int = 0) -> dict[str, JsonValue]:
    """The ``hanafuda-record/1`` record of a finished episode (see :mod:`hanafuda_spec.records`): the
    deck order of every deal (``orders``), every action, the number of actions of each deal and the
    finished match's info. With ``seed`` the orders are the documented shuffle's of that seed."""
    values = g.spec.resolve(ruleset, options)
    rounds: list[JsonValue] = []
    for k, r in enumerate(info.history):
        entry: dict[str, JsonValue] = {"deal": k + 1, "actions": counts[k]}
        entry.update(r.to_json())  # type: ignore[arg-type]
        rounds.append(entry)
    doc: dict[str, JsonValue] = {
        "format": FORMAT,
        "game": g.spec.key,
        "rules": {"ruleset": ruleset or g.spec.default_ruleset, "options": dict(values)},
    }
    if seed is not None:
        doc["seed"] = seed
    doc.update({
        "first_dealer": first_dealer,
        "players": [f"seat {i}" for i in range(g.seats(g.rules(ruleset, options)))],
        "deck": list(orders[0]),
        "deals": [list(o) for o in orders[1:]],
        "actions": [str(a) for a in actions],
        "result": {"rounds": rounds, "scores": list(info.scores), "winners": list(info.winners),
                   "end_reason": info.end_reason},
    })
    return doc
