"""The ``hanafuda`` command-line program.

Every subcommand lives in :mod:`hanafuda.commands` as a module with ``register(subparsers)``;
the program finds them there.

One argument grammar for every subcommand: ``hanafuda COMMAND ARGS``, where options may come
before, between or after the positional arguments and ``--`` ends the options (everything after
it is positional). Seeds are 0 to 2**64-1 everywhere, ``--games`` is at most 1,000,000
everywhere, and empty names (games, rulesets, files, directories) are rejected.

Exit codes:

* 0 – success;
* 1 – a check failed (``verify`` found a violation, ``validate`` an invalid record, ``referee`` a
  disagreement, ``rulebook`` a failed build);
* 2 – bad input or an unusable environment: unknown game, card, ruleset or option, a bad option
  value, a malformed or unreadable file, an output that cannot be written (a full disk);
* 3 – an internal error (a bug in hanafuda: please report it).

Errors are one line on stderr, ``hanafuda: error: ...``, naming what and where; never a
traceback; input they echo is cut after 60 characters (:func:`~hanafuda.errors.clip_echoes`). A failed
command writes no output file or directory.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from hanafuda_spec.cards import UnknownCardError
from hanafuda_spec.catalogue import OptionError

import hanafuda
from hanafuda import commands
from hanafuda.commands._common import EXIT_CODES, HelpFormatter
from hanafuda.engine import ActionSyntaxError, IllegalActionError
from hanafuda.errors import UsageError, clip_echoes
from hanafuda.registry import UnknownGameError

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_INTERNAL", "EXIT_OK", "UsageError", "main"]

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


@functools.cache
def command_modules() -> dict[str, str]:
    """Command name -> the module of ``hanafuda.commands`` that registers it (``import_`` registers
    ``import``)."""
    return {info.name.rstrip("_"): info.name for info in sorted(pkgutil.iter_modules(commands.__path__),
                                                                 key=lambda m: m.name)
            if not info.name.startswith("_")}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The program's parser: every command, or the one command ``only`` (what running a command needs:
    the other commands' modules are not imported, a quarter of the start-up)."""
    p = _Parser(prog="hanafuda", description="Machine-checked rules reference for five hanafuda games "
                "(Koi-Koi, Kusuri-gui, Kujuroku, Musashino-Bana, Kekoro).\n"
                "Options may come anywhere after COMMAND; '--' ends them. 'hanafuda COMMAND --help' shows a "
                "command's arguments, defaults and examples.",
                epilog="examples:\n  hanafuda score koikoi 10 30 80 110 120\n  hanafuda rules kekoro\n"
                "  hanafuda verify --quick\n\n" + EXIT_CODES, formatter_class=HelpFormatter)
    p.add_argument("--version", action="version", version=f"hanafuda {hanafuda.__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module in command_modules().items():
        if only is None or name == only:
            importlib.import_module(f"hanafuda.commands.{module}").register(sub)
    return p


def parse_options(items: Sequence[str] | None) -> dict[str, str]:
    """``KEY=VALUE`` pairs from repeated ``--option``; a key given twice is an error."""
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {item!r}: expected KEY=VALUE")
        key = key.strip()
        if key in out:
            raise UsageError(f"--option {key} given twice")
        out[key] = value.strip()
    return out


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """Parse a command line: ``COMMAND`` first (or ``--help``/``--version``), then the command's
    arguments with options anywhere and ``--`` ending them."""
    known = bool(argv) and argv[0] in command_modules()
    parser = build_parser(argv[0] if known else None)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if not argv or argv[0].startswith("-"):
        parser.parse_args(argv)  # --help, --version, or an error
        raise UsageError(f"hanafuda: a COMMAND is required ({', '.join(sorted(sub.choices))}; see 'hanafuda --help')")
    command = sub.choices.get(argv[0])
    if command is None:
        raise UsageError(f"hanafuda: unknown command {argv[0]!r} (choose from {', '.join(sorted(sub.choices))})")
    args: argparse.Namespace = command.parse_intermixed_args(argv[1:])
    args.command = argv[0]
    return args


def _silence_stdout() -> None:
    """After stdout failed (a full disk, a closed pipe): send what is still buffered nowhere, so that
    the interpreter's final flush adds no second error."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


#: Free memory at the top of the heap kept before any is given back (glibc's ``M_TRIM_THRESHOLD``).
TRIM = 512 * 2**20
#: How much more the heap grows than asked (``M_TOP_PAD``).
TOP_PAD = 64 * 2**20
#: Requests from this size up get a mapping of their own (``M_MMAP_THRESHOLD``; glibc's maximum on
#: 64-bit systems is 32 MiB).
MMAP = 32 * 2**20

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3


def keep_freed_memory() -> bool:
    """Set glibc's allocator to keep freed memory in the process, as the program does at start;
    whether it was set (False elsewhere than glibc on Linux, or when ``mallopt`` refuses).

    By default glibc gives memory back to the system as soon as a little at the top of the heap is
    free and maps each large request on its own, with thresholds that rise only as the process frees
    memory; a process that builds and drops large structures again and again (the z3 proofs of
    ``verify``), and every worker forked at start with the low defaults, then spends its time faulting
    in pages it has just given back (``benchmarks/README.md``). The thresholds are set once, high:
    where memory comes from changes, never a result. The library does not call it: a program that
    imports ``hanafuda`` keeps its own settings."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return False
    except (ValueError, OSError):  # not glibc
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return all(mallopt(param, value) == 1 for param, value in
               ((_M_TRIM_THRESHOLD, TRIM), (_M_TOP_PAD, TOP_PAD), (_M_MMAP_THRESHOLD, MMAP)))


def main(argv: Sequence[str] | None = None) -> int:
    keep_freed_memory()  # glibc's allocator: keep freed memory (never changes a result)
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse(args_list)
        code: int = args.run(args)
        sys.stdout.flush()
        return code
    except (UsageError, UnknownGameError, UnknownCardError, OptionError, ActionSyntaxError,
            IllegalActionError) as e:
        print(f"hanafuda: error: {clip_echoes(str(e))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("hanafuda: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except OSError as e:  # the environment: a full disk, an unreadable or unwritable file
        if e.filename is None:
            _silence_stdout()
            print(f"hanafuda: error: cannot write standard output: {e.strerror or e}", file=sys.stderr)
        else:
            print(clip_echoes(f"hanafuda: error: {e.filename}: {e.strerror or e}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except RecursionError:
        print("hanafuda: error: the input is nested too deeply", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as e:  # a bug: one line, never a traceback
        print(clip_echoes(f"hanafuda: internal error: {type(e).__name__}: {e}"), file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
