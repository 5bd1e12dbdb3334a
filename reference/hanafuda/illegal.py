"""The illegal-action suite of the conformance corpus: records a conforming validator must refuse.

Each record is a seeded match of random legal play cut at some position and ended by one action the
rules forbid there (format 1.1, status ``abandoned``); ``meta.refused`` names the action's index and
the rule id that forbids it (the reference's :meth:`~hanafuda.engine.Game.explain_illegal`). A
validator or engine under test must refuse the record at that action; the referee side compares the
rule id. The suite is written by ``hanafuda vectors`` (``DIR/illegal/<game>.jsonl``) and measured by
``benchmarks/corpus_adequacy.py`` (issue 30: the texts and rule ids of illegal actions were the
corpus's largest blind spot, since every other vector is legal play).

The actions tried at each position are generic: every action kind the games use, naming no card,
one card of the mover's hand, of the field or of another zone, or a hand card with a second card.
One record is kept per distinct explanation (the rule id and the reason with its numbers left out,
a Willow apart from the other cards, and for each number of cards the action names), so the suite
holds each way of breaking a rule once, the first time the seeded matches reach it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from hanafuda_spec.neutral import JsonValue
from hanafuda_spec.records import FORMAT_1_1
from hanafuda_spec.verify import option_sets_beyond_rulesets

from hanafuda.engine import Action, Match
from hanafuda.records import record_match, validate_document

AnyGame = Any

#: Every action kind of the five games (and ``pass``, which none has: an unknown kind is illegal too).
KINDS = ("play", "discard", "take", "draw", "koikoi", "stop", "collect", "declare", "continue", "pass")
#: Labels tried with each kind, besides those legal at the position.
LABELS = ("", "instant-victory")
#: Matches played per ruleset (the seeds 0, 1, ...; one per option set) and deals of each looked at.
MATCHES = 2
DEALS = 2


def _rule_sets(g: AnyGame) -> list[tuple[str | None, dict[str, str]]]:
    return ([(rs.name, {}) for rs in g.spec.rulesets]
            + [(None, values) for _, values in option_sets_beyond_rulesets(g.spec.key)])


def candidates(g: AnyGame, state: Any, legal: Sequence[Action]) -> Iterator[Action]:
    """The actions tried at ``state``: each kind with no card, one card or a hand card and another,
    the cards taken from the mover's hand, the field and the first card of each other zone."""
    seat = g.to_move(state)
    zones: dict[str, tuple[int, ...]] = dict(g.snapshot(state).zones)
    hand = list(zones.get(f"hand.{seat}", ()))
    field = list(zones.get("field", zones.get("pile", ())))
    others = [cs[0] for name, cs in zones.items() if cs and name not in (f"hand.{seat}", "field", "pile")]
    singles = list(dict.fromkeys(hand + field + others))
    labels = list(dict.fromkeys([*LABELS, *(a.label for a in legal if a.label)]))
    for kind in KINDS:
        for label in labels:
            yield Action(kind, (), label)
        for c in singles:
            yield Action(kind, (c,))
        for h in hand:
            for c in field + others[:3] + hand[:2]:
                if c != h:
                    yield Action(kind, (h, c))


_NUMBER, _QUOTED = re.compile(r"\d+"), re.compile(r"'[^']*'")


def _reason_key(text: str) -> str:
    """An explanation with its numbers and quoted parts left out: one key per way of breaking a rule."""
    return _NUMBER.sub("N", _QUOTED.sub("Q", text))


def _special(a: Action) -> bool:
    """Whether the action's first card is a Willow (month 11), the month with the games' special cards
    (Koi-Koi's wild Lightning, Kusuri-gui's willows, Kujuroku's and Kekoro's jokers' rules aside): its
    illegal uses are kept apart from the other cards'."""
    return bool(a.cards) and a.cards[0] // 10 == 11


def _cut(doc: Mapping[str, Any], k: int, act: Action, rule_id: str, scores: Sequence[int]) -> dict[str, JsonValue]:
    """``doc`` (a whole match's record) cut after ``k`` actions and ended by ``act``: the rounds over by
    then are claimed, the scores then, the status abandoned."""
    rounds: list[JsonValue] = []
    done = 0
    for r in doc["result"]["rounds"]:
        if done + r["actions"] > k:
            break
        done += r["actions"]
        rounds.append(r)
    deals = list(doc["deals"])[:len(rounds)]
    out: dict[str, JsonValue] = {
        "format": FORMAT_1_1, "game": doc["game"], "rules": doc["rules"], "seed": doc["seed"],
        "first_dealer": doc["first_dealer"], "players": doc["players"], "deck": doc["deck"],
        "deals": deals, "actions": [*doc["actions"][:k], str(act)],
        "result": {"rounds": rounds, "scores": list(scores)}, "status": "abandoned",
        "meta": {"refused": {"action": k, "rule_id": rule_id}},
    }
    if not deals:
        del out["deals"]
    return out


def illegal_records(g: AnyGame, matches: int = MATCHES, deals: int = DEALS) -> list[dict[str, JsonValue]]:
    """The game's suite: one refused record per distinct explanation, over ``matches`` seeded matches
    per ruleset (one per option set of the options suite) and their first ``deals`` deals. A record is
    kept only if the validator refuses it at that action with that rule id."""
    seen: set[tuple[str, str, bool, int]] = set()
    out: list[dict[str, JsonValue]] = []
    for ruleset, options in _rule_sets(g):
        rules = g.rules(ruleset, options)
        for seed in range(matches if ruleset is not None else 1):
            doc: dict[str, Any] = record_match(g, ruleset, options, seed, seed)
            m: Match[Any, Any] = Match.start(g, rules, seed)
            for k, text in enumerate(doc["actions"]):
                if len(m.info.history) >= deals or m.over:
                    break
                legal = m.legal_actions()
                allowed = set(legal)
                for a in candidates(g, m.state, legal):
                    if a in allowed:
                        continue
                    try:
                        rule_id, reason = g.explain_illegal(m.state, a)
                    except Exception:  # a candidate the game cannot explain is not a vector
                        continue
                    key = (str(rule_id), _reason_key(str(reason)), _special(a), len(a.cards))
                    if key in seen:
                        continue
                    rec = _cut(doc, k, a, key[0], m.info.scores)
                    report = validate_document(rec)
                    if report.problems and report.problems[0].rule_id == key[0]:
                        seen.add(key)
                        out.append(rec)
                m = m.apply(Action.parse(str(text)))
    return out

