"""The fishing-game turn, written once for Koi-Koi, Kekoro, Musashino-Bana and Kujuroku.

A turn has two plays (FW-HA "Turn"; FW-KK "Turns"): a card from the hand, then the top card
of the draw pile, each resolved the same way against the field:

* no field card of its suit: the card stays on the field;
* one: the card captures it;
* two: the card captures one of them, chosen by the player;
* three: the card captures all three.

A card that matches must capture. Whether a player may play a non-matching hand card while
another would capture is a game rule (``must_capture``).

:class:`Table` holds the zones; the functions below return new tables (nothing is mutated).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from hanafuda_spec.cards import BaseCard

from hanafuda.engine import ACTION_ORDER, CARD_ORDER, Action, action, evolve

__all__ = [
    "PLAY", "TAKE", "Table", "capture", "deal_packets", "explain_hand_play", "hand_plays", "matches", "take_choices",
]

C = TypeVar("C", bound=BaseCard)

PLAY = "play"
TAKE = "take"


@dataclass(frozen=True)
class Table(Generic[C]):
    """The zones of a fishing round. Hands, field and capture piles are kept sorted by card id;
    the stock (draw pile) is top first."""

    hands: tuple[tuple[C, ...], ...]
    field: tuple[C, ...]
    stock: tuple[C, ...]
    captured: tuple[tuple[C, ...], ...]

    def with_hand(self, seat: int, hand: Sequence[C]) -> Table[C]:
        hands = list(self.hands)
        hands[seat] = tuple(sorted(hand, key=CARD_ORDER))
        return evolve(self, hands=tuple(hands))

    def add_captured(self, side: int, cards: Sequence[C]) -> Table[C]:
        if not cards:
            return self
        caps = list(self.captured)
        caps[side] = tuple(sorted((*caps[side], *cards), key=CARD_ORDER))
        return evolve(self, captured=tuple(caps))

    def card_count(self) -> int:
        return (sum(len(h) for h in self.hands) + len(self.field) + len(self.stock)
                + sum(len(c) for c in self.captured))


def matches(field: Sequence[C], card: C) -> tuple[C, ...]:
    """The field cards of ``card``'s suit (a suit of 0, a joker, matches nothing)."""
    suit = card.suit
    if suit == 0:
        return ()
    return tuple([f for f in field if f.suit == suit])


def hand_plays(hand: Sequence[C], field: Sequence[C], must_capture: bool = False) -> list[Action]:
    """The ``play`` actions for a hand: ``play c`` or, when two field cards match, ``play c t``
    for each choice. With ``must_capture``, non-capturing plays are left out whenever a capture
    is possible."""
    by_suit: dict[int, list[C]] = {}  # the field cards of each suit, in field order
    for f in field:
        if f.suit:  # a joker (suit 0) matches nothing
            by_suit.setdefault(f.suit, []).append(f)
    out: list[Action] = []
    capturing: list[Action] = []  # the plays of cards that capture
    for c in hand:
        m = by_suit.get(c.suit, ()) if c.suit else ()  # matches(field, c)
        if len(m) == 2:
            plays = [action(PLAY, (c.id, t.id)) for t in m]
        else:
            plays = [action(PLAY, (c.id,))]
        out.extend(plays)
        if m:
            capturing.extend(plays)
    if must_capture and capturing:
        out = capturing
    out.sort(key=ACTION_ORDER)
    return out


def take_choices(field: Sequence[C], card: C) -> list[Action]:
    """``take t`` actions for a drawn card that matches exactly two field cards, else none."""
    m = matches(field, card)
    return sorted((action(TAKE, (t.id,)) for t in m), key=ACTION_ORDER) if len(m) == 2 else []


def capture(field: Sequence[C], card: C, target: int | None) -> tuple[tuple[C, ...], tuple[C, ...]]:
    """Resolve ``card`` against the field: the new field and the cards captured (the played card
    included, empty if nothing was captured). ``target`` is required for exactly two matches."""
    m = matches(field, card)
    if not m:
        return tuple(sorted((*field, card), key=CARD_ORDER)), ()
    if len(m) == 2:
        if target is None or target not in (m[0].id, m[1].id):
            raise ValueError("two field cards match: a target must be chosen")
        taken: tuple[C, ...] = tuple(x for x in m if x.id == target)
    else:
        taken = m  # one, or three (all are captured)
    gone = {x.id for x in taken}
    rest = tuple([f for f in field if f.id not in gone])
    return rest, (card, *taken)


def deal_packets(order: Sequence[C], plan: Sequence[tuple[str, int]]) -> dict[str, list[C]]:
    """Deal ``order`` (top first) following ``plan``, a list of (recipient, packet size).
    The rest of the deck is returned as recipient ``"stock"``, top first."""
    out: dict[str, list[C]] = {}
    i = 0
    for who, n in plan:
        out.setdefault(who, []).extend(order[i:i + n])
        i += n
    out["stock"] = list(order[i:])
    return out


def explain_hand_play(hand: Sequence[C], field: Sequence[C], action: Action, seat: int,
                      rules: tuple[str, str, str]) -> tuple[str, str] | None:
    """Why a ``play`` action refused by a fishing game is illegal, as far as the shared turn can tell:
    the card is not in the hand, two field cards match and no target was named, or a target was named
    where there is no choice. ``rules`` are the game's rule ids for those three cases. None when the
    action passes these checks (the game then names its own rule, such as a must-capture option)."""
    in_hand, choose, no_choice = rules
    if not action.cards or all(c.id != action.cards[0] for c in hand):
        return in_hand, f"card {action.cards[0] if action.cards else '?'} is not in seat {seat}'s hand"
    c = next(c for c in hand if c.id == action.cards[0])
    m = matches(field, c)
    if len(m) == 2:
        return choose, f"card {c.id} matches {m[0].id} and {m[1].id}: name one of them as target"
    if len(action.cards) > 1:
        return no_choice, f"card {c.id} has {len(m)} match(es) on the field: no target is chosen"
    return None
