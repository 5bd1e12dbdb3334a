"""``hanafuda rules GAME``: the rule catalogue of a game — rules, gaps and decisions, options."""

from __future__ import annotations

import argparse
import textwrap

from hanafuda_spec.catalogue import OptionLink
from hanafuda_spec.sources import IMPLEMENTATION, SOURCES

from hanafuda.commands._common import GAMES_HELP, add_command, game_name, print_json
from hanafuda.registry import game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "rules", help="show a game's rule catalogue (rules, decisions, options)",
                    description="Show a game's rule catalogue: every rule with its id, evidence and citations, "
                    "the gaps in the sources with their recorded decisions, the options (--option KEY=VALUE "
                    "elsewhere) and the named rulesets (--ruleset).",
                    examples=["hanafuda rules koikoi", "hanafuda rules kekoro --json"])
    p.add_argument("game", type=game_name, metavar="GAME", help=GAMES_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


_SOURCE_STATES = "the source states"


def _link(key: str, link: OptionLink) -> str:
    """An option's dependency on another, in words (``GameSpec.resolve`` applies it)."""
    when = f"with {link.other}={'|'.join(link.when)}"
    parts = []
    if link.allowed:
        parts.append(f"{key} must be {'|'.join(link.allowed)}")
    if link.default:
        parts.append(f"{key} is {link.default} unless chosen")
    return f"{when}: {', '.join(parts)} ({link.rule})"


def run(args: argparse.Namespace) -> int:
    spec = game(args.game).spec
    if args.json:
        print_json({
            "game": spec.key,
            "name": spec.name,
            "rules": [{"id": r.id, "topic": r.topic.value, "text": r.text, "evidence": r.evidence.value,
                       "decided": r.decided, "citations": [str(c) for c in r.citations], "gap": r.gap,
                       "option": r.option} for r in spec.rules],
            "gaps": [{"id": g.id, "question": g.question, "sources_say": g.sources_say, "decision": g.decision,
                      "reason": g.reason, "options": list(g.options), "literal": g.literal} for g in spec.gaps],
            "options": [{"key": o.key, "choices": list(o.choices), "default": o.default, "text": o.text,
                         "citation": str(o.citation), "ours": list(o.ours),
                         "links": [_link(o.key, k) for k in o.links]} for o in spec.options],
            "rulesets": [{"name": rs.name, "text": rs.text, "values": dict(rs.values), "citation": str(rs.citation)}
                         for rs in spec.rulesets],
        })
        return 0
    wrap = textwrap.TextWrapper(width=100, initial_indent="    ", subsequent_indent="    ")
    print(f"{spec.name} — {spec.summary}\n")
    for topic in dict.fromkeys(r.topic for r in spec.rules):
        print(topic.value)
        for r in spec.rules:
            if r.topic is topic:
                print(f"  {r.id}  [{r.evidence.value}]")
                if r.decided:  # what the source states, then what we decided, apart
                    print(wrap.fill(f"{_SOURCE_STATES}: {r.text}"))
                    print(wrap.fill(f"we decided ({r.gap}): {r.decided}"))
                else:
                    print(wrap.fill(r.text))
                print(wrap.fill("source: " + "; ".join(str(c) for c in r.citations)))
        print()
    print("Gaps and decisions")
    for g in spec.gaps:
        print(f"  {g.id}" + ("  [the source as written]" if g.literal else ""))
        print(wrap.fill("question: " + g.question))
        print(wrap.fill("decision: " + g.decision))
    print("\nOptions (--option KEY=VALUE)")
    for o in spec.options:
        print(f"  {o.key} = {'|'.join(o.choices)} (default {o.default})")
        print(wrap.fill(o.text))
        print(wrap.fill(f"source: {o.citation}"))
        if o.ours:
            print(wrap.fill(f"ours (no source offers it): {', '.join(o.ours)}"))
        for k in o.links:
            print(wrap.fill(_link(o.key, k)))
    print("\nRulesets and engine profiles (--ruleset NAME)")
    for rs in spec.rulesets:
        print(f"  {rs.name}: {rs.text}")
        if rs.values:
            print(wrap.fill("options: " + " ".join(f"{k}={v}" for k, v in rs.values.items())))
        print(wrap.fill(f"source: {rs.citation}"))
    engines = sorted({c.source for c in (*(c for r in spec.rules for c in r.citations),
                                          *(o.citation for o in spec.options), *(rs.citation for rs in spec.rulesets))}
                     & {k for k, s in SOURCES.items() if s.kind == IMPLEMENTATION})
    if engines:
        print("\nEngines cited (implementation sources)")
        for key in engines:
            src = SOURCES[key]
            print(f"  {key}: {src.title}, {src.repository} at commit {src.commit}")
    return 0
