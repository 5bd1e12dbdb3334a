"""Games by name. Each game lives in ``hanafuda.games.<key>`` and defines ``GAME``.

>>> game("koi-koi").spec.key
'koikoi'
"""

from __future__ import annotations

import importlib
from typing import Any

from hanafuda_spec.games import GAME_KEYS, all_specs

from hanafuda.engine import Game

__all__ = ["UnknownGameError", "available", "game"]

AnyGame = Game[Any, Any]


class UnknownGameError(ValueError):
    """A game name that is not one of the five."""


def _load(key: str) -> AnyGame | None:
    try:
        mod = importlib.import_module(f"hanafuda.games.{key}")
    except ModuleNotFoundError as e:
        if e.name in (f"hanafuda.games.{key}", f"hanafuda_spec.games.{key}"):
            return None
        raise
    g = mod.GAME
    assert isinstance(g, Game)
    return g


def available() -> tuple[AnyGame, ...]:
    """Every game implemented so far, in catalogue order."""
    out = []
    for key in GAME_KEYS:
        g = _load(key)
        if g is not None:
            out.append(g)
    return tuple(out)


def game(name: str) -> AnyGame:
    """A game by key or alias (case-insensitive). Only that game's module is imported: the key is
    found in the catalogues (:mod:`hanafuda_spec.games`)."""
    wanted = name.strip().lower()
    if wanted in GAME_KEYS and (found := _load(wanted)) is not None:
        return found
    for spec in all_specs():
        if wanted == spec.key or wanted in spec.aliases:
            g = _load(spec.key)
            if g is not None:
                return g
    known = ", ".join(g.spec.key for g in available())
    raise UnknownGameError(f"unknown game {name!r} (known: {known})")
