"""The ``hanafuda`` command-line program.

Every subcommand lives in :mod:`hanafuda.commands` as a module with ``register(subparsers)``;
the program finds them there.

Exit codes:

* 0 – success;
* 1 – a check failed (``verify`` found a violation, ``validate`` an invalid record);
* 2 – bad input: unknown game, card, ruleset or option, a bad option value, a malformed file;
* 3 – an internal error (a bug in hanafuda: please report it).

Errors are one line on stderr, ``hanafuda: error: ...``; never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from hanafuda_spec.cards import UnknownCardError
from hanafuda_spec.catalogue import OptionError

import hanafuda
from hanafuda import commands
from hanafuda.engine import ActionSyntaxError, IllegalActionError
from hanafuda.registry import UnknownGameError

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_INTERNAL", "EXIT_OK", "UsageError", "main"]

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(ValueError):
    """Bad command-line input: reported in one line with exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="hanafuda", description="Machine-checked rules reference for five hanafuda games "
                "(Koi-Koi, Kusuri-gui, Kujuroku, Musashino-Bana, Kekoro).",
                epilog="Exit codes: 0 success, 1 a check failed, 2 bad input, 3 internal error.")
    p.add_argument("--version", action="version", version=f"hanafuda {hanafuda.__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"hanafuda.commands.{info.name}")
        mod.register(sub)
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


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(args_list)
        if extra:
            # Cards given after options (``score kekoro -o values=kusaba 10 11``) are still cards.
            if getattr(args, "command", None) == "score" and not any(e.startswith("-") for e in extra):
                args.cards = [*args.cards, *extra]
            else:
                raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        if args.command is None:
            parser.print_help()
            return EXIT_BAD_INPUT
        code: int = args.run(args)
        return code
    except (UsageError, UnknownGameError, UnknownCardError, OptionError, ActionSyntaxError,
            IllegalActionError) as e:
        print(f"hanafuda: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("hanafuda: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # a bug: one line, never a traceback
        print(f"hanafuda: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
