"""The garbage collector around builds: no full collection within one, the process's settings back
after it, and under --autoreload a finished build's garbage reclaimed when the next one starts."""

from __future__ import annotations

import gc
import weakref

from digest_plugin.build import gc_pause


class Node:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it


def test_a_finished_builds_garbage_is_collected_when_the_next_build_starts():
    before = gc.get_threshold()
    try:
        gc_pause.start_build()
        assert gc.get_threshold()[2] == gc_pause.DEFERRED
        node = Node()
        gone = weakref.ref(node)
        gc_pause.end_build()  # the build is over; its objects are frozen, out of the collector's sight
        assert gc.get_threshold() == gc_pause.THRESHOLDS and gc.get_freeze_count() > 0
        del node
        gc.collect()
        assert gone() is not None  # frozen: even a full collection leaves it (so the process exits at once)
        gc_pause.start_build()  # the next build of the same process (pelican --autoreload)
        assert gone() is None and gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
