"""Our Koi-Koi engine beside two open peers, measured in the same minute (issue 17). A measurement,
never a test.

The peers (both MIT; nothing of theirs is copied here: this script loads or builds their checkouts
where they lie and calls their code):

- **KoiKoi-AI** (``guansanghai/KoiKoi-AI``, Python, commit ``89d789565c7c36c84b74662e43001d960bf80901``),
  file ``koikoigame.py``. Its *bare round engine* is the class ``KoiKoiRoundStateBase``: the round's
  rules (deal, play, capture, draw, koi-koi call, its own round log) without what its subclass
  ``KoiKoiRoundState`` adds for learning (per-action numpy feature arrays) and without the agents
  (``koikoilearn.py``, torch). The module imports numpy and torch at its top but the base class uses
  neither, so where they are not installed an empty stand-in module takes their names for the import
  (no peer dependency enters our environment). Given ``--koikoi-ai-python`` (the interpreter of a
  throwaway environment with numpy), that interpreter runs KoiKoi-AI with our spec package on its path
  and also times the subclass ``KoiKoiRoundState``, whose numpy feature arrays are rebuilt after every
  action (what its agents read). Its scorer is the method ``yaku_point(player)``, which
  reads the player's capture pile (``pile[player]``, a list of ``[month, rank]`` cards) and koi-koi calls.
- **Battle Hanafuda's simulator** (``suzukiplan/open-hanafuda-ai``, C, commit
  ``475728d6b9ab39060ba35737f6c23aa603e2d05d``): the headless ``ai_sim``, built by its own Makefile
  (``cc -std=c11 -O2``). It has no random players: its rounds are two "Normal" AIs playing
  (``-0 0 -1 0``, 12-round games), **AI included**. Its scoring is timed through a small C harness of
  ours (written out by this script to a temporary directory, compiled with the same flags and linked
  with the simulator's object files except its ``main``): our loop, their functions called:
  ``analyze_score_gain_with_card_ids`` (card ids in, points out, from an empty pile: the closest to a
  scorer of card lists) and ``analyze_invent`` (what the game calls after every turn: it re-reads the
  player's capture piles, scores them and lists the cards the player wants; the harness's filling of
  the piles is inside the timing).

What is compared (CPU seconds of the process that does the work; median of ``--runs`` runs,
the engines taking turns within each run, in reversed order on every second run):

- *random Koi-Koi rounds/s*: ours through ``play_match`` (what ``simulate`` and ``record`` play;
  an older checkout without it: the ``Match.apply`` loop), whole matches, misdeals counted as rounds;
  KoiKoi-AI's bare round engine, one round per object. Both with the same random player: at each
  decision, one of the legal choices drawn uniformly with the spec's ``SplitMix64.below`` (KoiKoi-AI
  asks for the card played, then for the field card when two match, then stop or koi-koi; ours lists
  the plays with their targets as single actions, and koi-koi or stop).
- *pile scorings/s*: the same 1,000 random piles for every engine: each pile a uniform random subset
  of the 48 cards, of a size drawn uniformly from 4 to 23 (:func:`random_piles`; the piles of
  ``benchmarks/_bench.py``), given to each engine in its own card numbering
  (:func:`koikoi_ai_card`, :func:`battle_hanafuda_card`). Ours: the bit-mask ``score_mask`` (month
  3), the public ``GAME.score(rules, cards)`` of card lists, and the top level
  ``hanafuda.score("koikoi", ids)``.

Getting the peers (any clone at these commits; the model weights and the paper of KoiKoi-AI are not
needed), an older checkout of ours for the "before" column, and running::

    git clone https://github.com/guansanghai/KoiKoi-AI /tmp/peers/koikoi-ai
    git -C /tmp/peers/koikoi-ai checkout 89d789565c7c36c84b74662e43001d960bf80901
    git clone https://github.com/suzukiplan/open-hanafuda-ai /tmp/peers/open-hanafuda-ai
    git -C /tmp/peers/open-hanafuda-ai checkout 475728d6b9ab39060ba35737f6c23aa603e2d05d
    git worktree add /tmp/old c05e1f8         # main when issue 17's work began
    uv venv /tmp/peers/venv && VIRTUAL_ENV=/tmp/peers/venv uv pip install numpy    # optional
    uv run python benchmarks/bench_peers.py --koikoi-ai /tmp/peers/koikoi-ai \\
        --open-hanafuda-ai /tmp/peers/open-hanafuda-ai --old /tmp/old \\
        --koikoi-ai-python /tmp/peers/venv/bin/python

The script runs ``make ai_sim`` in the simulator's checkout itself (``gcc`` or ``cc`` needed). Each
column is optional: leave out a path and its column shows a dash. Prints the load (``uptime``) and a
Markdown table.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

KOIKOI_AI_COMMIT = "89d789565c7c36c84b74662e43001d960bf80901"
OPEN_HANAFUDA_AI_COMMIT = "475728d6b9ab39060ba35737f6c23aa603e2d05d"
#: Battle Hanafuda's simulator: two "Normal" AIs (model 0), 12-round games.
SIM_FLAGS = ("-0", "0", "-1", "0", "-r", "12")
PILE_COUNT = 1000
SMALLEST, LARGEST = 4, 23

clock = time.process_time


# ---------------------------------------------------------------- piles and card numberings

def random_piles(count: int = PILE_COUNT, seed: int = 2, smallest: int = SMALLEST,
                 largest: int = LARGEST) -> list[tuple[int, ...]]:
    """``count`` random capture piles as tuples of our card ids: each a uniform random subset of
    the 48 cards (a prefix of a shuffled deck) whose size is drawn uniformly from ``smallest`` to
    ``largest``. With the defaults, the piles that ``benchmarks/_bench.py`` times."""
    from hanafuda_spec.cards import HANAFUDA
    from hanafuda_spec.shuffle import SplitMix64, shuffled

    if not 0 <= smallest <= largest <= len(HANAFUDA.cards):
        raise ValueError(f"pile sizes {smallest} to {largest}: must lie within 0 to {len(HANAFUDA.cards)}")
    rng = SplitMix64(seed)
    return [tuple(c.id for c in shuffled(HANAFUDA.cards, rng)[: smallest + rng.below(largest - smallest + 1)])
            for _ in range(count)]


def koikoi_ai_card(card_id: int) -> tuple[int, int]:
    """KoiKoi-AI's name of one of our cards: ``(month, rank)``, rank 1 to 4 within the month from
    the most valuable card. Our ids are ``10 * month + i`` with ``i`` counted the same way, so the
    rank is ``i + 1`` (the rain man is ``(11, 1)``, the swallow ``(11, 2)``, the sake cup ``(9, 1)``)."""
    month, i = divmod(card_id, 10)
    if not (1 <= month <= 12 and 0 <= i <= 3):
        raise ValueError(f"{card_id}: not a hanafuda card id")
    return month, i + 1


def battle_hanafuda_card(card_id: int) -> int:
    """Battle Hanafuda's index (0 to 47) of one of our cards: ``4 * (month - 1) + k``, ``k`` counted
    within the month from the *least* valuable card (its table ``card_types``), so ``k = 3 - i``."""
    month, i = divmod(card_id, 10)
    if not (1 <= month <= 12 and 0 <= i <= 3):
        raise ValueError(f"{card_id}: not a hanafuda card id")
    return 4 * (month - 1) + 3 - i


# ---------------------------------------------------------------- workers (one engine a process)

def _per_second(f: Callable[[Any], object], data: Sequence[Any], seconds: float) -> float:
    n = 0
    t0 = clock()
    while clock() - t0 < seconds:
        for x in data:
            f(x)
        n += len(data)
    return n / (clock() - t0)


def measure_ours(piles: Sequence[Sequence[int]], seconds: float) -> dict[str, float | str]:
    """Our engine, whichever ``hanafuda`` this process imports (an older checkout through
    ``PYTHONPATH``)."""
    import hanafuda
    from hanafuda import engine
    from hanafuda.games.koikoi import GAME, INDEX, score_mask
    from hanafuda_spec.cards import HANAFUDA
    from hanafuda_spec.shuffle import SplitMix64

    rules = GAME.rules()
    rng = SplitMix64(1)
    fast = hasattr(engine, "play_match")

    def choose(legal: Sequence[Any]) -> Any:
        return legal[rng.below(len(legal))]

    rounds = 0
    t0 = clock()
    while clock() - t0 < seconds:
        if fast:
            info, _ = engine.play_match(GAME, rules, rng.next(), choose)
        else:
            m = engine.Match.start(GAME, rules, rng.next())
            while not m.over:
                m = m.apply(choose(m.legal_actions()))
            info = m.info
        rounds += len(info.history)
    rounds_per_s = rounds / (clock() - t0)

    by_id = {c.id: c for c in HANAFUDA.cards}
    cards = [[by_id[i] for i in p] for p in piles]
    masks = [INDEX.mask_of(p) for p in cards]
    ids = [tuple(p) for p in piles]
    return {
        "rounds": rounds_per_s,
        "rounds_path": "`play_match`" if fast else "the `Match.apply` loop",
        "mask": _per_second(lambda m: score_mask(rules, m, 3), masks, seconds),
        "cards": _per_second(lambda p: GAME.score(rules, p), cards, seconds),
        "top": _per_second(lambda p: hanafuda.score("koikoi", p), ids, seconds),
        "mean_points": statistics.fmean(GAME.score(rules, p).yaku_total for p in cards),
    }


def load_koikoi_ai(checkout: Path) -> types.ModuleType:
    """KoiKoi-AI's ``koikoigame`` module, numpy and torch replaced by empty stand-ins if absent
    (its ``KoiKoiRoundStateBase`` uses neither)."""
    stand_ins = [name for name in ("numpy", "torch") if importlib.util.find_spec(name) is None]
    for name in stand_ins:
        sys.modules[name] = types.ModuleType(name)
    try:
        spec = importlib.util.spec_from_file_location("koikoigame", checkout / "koikoigame.py")
        if spec is None or spec.loader is None:
            raise ImportError(f"{checkout / 'koikoigame.py'}: cannot be loaded")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for name in stand_ins:
            del sys.modules[name]
    return mod


def _koikoi_ai_rounds(round_class: Any, seconds: float) -> float:
    """Rounds/s of one of KoiKoi-AI's round classes, both players choosing uniformly at random."""
    import random

    from hanafuda_spec.shuffle import SplitMix64

    random.seed(1)  # its deals and first dealer draw from the random module
    rng = SplitMix64(1)
    rounds = 0
    t0 = clock()
    while clock() - t0 < seconds:
        s = round_class()
        while True:
            state = s.state
            if state == "discard":
                hand = s.hand[s.turn_player]
                s.discard(hand[rng.below(len(hand))])
            elif state == "discard-pick":
                if s.wait_action:
                    pairs = s.pairing_card
                    s.discard_pick(pairs[rng.below(len(pairs))])
                else:
                    s.discard_pick()
            elif state == "draw":
                s.draw()
            elif state == "draw-pick":
                if s.wait_action:
                    pairs = s.pairing_card
                    s.draw_pick(pairs[rng.below(len(pairs))])
                else:
                    s.draw_pick()
            elif state == "koikoi":
                s.claim_koikoi(rng.below(2) == 0 if s.wait_action else None)
            else:
                break
        rounds += 1
    return rounds / (clock() - t0)


def measure_koikoi_ai(checkout: Path, piles: Sequence[Sequence[int]], seconds: float) -> dict[str, float | str]:
    """KoiKoi-AI's bare round engine with random players, and ``yaku_point`` on the piles; where numpy
    is installed, also its round with the learning features (``KoiKoiRoundState``)."""
    has_numpy = importlib.util.find_spec("numpy") is not None
    mod = load_koikoi_ai(checkout)
    base = mod.KoiKoiRoundStateBase
    out: dict[str, float | str] = {"rounds": _koikoi_ai_rounds(base, seconds)}
    if has_numpy:
        out["rounds_features"] = _koikoi_ai_rounds(mod.KoiKoiRoundState, seconds)

    scorer = base()
    scorer.koikoi = {1: [0] * 8, 2: [0] * 8}
    their_piles = [[list(koikoi_ai_card(c)) for c in p] for p in piles]

    def score(pile: list[list[int]]) -> int:
        scorer.pile[1] = pile
        return int(scorer.yaku_point(1))

    out["cards"] = _per_second(score, their_piles, seconds)
    out["mean_points"] = statistics.fmean(score(p) for p in their_piles)
    return out


# ---------------------------------------------------------------- Battle Hanafuda's simulator (C)

# Our harness: reads piles (Battle Hanafuda's card indexes) from stdin, times one of the simulator's
# scoring functions on them for a number of CPU seconds, prints "calls seconds total_points".
HARNESS_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common.h"
#include "cards.h"

/* Defined in the simulator's main.c, which is not linked; its result printer refers to it. */
const char* ai_name(int model) { (void)model; return "harness"; }

static int piles[1000][48];
static int sizes[1000];

int main(int argc, char** argv)
{
    double seconds = argc > 2 ? atof(argv[2]) : 2.0;
    int invent = argc > 1 && strcmp(argv[1], "invent") == 0;
    int n = 0;
    if (scanf("%d", &n) != 1 || n < 1 || n > 1000) return 2;
    for (int i = 0; i < n; i++) {
        if (scanf("%d", &sizes[i]) != 1 || sizes[i] < 0 || sizes[i] > 48) return 2;
        for (int j = 0; j < sizes[i]; j++) {
            if (scanf("%d", &piles[i][j]) != 1 || piles[i][j] < 0 || piles[i][j] > 47) return 2;
        }
    }
    vgs_srand(1);
    reset_cards(); /* the 48 cards, a dealt round (read by analyze_invent's wanted cards), empty piles */
    long long calls = 0, total = 0;
    double elapsed;
    clock_t t0 = clock();
    do {
        for (int i = 0; i < n; i++) {
            if (invent) {
                memset(g.invent[0], 0, sizeof(g.invent[0]));
                for (int j = 0; j < sizes[i]; j++) {
                    Card* card = &g.cards[piles[i][j]];
                    CardSet* set = &g.invent[0][card->type];
                    set->cards[set->num++] = card;
                }
                analyze_invent(0);
                total += g.stats[0].score;
            } else {
                total += analyze_score_gain_with_card_ids(0, piles[i], sizes[i], NULL);
            }
        }
        calls += n;
        elapsed = (double)(clock() - t0) / CLOCKS_PER_SEC;
    } while (elapsed < seconds);
    printf("%lld %.6f %lld\n", calls, elapsed, total);
    return 0;
}
"""


class Simulator:
    """Battle Hanafuda's checkout: ``ai_sim`` built by its Makefile, and our harness linked with its
    objects (in a temporary directory)."""

    def __init__(self, checkout: Path, workdir: Path) -> None:
        self.checkout = checkout
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc is None:
            raise RuntimeError("no C compiler (cc or gcc) on PATH")
        done = subprocess.run(["make", "ai_sim"], cwd=checkout, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"make ai_sim failed in {checkout}:\n{done.stdout}{done.stderr}")
        self.ai_sim = checkout / "ai_sim"
        objects = sorted(str(p) for p in (checkout / "build" / "obj").glob("*.o")
                         if p.stem not in ("main", "replay"))
        source = workdir / "score_harness.c"
        source.write_text(HARNESS_C)
        self.harness = workdir / "score_harness"
        done = subprocess.run([cc, "-std=c11", "-O2", "-D_USE_MATH_DEFINES", f"-I{checkout / 'src' / 'include'}",
                               f"-I{checkout / 'src'}", "-o", str(self.harness), str(source), *objects, "-lm"],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the scoring harness did not build:\n{done.stderr}")
        games, _, cpu = self._play(100)  # calibration: games a CPU second
        self.games_per_second = games / max(cpu, 1e-3)

    def _play(self, games: int) -> tuple[int, int, float]:
        """(games, rounds, CPU seconds of the child process) of one ``ai_sim`` run."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([str(self.ai_sim), *SIM_FLAGS, "-l", str(games), "--seed=1"],
                              capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rounds = 0
        for line in done.stdout.splitlines():
            # "- P1: Dealer = won/dealt (..%), Player = won/played (..%)": P1 deals or not in every round
            if line.startswith("- P1: Dealer = "):
                dealt = line.split("Dealer = ")[1].split("/")[1].split()[0]
                played = line.split("Player = ")[1].split("/")[1].split()[0]
                rounds = int(dealt) + int(played)
        if rounds == 0:
            raise RuntimeError(f"ai_sim printed no round count:\n{done.stdout[:500]}")
        return games, rounds, cpu

    def rounds(self, seconds: float) -> float:
        """Rounds/s of ``ai_sim`` (two Normal AIs) over about ``seconds`` of CPU, the child's CPU time."""
        _, rounds, cpu = self._play(max(1, round(self.games_per_second * seconds)))
        return rounds / max(cpu, 1e-6)

    def scorings(self, piles: Sequence[Sequence[int]], seconds: float, invent: bool) -> tuple[float, float]:
        """(calls/s, mean points a pile) of one of its scoring functions through our harness."""
        text = f"{len(piles)}\n" + "".join(
            f"{len(p)} {' '.join(str(battle_hanafuda_card(c)) for c in p)}\n" for p in piles)
        done = subprocess.run([str(self.harness), "invent" if invent else "ids", str(seconds)], input=text,
                              capture_output=True, text=True, check=True)
        calls, cpu, total = done.stdout.split()
        return int(calls) / float(cpu), int(total) / int(calls)


# ---------------------------------------------------------------- driver

def _worker(kind: str, piles_file: Path, seconds: float, checkout: Path | None, env: dict[str, str] | None,
            python: str = sys.executable) -> dict[str, float | str]:
    cmd = [python, __file__, "--worker", kind, "--piles", str(piles_file), "--seconds", str(seconds)]
    if checkout is not None:
        cmd += ["--koikoi-ai", str(checkout)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} worker failed:\n{done.stderr}")
    result: dict[str, float | str] = json.loads(done.stdout)
    return result


def _commit_note(name: str, checkout: Path, expected: str) -> str:
    """Which commit a peer's checkout is at, against the documented one (a copy without ``.git``,
    such as a ``git archive``, cannot tell)."""
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=False) if (checkout / ".git").exists() else None
    head = done.stdout.strip() if done is not None and done.returncode == 0 else ""
    if not head:
        return f"{name}: {checkout} (not a git checkout; documented commit {expected[:7]})"
    return f"{name}: {checkout} at {head[:7]}" + ("" if head == expected else f", NOT the documented {expected[:7]}")


def _uptime() -> str:
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return f"{time.strftime('%H:%M:%S', time.gmtime())} UTC, load average {load}"


def _fmt(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f}" if values else "—"


class UsageError(Exception):
    """Bad input on the command line (one line on stderr, exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line on stderr, exit 2 (not argparse's usage dump)
        raise UsageError(message)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except UsageError as e:
        print(f"bench_peers.py: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:  # a peer that did not build or run: its own messages follow
        print(f"bench_peers.py: {e}", file=sys.stderr)
        return 1


def _main(argv: Sequence[str] | None) -> int:
    parser = _Parser(prog="bench_peers.py", description="Our Koi-Koi engine beside two open peers, same minute.")
    parser.add_argument("--koikoi-ai", type=Path, help="checkout of guansanghai/KoiKoi-AI")
    parser.add_argument("--open-hanafuda-ai", type=Path, help="checkout of suzukiplan/open-hanafuda-ai")
    parser.add_argument("--koikoi-ai-python", type=Path,
                        help="Python for KoiKoi-AI (default this one); one with numpy also times its learning round")
    parser.add_argument("--old", type=Path, help="older checkout of this project (the 'before' column)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per loop (default 2)")
    parser.add_argument("--runs", type=int, default=3, help="runs, the median is shown (default 3)")
    parser.add_argument("--worker", choices=("ours", "koikoi-ai"), help=argparse.SUPPRESS)
    parser.add_argument("--piles", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 600 or not 1 <= args.runs <= 99:
        raise UsageError(f"--seconds must lie in (0, 600] and --runs in 1 to 99, not {args.seconds:g} and {args.runs}")

    if args.worker is not None:
        piles = json.loads(args.piles.read_text())
        if args.worker == "ours":
            out = measure_ours(piles, args.seconds)
        else:
            out = measure_koikoi_ai(args.koikoi_ai, piles, args.seconds)
        print(json.dumps(out))
        return 0

    if args.koikoi_ai is not None and not (args.koikoi_ai / "koikoigame.py").is_file():
        raise UsageError(f"--koikoi-ai {args.koikoi_ai}: no koikoigame.py there")
    if args.open_hanafuda_ai is not None and not (args.open_hanafuda_ai / "Makefile").is_file():
        raise UsageError(f"--open-hanafuda-ai {args.open_hanafuda_ai}: no Makefile there")
    if args.koikoi_ai_python is not None and (args.koikoi_ai is None or not os.access(args.koikoi_ai_python, os.X_OK)
                                              or not args.koikoi_ai_python.is_file()):
        raise UsageError(f"--koikoi-ai-python {args.koikoi_ai_python}: needs --koikoi-ai and an executable file")
    if args.old is not None and not (args.old / "reference" / "hanafuda").is_dir():
        raise UsageError(f"--old {args.old}: no reference/hanafuda there")

    piles = random_piles()
    results: dict[str, dict[str, list[float]]] = {}
    notes: dict[str, str] = {}

    def add(column: str, row: str, value: float) -> None:
        results.setdefault(column, {}).setdefault(row, []).append(value)

    with tempfile.TemporaryDirectory() as tmp:
        piles_file = Path(tmp) / "piles.json"
        piles_file.write_text(json.dumps(piles))
        old_env = None
        if args.old is not None:
            old = args.old.resolve()
            old_env = dict(os.environ, PYTHONPATH=os.pathsep.join(
                [str(old / "reference"), str(old / "spec"), *filter(None, [os.environ.get("PYTHONPATH")])]))
        koikoi_ai_python, koikoi_ai_env = sys.executable, None
        if args.koikoi_ai_python is not None:  # another environment: give it our spec (SplitMix64) alone
            koikoi_ai_python = str(args.koikoi_ai_python)
            koikoi_ai_env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent / "spec"))
        sim = Simulator(args.open_hanafuda_ai.resolve(), Path(tmp)) if args.open_hanafuda_ai is not None else None

        def run_ours(column: str, env: dict[str, str] | None) -> None:
            r = _worker("ours", piles_file, args.seconds, None, env)
            notes[column] = str(r["rounds_path"])
            for key in ("rounds", "mask", "cards", "top", "mean_points"):
                add(column, key, float(r[key]))

        def run_koikoi_ai() -> None:
            r = _worker("koikoi-ai", piles_file, args.seconds, args.koikoi_ai.resolve(), koikoi_ai_env,
                        koikoi_ai_python)
            for key in ("rounds", "rounds_features", "cards", "mean_points"):
                if key in r:
                    add("koikoi-ai", key, float(r[key]))

        def run_sim() -> None:
            assert sim is not None
            add("sim", "rounds", sim.rounds(args.seconds))
            rate, mean = sim.scorings(piles, args.seconds, invent=False)
            add("sim", "cards", rate)
            add("sim", "mean_points", mean)
            add("sim", "invent", sim.scorings(piles, args.seconds, invent=True)[0])

        steps: list[Callable[[], None]] = [lambda: run_ours("now", None)]
        if old_env is not None:
            steps.append(lambda: run_ours("before", old_env))
        if args.koikoi_ai is not None:
            steps.append(run_koikoi_ai)
        if sim is not None:
            steps.append(run_sim)
        if args.koikoi_ai is not None:
            print(_commit_note("KoiKoi-AI", args.koikoi_ai, KOIKOI_AI_COMMIT))
        if args.open_hanafuda_ai is not None:
            print(_commit_note("open-hanafuda-ai", args.open_hanafuda_ai, OPEN_HANAFUDA_AI_COMMIT))
        print(f"start: {_uptime()}", flush=True)
        for run in range(args.runs):
            for step in steps if run % 2 == 0 else steps[::-1]:
                step()
            print(f"run {run + 1} done: {_uptime()}", flush=True)

    def cell(column: str, row: str, note: str = "") -> str:
        values = results.get(column, {}).get(row, [])
        return f"{_fmt(values)} ({note})" if values and note else _fmt(values)

    now_path = notes.get("now", "play_match")
    before_path = notes.get("before", "")
    harness = "our C harness calling "
    rows = [
        ("random Koi-Koi rounds/s",
         cell("before", "rounds", before_path if before_path != now_path else ""), cell("now", "rounds", now_path),
         cell("koikoi-ai", "rounds", "bare round engine, random players"),
         cell("sim", "rounds", "`ai_sim`, two Normal AIs, AI included")),
        ("random Koi-Koi rounds/s, KoiKoi-AI's round with its learning features (`KoiKoiRoundState`, numpy)",
         "—", "—", cell("koikoi-ai", "rounds_features", "random players"), "—"),
        ("pile scorings/s, bit masks (`score_mask`, month 3)", cell("before", "mask"), cell("now", "mask"), "—", "—"),
        ("pile scorings/s, public scorer of card lists", cell("before", "cards"), cell("now", "cards", "`GAME.score`"),
         cell("koikoi-ai", "cards", "`yaku_point`"),
         cell("sim", "cards", harness + "`analyze_score_gain_with_card_ids`")),
        ('`hanafuda.score("koikoi", ids)`', cell("before", "top"), cell("now", "top"), "—", "—"),
        ("the game's own scoring after each turn", "—", "—", "—",
         cell("sim", "invent", harness + "`analyze_invent`: also its wanted cards; filling the piles included")),
    ]
    print()
    print(f"Median of {args.runs} runs, CPU seconds, {args.seconds:g} s a loop; piles: {PILE_COUNT} random piles "
          f"of {SMALLEST} to {LARGEST} cards (uniform size, uniform cards), the same for every engine.")
    print()
    print("| what | ours before | ours now | KoiKoi-AI (Python) | Battle Hanafuda's simulator (C) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    means = ", ".join(f"{name} {statistics.median(results[col]['mean_points']):.2f}"
                      for col, name in (("now", "ours"), ("koikoi-ai", "KoiKoi-AI"), ("sim", "Battle Hanafuda"))
                      if col in results)
    print()
    print("Each run (in run order):")
    for column, row_values in results.items():
        print(f"- {column}: " + "; ".join(f"{row} " + ", ".join(f"{v:,.0f}" if v >= 100 else f"{v:.2f}" for v in values)
                                          for row, values in row_values.items()))
    print()
    print(f"Mean points a pile (a check that each scorer scored the same piles; the rules differ a little): {means}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
