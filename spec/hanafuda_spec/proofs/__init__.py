"""The z3 proofs of every game, one module per game (``hanafuda_spec.proofs.<key>``).

Each module defines ``checks(adapter, quick)``, yielding :class:`~hanafuda_spec.proofs.common.Outcome`
values: proofs over the spec's own data, and cross-checks of the implementation behind the adapter
against them. Each check declares its kind (``hanafuda_spec.proofs.common.KINDS``): a proof for
every state of its model, a bounded proof, a sampled check of the implementation, or a report that
cannot fail; and every z3 proof is checked for vacuity (:mod:`hanafuda_spec.z3layer`). What is proved:

* **deal arithmetic**, every game and configuration: hands + field + draw pile + set-aside = deck,
  draws available = draws needed (Koi-Koi 8/10-card hands, a proof over both sizes, and the
  dealer-captures cases, a report; Kusuri-gui's four re-deals and three cards out of play; Kujuroku 41
  and 42 cards, the last player not drawing at 41; Musashino-Bana's three deals; Kekoro's 8 undrawn
  cards: arithmetic of the catalogue's constants, so sampled checks of the reference's deals);
* **inductive count invariants** of an abstract turn (init ⇒ inv, inv ∧ step ⇒ inv′): conservation,
  captures by pairs or fours, turn order, draws left = draws needed (Koi-Koi, Kekoro, Musashino-Bana),
  Kujuroku's field parity while the Oni is in play and the one remaining card of the Oni's rank;
  Koi-Koi's round model covers every turn option (draw-first, keep-unmatched, draw-only turns), 8 and
  10-card hands, chained dealer-captures and the wild Lightning, with termination, and is checked
  against random and stacked-deck play;
* **yaku tables over one Boolean per card**, from the catalogue's rows: the catalogue's claims
  (exclusivity, stacking, "part of", absorption), identical or subsumed compositions, ties within a
  group, the maximum score (the reference must reach it) and z3-generated boundary piles (just formed,
  one card short, one past an increment) scored by the reference;
* **decision tables**: complete and consistent (Koi-Koi multiplier modes and who scores a round;
  Kujuroku chip bands and settlement cases; Kusuri-gui and Musashino-Bana ties), every case found
  listed with the gap that decides it, and checked against the reference's play where the adapter
  shows it (Koi-Koi shōbu scores, Kujuroku card-point settlements);
* **Kujuroku's dekiyaku in every configuration** (A–D, both decks, both counting rules): the tables
  as above, the dekiyaku the dealer's takes can form (replayed on stacked decks) and a one-capture-step
  model of which dekiyaku can end a round (some never can: decision KJ-26);
* **Musashino-Bana's Storm and Sun**: what a stormed side counts under either Storm version, what the
  Crane lifts under each Sun setting, the timing between checks (MB-12), reached by scheduled
  stacked-deck rounds and checked turn by turn against the engine;
* **chips and the instant victory**: Kusuri-gui's payment, round-result and game-end tables with an
  inductive chip model of a round (KG-PAY-1…5, KG-8, KG-19); Kekoro's instant victory as a transition
  system (KE-IV-1…3) with its result tables; both checked step by step against random play.

A case with no recorded decision fails its check until the game's ``DECISIONS`` names the gap.

The modules of :data:`CHECKS_OF_EVERY_GAME` add, for every game: the catalogue's tables against the
sources' second transcription (:mod:`hanafuda_spec.transcriptions`); Kujuroku's cards and jokers as a
transition system proved for all states and refined by the engine's play
(:mod:`hanafuda_spec.proofs.kujuroku_jokers`); zero-sum settlement with its caps
(:mod:`hanafuda_spec.proofs.settlement`); the free-standing count models refined by the engine's
play, one action at a time (:mod:`hanafuda_spec.proofs.refinement`); Koi-Koi's and Musashino-Bana's
settlement as models proved zero-sum and refined by round results (:mod:`hanafuda_spec.proofs.zero_sum`);
and Koi-Koi's call rule refined turn by turn (:mod:`hanafuda_spec.proofs.koikoi_calls`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence

from hanafuda_spec.adapter import EngineAdapter
from hanafuda_spec.proofs.common import Case, Outcome, names_only, only_checks

__all__ = ["CHECKS_OF_EVERY_GAME", "Case", "Outcome", "proof_check_kinds", "proof_check_names", "proof_checks",
           "replay_check", "selected_proof_checks"]


def proof_checks(adapter: EngineAdapter, game: str, quick: bool) -> Iterator[Outcome]:
    """Every proof-backed check of one game (none if the game has no proofs yet), then those of the
    modules of :data:`CHECKS_OF_EVERY_GAME`."""
    yield from _game_proofs(adapter, game, quick)
    for name in CHECKS_OF_EVERY_GAME:
        fn: Callable[[EngineAdapter, str, bool], Iterator[Outcome]] = importlib.import_module(name).checks
        yield from fn(adapter, game, quick)


#: Modules whose ``checks(adapter, game, quick)`` give further checks of any game, after the game's
#: own proofs: the catalogue's tables against the sources' second transcription; Kujuroku's cards and
#: jokers proved for all states and checked against the engine action by action; zero-sum settlement
#: with its caps; the free-standing count models refined by the engine's play; Koi-Koi's and
#: Musashino-Bana's settlement models, proved zero-sum and refined by the reference's round results;
#: Koi-Koi's call rule (KK-TURN-3) refined turn by turn.
CHECKS_OF_EVERY_GAME = ("hanafuda_spec.transcriptions", "hanafuda_spec.proofs.kujuroku_jokers",
                        "hanafuda_spec.proofs.settlement", "hanafuda_spec.proofs.refinement",
                        "hanafuda_spec.proofs.zero_sum", "hanafuda_spec.proofs.koikoi_calls")


def _game_proofs(adapter: EngineAdapter, game: str, quick: bool) -> Iterator[Outcome]:
    try:
        mod = importlib.import_module(f"hanafuda_spec.proofs.{game}")
    except ModuleNotFoundError as e:
        if e.name != f"hanafuda_spec.proofs.{game}":
            raise
        return
    fn: Callable[[EngineAdapter, bool], Iterator[Outcome]] = mod.checks
    yield from fn(adapter, quick)


class _NoEngine:
    """The adapter :func:`proof_check_names` passes: listing the checks must not play anything."""

    def __getattr__(self, name: str) -> object:
        raise RuntimeError(f"listing the proofs' names used the engine ({name})")


def proof_check_names(game: str, quick: bool) -> list[str]:
    """The names of the checks :func:`proof_checks` yields, in order, without running them (for
    progress: "check k of n")."""
    return [name for name, _ in proof_check_kinds(game, quick)]


def proof_check_kinds(game: str, quick: bool) -> list[tuple[str, str]]:
    """Each check of :func:`proof_check_names` with its kind, without running any."""
    no_engine: EngineAdapter = _NoEngine()  # type: ignore[assignment]
    with names_only():
        return [(o.check, o.kind) for o in proof_checks(no_engine, game, quick)]


def selected_proof_checks(adapter: EngineAdapter, game: str, quick: bool, names: Sequence[str]) -> list[Outcome]:
    """The outcomes of the checks named (of :func:`proof_check_names`), in the order of
    :func:`proof_checks`, with only these checks run: a part of a game's proofs that ``verify``
    hands to a worker. Every check's outcome is the one :func:`proof_checks` gives (its time
    aside), since a check depends only on the options and ``quick``, never on another check."""
    wanted = set(names)
    with only_checks(wanted):
        out = [o for o in proof_checks(adapter, game, quick) if o.check in wanted]
    if [o.check for o in out] != list(names):
        raise ValueError(f"{game}: no such proof checks, or not in this order: {list(names)}")
    return out


def replay_check(adapter: EngineAdapter, cx: Mapping[str, object], options: Mapping[str, str]) -> str | None:
    """Re-run the property a proof's play counterexample names in ``check`` (e.g. a decision table
    checked against play): the mismatch found, or None."""
    check, game = cx.get("check"), cx.get("game")
    if not isinstance(check, str) or not isinstance(game, str):
        raise ValueError("counterexample: 'check' and 'game' must be strings")
    for name in CHECKS_OF_EVERY_GAME:  # a check of these modules names itself in their REPLAYS
        extra = importlib.import_module(name)
        if check in getattr(extra, "REPLAYS", ()):
            replayed: Callable[[EngineAdapter, Mapping[str, object], Mapping[str, str]], str | None] = (
                extra.replay_check)
            return replayed(adapter, cx, options)
    mod = importlib.import_module(f"hanafuda_spec.proofs.{game}")
    fn: Callable[[EngineAdapter, Mapping[str, object], Mapping[str, str]], str | None] | None = getattr(
        mod, "replay_check", None)
    if fn is None:
        raise ValueError(f"counterexample: {game} has no replayable check {check!r}")
    return fn(adapter, cx, options)
