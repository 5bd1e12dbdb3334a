"""Helpers shared by subcommands: one argument grammar (argument types, help layout), reading an
input file robustly and writing an output directory so that nothing is left behind on failure.

Every error these helpers raise is a :class:`~hanafuda.errors.UsageError` (or
``argparse.ArgumentTypeError`` inside argument parsing): one line, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from hanafuda_spec.games import GAME_KEYS

# explicitly re-exported: the commands import it from here
from hanafuda.errors import UsageError as UsageError  # noqa: PLC0414

#: The largest seed: seeds are 64-bit (the documented shuffle, SplitMix64), 0 to 2**64-1.
MAX_SEED = 2**64 - 1
#: The one limit of ``--games`` in every subcommand.
MAX_GAMES = 1_000_000
#: The largest input file read whole (a verify report, a counterexample): 256 MiB.
MAX_INPUT_BYTES = 256 << 20
#: The largest number of digits accepted in a JSON number (beyond it: a one-line error).
MAX_DIGITS = 4300

EXIT_CODES = ("exit codes: 0 success, 1 a check failed, 2 bad input or unusable environment "
              "(one line on stderr), 3 internal error (a bug in hanafuda), 130 interrupted")


# -- help ---------------------------------------------------------------------------------------


class HelpFormatter(argparse.HelpFormatter):
    """Wraps prose paragraphs, keeps indented lines (examples) as they are, and shows every
    option's default."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        for line in text.splitlines():
            if line.startswith(" ") or not line.strip():
                out.append(indent + line)
            else:
                out.append(textwrap.fill(line, width, initial_indent=indent, subsequent_indent=indent))
        return "\n".join(out)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "default" in text or default is None or default is False or default in ([], argparse.SUPPRESS):
            return text
        if not action.option_strings and action.nargs in ("*", "+", "?"):
            return text
        return f"{text} (default: %(default)s)".strip()


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, *, help: str,
                description: str, examples: list[str], notes: str = "") -> argparse.ArgumentParser:
    """A subcommand's parser, with the common help layout: its description, then examples and the
    exit codes."""
    epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples) + "\n\n" + (notes + "\n\n" if notes else "")
    return sub.add_parser(name, help=help, description=description, epilog=epilog + EXIT_CODES,
                          formatter_class=HelpFormatter)


GAMES_HELP = ("the game: " + ", ".join(GAME_KEYS) + " (aliases such as koi-koi and musashino-bana work too)")


# -- argument types -----------------------------------------------------------------------------


def game_name(text: str) -> str:
    """A game name: not empty, and one of the games (or an alias)."""
    from hanafuda.registry import UnknownGameError, game

    if not text.strip():
        raise argparse.ArgumentTypeError(f"the game name is empty (choose from {', '.join(GAME_KEYS)})")
    try:
        game(text)
    except UnknownGameError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def _whole_number(text: str, what: str) -> int:
    t = text.strip()
    digits = t[1:] if t[:1] in "+-" else t
    if not digits.isdigit() or not digits.isascii():
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    if len(digits) > 40:
        raise argparse.ArgumentTypeError(f"a {len(digits)}-digit number is not {what}")
    return int(t)


def seed(text: str) -> int:
    """A seed: a whole number 0 to 2**64-1."""
    what = "a seed: a whole number 0 to 2**64-1 (18446744073709551615)"
    n = _whole_number(text, what)
    if not 0 <= n <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    return n


def _count(text: str, low: int, high: int, what: str) -> int:
    n = _whole_number(text, f"{what}: a whole number {low} to {high:,}")
    if not low <= n <= high:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}: a whole number {low} to {high:,}")
    return n


def games(text: str) -> int:
    """``--games``: 1 to :data:`MAX_GAMES`."""
    return _count(text, 1, MAX_GAMES, "a number of games")


def games_or_none(text: str) -> int:
    """``--games`` where 0 means "none" (``vectors``): 0 to :data:`MAX_GAMES`."""
    return _count(text, 0, MAX_GAMES, "a number of games")


def count(low: int, high: int, what: str) -> Any:
    """An argument type for a whole number ``low`` to ``high``."""
    def parse(text: str) -> int:
        return _count(text, low, high, what)
    parse.__name__ = what
    return parse


def positive_seconds(text: str) -> float:
    """A duration in seconds: more than 0, at most a day."""
    try:
        x = float(text)
    except ValueError:
        x = float("nan")
    if not 0 < x <= 86400:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds more than 0 and at most 86400")
    return x


def nonempty(what: str) -> Any:
    """An argument type for a name or path that must not be empty."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"the {what} is empty")
        return text
    parse.__name__ = what
    return parse


def check_seed_range(first: int, n: int) -> None:
    """Game i of n uses seed ``first + i``: the last must still be a seed."""
    if first + n - 1 > MAX_SEED:
        raise UsageError(f"--seed {first} with --games {n}: game i uses seed {first}+i, and the last would "
                         f"pass 2**64-1 (use a seed at most {MAX_SEED - n + 1})")


#: ``--jobs`` default: one worker process per core.
DEFAULT_JOBS = max(1, min(256, os.cpu_count() or 1))


class _JobsGiven(argparse.Action):
    """Stores ``--jobs`` and remembers, as ``jobs_given``, that it was given (``--cluster`` refuses it)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.jobs_given = True


def add_jobs_argument(p: argparse.ArgumentParser, small: str = "", same: str = "the output") -> None:
    """``--jobs N``: worker processes, 1 to 256, default the number of cores; ``small`` says which
    runs stay in one process, ``same`` what does not depend on N."""
    rest = f"; {small} stay in one process" if small else ""
    p.set_defaults(jobs_given=False)
    p.add_argument("--jobs", "-j", type=count(1, 256, "a number of jobs"), default=DEFAULT_JOBS, metavar="N",
                   action=_JobsGiven,
                   help=f"worker processes, 1 to 256; {same} is the same for every N (default: the number "
                        f"of cores, {DEFAULT_JOBS} here{rest})")


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", "-r", metavar="R", type=nonempty("ruleset name"),
                   help="named ruleset (default: the game's default; see 'hanafuda rules GAME')")
    p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", default=[],
                   help="set a rule option (repeatable); see 'hanafuda rules GAME'")


def add_seed_argument(p: argparse.ArgumentParser, default: int = 0, text: str = "") -> None:
    p.add_argument("--seed", "-s", type=seed, default=default, metavar="S",
                   help=text or "seed of the documented shuffle, 0 to 2**64-1")


def add_games_argument(p: argparse.ArgumentParser, default: int, text: str, allow_zero: bool = False) -> None:
    p.add_argument("--games", "-n", type=games_or_none if allow_zero else games, default=default, metavar="N",
                   help=f"{text}, {'0' if allow_zero else '1'} to {MAX_GAMES:,}")


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, sort_keys=False, indent=2)
    sys.stdout.write("\n")


# -- reading input ------------------------------------------------------------------------------


def read_bytes(name: str, what: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a file (``-``: stdin), or a one-line :class:`UsageError` naming it."""
    if not name.strip():
        raise UsageError(f"{what}: the file name is empty")
    try:
        if name == "-":
            data: bytes = sys.stdin.buffer.read(limit + 1)
        else:
            if os.path.isdir(name):
                raise UsageError(f"{what} {name}: is a directory, not a file")
            with open(name, "rb") as f:
                data = f.read(limit + 1)
    except OSError as e:
        raise UsageError(f"{what} {name}: cannot read: {e.strerror or e}") from None
    if len(data) > limit:
        raise UsageError(f"{what} {name}: larger than {limit >> 20} MiB")
    return data


def decode_text(data: bytes, name: str, what: str) -> str:
    """UTF-8 text, with or without a byte order mark, or a one-line error naming the first bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise UsageError(f"{what} {name}: not UTF-8 text (byte 0x{data[e.start]:02x} at byte {e.start + 1}, "
                         f"line {line}): a binary file?") from None


def json_problem(text: str, e: Exception) -> str:
    """A one-line reason for a failure of ``json.loads(text)``."""
    if isinstance(e, json.JSONDecodeError):
        if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):
            return f"line {e.lineno}, column {e.colno}: the JSON ends early (truncated?)"
        if e.msg == "Extra data":
            return (f"line {e.lineno}, column {e.colno}: a second JSON value after the first (JSON Lines? one "
                    "document is expected)")
        return f"line {e.lineno}, column {e.colno}: not JSON ({e.msg.lower()})"
    if isinstance(e, RecursionError):
        return "JSON nested too deeply"
    if "int_max_str_digits" in str(e) or "integer string conversion" in str(e):
        return f"a number with more than {MAX_DIGITS} digits"
    return f"unusable JSON ({e})"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, name: str, what: str) -> Any:
    """A JSON value, or a one-line error: truncated, not JSON, nested too deeply, huge numbers."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise UsageError(f"{what} {name}: {json_problem(text, e)}") from None


def read_json(name: str, what: str) -> Any:
    """The JSON document in a file (``-``: stdin), read robustly (see :func:`read_bytes`)."""
    return parse_json(decode_text(read_bytes(name, what), name, what), name, what)


# -- writing output -----------------------------------------------------------------------------


def check_output_dir(path: Path, what: str) -> None:
    """An output directory must be a directory or not exist yet."""
    if str(path).strip() == "":
        raise UsageError(f"{what}: the directory name is empty")
    if path.exists() and not path.is_dir():
        raise UsageError(f"{what} {path}: exists and is not a directory")


def write_atomic(path: str | Path, text: str, what: str) -> None:
    """Write ``text`` to the file ``path`` whole or not at all: into a temporary file in the same
    directory, renamed over ``path`` once complete (on any failure, or an interrupt, the temporary
    file is removed and ``path`` is untouched). Every command that writes a file writes it so: a
    command that fails writes nothing."""
    target = Path(path)
    if str(path).strip() == "":
        raise UsageError(f"{what}: the file name is empty")
    if target.is_dir():
        raise UsageError(f"{what} {path}: is a directory, not a file")
    try:
        fd, tmp = tempfile.mkstemp(dir=target.absolute().parent, prefix=".hanafuda-", suffix=".tmp")
    except OSError as e:
        raise UsageError(f"{what} {path}: cannot write: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as a plain open() would make it
        os.replace(tmp, target)
    except OSError as e:
        _unlink(tmp)
        raise UsageError(f"{what} {path}: cannot write: {e.strerror or e}") from None
    except BaseException:
        _unlink(tmp)
        raise


def _unlink(path: str) -> None:
    with suppress(OSError):
        os.unlink(path)


@contextmanager
def output_dir(path: Path, what: str) -> Iterator[Path]:
    """A fresh temporary directory next to ``path`` to write into; on success its contents are moved
    into ``path`` (created if needed, files of the same name replaced), on failure it is removed, so
    nothing is written."""
    check_output_dir(path, what)
    anchor = path.absolute().parent
    while not anchor.exists():
        anchor = anchor.parent
    try:
        tmp = Path(tempfile.mkdtemp(prefix=".hanafuda-", dir=anchor))
        mask = os.umask(0)
        os.umask(mask)
        tmp.chmod(0o777 & ~mask)  # as a plain mkdir would make it
    except OSError as e:
        raise UsageError(f"{what} {path}: cannot write: {e.strerror or e}") from None
    try:
        yield tmp
        try:
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp.rename(path)
            else:  # each file replaced by a rename: whole, never half-written
                for src in sorted(tmp.rglob("*")):
                    dst = path / src.relative_to(tmp)
                    if src.is_dir():
                        dst.mkdir(exist_ok=True)
                    else:
                        os.replace(src, dst)
        except OSError as e:
            raise UsageError(f"{what} {path}: cannot write: {e.strerror or e}") from None
    except OSError as e:
        raise UsageError(f"{what} {path}: cannot write: {e.strerror or e}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
