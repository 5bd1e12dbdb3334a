"""Vacuity is built into the z3 layer (issue 32, item 2): a claim that holds only because nothing
satisfies its assumptions, or the antecedent of one of its implications, is not proved, unless it
declares the option values under which it is expected to be vacuous."""

from __future__ import annotations

import hanafuda_spec.proofs.musashino as mb_proofs
import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec import z3layer as z
from hanafuda_spec.proofs import proof_check_names, selected_proof_checks
from hanafuda_spec.proofs.common import CountModel, inductive


def test_a_claim_with_an_antecedent_never_true_is_vacuous() -> None:
    x, y = z.int_var("x"), z.int_var("y")
    r = z.prove("planted", (x > 5).implies(y > 0), [x <= 3])
    assert (r.ok, r.status) == (False, "vacuous") and "antecedent" in r.detail
    assert z.prove("planted", (x > 5).implies(y > 0), [x <= 3], vacuous_ok=True).ok
    assert z.prove("not vacuous", (x > 2).implies(x > 1), [x <= 3]).ok


def test_a_nested_antecedent_is_checked_with_the_ones_around_it() -> None:
    x = z.int_var("x")
    claim = (x > 0).implies((x < 0).implies(x.eq(7)))  # x > 0 is possible, x > 0 and x < 0 is not
    assert z.prove("planted", claim).status == "vacuous"


def test_unsatisfiable_assumptions_are_vacuous() -> None:
    x = z.int_var("x")
    assert z.prove("planted", x.eq(1), [x > 2, x < 1]).status == "vacuous"
    rs = z.prove_all([("a", x.eq(1)), ("b", x.eq(2))], [x > 2, x < 1], vacuous_ok={"b"})
    assert [(r.name, r.ok) for r in rs] == [("a", False), ("b", True)]


def test_prove_all_checks_each_claims_antecedents() -> None:
    x = z.int_var("x")
    rs = z.prove_all([("fine", (x > 1).implies(x > 0)), ("planted", (x > 9).implies(x > 0))], [x <= 3])
    assert [r.status for r in rs] == ["proved", "vacuous"]


def test_an_inductive_invariant_with_a_step_that_never_applies_is_vacuous() -> None:
    """A planted count model whose step has no successor: inv ∧ step ⇒ inv′ holds of nothing."""
    m = CountModel(("n",), lambda v: v["n"].eq(0), lambda v, w: (v["n"] < 0) & w["n"].eq(v["n"] + 1),
                   lambda v: v["n"] >= 0)
    base, ind = inductive(m)
    assert base.ok and ind.status == "vacuous"


def _timing(sun: str) -> list[bool]:
    names = [n for n in proof_check_names("musashino", True) if f"Storm timing, sun={sun}" in n]
    assert names
    return [o.ok for o in selected_proof_checks(ReferenceAdapter(), "musashino", True, names)]


def test_MB_STORM_3_a_lifted_storm_card_stays_lifted_is_declared_vacuous_without_the_sun(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the Sun nothing lifts a Storm: the claim is vacuous under sun=off, which it declares;
    without the declaration the proof fails."""
    assert _timing("off") == [True]
    monkeypatch.setattr(mb_proofs, "LIFTED_VACUOUS", {})
    assert _timing("off") == [False]
    assert _timing("after") == [True]  # where the Sun lifts, the claim is not vacuous and needs no declaration
