"""Planted-bug sensitivity of ``hanafuda verify``: which check catches which meaningful mistake?

A measurement, never part of the test suite or the CI gate (issue 32, item 6). Each planted bug is a
small semantic change to the rule data (``spec/hanafuda_spec/games``), to a step of the reference
(``reference/hanafuda``) or to a z3 model (``spec/hanafuda_spec/proofs``), written as an exact text
replacement. Each is applied alone to a private copy of the project (a temporary directory, never the
working tree), and ``hanafuda verify --game G`` (``--quick`` with ``--quick``) runs on that copy; the
first failed check (in report order) is recorded with its kind. The run stops there (``--whole`` runs
every check and counts the failures).
A bug whose replacement no longer applies is reported as such (the code moved: update its text).

The bugs of ``tests/test_planted_bugs.py`` are here too, as text changes (Four Brights worth 9, a
captured card lost, the Oni staying on the field, the par chip band paying 2).

Usage::

    uv run python benchmarks/planted_bugs.py --list                 # the bugs, and whether each applies
    uv run python benchmarks/planted_bugs.py --quick --out r.json   # every bug, verify --quick per game
    uv run python benchmarks/planted_bugs.py --only kk-four-brights-9 --quick
    uv run python benchmarks/planted_bugs.py --render r.json        # the Markdown table of a run

The thorough run (without ``--quick``) takes several minutes per bug on two idle cores.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Bug:
    """One planted bug: ``old`` (exactly once in ``path``) becomes ``new``."""

    key: str
    game: str
    layer: str  # "rule data", "reference" or "model"
    text: str
    path: str
    old: str
    new: str


G = "spec/hanafuda_spec/games/"
R = "reference/hanafuda/"
P = "spec/hanafuda_spec/proofs/"

#: The end of a check's line in verify's text report: its kind, figures and result.
RESULT = re.compile(r"\s(?P<kind>proof|bounded|sampled|report)\s(?:≤\d+\s|\d+\sin\s)?\S+s\s+(?P<result>ok|FAIL)$")
#: The start of a numbered line: ``[k/n] game`` and the check's name (a long name has its own line).
NUMBERED = re.compile(r"^\[\s*\d+/\d+\]\s+\w+\s+")


BUGS: tuple[Bug, ...] = (
    # -- rule data -----------------------------------------------------------------------------------------
    Bug("kk-four-brights-9", "koikoi", "rule data", "Four Brights worth 9 instead of 8 (KK-YAKU-3)", G + "koikoi.py",
        'YakuDef("four-brights", "Four Brights", "四光", 8,', 'YakuDef("four-brights", "Four Brights", "四光", 9,'),
    Bug("kk-poetry-out-of-group", "koikoi", "rule data", "Poetry Ribbons out of the Ribbons group (KK-YAKU-1)",
        G + "koikoi.py", '"KK-YAKU-9", group="ribbons",', '"KK-YAKU-9", group=None,'),
    Bug("kg-four-brights-5", "kusurigui", "rule data", "Four Brights worth 5 instead of 4 (KG-YAKU-4)",
        G + "kusurigui.py", 'YakuDef("four-brights", "Four Brights", "四光", 4, DRY_BRIGHTS, 4, "KG-YAKU-4")',
        'YakuDef("four-brights", "Four Brights", "四光", 5, DRY_BRIGHTS, 4, "KG-YAKU-4")'),
    Bug("ke-yaku-lead-2", "kekoro", "rule data", "the instant victory at a two-yaku lead, not three (KE-IV-1)",
        G + "kekoro.py", "YAKU_LEAD = 3  #:", "YAKU_LEAD = 2  #:"),
    Bug("ke-game-lead-80", "kekoro", "rule data", "the game ends at an 80-point lead, not 90 (KE-GAME-1)",
        G + "kekoro.py", "LEAD = 90  #:", "LEAD = 80  #:"),
    Bug("kj-par-band-2", "kujuroku", "rule data", "the par band (96–105) pays +2 instead of +1 (KJ-SCORE-2)",
        G + "kujuroku.py", "(106, 2), (96, 1), (86, -1)", "(106, 2), (96, 2), (86, -1)"),
    Bug("mb-kemari-card", "musashino", "rule data", "Kemari Court with card 90 instead of 100 (MB-YAKU-5)",
        G + "musashino.py", '"鞠懸", 4, _each(10, 30, 100, 110)', '"鞠懸", 4, _each(10, 30, 90, 110)'),
    Bug("mb-three-brights-3", "musashino", "rule data", "Three Brights worth 3 instead of 2 (MB-YAKU-6)",
        G + "musashino.py", '"三光", 2, _each(10, 80, 120)', '"三光", 3, _each(10, 80, 120)'),
    # -- the reference's steps --------------------------------------------------------------------------
    Bug("fw-capture-loses-card", "koikoi", "reference", "a capture loses the played card (fishing.lands; KK-CAP-1)",
        R + "fishing.py", "    return field & ~m, m | card\n", "    return field & ~m, m\n"),
    Bug("fw-three-takes-one", "kekoro", "reference", "a card matching three takes only one of them "
        "(fishing.lands; KE-CAP-3)", R + "fishing.py", "    m = target or matched\n",
        "    m = target or (matched & -matched)\n"),
    Bug("kk-seven-double-off", "koikoi", "reference", "seven_double=on never doubles (KK-SCORE-4)",
        R + "games/koikoi.py", 'seven = 2 if rules.value(spec.SevenDouble) is spec.SevenDouble.ON and base >= 7 else 1',
        'seven = 1'),
    Bug("kk-additive-bonus", "koikoi", "reference", "multiplier=additive: calls beyond 3 not multiplied (KK-SCORE-6)",
        R + "games/koikoi.py", "bonus = own if own <= 3 else base * seven * (own - 3)", "bonus = min(own, 3)"),
    Bug("kk-no-call-on-improve", "koikoi", "reference", "an improved yaku (more points) gives no call (KK-TURN-3)",
        R + "games/koikoi.py",
        "improved = new_yaku or any(y.points > before[y.id] for y in now if y.id in before)",
        "improved = new_yaku"),
    Bug("kj-oni-stays", "kujuroku", "reference", "the Oni left on the field is never removed (KJ-ONI-5)",
        R + "games/kujuroku.py", "            if field & _ONI:\n                self.out = (*self.out, _ONI_CARD)\n",
        "            if field & _ONI:\n                pass\n"),
    Bug("kj-oni-jizo-whole-field", "kujuroku", "reference", "the drawn Oni with the Jizo takes the whole field "
        "(KJ-JIZO-4)", R + "games/kujuroku.py",
        "                got = _ONI | _JIZO\n                self.field = field & ~_JIZO\n",
        "                got = _ONI | field\n                self.field = 0\n"),
    Bug("kj-jizo-keeps-captive", "kujuroku", "reference", "the Jizo no longer returns the Oni's capture "
        "(KJ-JIZO-2)", R + "games/kujuroku.py",
        "            self.piles[self.turn] &= ~x\n            self.field = field | x\n",
        "            self.field = field\n"),
    Bug("kg-no-bust-cap", "kusurigui", "reference", "bust=end: a player pays more than they have (KG-SCORE-3)",
        R + "games/kusurigui.py", "return max(0, min(amount, chips)) if rules.bust_ends else amount",
        "return amount"),
    Bug("kg-willow-pays", "kusurigui", "reference", "eating a willow bait is paid (KG-PAY-3)", R + "games/kusurigui.py",
        "        return bait.suit != WILLOW\n", "        return True\n"),
    Bug("kg-double-pay", "kusurigui", "reference", "a Kusuri-gui is paid twice (KG-PAY-2)", R + "games/kusurigui.py",
        "        self.paid[payee] += amount\n", "        self.paid[payee] += 2 * amount\n"),
    Bug("ke-iv-lead-4", "kekoro", "reference", "the reference offers the instant victory at a four-yaku lead "
        "(KE-IV-1)", R + "games/kekoro.py",
        "if mine >= spec.YAKU_LEAD and mine - yakus[1 - p] >= spec.YAKU_LEAD:",
        "if mine >= spec.YAKU_LEAD and mine - yakus[1 - p] >= spec.YAKU_LEAD + 1:"),
    Bug("mb-sun-ignored", "musashino", "reference", "the Crane never lifts a Storm (MB-STORM-4)",
        R + "games/musashino.py", 'if (rules.sun is not spec.Sun.OFF and crane is not None and crane[0] != holder',
        'if (False and crane is not None and crane[0] != holder'),
    Bug("mb-own-storm", "musashino", "reference", "a side is stormed by its own storm card (MB-STORM-1)",
        R + "games/musashino.py", "            if c == spec.SUN_CARD or holder == side:\n",
        "            if c == spec.SUN_CARD:\n"),
    # -- the z3 models -----------------------------------------------------------------------------------
    Bug("model-three-takes-one", "kekoro", "model", "the shared fishing count model: a card matching three "
        "takes one (proofs/common.py)", P + "common.py",
        "    df = z.ite(n_match.eq(0), 1, z.ite(n_match.eq(3), -3, -1))\n"
        "    dc = z.ite(n_match.eq(0), 0, z.ite(n_match.eq(3), 4, 2))\n",
        "    df = z.ite(n_match.eq(0), 1, -1)\n    dc = z.ite(n_match.eq(0), 0, 2)\n"),
    Bug("model-kj-field-8", "kujuroku", "model", "Kujuroku's parity model starts from a field of 8, not 6",
        P + "kujuroku.py", 'return v["f"].eq(6) & (v["oni"] >= 1) & (v["oni"] <= 2)',
        'return v["f"].eq(8) & (v["oni"] >= 1) & (v["oni"] <= 2)'),
    Bug("model-ke-iv-lead", "kekoro", "model", "the instant-victory transition system declares at one more yaku "
        "of lead (proofs/kekoro.py)", P + "kekoro.py",
        'w["ph"].eq(DECLARE).iff(ended & (lead_after >= ke.YAKU_LEAD))',
        'w["ph"].eq(DECLARE).iff(ended & (lead_after >= ke.YAKU_LEAD + 1))'),
    Bug("model-kk-one-group", "koikoi", "model", "the yaku encoding drops the best-of rule within a group "
        "(proofs/common.py YakuModel)", P + "common.py",
        "            out.append(z.ite(z.all_of(beats), v, 0))\n", "            out.append(v)\n"),
    # -- written after the settlement and call checks (2026-11-27): bugs those checks were not built on --------
    Bug("mb-insta-uncapped", "musashino", "reference", "an insta-win pays its value past payment_cap=8 "
        "(MB-SCORE-4)", R + "games/musashino.py", "amount = rules.pay(max(y.points for y in won))",
        "amount = max(y.points for y in won)"),
    Bug("kk-oyaken-to-ko", "koikoi", "reference", "a drawn round's dealer privilege goes to the other player "
        "(KK-END-2)", R + "games/koikoi.py", "return RoundResult(end, _deltas(d, priv, zero), None",
        "return RoundResult(end, _deltas(1 - d, priv, zero), None"),
    Bug("kk-call-on-improve-always", "koikoi", "reference", "koikoi_on=new: an improved yaku still gives the call "
        "(KK-TURN-3, KK-10)", R + "games/koikoi.py", "return new if self.koikoi_on_new else improved",
        "return improved"),
    Bug("kk-field-count-off-by-one", "koikoi", "reference", "field_multiplier=count multiplies by the Brights, not "
        "the Brights + 1 (KK-SCORE-3)", R + "games/koikoi.py", "if fmode is spec.FieldMultiplier.DOUBLE else n + 1",
        "if fmode is spec.FieldMultiplier.DOUBLE else max(n, 1)"),
    Bug("model-kk-count-mode", "koikoi", "model", "the multiplier table's count mode doubles the opponent's calls "
        "(proofs/koikoi.py)", P + "koikoi.py", 'mode(kk.Multiplier.COUNT), lambda v: v["other"] + 1)',
        'mode(kk.Multiplier.COUNT), lambda v: 2 * v["other"] + 1)'),
)


class Sandbox:
    """A private copy of the project (reference, spec, pyproject) with one bug applied at a time."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="hanafuda-planted-"))
        for part in ("reference", "spec", "pyproject.toml"):
            src = ROOT / part
            if src.is_dir():
                shutil.copytree(src, self.dir / part, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, self.dir / part)
        self.env = {**os.environ, "PYTHONPATH": f"{self.dir / 'reference'}{os.pathsep}{self.dir / 'spec'}",
                    "PYTHONDONTWRITEBYTECODE": "1"}
        probe = subprocess.run([sys.executable, "-c", "import hanafuda, hanafuda_spec; "
                                "print(hanafuda.__file__); print(hanafuda_spec.__file__)"],
                               cwd=self.dir, env=self.env, capture_output=True, text=True, check=False)
        if probe.returncode or any(not line.startswith(str(self.dir)) for line in probe.stdout.split()):
            raise SystemExit(f"the sandbox does not import its own copy of the packages: {probe.stdout.split()}")

    def run(self, bug: Bug, quick: bool, jobs: int, timeout: float, whole: bool) -> dict[str, object]:
        """Apply ``bug``, run verify on its game, restore the file; what was caught. Verify's text report
        is read as it comes, in report order: unless ``whole``, the run stops at the first failed check
        (a bug that nothing catches still costs the whole run)."""
        target = self.dir / bug.path
        original = target.read_text(encoding="utf-8")
        if original.count(bug.old) != 1:
            return {"bug": bug.key, "applies": False}
        target.write_text(original.replace(bug.old, bug.new), encoding="utf-8")
        cmd = [sys.executable, "-m", "hanafuda.cli", "verify", "--game", bug.game, "--no-progress",
               "--jobs", str(jobs), *(["--quick"] if quick else [])]
        start = time.monotonic()
        first: tuple[str, str] | None = None
        failed = checks = 0
        last = ""
        stopped = False
        proc = subprocess.Popen(cmd, cwd=self.dir, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, start_new_session=True)
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                if time.monotonic() - start > timeout:
                    stopped = True
                    break
                text = line.rstrip("\n")
                m, n = RESULT.search(text), NUMBERED.match(text)
                if n is not None:
                    last = text[n.end():m.start() if m else len(text)].strip()
                if m is None:  # a header, a detail, or a long name on its own line: the figures follow
                    continue
                checks += 1
                if m["result"] == "FAIL":
                    failed += 1
                    if first is None:
                        first = (last, m["kind"])
                    if not whole:
                        stopped = True
                        break
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
            code = proc.wait()
            target.write_text(original, encoding="utf-8")
        row: dict[str, object] = {"bug": bug.key, "applies": True, "seconds": round(time.monotonic() - start, 1),
                                  "exit": None if stopped else code, "checks_run": checks, "failed": failed,
                                  "whole": whole and not stopped}
        if first is not None:
            row["caught_by"], row["kind"] = first
        elif code not in (0, 1) and not stopped:
            row["caught_by"], row["kind"] = f"verify exited {code}", ""
        return row

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _commit() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False)
    return r.stdout.strip()


def render(data: dict[str, object]) -> str:
    """The Markdown table of a run."""
    by_key = {b.key: b for b in BUGS}
    rows = data.get("results", [])
    assert isinstance(rows, list)
    head = (f"{data.get('date')}, commit `{data.get('commit')}`, `hanafuda verify --game G"
            f"{' --quick' if data.get('quick') else ''}` per bug")
    out = [head, "", "| bug | layer | game | caught by (first failed check, in report order) | kind | checks run |",
           "|---|---|---|---|---|---|"]
    caught = 0
    for r in rows:
        b = by_key.get(str(r["bug"]))
        if b is None:
            continue
        by = r.get("caught_by")
        caught += by is not None
        shown = str(by).replace("|", "\\|") if by else "**nothing**"
        out.append(f"| {b.text} | {b.layer} | {b.game} | {shown} | {r.get('kind', '')} | {r.get('checks_run', '')} |")
    out += ["", f"Caught: {caught} of {len(rows)}."]
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Planted-bug sensitivity of hanafuda verify (see the docstring).")
    ap.add_argument("--list", action="store_true", help="list the bugs and whether each still applies")
    ap.add_argument("--quick", action="store_true", help="verify --quick (default: the thorough run)")
    ap.add_argument("--only", action="append", metavar="KEY", help="only this bug (repeatable)")
    ap.add_argument("--jobs", type=int, default=2, help="verify's --jobs (default 2)")
    ap.add_argument("--whole", action="store_true", help="run the whole verify on each bug (count every failure)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per verify run (default 1800)")
    ap.add_argument("--out", type=Path, help="write the results (JSON) here")
    ap.add_argument("--render", type=Path, metavar="JSON", help="print the Markdown table of a results file")
    args = ap.parse_args(argv)
    if args.render:
        print(render(json.loads(args.render.read_text(encoding="utf-8"))), end="")
        return 0
    bugs = [b for b in BUGS if not args.only or b.key in args.only]
    if args.only and len(bugs) != len(set(args.only)):
        print(f"unknown bug: {sorted(set(args.only) - {b.key for b in bugs})}", file=sys.stderr)
        return 2
    if args.list:
        for b in bugs:
            n = (ROOT / b.path).read_text(encoding="utf-8").count(b.old)
            print(f"{b.key:28} {b.game:10} {b.layer:10} {'applies' if n == 1 else f'DOES NOT APPLY ({n})'}  {b.text}")
        return 0
    data: dict[str, object] = {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                               "commit": _commit(), "quick": args.quick, "results": []}
    results = data["results"]
    assert isinstance(results, list)
    box = Sandbox()
    try:
        for b in bugs:
            row = box.run(b, args.quick, args.jobs, args.timeout, args.whole)
            results.append(row)
            print(json.dumps(row), flush=True)
            if args.out:
                args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    finally:
        box.close()
    caught = sum(1 for r in results if r.get("caught_by"))
    print(f"caught {caught} of {len(results)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
