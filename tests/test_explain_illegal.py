"""Every explanation an illegal action can get is given, with its rule id, somewhere in real play.

Each game's ``explain_illegal`` names the rule an illegal action breaks. A branch that is never
reached by a test can be deleted, or fall through to "unknown action kind", and nothing notices
(mutation testing found exactly that for KJ-DEAL-4 and KJ-CAP-3). Here random matches are played
and, in every position, a battery of illegal actions of every kind is explained; each branch of each
game's explanation (listed below as its rule id and a phrase of its reason) must be seen. The number
of branches listed is checked against the explanation's source (its ``return`` statements, plus the
three cases of :func:`hanafuda.fishing.explain_hand_play` where a game delegates to it), so a new
branch needs a new line here.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.engine import Action, IllegalActionError
from hanafuda.registry import game
from hanafuda_spec.games import GAME_KEYS, spec_for
from hanafuda_spec.shuffle import SplitMix64

#: Every action kind any game knows, and one no game knows.
KINDS = ("play", "take", "draw", "koikoi", "stop", "declare", "continue", "collect", "discard", "shout")

#: Per game: the option sets to play, and each branch of its explanation as (rule id, phrase of the reason).
BRANCHES: Mapping[str, tuple[tuple[Mapping[str, str], ...], tuple[tuple[str, str], ...]]] = {
    "koikoi": (
        ({"length": "3"}, {"length": "3", "discard": "must-capture", "after_hands": "draw-pile"},
         {"length": "3", "koikoi_limit": "once-per-round", "koikoi_last_turn": "forbidden"}),
        (("KK-TURN-2", "cannot play a hand card now"),
         ("KK-TURN-2", "is not in seat"),
         ("KK-CAP-2", "name one of them as target"),
         ("KK-CAP-1", "no target is chosen"),
         ("KK-CAP-5", "captures nothing while a capture is possible"),
         ("KK-CAP-6", "no drawn card is waiting"),
         ("KK-CAP-2", "is not one of the two field cards"),
         ("KK-END-5", "a draw-only turn"),
         ("KK-TURN-3", "names no card and no label"),
         ("KK-TURN-8", "koi-koi was already called in this round"),
         ("KK-TURN-9", "koi-koi needs a card in hand"),
         ("KK-TURN-3", "koi-koi and shōbu are called only"),
         ("KK-TURN-2", "unknown action kind")),
    ),
    "kekoro": (
        ({},),
        (("KE-TURN-2", "cannot play a hand card now"),
         ("KE-TURN-2", "is not in seat"),
         ("KE-CAP-2", "name one of them as target"),
         ("KE-CAP-1", "no target is chosen"),
         ("KE-CAP-6", "no drawn card is waiting"),
         ("KE-CAP-2", "is not one of the two field cards"),
         ("KE-IV-1", "the only declaration in Kekoro"),
         ("KE-IV-1", "is declared at the end of one's own turn"),
         ("KE-IV-3", "answers the instant-victory choice only"),
         ("KE-TURN-2", "unknown action kind")),
    ),
    "musashino": (
        ({"length": "3"}, {"length": "3", "players": "4"}),
        (("MB-CAP-6", "must first choose what the drawn card takes"),
         ("MB-TURN-2", "is not in seat"),
         ("MB-CAP-2", "name one of them as target"),
         ("MB-CAP-1", "no target is chosen"),
         ("MB-CAP-6", "no drawn card is waiting"),
         ("MB-CAP-2", "is not one of the two field cards"),
         ("MB-TURN-2", "Musashino-Bana has no")),
    ),
    "kujuroku": (
        ({}, {"jizo": "on"}, {"players": "3"}),
        (("KJ-DEAL-4", "the dealt Oni takes one field card"),
         ("KJ-DEAL-6", "the dealer takes two of the three cards"),
         ("KJ-DEAL-4", "nothing is collected now"),
         ("KJ-TURN-2", "cannot play a hand card now"),
         ("KJ-TURN-2", "is not in seat"),
         ("KJ-ONI-2", "may not be discarded while the field has cards"),
         ("KJ-ONI-1", "captures one card that is on the field"),
         ("KJ-JIZO-1", "the Jizo-fuda captures nothing"),
         ("KJ-CAP-3", "name one of them as target"),
         ("KJ-CAP-2", "no target is chosen"),
         ("KJ-CAP-3", "no drawn card is waiting"),
         ("KJ-ONI-3", "the drawn Oni-fuda captures one field card"),
         ("KJ-CAP-3", "is not one of the two field cards"),
         ("KJ-TURN-2", "unknown action kind")),
    ),
    "kusurigui": (
        ({"rounds": "6"}, {"rounds": "6", "oni_play": "choice"}),
        (("KG-PLAY-1", "unknown action kind"),
         ("KG-PLAY-1", "a turn plays exactly one card"),
         ("KG-PLAY-1", "is not in seat"),
         ("KG-PLAY-3", "is not a willow"),
         ("KG-ONI-1", "needs oni_play=choice"),
         ("KG-ONI-2", "the pile is empty")),
    ),
}

#: Branches that no position reaches, with the reason (reported, not hidden).
UNREACHABLE: Mapping[str, str] = {
    "kekoro": "'cannot be played so' (KE-CAP-1): a hand play the shared turn does not refuse is legal in Kekoro",
    "musashino": "'cannot be played so' (MB-CAP-1): a hand play the shared turn does not refuse is legal "
                 "in Musashino-Bana",
    "kujuroku": "'cannot be played so' (KJ-CAP-2): a numbered card's play the shared turn does not refuse is "
                "legal in Kujuroku",
}


def branch_count(key: str) -> int:
    """``return`` statements of the game's ``explain_illegal``, a fall-back ``found or (...)`` counted
    apart from the three cases of ``explain_hand_play`` it stands behind."""
    fn = type(game(key)).explain_illegal
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    n = sum(1 for node in ast.walk(tree) if isinstance(node, ast.Return))
    delegates = any(isinstance(node, ast.Name) and node.id == "explain_hand_play" for node in ast.walk(tree))
    return n + (3 if delegates else 0) - (1 if key in UNREACHABLE else 0)


def candidates(zones: Mapping[str, tuple[int, ...]], mover: int) -> Iterator[Action]:
    """Actions of every kind on the cards that matter in a position: the mover's hand, the field,
    a waiting drawn card, and one card that is elsewhere."""
    hand = zones.get(f"hand.{mover}", ())
    field = zones.get("field", ()) or zones.get("pile", ())
    drawn = zones.get("drawn", ())
    elsewhere = next((c for z, cs in zones.items() if z not in (f"hand.{mover}", "field", "pile") for c in cs), 999)
    singles = {*hand, *field, *drawn, elsewhere}
    targets = (*field[:6], elsewhere)
    for kind in KINDS:
        yield Action(kind)
        yield Action(kind, (), "instant-victory")
        yield Action(kind, (), "other")
        for c in sorted(singles):
            yield Action(kind, (c,))
        for c in (*hand, *drawn, elsewhere):
            for t in targets:
                if t != c:
                    yield Action(kind, (c, t))


def explanations(key: str, options: Mapping[str, str], seed: int) -> set[tuple[str, str]]:
    """(rule id, reason) of every illegal candidate action in every position of one random match."""
    a = ReferenceAdapter()
    a.start(key, dict(spec_for(key).resolve(None, dict(options))), seed)
    rng = SplitMix64(seed)
    seen: set[tuple[str, str]] = set()
    while not a.match_over():
        m = a.match
        g, state = m.game, m.state
        legal = set(g.legal(state))
        snap = a.snapshot()
        if snap.to_move is not None:
            for act in candidates(dict(snap.zones), snap.to_move):
                if act not in legal:
                    seen.add(g.explain_illegal(state, act))
        actions = a.legal_actions()
        a.apply(actions[rng.below(len(actions))])
    return seen


@pytest.fixture(scope="module")
def observed() -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for key, (option_sets, branches) in BRANCHES.items():
        seen: set[tuple[str, str]] = set()
        for seed in range(1, 25):
            for opts in option_sets:
                seen |= explanations(key, opts, seed)
            if all(any(r == rule and phrase in why for r, why in seen) for rule, phrase in branches):
                break
        out[key] = sorted(seen)
    return out


def test_every_game_is_listed() -> None:
    assert sorted(BRANCHES) == sorted(GAME_KEYS)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_branch_is_listed(key: str) -> None:
    """A branch added to an explanation must be added to :data:`BRANCHES` (and so be reached)."""
    assert len(BRANCHES[key][1]) == branch_count(key)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_branch_is_reached(key: str, observed: dict[str, list[tuple[str, str]]]) -> None:
    seen = observed[key]
    missing = [(rule, phrase) for rule, phrase in BRANCHES[key][1]
               if not any(r == rule and phrase in why for r, why in seen)]
    assert not missing, f"{key}: explanations never given: {missing}"
    rules = {r for r, _ in seen}
    assert all(spec_for(key).has_rule(r) for r in rules), rules
    # every explanation given is one of the listed branches (no stray rule id or message)
    stray = [(r, why) for r, why in seen if not any(r == rule and phrase in why for rule, phrase in BRANCHES[key][1])]
    assert not stray, stray[:5]


@pytest.mark.parametrize("key", GAME_KEYS)
def test_known_kinds_never_fall_through(key: str, observed: dict[str, list[tuple[str, str]]]) -> None:
    """Only a kind the game does not know is called unknown (the fall-through the mutants reached)."""
    for _rule, why in observed[key]:
        if "unknown action kind" in why or "has no" in why:
            assert "'shout'" in why or any(f"'{k}'" in why for k in KINDS if k not in _kinds(key)), why


def _kinds(key: str) -> set[str]:
    """The action kinds a game offers in play (from its legal actions over a few matches)."""
    kinds: set[str] = set()
    for seed in range(1, 4):
        a = ReferenceAdapter()
        opts: dict[str, Any] = dict(BRANCHES[key][0][-1])
        a.start(key, dict(spec_for(key).resolve(None, opts)), seed)
        rng = SplitMix64(seed)
        while not a.match_over():
            acts = a.legal_actions()
            kinds |= {x.split()[0] for x in acts}
            a.apply(acts[rng.below(len(acts))])
    return kinds


def test_the_engine_raises_the_explanation() -> None:
    """The explanation reaches the caller through the engine's refusal (and the adapter's ValueError)."""
    a = ReferenceAdapter()
    a.start("kujuroku", dict(spec_for("kujuroku").resolve(None, {})), 1)
    m = a.match
    with pytest.raises(IllegalActionError) as e:
        m.game.apply(m.state, Action("shout"))
    assert e.value.rule_id == "KJ-TURN-2" and "unknown action kind" in e.value.reason
    with pytest.raises(ValueError, match=r"\[KJ-TURN-2\]"):
        a.apply("shout")
