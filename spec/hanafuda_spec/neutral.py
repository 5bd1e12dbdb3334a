"""The neutral form of a game position: named card zones, whose turn it is, and the scores.

This is the form invariants are stated over and game records carry, so that they can check
any implementation's games, not only ours.

Zone names:

* ``hand.<seat>`` – a player's hand (sorted by card id);
* ``field`` – the cards face up on the table (Kusuri-gui: ``pile``, the discard pile, bottom first);
* ``stock`` – the draw pile, **top first**;
* ``drawn`` – a card turned from the draw pile that waits for the player's choice of target;
* ``captured.<side>`` – a capture pile; a side is a seat, or in team games a team numbered from 0
  (Musashino-Bana: team 0 is seats 0 and 2, team 1 seats 1 and 3);
* ``out.<what>`` – cards out of play (``out.undrawn`` is not used: undrawn cards stay in ``stock``),
  for example ``out.oni`` (Kujuroku's removed Oni-fuda) or ``out.facedown`` (Kusuri-gui).

>>> s = Snapshot("koikoi", (("field", (10, 11)), ("stock", (12,))), 0, "play", 0, 1, (0, 0))
>>> s.zone("field"), s.all_cards()
((10, 11), (10, 11, 12))
>>> Snapshot.from_json(s.to_json()) == s
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["JsonValue", "Snapshot"]

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]


@dataclass(frozen=True)
class Snapshot:
    """A position in the neutral form (see the module docstring)."""

    game: str
    zones: tuple[tuple[str, tuple[int, ...]], ...]
    to_move: int | None
    phase: str
    dealer: int
    round: int
    scores: tuple[int, ...]

    def zone(self, name: str) -> tuple[int, ...]:
        for n, cards in self.zones:
            if n == name:
                return cards
        return ()

    def zone_names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.zones)

    def all_cards(self) -> tuple[int, ...]:
        """Every card in every zone, in zone order (duplicates kept, so that they can be found)."""
        return tuple(c for _, cards in self.zones for c in cards)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "game": self.game,
            "zones": {n: list(c) for n, c in self.zones},
            "to_move": self.to_move,
            "phase": self.phase,
            "dealer": self.dealer,
            "round": self.round,
            "scores": list(self.scores),
        }

    @classmethod
    def from_json(cls, d: dict[str, JsonValue]) -> Snapshot:
        """Parse the JSON form; raises ``ValueError`` naming the first bad field."""
        zones = d.get("zones")
        if not isinstance(zones, dict):
            raise ValueError("snapshot: 'zones' must be an object")
        zs: list[tuple[str, tuple[int, ...]]] = []
        for name, cards in zones.items():
            if not isinstance(cards, list) or not all(isinstance(c, int) and not isinstance(c, bool)
                                                      for c in cards):
                raise ValueError(f"snapshot: zone {name!r} must be a list of card ids")
            zs.append((name, tuple(c for c in cards if isinstance(c, int))))
        game, phase, to_move = d.get("game"), d.get("phase"), d.get("to_move")
        dealer, rnd, scores = d.get("dealer"), d.get("round"), d.get("scores")
        if not isinstance(game, str) or not isinstance(phase, str):
            raise ValueError("snapshot: 'game' and 'phase' must be strings")
        if to_move is not None and not isinstance(to_move, int):
            raise ValueError("snapshot: 'to_move' must be an integer or null")
        if not isinstance(dealer, int) or not isinstance(rnd, int):
            raise ValueError("snapshot: 'dealer' and 'round' must be integers")
        if not isinstance(scores, list) or not all(isinstance(s, int) for s in scores):
            raise ValueError("snapshot: 'scores' must be a list of integers")
        return cls(game, tuple(zs), to_move, phase, dealer, rnd, tuple(s for s in scores if isinstance(s, int)))
