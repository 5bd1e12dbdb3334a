"""Where the work of ``simulate``, ``validate``, ``verify``, ``vectors`` and ``identify`` runs: one
execution layer for all of them.

An :class:`Executor` is an *ordered map*: ``executor.map(fn, items)`` gives ``fn(item)`` for each
item, in the order of the items, whichever worker computed it. Three kinds exist:

* in this process (``--jobs 1``): the built-in ``map``;
* a pool of ``--jobs N`` worker processes on this machine (:class:`concurrent.futures.ProcessPoolExecutor`);
* a Dask distributed cluster (``--cluster ADDRESS``): the scheduler at ``ADDRESS`` hands the items
  to its workers (``dask.distributed``, the optional extra ``hanafuda[cluster]``; every worker must
  have the same version of hanafuda installed, see ``docs/cluster.md``).

The callers split their work deterministically (by seed range, record, game and ruleset) and merge
the results in item order, so the output is the same wherever the items ran. ``fn`` must be a
module-level function (or a :func:`functools.partial` of one) so that it can be sent to a worker
process by reference.

Worker processes on this machine are started when the executor is opened, before the command
reads its input, so that their start overlaps the main process's first work. On Linux they are
*forked* (a copy of this process: nothing to import again, the games already loaded) when this
process runs no other thread at that moment: ``fork`` copies only the calling thread, so a lock
held by another thread (logging, a progress bar's monitor, a Dask client) would stay locked forever
in the child; with one thread there is no such lock, and the pool's own threads start only after
its processes exist. Elsewhere (macOS, where system libraries do not survive a fork; Windows, which
has no fork) or when other threads run, the workers are *spawned* (a fresh interpreter each).

A run stopped in this process (Ctrl-C, or an error) stops the workers' items under way and those
queued to them, rather than waiting for them (an ``identify`` search runs for many seconds): each
worker is interrupted (a terminal's Ctrl-C reaches them by itself; each worker sends its pid when it
starts, so the pool knows whom to interrupt), and an interrupted worker runs no further item; between
items an interrupt never ends a worker (which would print a traceback).

Work that makes no reference cycles and keeps many objects (``identify`` keeps every replay's
summary) asks for ``collector=False``: Python's cyclic garbage collector is then off in this process
while the executor is open, and in its workers (:func:`collector_paused`). Each full collection walks
every object kept and finds nothing to free, while the workers wait for this process. Objects are
still freed when their last reference goes.

``--cluster`` and ``--jobs`` are not given together: with a cluster, its workers set how much runs
at once (``--jobs`` is for this machine's cores), and the command says so in one line (exit 2).

>>> with open_executor(1) as ex:
...     list(ex.map(abs, [-3, 1, -2]))
[3, 1, 2]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import multiprocessing
import os
import re
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

from hanafuda.errors import UsageError

__all__ = [
    "CONNECT_TIMEOUT",
    "Executor",
    "add_cluster_argument",
    "cluster_address",
    "collector_paused",
    "executor_for",
    "open_executor",
    "start_method",
]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds to wait for a Dask scheduler to answer before giving up (exit 2). The environment
#: variable ``HANAFUDA_CLUSTER_TIMEOUT`` overrides it (a number of seconds, more than 0).
CONNECT_TIMEOUT = 10.0

#: The address schemes of ``dask.distributed`` (``tcp`` when none is given).
SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")

_ADDRESS = re.compile(r"^(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+):(?P<port>\d{1,5})/?$")


class Executor:
    """An ordered map over some workers (see the module docstring); ``workers`` is how many items
    run at once, which callers use to decide how finely to split their work."""

    workers: int = 1
    #: True when the items run in this process, one after the other.
    in_process: bool = True
    #: How many small items (records) to send to a worker at a time: more on a cluster, where
    #: each task costs a round trip to the scheduler.
    chunk: int = 16
    #: where the work runs, for messages: "this process", "2 processes", "cluster tcp://...".
    where: str = "this process"
    #: True when the workers are copies of this process made when the executor was opened (``fork``):
    #: what this process held then, they hold too, with nothing sent.
    forked: bool = False

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        """``fn(item)`` for each item, in item order; ``chunksize`` items go to a worker at a time."""
        return map(fn, items)

    def close(self) -> None:
        """Release the workers (the cluster itself is left running)."""

    def abort(self) -> None:
        """Release the workers now, their work unfinished (the run is stopped: interrupted, or an error):
        :meth:`close` unless the workers can be stopped sooner."""
        self.close()


def start_method() -> str:
    """How worker processes start here: ``fork`` on Linux while this process runs one thread (see
    the module docstring for why that is safe), ``spawn`` otherwise."""
    if (sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
            and threading.active_count() == 1):
        return "fork"
    return "spawn"


def _ready() -> None:
    """The first task of each worker: nothing, so that the pool starts its processes at once."""


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


class _WorkerState:
    """In a worker process: whether the run was interrupted (``SIGINT``: the items still sent to it
    are not run) and whether an item is under way (an interrupt then stops it)."""

    interrupted = False
    busy = False


_WORKER = _WorkerState()


def _worker_start(started: Any, collector: bool = True) -> None:
    """Each worker's start: an interrupt stops the item under way, and the items queued after it, but
    never the worker itself between items (Python's default would end it there, with a traceback);
    then the worker's pid goes to ``started`` (a queue), for the pool to interrupt it (:meth:`_Pool.abort`).
    Without ``collector``, the cyclic garbage collector is off for the worker's life (see
    :func:`open_executor`)."""
    signal.signal(signal.SIGINT, _on_interrupt)
    started.put(os.getpid())
    if not collector:
        gc.disable()


def _on_interrupt(signum: int, frame: object) -> None:
    _WORKER.interrupted = True
    if _WORKER.busy:
        raise KeyboardInterrupt


def _item(fn: Callable[[T], R], item: T) -> R:
    """What a worker runs for each item: ``fn(item)``, unless the run was interrupted."""
    _WORKER.busy = True
    try:
        if _WORKER.interrupted:
            raise KeyboardInterrupt
        return fn(item)
    finally:
        _WORKER.busy = False


class _Pool(Executor):
    def __init__(self, jobs: int, collector: bool = True) -> None:
        self.workers = jobs
        self.in_process = False
        self.where = f"{jobs} processes"
        self.method = start_method()
        self.forked = self.method == "fork"
        context = multiprocessing.get_context(self.method)
        self._started = context.SimpleQueue()  # each worker's pid, sent when it starts (_worker_start)
        self._pids: set[int] = set()
        self._pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_start,
                                         initargs=(self._started, collector))
        self._pool.submit(_ready)  # start the processes now, while this process reads its input

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        try:
            running = self._pool.map(partial(_item, fn), items, chunksize=chunksize)  # every item is sent now
        except BrokenProcessPool:
            raise UsageError(_DIED) from None

        def results() -> Iterator[R]:
            try:
                yield from running
            except BrokenProcessPool:
                raise UsageError(_DIED) from None

        return results()

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)
        self._started.close()

    def abort(self) -> None:
        """The run is stopped: each worker is interrupted (its item under way stops, and the items
        already queued to it are not run, :func:`_item`), the items not sent are cancelled, and the
        pool is closed. Closing alone would wait for the items under way and queued: an ``identify``
        search runs for many seconds. A terminal's interrupt reaches the workers by itself; an
        interrupt of this process alone, or an error here, reaches them so."""
        while not self._started.empty():  # the workers started so far (each sends its pid once)
            self._pids.add(self._started.get())
        for pid in self._pids:
            with contextlib.suppress(OSError):  # gone already
                os.kill(pid, signal.SIGINT)
        self.close()


_DIED = ("a worker process stopped before finishing its work (killed, or out of memory?); the run is "
         "incomplete, try again or with --jobs 1")


def _apply_chunk(fn: Callable[[T], R], chunk: Sequence[T], collector: bool = True) -> list[R]:
    """What a cluster worker runs for a chunk of items (without the collector: see :func:`open_executor`)."""
    with contextlib.nullcontext() if collector else collector_paused():
        return [fn(x) for x in chunk]


class _Dask(Executor):
    def __init__(self, client: Any, address: str, collector: bool = True) -> None:
        self._client = client
        self._collector = collector
        self.in_process = False
        self.chunk = 64
        self.where = f"cluster {address}"
        threads = client.nthreads()
        self.workers = max(1, sum(threads.values()) if isinstance(threads, dict) else 1)

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        items = list(items)
        chunks = [items[i:i + chunksize] for i in range(0, len(items), max(1, chunksize))]
        futures = [self._client.submit(_apply_chunk, fn, c, self._collector, pure=False) for c in chunks]

        def results() -> Iterator[R]:
            try:
                for f in futures:
                    yield from f.result()
            finally:
                self._client.cancel(futures)

        return results()

    def close(self) -> None:
        self._client.close()


def connect_timeout() -> float:
    """:data:`CONNECT_TIMEOUT`, or ``HANAFUDA_CLUSTER_TIMEOUT`` when it is set."""
    text = os.environ.get("HANAFUDA_CLUSTER_TIMEOUT", "").strip()
    if not text:
        return CONNECT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 3600:
        raise UsageError(f"HANAFUDA_CLUSTER_TIMEOUT={text!r} is not a number of seconds more than 0 and at most 3600")
    return value


def cluster_address(text: str) -> str:
    """``--cluster``: a Dask scheduler address, ``[SCHEME://]HOST:PORT`` (``tcp://10.0.0.5:8786``)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the cluster address is empty (a Dask scheduler: tcp://HOST:PORT)")
    m = _ADDRESS.match(text.strip())
    if m is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Dask scheduler address: [SCHEME://]HOST:PORT, such as "
                                         "tcp://10.0.0.5:8786")
    scheme = m["scheme"] or "tcp"
    if scheme not in SCHEMES:
        raise argparse.ArgumentTypeError(f"{text!r}: unknown address scheme {scheme!r} (known: {', '.join(SCHEMES)})")
    if not 0 < int(m["port"]) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: the port is not 1 to 65535")
    return f"{scheme}://{m['host']}:{int(m['port'])}"


def add_cluster_argument(p: argparse.ArgumentParser) -> None:
    """``--cluster ADDRESS`` (after :func:`~hanafuda.commands._common.add_jobs_argument`)."""
    p.set_defaults(cluster=None)
    p.add_argument("--cluster", type=cluster_address, metavar="ADDRESS",
                   help="run on the Dask distributed cluster whose scheduler is at ADDRESS ([tcp://]HOST:PORT; "
                   "needs the extra hanafuda[cluster] here and on every worker, see docs/cluster.md); the output "
                   "is the same as in one process; not with --jobs")


@contextmanager
def executor_for(args: argparse.Namespace, jobs: int | None = None, collector: bool = True) -> Iterator[Executor]:
    """The executor a command's ``--jobs``/``--cluster`` arguments ask for (``jobs`` overrides
    ``--jobs``: 1 for runs too small to split; ``collector`` as for :func:`open_executor`). Bad
    addresses and a missing Dask are :class:`UsageError`; nothing has run yet when they are raised."""
    cluster: str | None = getattr(args, "cluster", None)
    if cluster is not None and getattr(args, "jobs_given", False):
        raise UsageError("--cluster and --jobs: choose one (with --cluster the cluster's workers set how much "
                         "runs at once)")
    with open_executor(args.jobs if jobs is None else jobs, cluster, collector) as ex:
        yield ex


@contextmanager
def open_executor(jobs: int = 1, cluster: str | None = None, collector: bool = True) -> Iterator[Executor]:
    """An executor: on the Dask cluster at ``cluster`` if given, else ``jobs`` processes here
    (this process for ``jobs`` 1); closed on leaving. ``collector`` False: the work runs without the
    cyclic garbage collector, for work that makes no reference cycles and keeps many objects (see the
    module docstring): in this process while the executor is open, in the worker processes here for
    their life, and in a cluster's workers for each chunk of items."""
    ex: Executor
    if cluster is not None:
        ex = _Dask(_connect(cluster), cluster, collector)
    elif jobs > 1:
        ex = _Pool(jobs, collector)
    else:
        ex = Executor()
    try:
        with contextlib.nullcontext() if collector else collector_paused():
            yield ex
    except BaseException:
        ex.abort()  # interrupted, or an error: the work under way is not wanted
        raise
    ex.close()


def _connect(address: str) -> Any:
    """A ``dask.distributed.Client`` connected to ``address``, or a one-line :class:`UsageError`."""
    timeout = connect_timeout()
    try:
        from dask.distributed import Client
    except ImportError as e:
        raise UsageError(f"--cluster needs Dask distributed, which is not installed ({e.msg}): install "
                         "'hanafuda[cluster]'") from None
    scheme, _, rest = address.partition("://")
    if scheme == "tcp":  # a closed port fails at once here, instead of after the whole timeout
        host, _, port = rest.rpartition(":")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
        except OSError as e:
            raise UsageError(f"--cluster {address}: cannot reach the scheduler: {e.strerror or e}") from None
    old = sys.unraisablehook  # a client that failed to connect complains when it is collected: silently
    sys.unraisablehook = lambda _: None
    try:
        try:
            make: Any = Client  # untyped
            return make(address, timeout=timeout, set_as_default=False)
        except (OSError, ValueError, TimeoutError) as e:
            message = f"--cluster {address}: cannot reach the scheduler within {timeout:g} s: {e}"
        gc.collect()
    finally:
        sys.unraisablehook = old
    raise UsageError(message.splitlines()[0])
