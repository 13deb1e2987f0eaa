"""Python's garbage collector during a build: full collections wait for its end, and what the build
made is then frozen out of the collector's sight.

A build holds millions of objects (a site of 2,600 weeks: every PR's analysis, every week's view
and page), and CPython traverses all of them in each full collection, which it starts whenever
the objects kept have grown by a quarter: a quarter of a warm build's time went there, and 14 s
more to Python's exit, which collects again and again as it tears the objects down. A build's
garbage is young and the young collections, which stay on, reclaim it. Under `pelican
--autoreload` the next build first hands the previous build's objects back and collects them once.
"""

from __future__ import annotations

import gc

THRESHOLDS = gc.get_threshold()  # the process's own, restored after each build
DEFERRED = 10**9  # middle-generation collections before a full one: none within a build


def start_build() -> None:
    if gc.get_freeze_count():  # an earlier build of this process froze its objects: now garbage
        gc.unfreeze()
        gc.collect()
    young, middle, _full = THRESHOLDS
    gc.set_threshold(young, middle, DEFERRED)


def end_build() -> None:
    gc.set_threshold(*THRESHOLDS)
    gc.freeze()
