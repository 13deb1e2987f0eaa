"""The garbage collector around builds: no full collection within one, the process's settings back
after it, and under --autoreload a finished build's garbage reclaimed when the next one starts."""

from __future__ import annotations

import gc
import weakref

from digest_plugin.build import gc_pause as collector


class Node:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it


def test_a_finished_builds_garbage_is_collected_when_the_next_build_starts():
    before = gc.get_threshold()
    try:
        collector.start_build()
        assert gc.get_threshold()[2] == collector.DEFERRED
        node = Node()
        gone = weakref.ref(node)
        collector.end_build()  # the build is over; its objects are frozen, out of the collector's sight
        assert gc.get_threshold() == collector.THRESHOLDS and gc.get_freeze_count() > 0
        del node
        gc.collect()
        assert gone() is not None  # frozen: even a full collection leaves it (so the process exits at once)
        collector.start_build()  # the next build of the same process (pelican --autoreload)
        assert gone() is None and gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
