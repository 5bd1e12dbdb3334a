"""One catalogue module per game: rules, gaps and decisions, options, rulesets and rule data.

Each module defines ``SPEC``, its :class:`~hanafuda_spec.catalogue.GameSpec`.
"""

from __future__ import annotations

import importlib

from hanafuda_spec.catalogue import GameSpec
from hanafuda_spec.invariants import GameProfile

__all__ = ["GAME_KEYS", "all_specs", "profile_for", "spec_for"]

#: The five games, in the order the rulebooks list them.
GAME_KEYS = ("koikoi", "kusurigui", "kujuroku", "musashino", "kekoro")


def spec_for(key: str) -> GameSpec:
    """The catalogue of one game by key (ImportError if that game is not written yet)."""
    mod = importlib.import_module(f"hanafuda_spec.games.{key}")
    spec = mod.SPEC
    assert isinstance(spec, GameSpec)
    return spec


def all_specs() -> tuple[GameSpec, ...]:
    """The catalogues of every game written so far."""
    out = []
    for key in GAME_KEYS:
        try:
            out.append(spec_for(key))
        except ModuleNotFoundError:
            continue
    return tuple(out)


def profile_for(key: str) -> GameProfile:
    """The invariant profile of one game (its catalogue module's ``PROFILE``)."""
    mod = importlib.import_module(f"hanafuda_spec.games.{key}")
    profile = mod.PROFILE
    assert isinstance(profile, GameProfile)
    return profile
