"""Work spread over the cores a build may use: charts and PDFs are drawn in worker processes when
there are enough of them to pay for the workers' start-up, and a repository analysed afresh
analyses its PRs in forked copies of the build (`forked_map`)."""

from __future__ import annotations

import os
import pickle
import signal
import sys
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context

# What the workers' fork server imports ahead, for every pool of a build (it starts once, with the
# first): matplotlib, which the chart workers need. Not this package, which the server would import
# from where it is installed rather than from where the build loaded it (a site's own folder).
WORKER_PRELOAD = "matplotlib.figure"


def parallel_stream(function: Callable, jobs: Iterable[tuple], count: int, *, preload: str, parallel_from: int,
                    window: int, workers: int | None = None) -> Iterator:
    """`function(*job)` for each of `count` jobs, in order, with at most `window` jobs taken from
    `jobs` and not yet handed back: a job whose arguments are large (a page's HTML) is made only
    when a worker is about to need it, and one pool serves them all."""
    workers = workers or cores()
    if workers == 1 or count < parallel_from:
        yield from (function(*job) for job in jobs)
        return
    with ProcessPoolExecutor(max_workers=min(workers, count), mp_context=_worker_context(preload)) as pool:
        pending: deque[Future] = deque()
        for job in jobs:
            pending.append(pool.submit(function, *job))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


FORK_FROM = 200  # items a forked copy takes at least: fewer are not worth a copy of the build


def forked_map(function: Callable, items: Sequence, workers: int | None = None) -> list:
    """`[function(item) for item in items]`, the items split in runs between this process and
    forked copies of it, one a core. A copy has everything this process has, so nothing is sent to
    it, not even `function` (a closure will do); only the results come back, pickled.

    `function` must be pure, as the analysis is: a copy has none of this process's other threads
    (Pelican's spinner), and a lock one of them held at the fork would never be let go in the
    copy. CPython makes its own locks anew in a copy (the interpreter's, imports', logging's);
    what the copy prints goes nowhere, so that it never waits on the lock of a stream another
    thread was writing to."""
    copies = min((workers or cores()) - 1, len(items) // FORK_FROM - 1)
    if copies < 1 or not hasattr(os, "fork"):
        return [function(item) for item in items]
    size = -(-len(items) // (copies + 1))
    runs = [items[start:start + size] for start in range(0, len(items), size)]
    pending: list[tuple[int, int, Sequence]] = []  # (pid, pipe, run) of the copies not heard from yet
    try:
        for run in runs[1:]:
            pending.append((*_fork(function, run), run))
        results = [function(item) for item in runs[0]]
        while pending:
            results.extend(_answer(*pending.pop(0), function))
        return results
    finally:
        for pid, pipe, _run in pending:  # this process failed first: the copies' results are not wanted
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(pipe)


def _fork(function: Callable, run: Sequence) -> tuple[int, int]:
    """A copy of this process computing `function` over `run`: its pid, and the pipe its pickled
    (succeeded, results or the error) come through."""
    read, write = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Python 3.12's word on forking with threads: see forked_map
        pid = os.fork()
    if pid:
        os.close(write)
        return pid, read
    os.close(read)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the copy's end closes it)
    try:
        try:
            answer = pickle.dumps((True, [function(item) for item in run]), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001 (whatever `function` raises is raised in the build, as if there)
            answer = pickle.dumps((False, error if _picklable(error) else RuntimeError(repr(error))))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(answer)
    finally:
        os._exit(0)  # nothing of the build's own exit: its files, its atexit handlers, are the build's


def _answer(pid: int, pipe: int, run: Sequence, function: Callable) -> list:
    """A copy's results, or its error raised here."""
    try:
        with os.fdopen(pipe, "rb") as answer:
            ok, value = pickle.load(answer)
    except EOFError:  # the copy was stopped (out of memory, say): its run is done here
        ok, value = True, [function(item) for item in run]
    finally:
        os.waitpid(pid, 0)
    if not ok:
        raise value
    return value


def _picklable(error: Exception) -> bool:
    try:
        pickle.loads(pickle.dumps(error))
    except (pickle.PicklingError, TypeError, AttributeError, ValueError):  # an error class of odd arguments
        return False
    return True


def cores() -> int:
    """The cores this process may run on (a container may allow fewer than the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _worker_context(preload: str):
    """Workers forked from a clean server process (not from a build that may run threads), which
    has `preload` imported already; spawned where there is no fork server (Windows). The server
    starts once a build, with the first preload asked for; later workers import what they need."""
    if "forkserver" not in get_all_start_methods():
        return get_context("spawn")
    context = get_context("forkserver")
    context.set_forkserver_preload([preload])
    return context
