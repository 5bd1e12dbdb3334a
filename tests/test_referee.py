"""The referee protocol (hanafuda-referee/1): the example engine passes, the broken copy is caught.

Every test runs for every game implemented so far.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hanafuda.adapter import ReferenceAdapter
from hanafuda.cli import main
from hanafuda.registry import available
from hanafuda_spec.adapter import EngineAdapter, RoundOutcome
from hanafuda_spec.games import profile_for
from hanafuda_spec.invariants import run_random
from hanafuda_spec.neutral import Snapshot
from hanafuda_spec.referee import EngineError, ProcessEngine, RefereeReport, referee_match, rule_in_error

GAMES = [g.spec.key for g in available()]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ENGINE = [sys.executable, str(EXAMPLES / "engine.py")]
BROKEN = [sys.executable, str(EXAMPLES / "broken_engine.py")]


def _cmd(argv: list[str]) -> str:
    return " ".join(f"'{a}'" for a in argv)


def _values(key: str) -> dict[str, str]:
    from hanafuda.registry import game

    return game(key).spec.resolve()


def test_example_engine_passes_every_game() -> None:
    with ProcessEngine(ENGINE) as engine:
        report = RefereeReport()
        for key in GAMES:
            referee_match(engine, ReferenceAdapter, key, _values(key), 3, 3, report=report)
        assert report.ok, [str(d) for d in report.disagreements]
        assert report.matches == len(GAMES) and report.actions > 0


@pytest.mark.parametrize(("bug", "kind"), [
    ("forget-choice", "legal-missing"),
    ("extra-action", "legal-extra"),
    ("double-deltas", "round"),
])
def test_broken_engine_is_caught(bug: str, kind: str) -> None:
    with ProcessEngine([*BROKEN, "--bug", bug]) as engine:
        for key in GAMES:
            report = RefereeReport()
            for seed in range(4):
                referee_match(engine, ReferenceAdapter, key, _values(key), seed, seed, piles=0, report=report)
                if any(d.kind == kind for d in report.disagreements):
                    break
            kinds = {d.kind for d in report.disagreements}
            assert kind in kinds, (key, kinds)


def test_an_action_the_reference_refuses_names_its_exact_rule() -> None:
    with ProcessEngine([*BROKEN, "--bug", "extra-action"]) as engine:
        report = referee_match(engine, ReferenceAdapter, GAMES[0], _values(GAMES[0]), 1, 1, piles=0)
    extra = [d for d in report.disagreements if d.kind == "legal-extra"]
    assert extra and all(d.exact for d in extra)
    from hanafuda.registry import game

    assert all(d.rule_id is not None and game(GAMES[0]).spec.has_rule(d.rule_id) for d in extra)


def test_cli_passes_the_example_and_catches_the_broken_copy(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["referee", GAMES[0], "--engine", _cmd(ENGINE), "--games", "2", "--json", "--invariants"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] and out["matches"] == 2 and out["invariant_violations"] == []
    code = main(["referee", GAMES[0], "--engine", _cmd(BROKEN), "--games", "2"])
    text = capsys.readouterr().out
    assert code == 1 and "disagreement(s)" in text and "[" in text


def test_cli_unusable_engines_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["referee", GAMES[0], "--engine", "/nonexistent/engine"]) == 2
    assert "cannot start engine" in capsys.readouterr().err
    mute = tmp_path / "mute.py"
    mute.write_text("import sys\nfor line in sys.stdin:\n    print('hello?')\n    sys.stdout.flush()\n")
    assert main(["referee", GAMES[0], "--engine", _cmd([sys.executable, str(mute)]), "--timeout", "5"]) == 2
    assert "not JSON" in capsys.readouterr().err
    dead = tmp_path / "dead.py"
    dead.write_text("raise SystemExit(3)\n")
    assert main(["referee", GAMES[0], "--engine", _cmd([sys.executable, str(dead)])]) == 2
    assert "exit" in capsys.readouterr().err


def test_the_spec_harness_runs_against_an_external_engine() -> None:
    key = GAMES[0]
    with ProcessEngine(ENGINE) as engine:
        report = run_random(engine, profile_for(key), {}, 11, 11)
    assert report.violations == () and report.actions > 0


class _Lying:
    """An in-process engine that reports a wrong position after the deal."""

    def __init__(self) -> None:
        self.inner = ReferenceAdapter()

    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        self.inner.start(game, options, seed + 1, deck)  # deals from the wrong seed

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def test_a_wrong_deal_is_a_deal_disagreement() -> None:
    engine: EngineAdapter = _Lying()  # type: ignore[assignment]
    report = referee_match(engine, ReferenceAdapter, GAMES[0], _values(GAMES[0]), 2, 2, piles=0)
    assert [d.kind for d in report.disagreements] == ["deal"]
    d = report.disagreements[0]
    # a deal from another seed breaks the protocol's shuffle rule, named exactly (no guessed game rule)
    assert d.exact and d.rule_id == "REF-DEAL-1" and "a different deal" in d.message and "hand" in d.message
    assert "[REF-DEAL-1]" in str(d) and "?" not in str(d)


def test_rule_in_error_reads_the_rule_id() -> None:
    assert rule_in_error(ValueError("card 31 is not in hand [KK-TURN-2]")) == "KK-TURN-2"
    assert rule_in_error(ValueError("nope")) is None
    with pytest.raises(EngineError):
        ProcessEngine("")


def test_a_stacked_first_deal_reaches_both_engines() -> None:
    from hanafuda_spec.shuffle import SplitMix64, shuffle_ids

    key = GAMES[-1]
    deck = shuffle_ids(list(profile_for(key).deck(_values(key))), SplitMix64(99))
    with ProcessEngine(ENGINE) as engine:
        report = referee_match(engine, ReferenceAdapter, key, _values(key), 1, 1, deck=deck, piles=0)
        assert report.ok, [str(d) for d in report.disagreements]
        engine.start(key, _values(key), 1, deck)
        assert sorted(engine.snapshot().all_cards()) == sorted(deck)


class _WrongCardPoints(ReferenceAdapter):
    """The reference, reporting one card point too many for seat 0 at every round that counts them."""

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        return [o if o.card_points is None else replace(o, card_points=(o.card_points[0] + 1, *o.card_points[1:]))
                for o in super().rounds_ended()]


class _WrongFinal(ReferenceAdapter):
    """The reference, reporting a final position with the scores of another match."""

    def rounds_ended(self) -> Sequence[RoundOutcome]:
        return [o if o.final is None
                else replace(o, final=replace(o.final, scores=tuple(s + 1 for s in o.final.scores)))
                for o in super().rounds_ended()]


@pytest.mark.parametrize(("engine", "what"), [(_WrongCardPoints, "card_points"), (_WrongFinal, "final position")])
def test_optional_round_fields_are_compared_when_reported(engine: type[ReferenceAdapter], what: str) -> None:
    """Card points and the final position are optional in a round result; an engine that reports
    them wrong is caught (Kujuroku reports card points for every round played out)."""
    report = referee_match(engine(), ReferenceAdapter, "kujuroku", _values("kujuroku"), 4, 4, piles=0)
    assert any(what in d.message for d in report.disagreements), [d.message for d in report.disagreements]


@pytest.mark.parametrize("bad", [{"card_points": [1, "2"]}, {"card_points": 3}, {"final": [1, 2]},
                                 {"final": {"zones": {}}}])
def test_a_malformed_optional_round_field_is_an_engine_error(bad: dict[str, object]) -> None:
    """An engine's round result with malformed card points or final position is refused with one line,
    never a crash."""
    from hanafuda_spec.referee import _outcome

    with pytest.raises(EngineError, match=r"card_points|final"):
        _outcome({"reason": "exhaustive", "deltas": [0, 0], "yaku": [[], []], **bad})


# -- diagnostics: every field of a round, exact rule ids, going on, grouping, the engine's stderr --


def test_a_wrong_yaku_value_is_named_with_its_rule_and_later_rounds_are_checked() -> None:
    """The example engine scoring one yaku one point higher: the verdict names the yaku and the rule
    that defines it (exactly), shows each side's yaku and multipliers, and play goes on so that later
    rounds of the same match are checked too."""
    with ProcessEngine([*BROKEN, "--bug", "yaku-value", "--yaku", "flower-viewing"]) as engine:
        report = RefereeReport()
        for seed in range(3):
            referee_match(engine, ReferenceAdapter, "koikoi", _values("koikoi"), seed, seed, piles=0, report=report)
    rounds = [d for d in report.disagreements if d.kind == "round"]
    assert rounds and all(d.rule_id == "KK-YAKU-12" and d.exact for d in rounds)
    assert all("flower-viewing [KK-YAKU-12]: engine 6, reference 5" in d.message for d in rounds)
    assert all("engine: " in d.message and "reference: " in d.message and "base " in d.message
               for d in rounds if "shobu" in d.message)
    by_match: dict[int, list[int]] = {}
    for d in rounds:
        by_match.setdefault(d.seed, []).append(d.action_index)
    assert any(len(v) > 1 for v in by_match.values()), by_match  # went on after the first round disagreement
    assert not [d for d in report.disagreements if d.kind in ("position", "deal")]


def test_stop_at_round_restores_the_first_difference_only() -> None:
    with ProcessEngine([*BROKEN, "--bug", "yaku-value"]) as engine:
        report = RefereeReport()
        for seed in range(3):
            referee_match(engine, ReferenceAdapter, "koikoi", _values("koikoi"), seed, seed, piles=0, report=report,
                          go_on=False)
    assert len([d for d in report.disagreements if d.kind == "round"]) <= 3


def test_repeated_disagreements_are_grouped_by_cause(capsys: pytest.CaptureFixture[str]) -> None:
    from hanafuda_spec.referee import group_disagreements

    with ProcessEngine([*BROKEN, "--bug", "yaku-value"]) as engine:
        report = RefereeReport()
        for seed in range(3):
            referee_match(engine, ReferenceAdapter, "koikoi", _values("koikoi"), seed, seed, piles=0, report=report)
    groups = group_disagreements(report.disagreements)
    assert groups[0][0] == ("round", "KK-YAKU-12", "flower-viewing 6 vs 5") and len(groups[0][1]) > 1
    code = main(["referee", "koikoi", "--engine", _cmd([*BROKEN, "--bug", "yaku-value"]), "--games", "3"])
    out = capsys.readouterr().out
    assert code == 1 and "times in all (flower-viewing 6 vs 5" in out


def test_a_failing_engine_shows_its_last_stderr_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stderr.write('loading tables\\nKeyError: 113 in score()\\n')\n"
                     "raise SystemExit(1)\n")
    assert main(["referee", GAMES[0], "--engine", _cmd([sys.executable, str(crash)])]) == 2
    err = capsys.readouterr().err
    assert "exit code 1" in err and "KeyError: 113 in score()" in err and len(err.strip().splitlines()) == 1


class _OwnShuffle:
    """An in-process engine with its own shuffle (it deals from another seed), which takes the deals
    it is handed as zones."""

    def __init__(self) -> None:
        self.inner = ReferenceAdapter()

    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        self.inner.start(game, options, seed + 1000, deck)

    def deal(self, zones: Mapping[str, object]) -> None:
        from hanafuda.records import redeal
        from hanafuda_spec.records import DealZones

        self.inner._m = redeal(self.inner.match, DealZones.from_json(dict(zones)))

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


@pytest.mark.parametrize("key", GAMES)
def test_an_engine_with_its_own_shuffle_is_refereed_when_handed_the_deals(key: str) -> None:
    from hanafuda.commands.referee import DealingReference

    engine: EngineAdapter = _OwnShuffle()  # type: ignore[assignment]
    alone = referee_match(engine, DealingReference, key, _values(key), 3, 3, piles=0)
    assert [d.kind for d in alone.disagreements] == ["deal"]
    handed = referee_match(engine, DealingReference, key, _values(key), 3, 3, piles=0, send_deals=True)
    assert handed.ok, [str(d) for d in handed.disagreements[:3]]
    assert handed.actions > 0


def test_cli_send_deals_with_the_example_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["referee", GAMES[0], "--engine", _cmd(ENGINE), "--games", "2", "--send-deals"])
    assert code == 0, capsys.readouterr()


class _SevenNotDoubled(ReferenceAdapter):
    """An in-process engine playing one option differently: a base of 7 or more is not doubled."""

    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        super().start(game, {**options, "seven_double": "off"}, seed, deck)


def test_a_round_disagreement_names_the_option_value_that_explains_it() -> None:
    """KK-SCORE-4: the engine does not double a base of 7; the verdict shows the multiplier on each
    side, names the option value under which the reference agrees, and the rule of that option."""
    report = referee_match(_SevenNotDoubled(), ReferenceAdapter, "koikoi", _values("koikoi"), 1, 1, piles=0)
    rounds = [d for d in report.disagreements if d.kind == "round"]
    assert rounds and rounds[0].rule_id == "KK-SCORE-4" and rounds[0].exact
    assert "seven: engine 1, reference 2" in rounds[0].message
    assert "with `seven_double=off` the reference agrees" in rounds[0].message
    assert report.hints == {"seven 1 vs 2": ["seven_double=off"]}


class _MustCapture(ReferenceAdapter):
    """An in-process engine that forbids discarding while a capture is possible."""

    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        super().start(game, {**options, "discard": "must-capture"}, seed, deck)


def test_missing_legal_actions_name_the_option_that_explains_them() -> None:
    """KK-CAP-5: the engine never offers a discard when it could capture: the verdict names
    discard=must-capture and the rule of that option, not a chapter guess."""
    report = referee_match(_MustCapture(), ReferenceAdapter, "koikoi", _values("koikoi"), 1, 1, piles=0)
    missing = [d for d in report.disagreements if d.kind == "legal-missing"]
    assert missing and all(d.rule_id == "KK-CAP-5" and d.exact for d in missing)
    assert all("with `discard=must-capture` the reference agrees" in d.message for d in missing)


class _DealPasses(ReferenceAdapter):
    """An in-process engine whose deal passes after a drawn round."""

    def start(self, game: str, options: Mapping[str, str], seed: int, deck: Sequence[int] | None = None) -> None:
        super().start(game, {**options, "draw_dealer": "pass"}, seed, deck)


def test_a_different_next_deal_is_a_deal_named_with_its_option() -> None:
    report = referee_match(_DealPasses(), ReferenceAdapter, "koikoi", _values("koikoi"), 0, 0, piles=0)
    (d,) = report.disagreements
    assert d.kind == "deal" and d.message.startswith("a different deal: dealer: engine")
    assert "with `draw_dealer=pass` the reference agrees" in d.message and d.exact


class _PlaysOn(ReferenceAdapter):
    """An in-process engine that, where a koi-koi decision is due, lets the other seat play on."""

    def snapshot(self) -> Snapshot:
        s = super().snapshot()
        return replace(s, phase="play", to_move=1 - (s.to_move or 0)) if s.phase == "call" else s

    def legal_actions(self) -> Sequence[str]:
        s = super().snapshot()
        if s.phase == "call":
            return [f"play {c}" for c in s.zone(f"hand.{1 - (s.to_move or 0)}")]
        return super().legal_actions()


def test_a_position_difference_lists_every_field_and_what_each_side_expects() -> None:
    """Issue 27: the verdict names the phase each side expects (here a koi-koi decision against a hand
    play), every differing field (to_move and phase, not only the first), and the exact rule of the
    reference's refusing step for the engine's next action — never a guessed id."""
    report = referee_match(_PlaysOn(), ReferenceAdapter, "koikoi", _values("koikoi"), 2, 2, piles=0)
    (d,) = report.disagreements
    assert d.kind == "position" and d.exact and d.rule_id is not None
    from hanafuda.registry import game

    assert game("koikoi").spec.has_rule(d.rule_id) and f"[{d.rule_id}]" in d.message
    assert "the reference expects a koi-koi decision (koi-koi or shobu) by seat 0, the engine a hand play by seat 1" \
        in d.message
    assert "to_move: engine 1, reference 0" in d.message and "phase: engine 'play', reference 'call'" in d.message
    assert "the reference refuses the engine's 'play " in d.message and "?" not in str(d)


def test_no_disagreement_carries_a_guessed_rule() -> None:
    """A disagreement names a rule only when it is exact (a protocol error names a REF- rule)."""
    from hanafuda_spec.referee import PROTOCOL_RULES, Disagreement

    d = Disagreement("koikoi", 0, 3, "match-over", None, False, "engine says the match is over")
    assert str(d) == "koikoi seed 0, action 3: match-over: engine says the match is over"
    assert all(k.startswith("REF-") and v for k, v in PROTOCOL_RULES.items())
