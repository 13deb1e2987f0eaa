"""Work spread over the cores a build may use: charts, PDFs, the repositories analysed afresh and,
when one alone is, slices of its weeks go to worker processes when there is enough of it to pay for
the workers' start-up.

The workers start cleanly, from a fork server that never ran the build's threads (Pelican's
spinner, the chart-writing thread), never as forks of the build itself: a lock one of those
threads held at a fork would never be let go in the copy. A worker given a slice of one
repository's weeks reads the store and makes the repository's context itself rather than being
sent them (ruff, 7,554 PRs: about 2 s of its CPU with its start-up), and hands back its PRs'
analyses without the PRs (publish/history.py). For ruff on a 2-core machine that takes 3 s of CPU
off the build's process (a cold build without PDFs, sliced against not: 12.8 s against 15.8 s,
the means of 8 alternating runs), which is time gained only while the second core is free: the
cold analysis alone took 7.1 s against 9.6 s, and a cold build 17.3 s against 22.3 s, when it
was; as long or longer when other work held it (a shared machine: medians of the 8 cold builds
22.2 s against 22.4 s).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_all_start_methods, get_context

# What the workers' fork server imports ahead, for every pool of a build (it starts once, with the
# first): matplotlib, which the chart workers need. Not this package, which the server would import
# from where it is installed rather than from where the build loaded it (a site's own folder).
WORKER_PRELOAD = "matplotlib.figure"


def parallel_stream(
    function: Callable,
    jobs: Iterable[tuple],
    count: int,
    *,
    preload: str,
    parallel_from: int,
    window: int,
    workers: int | None = None,
) -> Iterator:
    """`function(*job)` for each of `count` jobs, in order, with at most `window` jobs taken from
    `jobs` and not yet handed back: a job whose arguments are large (a page's HTML) is made only
    when a worker is about to need it, and one pool serves them all."""
    workers = workers or cores()
    if workers == 1 or count < parallel_from:
        yield from (function(*job) for job in jobs)
        return
    with ProcessPoolExecutor(
        max_workers=min(workers, count), mp_context=_worker_context(preload)
    ) as pool:
        pending: deque[Future] = deque()
        for job in jobs:
            pending.append(pool.submit(function, *job))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


@contextmanager
def started(function: Callable, jobs: Sequence[tuple], *, preload: str) -> Iterator[Iterator]:
    """`function(*job)` for each of `jobs`, started at once in clean workers, one a job, while the
    caller goes on with work of its own; their results are handed back in order as it asks. On
    the way out the pool is shut down, and jobs not begun are dropped (the caller failed)."""
    pool = ProcessPoolExecutor(max_workers=len(jobs), mp_context=_worker_context(preload))
    futures = [pool.submit(function, *job) for job in jobs]
    try:
        yield (future.result() for future in futures)
    finally:
        pool.shutdown(cancel_futures=True)


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
