"""Progress display for the long commands (issue 17): a bar on standard error with the count, the
rate and the time left, drawn by `tqdm <https://tqdm.github.io/>`_, only when standard error is a
terminal.

Work reports how far it has got through an :class:`OnProgress` callback, ``on_progress(done,
total)``: the units done so far and the total, ``None`` while the total is unknown (the bar then
shows the count and the rate but no time left). :func:`progress` gives such a callback: a bar when
:func:`wanted` says so, and otherwise a callback that does nothing, so that without a terminal on
standard error nothing extra is written anywhere. Nothing is ever written to standard output: what
a command prints there is byte for byte the same with and without a terminal.

The bar is off when standard error is not a terminal, when ``TERM`` is ``dumb``, when the
environment variable ``HANAFUDA_NO_PROGRESS`` is set to anything but an empty string, and when a
command is given ``--no-progress`` (:func:`add_progress_argument`). When standard output is the same
terminal, a command writes its lines inside :meth:`Progress.printing`, which takes the bar away
first and draws it again after, so that the two do not mix on one line.

>>> with progress("games", 3, enabled=False) as bar:
...     for done in range(1, 4):
...         bar(done, 3)
>>> bar.shown
False
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Never, Protocol, TextIO

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["ENV_OFF", "OnProgress", "Progress", "add_progress_argument", "progress", "wanted"]

#: Set to anything but an empty string, this environment variable turns every progress bar off.
ENV_OFF = "HANAFUDA_NO_PROGRESS"

#: The least time between two redraws of a bar, in seconds; None: tqdm's (0.1 s, or the environment's
#: ``TQDM_MININTERVAL``; tests set 0 to see every step).
MIN_INTERVAL: float | None = None


class OnProgress(Protocol):
    """Told how far some work has got: ``done`` units of ``total`` (``None``: not known yet)."""

    def __call__(self, done: int, total: int | None, /) -> None: ...


def wanted(stream: TextIO | None = None, *, no_progress: bool = False) -> bool:
    """Whether to draw a bar on ``stream`` (standard error by default): a terminal, ``TERM`` not
    ``dumb``, ``HANAFUDA_NO_PROGRESS`` unset or empty, and not ``--no-progress``."""
    if no_progress or os.environ.get(ENV_OFF, "") or os.environ.get("TERM") == "dumb":
        return False
    out = sys.stderr if stream is None else stream
    try:
        return out.isatty()
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False


class Progress:
    """A progress display: call it with ``(done, total)``; a no-op when no bar is shown."""

    def __init__(self, bar: tqdm[Never] | None) -> None:
        self._bar = bar

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn (standard error is a terminal and progress is not turned off)."""
        return self._bar is not None

    def __call__(self, done: int, total: int | None, /) -> None:
        bar = self._bar
        if bar is None:
            return
        if total != bar.total:
            bar.total = total
            bar.refresh()
        if done != bar.n:
            bar.update(done - bar.n)
            if done == total:  # the last step is always drawn (tqdm may skip a step drawn too soon after another)
                bar.refresh()

    def printing(self) -> AbstractContextManager[None]:
        """Around lines written to standard output while the bar is up: the bar is cleared before
        and drawn again after (nothing happens when no bar is shown)."""
        if self._bar is None:
            return nullcontext()
        return self._bar.external_write_mode()

    def close(self) -> None:
        """Take the bar away (the terminal keeps only what the command printed)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


@contextmanager
def progress(description: str, total: int | None = None, *, unit: str = "it", unit_scale: bool = False,
             no_progress: bool = False, enabled: bool | None = None) -> Iterator[Progress]:
    """A progress bar on standard error for the duration of the ``with`` block, if ``enabled``
    (by default: if :func:`wanted`, given ``--no-progress`` as ``no_progress``). ``unit`` names
    what is counted (``game``, ``check``, ``B``); ``unit_scale`` shows large counts as 1.2M (in
    steps of 1024 with ``unit="B"``)."""
    if enabled is None:
        enabled = wanted(no_progress=no_progress)
    if not enabled:
        yield Progress(None)
        return
    from tqdm import tqdm

    sized = _sized()  # a terminal that gives no size (a bare pseudo-terminal): 80 columns, 24 lines
    bar: tqdm[Never] = tqdm(total=total, desc=description, unit=unit, unit_scale=unit_scale,
                             unit_divisor=1024 if unit == "B" else 1000, file=sys.stderr, leave=False,
                             dynamic_ncols=sized, ncols=None if sized else 80, nrows=None if sized else 24,
                             smoothing=0.1)
    if MIN_INTERVAL is not None:
        bar.mininterval = MIN_INTERVAL
    shown = Progress(bar)
    try:
        yield shown
    finally:
        shown.close()


def _sized() -> bool:
    """Whether standard error's terminal tells its size."""
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, ValueError, OSError):
        return False
    return size.columns > 0 and size.lines > 0


def add_progress_argument(p: argparse.ArgumentParser) -> None:
    """``--no-progress``: no bar even on a terminal (the bar is never shown when standard error is
    not a terminal)."""
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar on standard error (there is one only when it is a terminal; "
                   f"{ENV_OFF}=1 turns it off too)")
