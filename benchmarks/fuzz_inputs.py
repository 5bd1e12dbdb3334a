"""A seeded mutation fuzzer for the importers and ``validate``: real inputs, mutated, must be
refused in one located line or accepted, never crash.

Seeds are the test fixtures (both engines' logs) and short recorded matches of every game; each
mutated input is derived from ``(target, seed, index)`` alone, so a run is reproducible and a
crash can be replayed from its index. A mutation is a few of: a byte changed, inserted or deleted;
a range deleted, duplicated or moved; a line duplicated, deleted or swapped; a number replaced by a
hostile one (``2.0``, ``true``, ``NaN``, ``-1``, thousands of digits); a control character or a
forged ``hanafuda: error:`` line inserted; a splice of another seed; and, for JSON, a value of the
tree replaced by another type, a key deleted or renamed, or a card listed twice.

The oracle, per target:

* ``koikoi-ai``, ``battle-hanafuda``: ``read`` returns records, or raises
  :class:`~hanafuda.importers.ImporterError` whose message is one printable line; anything else is
  a crash. An imported record must parse with no duplicated card (``REC-CAPTURE-2``) and replay
  without an exception;
* ``validate``: :func:`~hanafuda.records.validate_stream` reports on every record of the mutated
  JSON Lines text without an exception, and every problem prints as one printable line.

``python benchmarks/fuzz_inputs.py --inputs 100000`` runs the large budget (``tests/test_fuzz.py``
runs a small one); benchmarks/README.md gives the counts of the last large run.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hanafuda.importers import ImporterError
from hanafuda.importers.battle_hanafuda import IMPORTER as BATTLE
from hanafuda.importers.koikoi_ai import IMPORTER as KOIKOI_AI
from hanafuda.records import record_match, validate_document, validate_stream
from hanafuda.registry import game
from hanafuda_spec.records import parse_record
from hanafuda_spec.shuffle import SplitMix64

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
TARGETS = ("koikoi-ai", "battle-hanafuda", "validate")

T = TypeVar("T")
_HOSTILE_NUMBERS = ("2.0", "true", "false", "null", "NaN", "-1", "0", "1e400", "-0", "9" * 5000, "4294967296",
                    "\"1\"", "[]", "{}")
_HOSTILE_TEXT = ("\n", "\r", "\x00", "\x1b[31m", "\nhanafuda: error: forged\n", "\u2028", "\ufeff", "\udcff",
                 "(" * 50, "Thinking...\n", ",,", "n/a", " ", "\t")


class _Rng:
    """SplitMix64, the project's documented generator: the same inputs on every platform."""

    def __init__(self, seed: int) -> None:
        self.g = SplitMix64(seed)

    def below(self, n: int) -> int:
        return self.g.below(n) if n > 0 else 0

    def pick(self, xs: Sequence[T]) -> T:
        return xs[self.below(len(xs))]

    def chance(self, k: int) -> bool:
        return self.below(k) == 0


def _seed_logs(target: str) -> list[bytes]:
    if target == "koikoi-ai":
        paths = [*sorted((FIXTURES / "peer-logs" / "koikoi-ai").glob("*.json")),
                 *sorted((FIXTURES / "koikoi-ai-ends").glob("*.json")),
                 *sorted((FIXTURES / "koikoi-ai-engine").glob("*.json"))]
    else:
        paths = [*sorted((FIXTURES / "peer-logs" / "battle-hanafuda").glob("*.log")),
                 *sorted((FIXTURES / "battle-hanafuda-sim").glob("*.log"))]
    return [p.read_bytes() for p in paths]


def _seed_records() -> list[bytes]:
    """Short records of every game (format 1, some with snapshots) and the importers' 1.1 records."""
    short = {"koikoi": {"length": "1"}, "kusurigui": {"rounds": "6"}, "musashino": {"length": "3"},
             "kujuroku": {}, "kekoro": {}}
    docs: list[Any] = []
    for i, (key, opts) in enumerate(short.items()):
        docs.append(record_match(game(key), None, opts, seed=i, policy_seed=i, snapshots=i % 2 == 0,
                                 snapshot_deal=1 if i % 2 == 0 else None))
    for data, imp in ((d, BATTLE) for d in _seed_logs("battle-hanafuda")[2:4]):
        docs.extend(imp.read("seed.log", data))
    for data in _seed_logs("koikoi-ai")[2:4]:
        docs.extend(KOIKOI_AI.read("seed.json", data))
    return [(json.dumps(d, ensure_ascii=False) + "\n").encode("utf-8") for d in docs]


# -- mutations -----------------------------------------------------------------------------------------


def _mutate_bytes(rng: _Rng, data: bytes, others: list[bytes]) -> bytes:
    n = len(data)
    k = rng.below(12)
    a = rng.below(n + 1)
    b = min(n, a + 1 + rng.below(64 if rng.below(4) else 4096))
    if k == 0:  # change a byte
        return data[:a] + bytes([rng.below(256)]) + data[a + 1:]
    if k == 1:  # delete a range
        return data[:a] + data[b:]
    if k == 2:  # duplicate a range
        return data[:b] + data[a:b] + data[b:]
    if k == 3:  # truncate
        return data[:a]
    if k == 4:  # a hostile number where a number was
        digits = [i for i in range(max(0, a - 200), min(n, a + 200)) if 48 <= data[i] <= 57]
        if digits:
            i = rng.pick(digits)
            j = i
            while j < n and 48 <= data[j] <= 57:
                j += 1
            while i > 0 and 48 <= data[i - 1] <= 57:
                i -= 1
            return data[:i] + rng.pick(_HOSTILE_NUMBERS).encode() + data[j:]
        return data
    if k == 5:  # hostile text
        return data[:a] + rng.pick(_HOSTILE_TEXT).encode("utf-8", "surrogatepass") + data[a:]
    if k == 6:  # splice another input
        other = rng.pick(others)
        c = rng.below(len(other) + 1)
        return data[:a] + other[c:c + rng.below(2048)] + data[b:]
    lines = data.split(b"\n")
    i, j = rng.below(len(lines)), rng.below(len(lines))
    if k == 7:  # duplicate a line
        lines.insert(i, lines[j])
    elif k == 8:  # delete a line
        del lines[i]
    elif k == 9:  # swap two lines
        lines[i], lines[j] = lines[j], lines[i]
    elif k == 10:  # a long line
        lines.insert(i, lines[j][:40] + b"(" * rng.below(5000) + lines[j][40:])
    else:  # a digit changed in place (a card, a count, a point)
        digits = [x for x in range(max(0, a - 100), min(n, a + 100)) if 48 <= data[x] <= 57]
        if digits:
            x = rng.pick(digits)
            return data[:x] + bytes([48 + rng.below(10)]) + data[x + 1:]
    return b"\n".join(lines)


def _nodes(v: Any, out: list[tuple[Any, Any]]) -> None:
    """Every (container, key) of a JSON tree, in document order."""
    if isinstance(v, dict):
        for k in list(v):
            out.append((v, k))
            _nodes(v[k], out)
    elif isinstance(v, list):
        for i in range(len(v)):
            out.append((v, i))
            _nodes(v[i], out)


def _hostile_value(rng: _Rng, old: Any) -> Any:
    k = rng.below(14)
    if k == 0:
        return float(old) if isinstance(old, int) and not isinstance(old, bool) else 2.0
    if k == 1:
        return rng.pick([True, False, None])
    if k == 2:
        return rng.pick([-1, 0, 1, 2, 3, 48, 10**20, -(10**20), 2**63])
    if k == 3:
        return rng.pick(_HOSTILE_TEXT)
    if k == 4:
        return []
    if k == 5:
        return {}
    if k == 6:
        return [old, old] if not isinstance(old, list) else old + old[:1]  # a card listed twice
    if k == 7 and isinstance(old, list) and old:
        return old[1:]
    if k == 8:
        return [[[[[[old]]]]]]
    if k == 9 and isinstance(old, int) and not isinstance(old, bool):
        return old + rng.pick([-1, 1, 10, -10])
    if k == 10:
        return str(old)
    if k == 11:
        return float("nan")
    if k == 12 and isinstance(old, list):
        return list(reversed(old))
    return rng.below(200) - 50


def _mutate_json(rng: _Rng, data: bytes) -> bytes | None:
    lines = data.split(b"\n")
    idx = [i for i, x in enumerate(lines) if x.strip()]
    if not idx:
        return None
    i = rng.pick(idx)
    try:
        doc = json.loads(lines[i])
    except ValueError:
        return None
    for _ in range(1 + rng.below(3)):
        nodes: list[tuple[Any, Any]] = []
        _nodes(doc, nodes)
        if not nodes:
            break
        parent, key = rng.pick(nodes)
        k = rng.below(6)
        if k == 0 and isinstance(parent, dict):
            del parent[key]
        elif k == 1 and isinstance(parent, dict):
            parent[rng.pick(_HOSTILE_TEXT) + str(key)] = parent.pop(key)
        elif k == 2 and isinstance(parent, list):
            parent.insert(key, parent[key])
        else:
            parent[key] = _hostile_value(rng, parent[key])
    lines[i] = json.dumps(doc, ensure_ascii=rng.chance(2), allow_nan=True).encode("utf-8", "surrogatepass")
    return b"\n".join(lines)


def mutated(target: str, seeds: list[bytes], seed: int, index: int) -> bytes:
    """Input ``index`` of a run: a seed input with 1 to 4 mutations, all drawn from ``(seed, index)``."""
    rng = _Rng((seed << 32) ^ (index * 0x9E3779B97F4A7C15 & (2**64 - 1)) ^ hash_target(target))
    data = rng.pick(seeds)
    if target == "validate" and rng.chance(3):  # several records in one stream
        data = data + rng.pick(seeds)
    json_like = target in ("koikoi-ai", "validate")
    for _ in range(1 + rng.below(4)):
        if json_like and rng.below(3) != 0:
            got = _mutate_json(rng, data)
            if got is not None:
                data = got
                continue
        data = _mutate_bytes(rng, data, seeds)
    return data


def hash_target(target: str) -> int:
    return sum((i + 1) * b for i, b in enumerate(target.encode())) * 0x100000001B3 % (2**64)


# -- the oracle --------------------------------------------------------------------------------------


class FuzzCrashError(Exception):
    """An input that made a target raise, or print a message that is not one printable line."""


def _one_line(text: str, what: str) -> None:
    if not text or not text.isprintable():
        raise FuzzCrashError(f"{what} is not one printable line: {text[:200]!r}")


def check_importer(target: str, data: bytes) -> str:
    """The oracle of an importer: 'imported' or 'refused'; anything else raises."""
    imp = KOIKOI_AI if target == "koikoi-ai" else BATTLE
    try:
        records = imp.read("fuzz", data)
    except ImporterError as e:
        _one_line(e.what, "the importer's message")
        if e.line is not None and not 1 <= e.line <= data.count(b"\n") + 1:
            raise FuzzCrashError(f"line {e.line} is not a line of the input") from None
        return "refused"
    for doc in records:
        json.dumps(doc, allow_nan=False)
        rec, problems = parse_record(doc)
        if rec is None or any(p.rule_id == "REC-CAPTURE-2" for p in problems):
            raise FuzzCrashError(f"an imported record does not parse: {[str(p) for p in problems[:3]]}")
        validate_document(doc)
    return "imported"


def check_validate(data: bytes) -> str:
    """The oracle of validate: 'valid', 'invalid' or 'unusable' (of the first record); anything else
    raises."""
    verdict = ""
    for rep in validate_stream(io.BytesIO(data)):
        for p in rep.problems:
            _one_line(str(p), "a problem")
        if not verdict:
            verdict = "unusable" if rep.unusable else "valid" if rep.ok else "invalid"
    return verdict or "empty"


@dataclass
class Tally:
    """What a run found, per target."""

    inputs: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    crashes: list[tuple[int, str]] = field(default_factory=list)
    slowest: tuple[float, int] = (0.0, -1)


def run(target: str, n: int, seed: int = 0, start: int = 0,
        on_crash: Callable[[int, bytes, str], None] | None = None) -> Tally:
    """Fuzz ``target`` with inputs ``start`` .. ``start + n - 1`` of ``seed``."""
    seeds = _seed_records() if target == "validate" else _seed_logs(target)
    tally = Tally()
    for index in range(start, start + n):
        data = mutated(target, seeds, seed, index)
        t0 = time.perf_counter()
        try:
            got = check_validate(data) if target == "validate" else check_importer(target, data)
        except Exception as e:  # the oracle: every exception here is a crash to report
            got = "crash"
            why = "".join(traceback.format_exception_only(type(e), e)).strip()
            tally.crashes.append((index, why))
            if on_crash is not None:
                on_crash(index, data, why)
        dt = time.perf_counter() - t0
        if dt > tally.slowest[0]:
            tally.slowest = (dt, index)
        tally.inputs += 1
        tally.outcomes[got] = tally.outcomes.get(got, 0) + 1
    return tally


def _chunks(n: int, size: int) -> Iterator[tuple[int, int]]:
    for a in range(0, n, size):
        yield a, min(size, n - a)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Seeded mutation fuzzing of the importers and validate.")
    ap.add_argument("--inputs", type=int, default=100_000, help="mutated inputs per target")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--target", choices=TARGETS, action="append", help="(repeatable; default: all)")
    ap.add_argument("--crashes", type=Path, default=None, help="write each crashing input to this directory")
    ap.add_argument("--start", type=int, default=0, help="the first input's index (to resume a run)")
    ap.add_argument("--progress", action="store_true", help="a line every 500 inputs")
    args = ap.parse_args(argv)
    total_crashes = 0
    for target in args.target or TARGETS:
        t0 = time.perf_counter()
        tally = Tally()

        def keep(index: int, data: bytes, why: str, target: str = target) -> None:
            print(f"CRASH {target} seed {args.seed} input {index}: {why}", file=sys.stderr)
            if args.crashes is not None:
                args.crashes.mkdir(parents=True, exist_ok=True)
                (args.crashes / f"{target}-{args.seed}-{index}").write_bytes(data)

        for a, n in _chunks(args.inputs, 500):
            part = run(target, n, args.seed, args.start + a, keep)
            tally.inputs += part.inputs
            for k, v in part.outcomes.items():
                tally.outcomes[k] = tally.outcomes.get(k, 0) + v
            tally.crashes += part.crashes
            tally.slowest = max(tally.slowest, part.slowest)
            if args.progress:
                print(f"... {target}: {tally.inputs} inputs, {len(tally.crashes)} crash(es)", flush=True)
        total_crashes += len(tally.crashes)
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(tally.outcomes.items()))
        print(f"{target}: {tally.inputs} inputs (seed {args.seed}), {len(tally.crashes)} crash(es); {outcomes}; "
              f"slowest input {tally.slowest[1]} ({tally.slowest[0]:.2f} s); {time.perf_counter() - t0:.0f} s",
              flush=True)
    return 1 if total_crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
