"""The rule catalogue of every game: citations resolve, gaps are all decided, rule ids exist."""

from __future__ import annotations

import enum
import importlib
import re
from pathlib import Path

import pytest
from hanafuda_spec.catalogue import (
    Citation,
    Evidence,
    GameSpec,
    Gap,
    OptionError,
    OptionLink,
    OptionSpec,
    RulesetSpec,
)
from hanafuda_spec.games import all_specs
from hanafuda_spec.sources import SOURCES

ROOT = Path(__file__).parents[1]
SPECS = all_specs()

#: The gaps the dossier lists per game (RULES-DOSSIER §3): each needs a recorded decision.
DOSSIER_GAPS = {"koikoi": ("KK", 7), "kusurigui": ("KG", 19), "kujuroku": ("KJ", 21), "musashino": ("MB", 19),
                "kekoro": ("KE", 13)}
PREFIX = {"koikoi": "KK", "kusurigui": "KG", "kujuroku": "KJ", "musashino": "MB", "kekoro": "KE"}


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_every_citation_names_a_known_source(spec: GameSpec) -> None:
    for r in spec.rules:
        for c in r.citations:
            assert c.source in SOURCES, f"{r.id}: unknown source {c.source}"
            assert len(c.quote) <= 80, f"{r.id}: a citation quotes a short phrase at most"
    for o in spec.options:
        assert o.citation.source in SOURCES, o.key


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_every_dossier_gap_has_a_decision(spec: GameSpec) -> None:
    prefix, n = DOSSIER_GAPS[spec.key]
    have = {g.id for g in spec.gaps}
    missing = [f"{prefix}-{i}" for i in range(1, n + 1) if f"{prefix}-{i}" not in have]
    assert not missing
    for g in spec.gaps:
        assert g.decision.strip() and g.reason.strip(), g.id


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_rule_ids_follow_the_scheme(spec: GameSpec) -> None:
    for r in spec.rules:
        assert re.fullmatch(rf"{PREFIX[spec.key]}-[A-Z]+-\d+", r.id), r.id
        if r.evidence is Evidence.DECISION:
            assert r.gap is not None


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_rule_ids_used_by_the_reference_are_catalogued(spec: GameSpec) -> None:
    src = (ROOT / "reference" / "hanafuda" / "games" / f"{spec.key}.py").read_text(encoding="utf-8")
    used = set(re.findall(rf"\b{PREFIX[spec.key]}-[A-Z]+-\d+\b", src))
    assert used, "the reference names no rule id"
    unknown = sorted(r for r in used if not spec.has_rule(r))
    assert not unknown


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_every_option_is_reachable_from_a_rule_or_gap(spec: GameSpec) -> None:
    named = {r.option for r in spec.rules} | {o for g in spec.gaps for o in g.options}
    for rs in spec.rulesets:
        named |= set(rs.values)
    orphans = [o.key for o in spec.options if o.key not in named]
    assert not orphans, f"options no rule or gap explains: {orphans}"


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_defaults_resolve(spec: GameSpec) -> None:
    values = spec.resolve()
    assert set(values) == set(spec.option_keys)
    for rs in spec.rulesets:
        spec.resolve(rs.name)


# -- options that depend on other options (OptionLink, used by MB-14 and KJ-27) ------------------------

class _A(enum.StrEnum):
    OFF = "off"
    ON = "on"


class _B(enum.StrEnum):
    OFF = "off"
    YES = "yes"
    NO = "no"


def _linked_spec(links: tuple[OptionLink, ...] = (), rulesets: tuple[RulesetSpec, ...] = ()) -> GameSpec:
    c = Citation("DOSSIER", "3.4")
    base = (OptionLink("a", ("off",), "X-1", allowed=("off",)), OptionLink("a", ("on",), "X-1", default="yes"))
    opts: tuple[OptionSpec[enum.StrEnum], ...] = (OptionSpec("a", _A, _A.OFF, "a", c),
                                                  OptionSpec("b", _B, _B.OFF, "b", c, links or base))
    return GameSpec("x", "X", (), "hanafuda", "", (), (), (Gap("X-1", "q", "s", "d", "r", ("a", "b")),), opts,
                    (RulesetSpec("r", "", {}, c), *rulesets), "r")


def test_option_links_default_and_refuse_generically() -> None:
    spec = _linked_spec()
    assert spec.resolve() == {"a": "off", "b": "off"}
    assert spec.resolve(None, {"a": "on"}) == {"a": "on", "b": "yes"}  # the link's default
    assert spec.resolve(None, {"a": "on", "b": "no"}) == {"a": "on", "b": "no"}  # chosen: kept
    with pytest.raises(OptionError, match=r"--option: option b=yes conflicts with a=off \(X-1"):
        spec.resolve(None, {"b": "yes"})


def test_option_links_are_checked_when_the_catalogue_is_built() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        _linked_spec((OptionLink("zz", ("off",), "X-1", allowed=("off",)),))
    with pytest.raises(ValueError, match="cannot take"):
        _linked_spec((OptionLink("a", ("maybe",), "X-1", allowed=("off",)),))
    with pytest.raises(ValueError, match="unknown rule"):
        _linked_spec((OptionLink("a", ("off",), "X-99", allowed=("off",)),))
    with pytest.raises(OptionError, match="ruleset bad: option b=yes conflicts"):
        _linked_spec(rulesets=(RulesetSpec("bad", "", {"b": "yes"}, Citation("DOSSIER", "3.4")),))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_every_option_has_its_declared_enum(spec: GameSpec) -> None:
    """Each option's values are one StrEnum declared in the game's catalogue module: its choices are the
    enum's values in order, its default a member, the typed reading gives members, and the module declares
    no value enum that no option uses."""
    module = importlib.import_module(f"hanafuda_spec.games.{spec.key}")
    kinds = [o.kind for o in spec.options]
    assert len(set(kinds)) == len(kinds)
    for o in spec.options:
        assert issubclass(o.kind, enum.StrEnum) and o.kind.__module__ == module.__name__, o.key
        assert getattr(module, o.kind.__name__) is o.kind, o.key
        assert o.choices == tuple(m.value for m in o.kind) and o.default in o.kind, o.key
        for v in o.choices:
            got = spec.value({**spec.resolve(), o.key: v}, o.kind)
            assert type(got) is o.kind and got == v and got is o.value({o.key: v}), (o.key, v)
    declared = {c for c in vars(module).values()
                if isinstance(c, type) and issubclass(c, enum.StrEnum) and c.__module__ == module.__name__}
    assert declared == set(kinds)


def test_tables_keyed_by_option_values_cover_the_enum() -> None:
    """The catalogue's tables keyed by an option's values have one entry per member."""
    from hanafuda_spec.games import kekoro, koikoi, musashino

    assert set(musashino.DEALS) == set(musashino.Players)
    assert set(koikoi.CHAFF_DOUBLES) == set(koikoi.ChaffDoubles)
    assert set(koikoi.VIEWING_RAIN) < set(koikoi.Viewing)
    assert set(kekoro.CARD_VALUES) == set(kekoro.Values)


def test_rules_objects_read_options_as_members() -> None:
    """Every game's rules object reads each option as its enum's member (the value the command line or the
    ruleset gave as a string), and a wrong value is refused before any rules object exists."""
    from hanafuda.registry import available

    for g in available():
        for o in g.spec.options:
            v = o.choices[-1]
            try:
                rules = g.rules(None, {o.key: v})
            except OptionError:  # a value another option's link refuses (e.g. sun without a storm)
                continue
            assert rules.value(o.kind) is o.kind(v) and rules.opt[o.key] == v, (g.spec.key, o.key)
        with pytest.raises(OptionError, match=r"is not allowed \(choices: "):
            g.rules(None, {g.spec.options[0].key: "no-such-value"})
