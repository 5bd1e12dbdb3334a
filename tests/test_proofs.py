"""The z3 layer and the proofs of every game (:mod:`hanafuda_spec.proofs`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda_spec import z3layer as z
from hanafuda_spec.games import GAME_KEYS
from hanafuda_spec.games import koikoi as kk
from hanafuda_spec.proofs import proof_checks
from hanafuda_spec.proofs.common import YakuModel, boundary_piles, expected_scores, first_scoring_set_only, inductive
from hanafuda_spec.proofs.koikoi import DECK, turn_model
from hanafuda_spec.yaku import best_per_group
from hypothesis import given
from hypothesis import strategies as st


def test_prove_returns_a_counterexample() -> None:
    x = z.int_var("x")
    r = z.prove("x below 10", x < 10, [x >= 0])
    assert not r.ok and r.status == "refuted" and r.counterexample["x"] >= 10


def test_maximize_finds_the_optimum() -> None:
    x, y = z.int_var("x"), z.int_var("y")
    best = z.maximize("m", x + 2 * y, [x >= 0, y >= 0, x + y <= 5])
    assert best.value == 10


def test_koikoi_turn_model_is_inductive() -> None:
    base, step = inductive(turn_model())
    assert base.ok and step.ok


@given(st.sets(st.sampled_from(DECK), max_size=30))
def test_KK_YAKU_1_z3_encoding_agrees_with_the_catalogue_definition(pile: set[int]) -> None:
    """The z3 encoding of a yaku table scores like the spec's plain set definition."""
    table = kk.yaku_table(kk.SPEC.resolve(), 1)
    model = YakuModel(table, DECK)
    assert sorted(expected_scores(model, sorted(pile))) == sorted(best_per_group(table, pile))


def test_boundary_piles_just_form_and_just_miss() -> None:
    table = kk.yaku_table(kk.SPEC.resolve(), 1)
    model = YakuModel(table, DECK)
    piles = dict(boundary_piles(model, 40, frozenset({"three-brights"})))
    formed = piles["three-brights just formed (alone)"]
    short = piles[next(k for k in piles if k.startswith("three-brights one card short (alone"))]
    assert {y.id for y in best_per_group(table, formed)} == {"three-brights"}
    assert not best_per_group(table, short)


@pytest.mark.parametrize("game", GAME_KEYS)
def test_proofs_pass_on_the_reference(game: str) -> None:
    """Every kind of proof of the game passes on the reference, on the first ruleset's yaku table (the
    other option sets run in ``verify``): no failure and no open case."""
    with first_scoring_set_only():
        checks = list(proof_checks(ReferenceAdapter(), game, quick=True))
    assert checks
    assert [(o.check, o.detail) for o in checks if not o.ok] == []


def test_KJ_SCORE_2_chip_bands_by_the_z3_table() -> None:
    from hanafuda_spec.proofs.kujuroku import chips_of

    assert [chips_of(p) for p in (0, 75, 76, 85, 86, 95, 96, 105, 106, 115, 116, 300)] == [
        -3, -3, -2, -2, -1, -1, 1, 1, 2, 2, 3, 3]


def test_KK_11_multiplier_table_is_complete_and_consistent() -> None:
    from hanafuda_spec.games.koikoi import Multiplier
    from hanafuda_spec.proofs.common import decision_table
    from hanafuda_spec.proofs.koikoi import MODE, multiplier_rows

    gaps, clashes = decision_table(("mode", "own", "other"), lambda v: z.all_of(
        [MODE.domain(v["mode"]), v["own"] >= 0, v["other"] >= 0]), multiplier_rows())
    assert gaps == [] and clashes == []
    # dropping a row leaves a situation no rule covers, which z3 finds
    gaps, _ = decision_table(("mode", "own", "other"), lambda v: z.all_of(
        [MODE.domain(v["mode"]), v["own"] >= 0, v["other"] >= 0]), multiplier_rows()[1:])
    assert gaps and all(g["mode"] == MODE[Multiplier.OPPONENT] and g["other"] > 0 for g in gaps)
    # one row per value: a value without a row is a gap
    gaps, _ = decision_table(("mode", "own", "other"), lambda v: z.all_of(
        [MODE.domain(v["mode"]), v["own"] >= 0, v["other"] >= 0]), multiplier_rows()[:-1])
    assert {MODE.name(g["mode"]) for g in gaps} == {Multiplier.ADDITIVE}


def test_fishing_turn_model_is_inductive_and_not_vacuous() -> None:
    from dataclasses import replace

    from hanafuda_spec.proofs.common import fishing_turn_model

    model = fishing_turn_model(3, 48, 6, 7)
    base, step = inductive(model)
    assert base.ok and step.ok
    # a stronger, false claim (capture piles grow by fours) is refuted with a concrete step
    wrong = replace(model, inv=lambda v: model.inv(v) & (v["c"] % 4).eq(0))
    _, bad = inductive(wrong)
    assert not bad.ok and bad.counterexample["c'"] % 4 != 0


def test_kusurigui_turn_model_is_inductive_and_can_fail() -> None:
    from dataclasses import replace as dc_replace

    from hanafuda_spec import z3layer as zl
    from hanafuda_spec.proofs.common import inductive
    from hanafuda_spec.proofs.kusurigui import turn_model

    good = turn_model()
    assert all(r.ok for r in inductive(good))
    # A re-deal that gives the non-dealer the lead breaks the KG-18 alternation.
    bad_step = lambda v, w: good.step(v, w) | zl.all_of([  # noqa: E731
        v["h0"].eq(0), v["h1"].eq(0), v["s"] >= 8, w["h0"].eq(4), w["h1"].eq(4), w["s"].eq(v["s"] - 8),
        w["r"].eq(v["r"] + 1), w["t"].eq(1), w["p"].eq(v["p"]), w["c"].eq(v["c"])])
    base, ind = inductive(dc_replace(good, step=bad_step))
    assert base.ok and not ind.ok and ind.counterexample


_EXPRS: dict[str, Callable[[z.Int, z.Int, z.Bool], z.Int]] = {
    "arithmetic": lambda x, y, b: x * 3 - y + (x - y - 2),
    "ite and max": lambda x, y, b: z.max_of([x, y, z.ite(b, 7, -7)]),
    "Euclidean mod": lambda x, y, b: x % 3 + z.ite(x.ne(y), 1, 0),
    "Boolean connectives": lambda x, y, b: z.ite(((x > y) | b).implies(b.iff(x.eq(y))) & ~(x <= -2), 1, 0),
}


@pytest.mark.parametrize("name", list(_EXPRS))
@given(x=st.one_of(st.none(), st.integers(-20, 20)), y=st.one_of(st.none(), st.integers(-20, 20)),
       b=st.one_of(st.none(), st.booleans()))
def test_evaluate_agrees_with_z3s_own_evaluation(name: str, x: int | None, y: int | None, b: bool | None) -> None:
    """``z3layer.evaluate`` (compiled to Python) gives what z3 gives substituting the model's values and
    completing the rest with 0 / false."""
    import z3

    e = _EXPRS[name](z.int_var("x"), z.int_var("y"), z.bool_var("b"))
    model = {k: v for k, v in (("x", x), ("y", y), ("b", b)) if v is not None}
    subs = [(z3.Bool(k), z3.BoolVal(v)) if isinstance(v, bool) else (z3.Int(k), z3.IntVal(v)) for k, v in model.items()]
    s = z3.Solver()
    s.check()
    want = s.model().eval(z3.substitute(e._e, *subs) if subs else e._e, model_completion=True).as_long()
    assert z.evaluate(e, model) == want


def test_maximize_stops_at_the_limit_and_on_no_model() -> None:
    x = z.int_var("x")
    assert z.maximize("m", x, [x >= 0, x <= 100], limit=50).value is None
    assert z.maximize("m", x, [x >= 1, x <= 0]).value is None
    assert z.maximize("m", -x, [x >= 3]).value == -3
