"""Every check ``verify`` runs says what a pass means (issue 32, item 1): a proof for every state, a
bounded proof with its bound, a sampled check with its sample, or a report that cannot fail (and is
not counted as a check)."""

from __future__ import annotations

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.games import GAME_KEYS
from hanafuda_spec.proofs import Outcome, proof_checks
from hanafuda_spec.proofs.common import BOUNDED, KINDS, REPORT, SAMPLED, names_only, timed
from hanafuda_spec.verify import Level, random_play_checks, summary_line


class _NoEngine:
    def __getattr__(self, name: str) -> object:
        raise RuntimeError(f"listing the proofs used the engine ({name})")


def _listed(game: str, quick: bool) -> list[Outcome]:
    """A game's proof-backed checks with their kinds, without running them."""
    no_engine: EngineAdapter = _NoEngine()  # type: ignore[assignment]
    with names_only():
        return list(proof_checks(no_engine, game, quick))


@pytest.mark.parametrize("quick", [True, False], ids=["quick", "thorough"])
def test_every_proof_check_declares_its_kind(quick: bool) -> None:
    seen: set[str] = set()
    for g in GAME_KEYS:
        for o in _listed(g, quick):
            assert o.kind in KINDS, o.check
            assert (o.kind == BOUNDED) == (o.bound is not None), o.check
            seen.add(o.kind)
            if "identical/subsumed" in o.check or "(KJ-11)" in o.check:
                assert o.kind == REPORT, o.check  # they compute a list and cannot fail
            if "group ties" in o.check and g == "koikoi":
                assert o.kind == REPORT, o.check  # every tie is closed by the decision KK-YAKU-1 passes in
            if "deal arithmetic of the catalogue's sizes" in o.check:
                assert o.kind == SAMPLED, o.check  # constants, checked against the reference's deals
            if "vs reference play" in o.check or "played by the engine" in o.check:
                assert o.kind == SAMPLED, o.check
    assert seen == set(KINDS) if not quick else {REPORT, SAMPLED} <= seen


def test_random_play_is_a_sampled_check_with_its_sample() -> None:
    [r, *_] = random_play_checks(ReferenceAdapter(), "kekoro", Level("test", 2, 1), 1)
    j = r.to_json()
    assert (j["kind"], j["sample"], j["bound"], j["part"], j["ok"]) == ("sampled", 2, None, "random play", True)


def test_timed_rejects_an_unknown_kind_or_a_bound_without_bounded() -> None:
    def fn() -> tuple[bool, str, dict[str, object], int, tuple[()]]:
        return True, "", {}, 0, ()
    with pytest.raises(ValueError, match="kind"):
        timed("kekoro", "x", fn, "examples")
    with pytest.raises(ValueError, match="bound"):
        timed("kekoro", "x", fn, BOUNDED)
    assert timed("kekoro", "x", fn, BOUNDED, 40).bound == 40


def test_reports_are_not_counted_as_checks() -> None:
    line = summary_line([("proof", True), ("bounded", True), ("sampled", False), ("report", True), ("report", True)])
    assert line == "3 checks (1 proofs, 1 bounded, 1 sampled), 1 failed; 2 reports"
    with pytest.raises(ValueError, match="examples"):
        summary_line([("examples", True)])
