"""Keep freed memory in the process: a setting of glibc's allocator for the ``hanafuda`` program.

By default glibc's ``malloc`` gives memory back to the system as soon as a few hundred kilobytes
at the top of the heap are free, and serves each request above 128 KB with a mapping of its own
(both thresholds then rise with what the process has freed, the "dynamic" thresholds). A process
that repeatedly builds and drops large structures, as the z3 proofs of ``verify`` do, then spends
a fifth of its time in the kernel, faulting in pages it has just given back: 1.4 million page
faults for 40 Koi-Koi proofs, 9.1 s of CPU, against 10,700 faults and 7.0 s with the memory kept
(measured 2026-11-25, ``benchmarks/README.md``). A worker process forked early (``--jobs``) starts
with the thresholds at their defaults, so it pays this where one process that had already raised
them did not.

:func:`keep_freed_memory` sets the thresholds once, high, with ``mallopt``: memory freed at the top
of the heap is kept up to :data:`TRIM` bytes, the heap grows by :data:`TOP_PAD` more than asked
(address space, not memory, until touched) and requests below :data:`MMAP` come from the heap. It
changes only where memory comes from, never a result; elsewhere than glibc it does nothing. The
program calls it at start; the library does not (a program that imports ``hanafuda`` keeps its own
settings).

:func:`collector_paused` is the other setting of this kind: Python's cyclic garbage collector off for
a stretch of work that makes no reference cycles. ``identify`` keeps every replay's summary (tens of
thousands of objects for a thousand records), and each full collection walks all of them: five of
them, 0.07 to 0.13 s each, found nothing to free in a search of 1,000 records, and with ``--jobs 2``
the workers wait while the main process collects (measured 2026-11-25, ``benchmarks/README.md``).
Objects are still freed when their last reference goes; only cycles would wait for the collector,
which runs again when the stretch ends.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["MMAP", "TOP_PAD", "TRIM", "collector_paused", "keep_freed_memory"]

#: Free memory at the top of the heap kept before any is given back (``M_TRIM_THRESHOLD``).
TRIM = 512 * 2**20
#: How much more the heap grows than asked (``M_TOP_PAD``).
TOP_PAD = 64 * 2**20
#: Requests from this size up get a mapping of their own (``M_MMAP_THRESHOLD``; glibc's maximum on
#: 64-bit systems is 32 MiB).
MMAP = 32 * 2**20

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3


def keep_freed_memory() -> bool:
    """Set glibc's thresholds (see the module docstring); whether they were set (False elsewhere than
    glibc on Linux, or when ``mallopt`` refuses)."""
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


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off inside the ``with`` block, as it was after it (see the module
    docstring).

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
