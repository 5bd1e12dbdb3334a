"""The generated pages of the rulebooks (MyST Markdown and reStructuredText).

:func:`write_site` writes everything under ``<docs>/gen/`` from the catalogue: one rulebook per
game (chapters in :class:`~hanafuda_spec.catalogue.Topic` order, every rule with its id and
citation, the deck, yaku and option tables), a "Sources and decisions" page and a
verification-status page per game, the spec pages (invariants, proofs, the shuffle and its
test vectors, the record format), the command-line reference and the Python API. ``docs/conf.py``
calls it before every build, so a game's rulebook appears as soon as its catalogue exists.

Citations are ``{cite:p}`` roles on the source key (see :mod:`hanafuda.rulebook.bib`); an
unknown key fails the build.

>>> md_escape("a *b* | c_d")
'a \\\\*b\\\\* \\\\| c\\\\_d'
>>> rule_label("KK-DEAL-1")
'kk-deal-1'
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pkgutil
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from hanafuda_spec.cards import DAINI_JIZO, DECKS, HANAFUDA, BaseCard, Card, Deck
from hanafuda_spec.catalogue import Citation, GameSpec, Gap, Rule, Topic
from hanafuda_spec.games import all_specs, profile_for
from hanafuda_spec.invariants import GENERIC, GameProfile
from hanafuda_spec.shuffle import SHUFFLE_VECTORS
from hanafuda_spec.verify import option_sets

from hanafuda.rulebook.learn import legend, sources_table, write_learning
from hanafuda.rulebook.pictures import card_svg, kind_label, picture_name
from hanafuda.rulebook.yakuview import game_yaku

__all__ = ["GENERIC_INVARIANTS", "md_escape", "rule_label", "write_site"]

#: What each generic invariant of :func:`hanafuda_spec.invariants.GENERIC` establishes.
GENERIC_INVARIANTS: dict[str, str] = {
    "card-conservation": "Every card of the deck the options select is in exactly one zone, after every action: "
    "no card is lost, duplicated or invented.",
    "legal-sorted-unique": "The legal actions are offered in the canonical order (kind, card ids, label), "
    "each once.",
    "legal-nonempty-until-end": "Until the match is over a player is to move and has at least one legal "
    "action; once it is over, none is offered.",
    "zero-sum-settlement": "Where the game is zero-sum (chips change hands), every round's score changes sum "
    "to zero.",
    "bounded-round-length": "A round ends within the game's bound on actions: no endless round.",
    "scores-follow-settlement": "The scores after a round are the scores before it plus the round's "
    "settlement: nothing changes the scores but settlement.",
    "final-positions": "Where the implementation reports the position a round ended in, it is a position of "
    "the same game, holds every card exactly once, and shows the scores from before the round was settled "
    "(games then check the round's result exactly against its final capture piles).",
}

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|{}$])")


def md_escape(text: str) -> str:
    """Text from the catalogue, safe inside MyST Markdown (tables included)."""
    return str(_MD_SPECIAL.sub(r"\\\1", text).replace("\n", " "))


_NON_ID = re.compile(r"[^a-z0-9]+")
_ID_ENDS = re.compile(r"^[-0-9]+|-+$")


def make_id(text: str) -> str:
    """The HTML id docutils gives a name (``docutils.nodes.make_id`` for ASCII text)."""
    return _ID_ENDS.sub("", _NON_ID.sub("-", " ".join(text.lower().split())))


def rule_label(rule_id: str) -> str:
    """The label (and HTML id) of a rule, a gap or any catalogue id."""
    return make_id(rule_id)


def yaku_label(game: str, yaku_id: str) -> str:
    """The label (and HTML id) of a yaku's entry."""
    return make_id(f"yaku-{game}-{yaku_id}")


def _ref(label: str, text: str) -> str:
    # role content is taken literally (no Markdown escapes); only the title/target syntax matters
    title = text.replace("`", "'").replace("<", "(").replace(">", ")").replace("|", "/")
    return f"{{ref}}`{title} <{label}>`"


def cite(c: Citation) -> str:
    """A citation: the bibliography reference, the section and the short quoted phrase."""
    out = f"{{cite:p}}`{c.source}` §{md_escape(c.section)}"
    if c.quote:
        out += f", “{md_escape(c.quote)}”"
    return out


# -- cards --------------------------------------------------------------------------------------


def _family(deck: Deck) -> Deck:
    return DAINI_JIZO if deck.name.startswith("daini") else HANAFUDA


def card_image(c: BaseCard, rel: str) -> str:
    """The Markdown image of a card (``rel`` is the path from the page to the pictures)."""
    return f"![{c.id} {md_escape(c.name_en)}]({rel}/{picture_name(c)})"


def _cards_images(ids: Iterable[int], deck: Deck, rel: str) -> str:
    fam = _family(deck)
    return " ".join(card_image(fam.by_id(i), rel) for i in ids)


def write_pictures(out: Path) -> None:
    """One SVG per card of every deck."""
    out.mkdir(parents=True, exist_ok=True)
    for c in (*HANAFUDA.cards, *DAINI_JIZO.cards):
        (out / picture_name(c)).write_text(card_svg(c), encoding="utf-8")


def deck_table(deck: Deck, rel: str) -> str:
    """The deck as a table with a picture of every card."""
    if deck.cards and isinstance(deck.cards[0], Card):
        head = "| | id | slug | month | kind | name | 名前 |\n|---|---|---|---|---|---|---|\n"
    else:
        head = "| | id | slug | rank | kind | name | 名前 |\n|---|---|---|---|---|---|---|\n"
    rows = []
    for c in deck.cards:
        suit = str(c.suit)
        rows.append(f"| {card_image(c, rel)} | {c.id} | `{c.slug}` | {suit} | {kind_label(c)} | "
                    f"{md_escape(c.name_en)} | {md_escape(c.name_ja)} |")
    return head + "\n".join(rows) + "\n"


def deck_grid(deck: Deck, rel: str) -> str:
    """The deck as a grid: one row per month (or Daini rank), the cards side by side."""
    from hanafuda.rulebook.pictures import PLANT_COLOURS

    rows: dict[int, list[BaseCard]] = {}
    for c in deck.cards:
        rows.setdefault(c.suit, []).append(c)
    hanafuda = bool(deck.cards) and isinstance(deck.cards[0], Card)
    out = ["| month | cards |" if hanafuda else "| rank | cards |", "|---|---|"]
    for suit, cards in rows.items():
        if hanafuda:
            head = f"{suit} {PLANT_COLOURS[suit][0]}"
        else:
            head = "jokers" if suit == 0 else str(suit)
        out.append(f"| {head} | " + " ".join(card_image(c, rel) for c in cards) + " |")
    missing = [c for c in _family(deck).cards if c not in deck.cards and (hanafuda or c.suit != 0)]
    text = "\n".join(out) + "\n"
    if missing:
        text += ("\nLeft out of the full deck: " + ", ".join(f"{c.id} {md_escape(c.name_en)}" for c in missing)
                 + ".\n")
    return text


# -- a rulebook ---------------------------------------------------------------------------------


def _deck_of(spec: GameSpec) -> Deck:
    return DECKS.get(spec.deck, HANAFUDA)


def rule_block(spec: GameSpec, r: Rule) -> str:
    """One rule: id, evidence, text, citations, and the decision and option it relates to."""
    from hanafuda.rulebook.learn import EVIDENCE_BADGES

    badge = EVIDENCE_BADGES[r.evidence][0]
    refs = ["; ".join(cite(c) for c in r.citations)]
    if r.gap is not None:
        refs.append("decision " + _ref(rule_label(r.gap), r.gap))
    if r.option is not None:
        refs.append("option " + _ref(f"{spec.key}-options", r.option))
    lines = [":::{container} rule", f":name: {rule_label(r.id)}", "",
             f"**{r.id}** [{badge}]{{.badge .ev-{badge}}} {md_escape(r.text)}", "",
             *([f"*Our decision ({r.gap}):* {md_escape(r.decided)}", ""] if r.decided else []),
             "[" + " · ".join(refs) + "]{.cite}", ":::"]
    return "\n".join(lines) + "\n"


def yaku_section(spec: GameSpec, deck: Deck) -> str:
    """The yaku of the rules page: one compact table, each name linking to its drawing in the yaku
    gallery (the cards are drawn there, once, so that this page stays short on a phone)."""
    views = game_yaku(spec.key)
    if not views:
        return ""
    rule_text = {r.id: r.text for r in spec.rules}
    out = [f"({spec.key}-yaku-table)=", "### Yaku table", "",
           "Generated from the yaku data the reference scores with. Each name links to the yaku's cards, drawn in "
           f"{_ref(f'{spec.key}-gallery', 'the yaku gallery')}.", "",
           "| yaku | points | group | rule | option |", "|---|---|---|---|---|"]
    known = {y.id for y in views if not y.option}
    for y in views:
        if y.option and y.id in known:  # a variant row: the gallery's table compares it with the default
            continue
        rule = ("[" + _ref(rule_label(y.rule), y.rule) + "]{.rid}") if y.rule in rule_text else md_escape(y.rule or "")
        name = _ref(yaku_label(spec.key, y.label), y.name)
        out.append(f"| {name} | {md_escape(y.points)} | {md_escape(y.group or '')} | {rule} | "
                   f"{md_escape(y.option) or 'default'} |")
    out.append("")
    if any(y.option and y.id in known for y in views):
        out += ["What the rulesets and option values change in these yaku is compared with the default in "
                + _ref(f"{spec.key}-gallery-variants", "the gallery's table of house rules") + ".", ""]
    return "\n".join(out) + "\n"


def _value_groups(values: dict[int, int], deck: Deck, rel: str, title: str = "", folded: bool = False) -> list[str]:
    """A value table (value, the cards worth it) under a ``title`` heading, or folded into a
    ``details`` element titled so (the rules page: the pictures are one click away)."""
    by_value: dict[int, list[int]] = {}
    for cid, v in sorted(values.items()):
        by_value.setdefault(v, []).append(cid)
    out = ["| value | cards |", "|---|---|"]
    for v in sorted(by_value, reverse=True):
        out.append(f"| {v} | {_cards_images(by_value[v], deck, rel)} |")
    if folded:
        return [f":::{{details}} {title}", "", *out, "", ":::"]
    return [f"#### {title}", "", *out]


def value_tables(spec: GameSpec, deck: Deck, folded: bool = False) -> str:
    """Card-value and chip tables from the game's spec module, where it declares them:
    ``CARD_VALUES`` (scale -> card id -> value), ``card_points(card_id, jizo)`` and ``CHIP_TABLE``
    ((lowest score of a band, chips), highest band first)."""
    mod = importlib.import_module(f"hanafuda_spec.games.{spec.key}")
    out: list[str] = []
    scales = getattr(mod, "CARD_VALUES", None)
    if isinstance(scales, Mapping) and all(isinstance(v, Mapping) for v in scales.values()):
        option = next((o.key for o in spec.options if set(scales) <= set(o.choices)), None)
        for scale, table in scales.items():
            which = f" (`{option}={scale}`)" if option else f" ({md_escape(str(scale))})"
            out += [*_value_groups(dict(table), deck, "../cards", f"Card values{which}", folded), ""]
    fn = getattr(mod, "card_points", None)
    if callable(fn) and list(inspect.signature(fn).parameters) == ["card_id", "jizo"]:
        for jizo, variant in ((False, deck), (True, DECKS.get(deck.name + "-jizo"))):
            if variant is None:
                continue
            title = "with the Jizo-fuda" if jizo else "standard deck"
            values = {c.id: int(fn(c.id, jizo)) for c in variant.cards}
            out += [*_value_groups(values, variant, "../cards", f"Card points ({title})", folded), ""]
    chips = getattr(mod, "CHIP_TABLE", None)
    if isinstance(chips, tuple) and chips and all(isinstance(b, tuple) and len(b) == 2 for b in chips):
        out += ["#### Chip table", "", "| card score | chips |", "|---|---|"]
        upper: int | None = None
        for low, n in chips:
            band = (f"{low} or more" if upper is None else f"{low} to {upper - 1}") if low > -10**6 else (
                f"below {upper}")
            out.append(f"| {band} | {n:+d} |")
            upper = low
        out.append("")
    if out:
        out = [f"({spec.key}-value-tables)=", "### Card values and chips", "",
               "Generated from the tables the reference settles with.", "", *out]
    return "\n".join(out) + ("\n" if out else "")


def options_page(spec: GameSpec) -> str:
    """The options and rulesets of a game, for implementers (a page of its own, linked from the rules)."""
    out = [f"# {md_escape(spec.name)}: options and rulesets", "",
           f"How to select each variation the reference implements; {_ref(f'{spec.key}-house-rules', 'How to play')} "
           "tells the same variations in words.", "",
           f"({spec.key}-options)=", "## Options", "",
           "Select with `--option KEY=VALUE` (the default value is in bold).", "",
           "| option | values | meaning | source |", "|---|---|---|---|"]
    for o in spec.options:
        vals = ", ".join(f"**{md_escape(v)}**" if v == o.default else md_escape(v) for v in o.choices)
        out.append(f"| `{o.key}` | {vals} | {md_escape(o.text)} | {cite(o.citation)} |")
    out += ["", f"({spec.key}-rulesets)=", "## Rulesets", "",
            "Select with `--ruleset NAME`.", "",
            "| ruleset | meaning | option values | source |", "|---|---|---|---|"]
    for rs in spec.rulesets:
        vals = ", ".join(f"`{k}={v}`" for k, v in rs.values.items()) or "the defaults"
        name = f"**{rs.name}** (default)" if rs.name == spec.default_ruleset else rs.name
        out.append(f"| {name} | {md_escape(rs.text)} | {vals} | {cite(rs.citation)} |")
    return "\n".join(out) + "\n"


def rulebook_page(spec: GameSpec, has_examples: bool) -> str:
    deck = _deck_of(spec)
    from hanafuda.rulebook.learn import evidence_legend

    out = [f"({spec.key}-rules)=", f"# {md_escape(spec.name)}: the rules", "",
           f"*{md_escape(spec.summary)}*", "",
           f"Also called: {', '.join(md_escape(a) for a in spec.aliases)}. "
           f"Deck: {deck.name} ({len(deck)} cards). Sources: "
           + ", ".join(f"{{cite:p}}`{s}`" for s in spec.sources) + ".", "",
           f"Every rule below is enforced by the reference and has an id (errors and tests name it), a "
           f"citation, and how it is supported. Where the sources are silent or disagree, the rule names the "
           f"decision recorded on {_ref(f'{spec.key}-decisions', 'Sources and decisions')}.", "",
           evidence_legend(), ""]
    for n, topic in enumerate(Topic, 1):
        rules = [r for r in spec.rules if r.topic is topic]
        out += [f"({spec.key}-{topic.name.lower()})=", f"## {n}. {topic.value}", ""]
        if not rules:
            out += ["The catalogue has no rule under this heading.", ""]
        for r in rules:
            out.append(rule_block(spec, r))
        if topic is Topic.EQUIPMENT:
            out += [f"({spec.key}-deck)=", "### The deck", "",
                    f"The {deck.name} deck, {len(deck)} cards: drawn month by month in "
                    + _ref(f"{spec.key}-howto", "How to play") + ", with ids, names and kinds in "
                    + _ref("deck-tables", "the deck tables") + ".", ""]
            for other in DECKS.values():
                if other.name.startswith(deck.name + "-"):
                    extra = [c for c in other.cards if c not in deck.cards]
                    out += [f"The **{other.name}** deck adds: "
                            + ", ".join(f"{card_image(c, '../cards')} {md_escape(c.name_en)}" for c in extra),
                            ""]
        if topic is Topic.YAKU:
            out.append(yaku_section(spec, deck))
        if topic is Topic.SCORING:
            out.append(value_tables(spec, deck, folded=True))
        if topic is Topic.VARIANTS:
            out += [f"Every option and ruleset, with its values and source: {_ref(f'{spec.key}-options', 'Options')} "
                    f"and {_ref(f'{spec.key}-rulesets', 'Rulesets')}; the same in words for players: "
                    f"{_ref(f'{spec.key}-house-rules', 'Variants (house rules)')} in How to play.", ""]
    return "\n".join(out) + "\n"


# -- sources and decisions ----------------------------------------------------------------------


@dataclass(frozen=True)
class FoundGap:
    """A situation a z3 proof found that needs a recorded decision (a proof's ``Case``)."""

    text: str
    gap: str | None
    check: str


@dataclass(frozen=True)
class CheckRow:
    """One check of a ``hanafuda verify --json`` report."""

    game: str
    check: str
    kind: str
    examples: int
    seconds: float
    ok: bool
    detail: str
    cases: tuple[FoundGap, ...]
    #: The part of the run (``random play``, ``state machines``, ``proofs``).
    part: str = "proofs"


def read_report(path: Path | None) -> tuple[CheckRow, ...] | None:
    """The checks of a ``hanafuda verify --json`` report (None without one). A proof's ``cases``
    (``[{"text": ..., "gap": ...}]``) are the gaps z3 found."""
    if path is None:
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = []
    for c in data.get("checks", []):
        cases = tuple(FoundGap(str(x.get("text", "")), x.get("gap"), str(c.get("check", "")))
                      for x in c.get("cases", []) if isinstance(x, dict))
        rows.append(CheckRow(str(c.get("game", "")), str(c.get("check", "")), str(c.get("kind", "")),
                             int(c.get("examples", 0)), float(c.get("seconds", 0.0)), bool(c.get("ok", False)),
                             str(c.get("detail", "")), cases,
                             str(c.get("part", "proofs" if c.get("kind") == "proof" else ""))))
    return tuple(rows)


def found_gaps(key: str, report: Sequence[CheckRow] | None) -> tuple[FoundGap, ...] | None:
    """Gaps z3 found for a game: the cases of its proof checks in the verify report, or what
    ``hanafuda_spec.proofs.found_gaps(game)`` lists if the spec offers that; None if neither."""
    mod = _proofs_module()
    fn = getattr(mod, "found_gaps", None) if mod is not None else None
    if callable(fn):
        return tuple(FoundGap(str(getattr(g, "text", g)), getattr(g, "gap", None), str(getattr(g, "check", "")))
                     for g in fn(key))
    if report is None:
        return None
    return tuple(c for r in report if r.game == key and r.part == "proofs" for c in r.cases)


def headline(question: str, limit: int = 100) -> str:
    """A decision's title: its question, cut at the question mark or the first clause if long.

    >>> headline("Who deals first? The seed does not say.")
    'Who deals first?'
    """
    q = " ".join(question.split())
    if "?" in q[:limit + 20]:
        return q[:q.index("?") + 1]
    for sep in (": ", "; ", " (", ", "):
        if sep in q[20:limit]:
            return q[:q.index(sep, 20)]
    if len(q) <= limit:
        return q
    return q[:q.rindex(" ", 0, limit)] + " …"


def gap_block(spec: GameSpec, g: Gap) -> str:
    rules = [r.id for r in spec.rules if r.gap == g.id]
    out = [f"({rule_label(g.id)})=", f"## {md_escape(headline(g.question))}", "",
           f"*Decision {g.id}.* **Decision.** {md_escape(g.decision)}", "",
           ":::{details} The question in full, what the sources say, and the reason", "",
           f"**Question.** {md_escape(g.question)}", "",
           f"**What the sources say.** {md_escape(g.sources_say)}", "",
           f"**Reason.** {md_escape(g.reason)}", ":::", ""]
    if g.options:
        out += ["**Options selecting the alternatives.** "
                + ", ".join(f"`{o}` ({md_escape(' | '.join(spec.option(o).choices))})" for o in g.options)
                + " — see " + _ref(f"{spec.key}-options", "Options") + ".", ""]
    else:
        out += ["**Options selecting the alternatives.** None: no player would reasonably want another "
                "reading, or the alternative is not implemented (the decision says which).", ""]
    if rules:
        out += ["**Rules recording it.** " + ", ".join(_ref(rule_label(r), r) for r in rules) + ".", ""]
    return "\n".join(out)


def decisions_page(spec: GameSpec, report: Sequence[CheckRow] | None = None) -> str:
    cited = sorted({c.source for r in spec.rules for c in r.citations} | set(spec.sources)
                   | {o.citation.source for o in spec.options})
    out = [f"({spec.key}-decisions)=", f"# {md_escape(spec.name)}: sources and decisions", "",
           "The documents this rulebook cites: " + ", ".join(f"{{cite:p}}`{s}`" for s in cited) + ".", "",
           "Each gap below is a place where the sources are silent, ambiguous or contradict each other. Its id "
           "is the one in our research notes (the rules dossier). The decision is what the reference "
           "enforces; where a player could reasonably want another reading, an option selects it.", ""]
    for g in spec.gaps:
        out.append(gap_block(spec, g))
    out += [f"({spec.key}-z3-gaps)=", "## Gaps found by z3", "",
            ":::{note}", "This section is filled in automatically from `hanafuda_spec.proofs` at every build: "
            "the gaps its z3 models found in this game's rules (questions the sources leave open that the "
            "proofs ran into).", ":::", ""]
    found = found_gaps(spec.key, report)
    if found is None:
        out += ["*This build was made without a verification report (`hanafuda rulebook --report FILE`, FILE "
                "being the output of `hanafuda verify --json`), so no z3 results are included.*", ""]
    elif not found:
        out += ["The proofs found no case needing a decision beyond those above.", ""]
    else:
        out += ["| case | decision | found by |", "|---|---|---|"]
        for fg in found:
            gap = _ref(rule_label(fg.gap), fg.gap) if fg.gap and any(g.id == fg.gap for g in spec.gaps) else (
                md_escape(fg.gap) if fg.gap else "**open: no recorded decision**")
            out.append(f"| {md_escape(fg.text)} | {gap} | {md_escape(fg.check)} |")
        out.append("")
    return "\n".join(out) + "\n"


# -- verification status ------------------------------------------------------------------------


_TEST_DEF = re.compile(r"^\s*def (test_\w+)\(", re.M)
_TEST_NAME = re.compile(r"^test_([A-Z]+)_([A-Z]+)_(\d+)((?:_(?:to_)?\d+)*)(?:_|$)")


def rule_tests(tests_dir: Path | None) -> dict[str, list[str]]:
    """Unit tests named after rule ids (``test_KK_YAKU_2_to_5_...`` covers KK-YAKU-2 to -5)."""
    found: dict[str, list[str]] = {}
    if tests_dir is None or not tests_dir.is_dir():
        return found
    for f in sorted(tests_dir.glob("test_*.py")):
        for name in _TEST_DEF.findall(f.read_text(encoding="utf-8")):
            m = _TEST_NAME.match(name)
            if m is None:
                continue
            game, area, first, rest = m.groups()
            nums = [int(first)]
            prev_to = False
            for tok in rest.split("_")[1:]:
                if tok == "to":
                    prev_to = True
                    continue
                n = int(tok)
                nums.extend(range(nums[-1] + 1, n + 1) if prev_to else [n])
                prev_to = False
            for n in nums:
                tests = found.setdefault(f"{game}-{area}-{n}", [])
                if f"{f.name}::{name}" not in tests:
                    tests.append(f"{f.name}::{name}")
    return found


def _profile(key: str) -> GameProfile | None:
    try:
        return profile_for(key)
    except (ModuleNotFoundError, AttributeError):
        return None


def _reference_exists(key: str) -> bool:
    try:
        importlib.import_module(f"hanafuda.games.{key}")
    except ModuleNotFoundError:
        return False
    return True


def _proofs_module() -> ModuleType | None:
    try:
        return importlib.import_module("hanafuda_spec.proofs")
    except ModuleNotFoundError:
        return None


def proof_module(key: str) -> str | None:
    """The name of a game's z3 proof module (``hanafuda_spec.proofs.<key>``), if it exists."""
    name = f"hanafuda_spec.proofs.{key}"
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:
        return None
    return name


def _proof_functions(module: str) -> list[tuple[str, str]]:
    """(function, first paragraph of its docstring) of a proof module's documented functions."""
    mod = importlib.import_module(module)
    out = []
    for name, fn in vars(mod).items():
        if inspect.isfunction(fn) and fn.__module__ == module and fn.__doc__:
            out.append((name, inspect.cleandoc(fn.__doc__).split("\n\n")[0].replace("\n", " ")))
    return out


def report_table(rows: Sequence[CheckRow]) -> list[str]:
    out = ["| check | kind | examples | time | result |", "|---|---|---|---|---|"]
    for r in rows:
        res = "ok" if r.ok else f"**FAILED**: {md_escape(r.detail)}"
        out.append(f"| {md_escape(r.check)} | {r.kind} | {r.examples} | {r.seconds:.1f} s | {res} |")
    return out


def status_page(spec: GameSpec, tests: dict[str, list[str]], report: Sequence[CheckRow] | None = None) -> str:
    prof = _profile(spec.key)
    invs = [name for name, _ in prof.invariants] if prof else []
    pmod = proof_module(spec.key)
    rows = [r for r in report or () if r.game == spec.key]
    n_sets = len(option_sets(spec.key)) if prof else 0
    by_ev: dict[str, int] = {}
    for r in spec.rules:
        by_ev[r.evidence.value] = by_ev.get(r.evidence.value, 0) + 1
    tested = sum(1 for r in spec.rules if r.id in tests)
    out = [f"({spec.key}-status)=", f"# {md_escape(spec.name)}: verification status", "",
           "Generated at build time from the catalogue, the game's invariant profile, the proofs and the names "
           "of the unit tests.", "",
           "| | |", "|---|---|",
           f"| reference implementation | {'yes' if _reference_exists(spec.key) else 'not yet'} |",
           f"| rules | {len(spec.rules)} |"]
    for ev, n in by_ev.items():
        out.append(f"| … {md_escape(ev)} | {n} |")
    out += [f"| gaps decided | {len(spec.gaps)} |",
            f"| options / rulesets | {len(spec.options)} / {len(spec.rulesets)} |",
            f"| rules with a unit test named after them | {tested} of {len(spec.rules)} |",
            f"| invariants checked after every action | {len(GENERIC_INVARIANTS)} generic + {len(invs)} "
            f"for this game |",
            f"| option sets `hanafuda verify` plays | {n_sets} |",
            f"| z3 proof module | {('{py:mod}`' + pmod + '`') if pmod else 'not yet'} |",
            "| last verification report | " + ((f"{sum(r.ok for r in rows)} of {len(rows)} checks passed")
                                               if report is not None else "not included in this build") + " |",
            ""]
    out += ["## Per rule", "", "| rule | evidence | unit tests | invariants |", "|---|---|---|---|"]
    for r in spec.rules:
        t = "<br>".join(f"`{x}`" for x in tests.get(r.id, [])) or "—"
        inv = ", ".join(md_escape(n) for n in invs if n.split()[0] == r.id) or "—"
        out.append(f"| {_ref(rule_label(r.id), r.id)} | {md_escape(r.evidence.name)} | {t} | {inv} |")
    if rows:
        out += ["", "## Verification report", "", "The checks of `hanafuda verify` included in this build:", "",
                *report_table(rows)]
    return "\n".join(out) + "\n"


# -- spec pages ---------------------------------------------------------------------------------


def invariants_page(specs: Sequence[GameSpec]) -> str:
    out = ["(spec-invariants)=", "# Invariants", "",
           "`hanafuda verify` plays random matches under every ruleset and every non-default option value and "
           "checks these invariants after every action, over the neutral form of the position "
           "({py:mod}`hanafuda_spec.neutral`). A violation is reported with the seeds and the action list that "
           "reproduce it.", "", "## Every game", "", "| invariant | what it establishes |", "|---|---|"]
    some = next((_profile(s.key) for s in specs if _profile(s.key) is not None), None)
    names = [n for n, _ in GENERIC(some)] if some else list(GENERIC_INVARIANTS)
    for n in names:
        out.append(f"| `{n}` | {md_escape(GENERIC_INVARIANTS[n])} |")
    for s in specs:
        prof = _profile(s.key)
        out += ["", f"## {md_escape(s.name)}", ""]
        if prof is None or not prof.invariants:
            out += ["No game-specific invariant yet.", ""]
            continue
        out += ["| invariant | what it establishes |", "|---|---|"]
        for n, fn in prof.invariants:
            doc = inspect.cleandoc(fn.__doc__ or "").replace("\n", " ")
            rid = n.split()[0]
            name = _ref(rule_label(rid), n) if s.has_rule(rid) else f"`{md_escape(n)}`"
            out.append(f"| {name} | {md_escape(doc)} |")
    return "\n".join(out) + "\n"


def proofs_page(specs: Sequence[GameSpec], report: Sequence[CheckRow] | None = None) -> str:
    """The proofs' first page: what they are, and a page per game (:func:`game_proofs_page`)."""
    out = ["(spec-proofs)=", "# Proofs", "",
           "The z3 proofs, one module per game, built with {py:mod}`hanafuda_spec.z3layer`: each states a property "
           "of the rules over *every* case (not samples), and a failure comes with a counterexample. The proofs "
           "run in `hanafuda verify`; a build given its report (`hanafuda rulebook --report FILE`) lists the "
           "results on each game's page.", ""]
    if _proofs_module() is None:
        return "\n".join([*out, "*The spec has no proofs yet.*", ""]) + "\n"
    out += ["```{eval-rst}", ".. automodule:: hanafuda_spec.proofs", "   :no-index:", "```", "",
            "```{toctree}", ":maxdepth: 1", "", *[f"proofs-{s.key}" for s in specs], "```", ""]
    return "\n".join(out) + "\n"


def game_proofs_page(s: GameSpec, report: Sequence[CheckRow] | None = None) -> str:
    """One game's proofs: the module's docstring, what each proof establishes, the report's results."""
    out = [f"(spec-proofs-{s.key})=", f"# Proofs: {md_escape(s.name)}", ""]
    pmod = proof_module(s.key)
    if pmod is None:
        return "\n".join([*out, "No proof module for this game yet.", ""]) + "\n"
    out += ["```{eval-rst}", f".. automodule:: {pmod}", "   :no-index:", "```", ""]
    funcs = _proof_functions(pmod)
    if funcs:
        out += ["| proof | what it establishes |", "|---|---|"]
        out += [f"| `{n}` | {md_escape(t)} |" for n, t in funcs]
        out.append("")
    rows = [r for r in report or () if r.game == s.key and r.part == "proofs"]
    if rows:
        out += ["Results in the included verification report:", "", *report_table(rows), ""]
    return "\n".join(out) + "\n"


def shuffle_page() -> str:
    out = ["(spec-shuffle)=", "# The shuffle", "",
           "Every deal of the reference comes from this generator and shuffle, so any implementation can "
           "reproduce our deals from a seed.", "",
           "```{eval-rst}", ".. automodule:: hanafuda_spec.shuffle", "   :no-index:", "```", "",
           "## Test vectors", "",
           "The first shuffle of each deck for each seed, top card first "
           "({py:data}`hanafuda_spec.shuffle.SHUFFLE_VECTORS`; the test suite checks them).", "",
           "| deck | seed | order, top first |", "|---|---|---|"]
    for (deck_name, seed), order in SHUFFLE_VECTORS.items():
        out.append(f"| {deck_name} | {seed} | {' '.join(map(str, order))} |")
    first = next(iter(SHUFFLE_VECTORS.items()), None)
    if first is not None:
        (deck_name, seed), order = first
        out += ["", f"The first vector ({deck_name}, seed {seed}) as cards, top first:", "",
                _cards_images(order, DECKS[deck_name], "../cards"), ""]
    return "\n".join(out) + "\n"


def module_page(label: str, title: str, module: str, intro: str) -> str:
    return "\n".join([f"({label})=", f"# {title}", "", intro, "", "```{eval-rst}", f".. automodule:: {module}",
                      "   :no-index:", "```", ""]) + "\n"


def spec_index(specs: Sequence[GameSpec], pages: Sequence[str], report: Sequence[CheckRow] | None = None) -> str:
    tests = rule_tests(_tests_dir())
    out = ["(spec-index)=", "# The executable spec", "",
           "The spec ({py:mod}`hanafuda_spec`) states the rules as data and checks any engine against them: "
           "invariants over random play, z3 proofs, scoring vectors and game records.", "",
           "```{toctree}", ":maxdepth: 1", "", *pages, "```", "", "## Verification status", "",
           "| game | rules | with unit tests | gaps | options | game invariants | option sets verified | "
           "z3 proofs | report |", "|---|---|---|---|---|---|---|---|---|"]
    for s in specs:
        prof = _profile(s.key)
        out.append(f"| {_ref(f'{s.key}-status', s.name)} | {len(s.rules)} | "
                   f"{sum(1 for r in s.rules if r.id in tests)} | {len(s.gaps)} | {len(s.options)} | "
                   f"{len(prof.invariants) if prof else 0} | {len(option_sets(s.key)) if prof else 0} | "
                   f"{'yes' if proof_module(s.key) else 'not yet'} | "
                   + (f"{sum(r.ok for r in report if r.game == s.key)} of "
                      f"{sum(1 for r in report if r.game == s.key)} ok" if report is not None else "—") + " |")
    return "\n".join(out) + "\n"


# -- CLI and API --------------------------------------------------------------------------------


def cli_page() -> str:
    from hanafuda.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parser = build_parser()
        out = ["(cli)=", "# The command line", "",
               "```{eval-rst}", ".. automodule:: hanafuda.cli", "   :no-index:", "```", "",
               "```text", parser.format_help().rstrip(), "```", ""]
        subs: dict[str, argparse.ArgumentParser] = {}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                subs.update(action.choices)
        for name, sub in sorted(subs.items()):
            out += [f"## hanafuda {name}", "", "```text", sub.format_help().rstrip(), "```", ""]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(out) + "\n"


def api_modules() -> list[str]:
    """The modules the API reference documents: both packages, every importable module."""
    import hanafuda_spec

    import hanafuda

    names: list[str] = []
    for pkg in (hanafuda_spec, hanafuda):
        names.append(pkg.__name__)
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            try:
                importlib.import_module(info.name)
            except Exception:  # a module that does not import is left out of the API reference
                continue
            names.append(info.name)
    return names


_API_GROUPS = (
    ("spec", "The executable spec", ("hanafuda_spec",), ("hanafuda_spec.games",)),
    ("spec-games", "The rule catalogues", ("hanafuda_spec.games",), ()),
    ("reference", "The reference implementation", ("hanafuda",), ("hanafuda.games", "hanafuda.commands",
                                                                  "hanafuda.rulebook")),
    ("reference-games", "The games", ("hanafuda.games",), ()),
    ("commands", "The command modules", ("hanafuda.commands",), ()),
    ("rulebook", "The rulebook generator", ("hanafuda.rulebook",), ()),
)


def _in(name: str, prefixes: Sequence[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def write_api(out: Path) -> list[str]:
    """The API reference: a page per part of the code, listing a page per module."""
    out.mkdir(parents=True, exist_ok=True)
    modules = api_modules()
    pages = []
    for page, title, include, exclude in _API_GROUPS:
        names = [m for m in modules if _in(m, include) and not _in(m, exclude)]
        if not names:
            continue
        # one page per module, so that no page is too long to read on a phone
        text = [title, "=" * len(title), "", ".. toctree::", "   :maxdepth: 1", ""]
        text += [f"   {make_id(name)}" for name in names]
        for name in names:
            (out / f"{make_id(name)}.rst").write_text("\n".join([
                f".. _api-{make_id(name)}:", "", name, "=" * len(name), "", f".. automodule:: {name}",
                "   :members:", "   :show-inheritance:", ""]), encoding="utf-8")
        (out / f"{page}.rst").write_text("\n".join([*text, ""]), encoding="utf-8")
        pages.append(page)
    index = ["(api)=", "# Python API", "",
             "Generated by autodoc from the docstrings, with type hints. {py:mod}`hanafuda_spec` is the executable "
             "spec; {py:mod}`hanafuda` the reference implementation (which may import the spec; never the "
             "reverse).", "", "```{toctree}", ":maxdepth: 2", "", *pages, "```", ""]
    (out / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return pages


# -- the site -----------------------------------------------------------------------------------


def _tests_dir() -> Path | None:
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file():
            return parent / "tests"
    return None


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_site(docs: Path, report: Path | None = None) -> list[GameSpec]:
    """Write every generated page under ``docs/gen`` (replacing what was there); return the games.

    ``report`` is the output of ``hanafuda verify --json``; without one the pages say so.
    """
    checks = read_report(report)
    gen = docs / "gen"
    if gen.exists():
        shutil.rmtree(gen)
    specs = list(all_specs())
    write_pictures(gen / "cards")
    tests = rule_tests(_tests_dir())
    # the example records of the docs being built (a project without examples/ uses the checkout's)
    records = docs / "examples" / "records" if (docs / "examples").is_dir() else None
    for s in specs:
        has_examples = (docs / "examples" / f"{s.key}.md").is_file()
        _write(gen / s.key / "rules.md", rulebook_page(s, has_examples))
        write_learning(gen / s.key, s, has_examples, records)
        _write(gen / s.key / "options.md", options_page(s))
        _write(gen / s.key / "decisions.md", decisions_page(s, checks))
        _write(gen / s.key / "status.md", status_page(s, tests, checks))
    overview = ["(rulebooks)=", "# The rulebooks", "",
                "One rulebook per game, generated from the rule catalogue the reference enforces.", "",
                "| game | also called | deck | rules | gaps | options | sources |", "|---|---|---|---|---|---|---|"]
    for s in specs:
        overview.append(f"| {_ref(s.key, s.name)} | {', '.join(md_escape(a) for a in s.aliases)} | {s.deck} | "
                        f"{len(s.rules)} | {len(s.gaps)} | {len(s.options)} | "
                        + ", ".join(f"{{cite:p}}`{k}`" for k in s.sources) + " |")
    overview += ["", "```{toctree}", ":maxdepth: 2", "", *[f"{s.key}/index" for s in specs], "```", "",
                 "(deck-tables)=", "## The 48 hanafuda cards", "",
                 "Card ids are `month × 10 + index` (the numbering of the FudaWiki card images): the "
                 "implementers' name for a card; the rulebooks name cards by what they show.", "",
                 legend(HANAFUDA), "",
                 deck_table(HANAFUDA, "cards"), "", "## The Daini deck (Kujuroku)", "",
                 "Ids are `rank × 10 + copy`; copy 0 of ranks 1, 3 and 4 is the special card; the jokers are "
                 "Oni (0) and, in the Jizo variant, Jizo (1).", "", legend(DAINI_JIZO), "",
                 deck_table(DAINI_JIZO, "cards")]
    _write(gen / "rulebooks.md", "\n".join(overview) + "\n")
    _write(gen / "sources.md", sources_table())
    spec_pages = ["invariants", "proofs", "shuffle", "records"]
    _write(gen / "spec" / "invariants.md", invariants_page(specs))
    _write(gen / "spec" / "proofs.md", proofs_page(specs, checks))
    if _proofs_module() is not None:
        for s in specs:
            _write(gen / "spec" / f"proofs-{s.key}.md", game_proofs_page(s, checks))
    _write(gen / "spec" / "shuffle.md", shuffle_page())
    try:
        importlib.import_module("hanafuda_spec.records")
        _write(gen / "spec" / "records.md", module_page(
            "spec-records", "The game-record format", "hanafuda_spec.records",
            "How any implementation hands a played match to the conformance kit."))
    except ModuleNotFoundError:
        spec_pages.remove("records")
    _write(gen / "spec" / "index.md", spec_index(specs, spec_pages, checks))
    _write(gen / "cli.md", cli_page())
    write_api(gen / "api")
    return specs

