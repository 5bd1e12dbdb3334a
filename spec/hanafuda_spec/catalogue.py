"""The rule catalogue: every rule the reference enforces, with its id, citation and evidence.

Rules are data, not comments: the rulebooks are generated from them, tests are named after
their ids and every error the reference raises names one. A rule is written in our own words;
a citation names a source document (``hanafuda_spec.sources``), a section and at most a short
quoted phrase as evidence.

Where a source is silent or contradicts itself, a :class:`Gap` records the question, what the
sources say, the decision we took with its reason, and the options that select the
alternatives.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Generic, TypeVar

__all__ = [
    "Citation",
    "Citer",
    "Evidence",
    "GameSpec",
    "Gap",
    "OptionError",
    "OptionLink",
    "OptionSpec",
    "Rule",
    "RulesetSpec",
    "Topic",
]

#: An option's values: a :class:`enum.StrEnum` declared beside its :class:`OptionSpec`.
E = TypeVar("E", bound=enum.StrEnum)
E_co = TypeVar("E_co", bound=enum.StrEnum, covariant=True)


class Evidence(enum.Enum):
    """How a rule is supported."""

    SEED = "stated in the seed"
    LATER_REVISION = "taken from a later revision of the same page"
    RELATED_SOURCE = "taken from a page the seed defers to or that a decision adopts"
    DECISION = "our decision"
    IMPLEMENTATION = "taken from an engine's code (repository, commit, file and function)"


class Topic(enum.Enum):
    """Rulebook chapters, in reading order."""

    EQUIPMENT = "Players and equipment"
    DEALING = "Dealing"
    TURN = "A turn"
    CAPTURE = "Capturing"
    SPECIAL = "Special cards"
    YAKU = "Yaku and dekiyaku"
    SCORING = "Scoring and settlement"
    END_ROUND = "End of round"
    END_GAME = "End of game"
    VARIANTS = "Variants and options"


@dataclass(frozen=True)
class Citation:
    """Where a rule comes from: a source key, a section, and a short phrase as evidence.

    ``section`` is a heading of the source as written (without its markup), or ``introduction`` for
    the text before the first heading. For a source document kept beside the project
    (:data:`hanafuda_spec.sources.DOCUMENTS`) ``tests/test_citations.py`` finds ``quote`` in that
    section.
    """

    source: str
    section: str
    quote: str = ""

    def __str__(self) -> str:
        q = f', "{self.quote}"' if self.quote else ""
        return f"{self.source} §{self.section}{q}"


@dataclass(frozen=True)
class Rule:
    """One enforced rule.

    ``id`` is ``<GAME>-<AREA>-<n>`` (``KK-DEAL-1``); ``gap`` names the dossier gap whose
    decision this rule records, if any.

    ``evidence`` qualifies ``text``. Where a rule joins what a source states to what we decided,
    ``text`` holds the stated part only and ``decided`` the part that rests on the decision of
    ``gap``, so that a source's evidence label never covers our own choice.
    """

    id: str
    topic: Topic
    text: str
    citations: tuple[Citation, ...]
    evidence: Evidence
    gap: str | None = None
    option: str | None = None
    decided: str = ""

    def __post_init__(self) -> None:
        if not self.citations:
            raise ValueError(f"rule {self.id} has no citation")
        if self.evidence is Evidence.DECISION and self.gap is None:
            raise ValueError(f"rule {self.id} is a decision but names no gap")
        if self.decided and self.gap is None:
            raise ValueError(f"rule {self.id} has a decided part but names no gap")
        if self.decided and self.evidence is Evidence.DECISION:
            raise ValueError(f"rule {self.id} is a decision as a whole: put all of it in text")


@dataclass(frozen=True)
class Gap:
    """A place where the sources are silent, ambiguous or contradictory, and what we decided."""

    id: str
    question: str
    sources_say: str
    decision: str
    reason: str
    options: tuple[str, ...] = ()
    #: True when the decision takes the source as written and adds nothing of ours (a literal
    #: reading): a rule labelled as stated in a source may then name this gap without a decided part.
    literal: bool = False


class OptionError(ValueError):
    """An unknown option, a bad option value or an unknown ruleset."""


@dataclass(frozen=True)
class OptionLink:
    """How one option depends on another (``other``), for the option that declares it.

    While ``other`` takes one of ``when``: the option's values must be among ``allowed`` (empty:
    any), and, unless the option was chosen (by the ruleset or ``--option``), its value is
    ``default`` instead of its own default (empty: its own). ``rule`` names the rule or gap that
    makes the link, for the error message.
    """

    other: str
    when: tuple[str, ...]
    rule: str
    allowed: tuple[str, ...] = ()
    default: str = ""


@dataclass(frozen=True)
class OptionSpec(Generic[E_co]):
    """A rule variation a player can select before play (``--option key=value``).

    ``kind`` is the enum of its values, declared once beside it: :attr:`choices` are its values in
    declaration order, and the engines and proofs compare with its members (:meth:`value`).
    ``links`` say how its value depends on other options (see :class:`OptionLink`). ``ours`` lists
    the choices no source offers (our own additions): the citation supports the others only.
    """

    key: str
    kind: type[E_co]
    default: E_co
    text: str
    citation: Citation
    links: tuple[OptionLink, ...] = ()
    ours: tuple[str, ...] = ()
    #: The values as plain strings, in the enum's order (what the command line and records spell).
    choices: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "choices", tuple(m.value for m in self.kind))
        if not isinstance(self.default, self.kind):
            raise ValueError(f"option {self.key}: default {self.default!r} is not a {self.kind.__name__}")
        if any(v not in self.choices for v in self.ours):
            raise ValueError(f"option {self.key}: ours names a value that is not a choice")
        for link in self.links:
            for v in (*link.allowed, *((link.default,) if link.default else ())):
                if v not in self.choices:
                    raise ValueError(f"option {self.key}: link to {link.other} names {v!r}, not a choice")

    def value(self, options: Mapping[str, str]) -> E_co:
        """This option's value in resolved ``options`` (see :meth:`GameSpec.resolve`), as its enum member."""
        return self.kind(options[self.key])


@dataclass(frozen=True)
class RulesetSpec:
    """A named bundle of option values."""

    name: str
    text: str
    values: Mapping[str, str]
    citation: Citation


@dataclass(frozen=True)
class GameSpec:
    """Everything the catalogue says about one game."""

    key: str
    name: str
    aliases: tuple[str, ...]
    deck: str
    summary: str
    sources: tuple[str, ...]
    rules: tuple[Rule, ...]
    gaps: tuple[Gap, ...]
    options: tuple[OptionSpec[enum.StrEnum], ...]
    rulesets: tuple[RulesetSpec, ...]
    default_ruleset: str
    _rule_index: Mapping[str, Rule] = field(init=False, repr=False, compare=False)
    _by_kind: Mapping[type[enum.StrEnum], OptionSpec[enum.StrEnum]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        idx: dict[str, Rule] = {}
        for r in self.rules:
            if r.id in idx:
                raise ValueError(f"{self.key}: rule id {r.id} declared twice")
            idx[r.id] = r
        object.__setattr__(self, "_rule_index", MappingProxyType(idx))
        by_kind: dict[type[enum.StrEnum], OptionSpec[enum.StrEnum]] = {}
        for o in self.options:
            if by_kind.setdefault(o.kind, o) is not o:
                raise ValueError(f"{self.key}: options {by_kind[o.kind].key} and {o.key} share {o.kind.__name__}")
        object.__setattr__(self, "_by_kind", MappingProxyType(by_kind))
        gap_ids = {g.id for g in self.gaps}
        for r in self.rules:
            if r.gap is not None and r.gap not in gap_ids:
                raise ValueError(f"{self.key}: rule {r.id} names unknown gap {r.gap}")
            if r.option is not None and r.option not in self.option_keys:
                raise ValueError(f"{self.key}: rule {r.id} names unknown option {r.option}")
        for g in self.gaps:
            for k in g.options:
                if k not in self.option_keys:
                    raise ValueError(f"{self.key}: gap {g.id} names unknown option {k}")
        for opt in self.options:
            for link in opt.links:
                if link.other not in self.option_keys or link.other == opt.key:
                    raise ValueError(f"{self.key}: option {opt.key} links to unknown option {link.other}")
                if any(w not in self.option(link.other).choices for w in link.when):
                    raise ValueError(f"{self.key}: option {opt.key}: link names a value {link.other} cannot take")
                if link.rule not in self._rule_index and link.rule not in gap_ids:
                    raise ValueError(f"{self.key}: option {opt.key}: link names unknown rule {link.rule}")
        names = {rs.name for rs in self.rulesets}
        if self.default_ruleset not in names:
            raise ValueError(f"{self.key}: default ruleset {self.default_ruleset} is not declared")
        for rs in self.rulesets:
            for k, v in rs.values.items():
                self._check(k, v, where=f"ruleset {rs.name}")
        for rs in self.rulesets:
            self.resolve(rs.name)  # the ruleset's values agree with the links

    @property
    def option_keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options)

    def rule(self, rule_id: str) -> Rule:
        """The rule with this id (KeyError if it is not in the catalogue)."""
        return self._rule_index[rule_id]

    def has_rule(self, rule_id: str) -> bool:
        return rule_id in self._rule_index

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def option(self, key: str) -> OptionSpec[enum.StrEnum]:
        for o in self.options:
            if o.key == key:
                return o
        raise OptionError(f"unknown option {key!r} for {self.key} (known: {', '.join(self.option_keys)})")

    def value(self, options: Mapping[str, str], kind: type[E]) -> E:
        """The value of the option whose values are ``kind`` in resolved ``options``, as a member of
        ``kind``: the typed reading of an option, e.g. ``SPEC.value(opts, Multiplier)``."""
        return kind(options[self._by_kind[kind].key])

    def ruleset(self, name: str) -> RulesetSpec:
        for rs in self.rulesets:
            if rs.name == name:
                return rs
        known = ", ".join(rs.name for rs in self.rulesets)
        raise OptionError(f"unknown ruleset {name!r} for {self.key} (known: {known})")

    def _check(self, key: str, value: str, where: str) -> None:
        spec = self.option(key)
        if value not in spec.choices:
            raise OptionError(
                f"{where}: option {key}={value!r} is not allowed (choices: {', '.join(spec.choices)})"
            )

    def resolve(self, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every option's value: defaults, then the ruleset's, then explicit ``options``; then the
        links between options (:class:`OptionLink`): an option nobody chose takes the default its
        link gives, and a value its link does not allow is refused.

        Unknown options, bad values and conflicting values raise :class:`OptionError`; nothing is
        silently fixed.
        """
        values = {o.key: o.default.value for o in self.options}
        rs = self.ruleset(ruleset or self.default_ruleset)
        values.update(rs.values)
        chosen = {k: f"ruleset {rs.name}" for k in rs.values}
        for k, v in (options or {}).items():
            self._check(k, v, where="--option")
            values[k] = v
            chosen[k] = "--option"
        for o in self.options:
            for link in o.links:
                if values[link.other] in link.when and link.default and o.key not in chosen:
                    values[o.key] = link.default
        for o in self.options:
            for link in o.links:
                if values[link.other] in link.when and link.allowed and values[o.key] not in link.allowed:
                    where = chosen.get(o.key, "default")
                    raise OptionError(
                        f"{where}: option {o.key}={values[o.key]} conflicts with {link.other}={values[link.other]} "
                        f"({link.rule}: with {link.other}={values[link.other]}, {o.key} must be one of "
                        f"{', '.join(link.allowed)})")
        return values


class Citer:
    """Citations of one source: ``seed = Citer("SEED-001")`` then ``seed("Rules", "a short phrase")``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __call__(self, section: str, quote: str = "") -> Citation:
        return Citation(self.source, section, quote)

