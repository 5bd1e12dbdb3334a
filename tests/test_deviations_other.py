"""The deviation libraries of Kusuri-gui, Kujuroku, Musashino-Bana and Kekoro (:mod:`hanafuda.deviations_other`)
and Koi-Koi's capture and decision deviations: each kind planted in records a deviant engine writes is
named by ``diagnose``, with the rounds it changes; the reference without deviations is unaffected."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hanafuda import deviations_other as other
from hanafuda.deviations import Deviation, deviant_rules, deviation
from hanafuda.diagnose import Loaded, candidates, diagnose, failing_rounds
from hanafuda.fishing import plays_of
from hanafuda.games.koikoi import INDEX, KoiKoi, KoiKoiRules
from hanafuda.records import record_match, replay
from hanafuda.registry import game
from hanafuda_spec.cards import card
from hanafuda_spec.records import parse_record


def _deviant_game(key: str, devs: Sequence[Deviation]) -> Any:
    """Game ``key`` as an engine with the deviations ``devs`` plays it."""
    if key == "koikoi":
        class DeviantKoiKoi(KoiKoi):
            def make_rules(self, values: Mapping[str, str]) -> KoiKoiRules:
                return deviant_rules(values, devs)

        return DeviantKoiKoi()

    class Deviant(type(other.GAMES[key])):  # type: ignore[misc]
        def make_rules(self, values: Mapping[str, str]) -> Any:
            return other.deviant_rules(key, values, devs)

    return Deviant()


def _records(key: str, devs: Sequence[Deviation], n: int, options: Mapping[str, str]) -> list[Loaded]:
    g = _deviant_game(key, devs)
    out = []
    for seed in range(n):
        rec, problems = parse_record(record_match(g, None, dict(options), seed=seed, policy_seed=seed))
        assert rec is not None, problems
        out.append(Loaded("d", seed + 1, rec))
    return out


def _rules(key: str, values: Mapping[str, str], devs: Sequence[Deviation]) -> Any:
    return deviant_rules(values, devs) if key == "koikoi" else other.deviant_rules(key, values, devs)


def _changed(key: str, records: list[Loaded], devs: Sequence[Deviation], left_out: Deviation) -> int:
    """The failing rounds that fail under the engine's rules without ``left_out`` too: the failing rounds it
    changes (counted as diagnose counts them: :func:`~hanafuda.diagnose.failing_rounds`)."""
    n = 0
    for ld in records:
        values = game(key).spec.resolve(ld.rec.ruleset, dict(ld.rec.options))
        rep = replay(ld.rec, rules=_rules(key, values, [d for d in devs if d != left_out]), again=True)
        n += len(failing_rounds(rep, ld.rec).keys() & failing_rounds(replay(ld.rec), ld.rec).keys())
    return n


def _make(key: str, kind: str, params: Mapping[str, str]) -> Deviation:
    return deviation(kind, **params) if key == "koikoi" else other.deviation(key, kind, **params)


#: One deviation of each kind (a parameterised kind: one value), the options its records are written under.
PLANTED: list[tuple[str, str, dict[str, str], dict[str, str]]] = [
    ("koikoi", "two-takes-both", {}, {"length": "2"}),
    ("koikoi", "three-takes-one", {}, {"length": "3"}),
    ("koikoi", "call-before-draw", {}, {"length": "2"}),
    ("kusurigui", "dealer-stays", {}, {}),
    ("kusurigui", "dealer-alternates", {}, {}),
    ("kusurigui", "settle-winner-total", {}, {}),
    ("kusurigui", "willow-bait-pays", {}, {}),
    ("kusurigui", "yaku-points", {"yaku": "animals", "points": "2"}, {}),
    ("kujuroku", "dealer-stays", {}, {}),
    ("kujuroku", "dealer-passes", {}, {}),
    ("kujuroku", "deal-passes-left", {}, {}),
    ("kujuroku", "card-points", {"of": "oni", "points": "10"}, {}),
    ("kujuroku", "card-points", {"of": "jizo", "points": "10"}, {"jizo": "on"}),
    ("kujuroku", "two-takes-both", {}, {}),
    ("kujuroku", "dealt-oni-alone", {}, {}),
    ("kujuroku", "dekiyaku-points", {"yaku": "danjou", "points": "9"}, {}),
    ("kujuroku", "dekiyaku-card-out", {"yaku": "danjou", "card": "0"}, {}),
    ("kujuroku", "dekiyaku-card-in", {"yaku": "danjou", "card": "30"}, {}),
    ("musashino", "dealer-stays", {}, {}),
    ("musashino", "dealer-passes", {}, {}),
    ("musashino", "yaku-points", {"yaku": "three-brights", "points": "3"}, {}),
    ("musashino", "two-takes-both", {}, {}),
    ("musashino", "three-takes-one", {}, {}),
    ("kekoro", "dealer-stays", {}, {}),
    ("kekoro", "dealer-alternates", {}, {}),
    ("kekoro", "two-takes-both", {}, {}),
    ("kekoro", "three-takes-one", {}, {}),
    ("kekoro", "reversed-stock", {}, {}),
    ("kekoro", "card-value", {"card": "11", "value": "5"}, {}),
]


@pytest.mark.parametrize(("key", "kind", "params", "options"), PLANTED,
                         ids=[f"{k}-{d}-{'-'.join(p.values())}".rstrip("-") for k, d, p, _ in PLANTED])
def test_diagnose_names_each_kind_planted(key: str, kind: str, params: dict[str, str],
                                          options: dict[str, str]) -> None:
    """One deviation planted in records of a deviant engine: diagnose names it alone, with every round it
    changes, and no round is left unexplained."""
    d = _make(key, kind, params)
    records = _records(key, (d,), 10, options)
    found = diagnose(records)
    assert found.failing, "the deviation changed no round of the sample: pick another sample"
    assert [e.candidate.deviation for e in found.explanations] == [d]
    assert found.explanations[0].candidate.rule == d.rule
    assert len(found.explanations[0].explains) == len(found.failing) and not found.unexplained
    explains = len(found.explanations[0].explains)
    truth = _changed(key, records, (d,), d)
    assert abs(explains - truth) <= max(1, 0.05 * truth), (explains, truth)


@pytest.mark.parametrize(("key", "devs"), [
    ("kusurigui", (("dealer-alternates", {}), ("settle-winner-total", {}), ("yaku-points", {"yaku": "chaff",
                                                                                          "points": "2"}))),
    ("kekoro", (("two-takes-both", {}), ("card-value", {"card": "11", "value": "5"}))),
])
def test_diagnose_names_several_deviations_at_once(key: str, devs: tuple[tuple[str, dict[str, str]], ...]) -> None:
    """Several deviations at once: each is named, its count within 5 % of the rounds it changes."""
    planted = tuple(_make(key, k, p) for k, p in devs)
    records = _records(key, planted, 20, {})
    found = diagnose(records)
    assert not found.unexplained
    named = {e.candidate.deviation: len(e.explains) for e in found.explanations}
    assert set(named) == set(planted), named
    for d in planted:
        truth = _changed(key, records, planted, d)
        assert abs(named[d] - truth) <= max(1, 0.05 * truth), (d, named[d], truth)


@pytest.mark.parametrize("key", sorted(other.GAMES))
def test_every_deviation_names_a_rule_of_its_game(key: str) -> None:
    ids = {r.id for r in game(key).spec.rules}
    devs = list(other.library(key))
    assert len(devs) == len(set(devs)) >= 10
    kinds = {k for k, _r, _t in other.catalogue(key)}
    for d in devs:
        assert d.rule in ids, d
        assert d.id in kinds and d.description


@pytest.mark.parametrize("key", sorted(other.GAMES))
def test_no_deviation_is_the_reference(key: str) -> None:
    """The rules without deviations are the game's own rules object; with one, a deviant one that replays a
    reference record differently or scores it otherwise somewhere in a small corpus (checked above); here:
    the plain records of the reference all replay without a problem under the rules of no deviation."""
    g = other.GAMES[key]
    values = g.spec.resolve()
    assert type(other.deviant_rules(key, values, ())) is type(g.make_rules(values))
    for seed in range(3):
        rec, _ = parse_record(record_match(g, None, {}, seed=seed, policy_seed=seed))
        assert rec is not None
        assert not replay(rec, rules=other.deviant_rules(key, values, ())).problems


def test_unknown_deviations_are_refused() -> None:
    with pytest.raises(ValueError, match="no kekoro deviation"):
        other.deviation("kekoro", "card-value", card="11", value="1")  # its own value
    with pytest.raises(ValueError, match="no kusurigui deviation"):
        other.deviation("kusurigui", "no-such-thing")
    with pytest.raises(ValueError, match="no musashino deviation"):
        other.deviation("musashino", "yaku-points", yaku="nothing", points="3")
    with pytest.raises(ValueError, match="no kujuroku deviation"):
        other.deviation("kujuroku", "dekiyaku-card-out", yaku="danjou", card="33")  # not one of its cards
    with pytest.raises(ValueError, match="no kujuroku deviation"):
        other.deviation("kujuroku", "dekiyaku-points", yaku="danjou", points="8")  # its own value


def test_KK_CAP_2_two_takes_both_plays_name_no_target() -> None:
    """KK-CAP-2 broken: a hand card with two matches is one play, taking both."""
    hand, field = INDEX.mask_of([card(11)]), INDEX.mask_of([card(12), card(13)])
    assert [str(a) for a in plays_of(INDEX, hand, field)] == ["play 11 12", "play 11 13"]
    rules = deviant_rules(game("koikoi").spec.resolve(), (deviation("two-takes-both"),))
    assert [str(a) for a in plays_of(INDEX, hand, field, False, rules.named_captures)] == ["play 11"]


def test_KK_CAP_3_three_takes_one_plays_name_a_target() -> None:
    """KK-CAP-3 broken: a hand card with three matches names the one it takes."""
    hand, field = INDEX.mask_of([card(11)]), INDEX.mask_of([card(10), card(12), card(13)])
    assert [str(a) for a in plays_of(INDEX, hand, field)] == ["play 11"]
    rules = deviant_rules(game("koikoi").spec.resolve(), (deviation("three-takes-one"),))
    assert [str(a) for a in plays_of(INDEX, hand, field, False, rules.named_captures)] == [
        "play 11 10", "play 11 12", "play 11 13"]


def test_KK_TURN_3_call_before_draw_decides_after_the_hand_play() -> None:
    """KK-TURN-3 broken: records of an engine deciding before the draw fail under the reference at a
    decision, and replay under the deviation."""
    d = deviation("call-before-draw")
    records = _records("koikoi", (d,), 6, {"length": "2"})
    values = game("koikoi").spec.resolve(None, {"length": "2"})
    failing = [p for ld in records for p in replay(ld.rec).problems]
    assert failing and any(p.rule_id.startswith("KK-TURN") for p in failing)
    assert all(not replay(ld.rec, rules=deviant_rules(values, (d,))).problems for ld in records)


def test_KJ_JIZO_2_a_drawn_jizo_that_keeps_the_onis_capture_is_named() -> None:
    """KJ-JIZO-2 broken (seldom met: an Oni captures from the hand and the Jizo is the card drawn): the two
    records of sixty where it happens are named by it, and the rest validate."""
    d = other.deviation("kujuroku", "jizo-keeps-oni-capture")
    g = _deviant_game("kujuroku", (d,))
    records = []
    for seed in (20, 21, 55):
        rec, _ = parse_record(record_match(g, None, {"jizo": "on"}, seed=seed, policy_seed=seed))
        assert rec is not None
        records.append(Loaded("d", seed + 1, rec))
    found = diagnose(records)
    assert [e.candidate.deviation for e in found.explanations] == [d] and d.rule == "KJ-JIZO-2"
    assert sorted({r.index for r in found.explanations[0].explains}) == [1, 2] and not found.unexplained


def test_KJ_CAP_3_two_takes_both_plays_name_no_target() -> None:
    """KJ-CAP-3 broken: a hand card with two matches is one play, taking both; the drawn card too."""
    from hanafuda.games import kujuroku
    ix = kujuroku.INDEX
    hand, field = ix.mask_of([ix.by_id[21]]), ix.mask_of([ix.by_id[22], ix.by_id[23]])
    assert [str(a) for a in plays_of(ix, hand, field)] == ["play 21 22", "play 21 23"]
    rules = other.deviant_rules("kujuroku", game("kujuroku").spec.resolve(),
                                (other.deviation("kujuroku", "two-takes-both"),))
    assert [str(a) for a in plays_of(ix, hand, field, False, rules.named_captures)] == ["play 21"]
    assert not other.deviant_rules("kujuroku", game("kujuroku").spec.resolve(), ()).named_captures >> 3 & 1


def test_KJ_YAKU_5_dekiyaku_table_deviations_change_only_their_row() -> None:
    """The dekiyaku-table deviations change one row of the configuration: its cards or its value."""
    values = game("kujuroku").spec.resolve()
    base = {y.id: y for y in other.deviant_rules("kujuroku", values, ()).dekiyaku_rows}
    for kind, params, changed in (("dekiyaku-card-out", {"card": "0"}, {"required": base["danjou"].required - {0}}),
                                  ("dekiyaku-card-in", {"card": "30"}, {"required": base["danjou"].required | {30}}),
                                  ("dekiyaku-points", {"points": "9"}, {"points": 9})):
        d = other.deviation("kujuroku", kind, yaku="danjou", **params)
        assert d.rule == "KJ-YAKU-5"
        rows = {y.id: y for y in other.deviant_rules("kujuroku", values, (d,)).dekiyaku_rows}
        assert rows == {**base, "danjou": replace(base["danjou"], **changed)}


def test_the_docs_list_every_kind_of_every_game() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "validating.md").read_text(encoding="utf-8")
    for key in other.GAMES:
        section = text.split(f"({sum(1 for _ in other.library(key))} deviations):", 1)
        assert len(section) == 2, key
        table = section[1].split("\n\n", 2)[1]
        for kind, rule, _what in other.catalogue(key):
            assert f"| `{kind}` | {rule} |" in table, (key, kind)


def test_an_unseen_deviation_is_left_unexplained_without_a_coincidence() -> None:
    """Two deviations planted, one of them kept out of the candidates (as a mistake the library lacks):
    the other is named with its rounds, the rounds of the unseen one are listed unexplained, and no other
    change is offered for them."""
    seen = other.deviation("kusurigui", "dealer-alternates")
    unseen = other.deviation("kusurigui", "settle-winner-total")
    records = _records("kusurigui", (seen, unseen), 12, {})
    pool = [c for c in candidates("kusurigui") if c.deviation != unseen]
    found = diagnose(records, pool)
    assert [e.candidate.deviation for e in found.explanations] == [seen]
    truth = _changed("kusurigui", records, (seen, unseen), unseen)
    assert truth > 0 and abs(len(found.unexplained) - truth) <= max(1, 0.05 * truth)
