"""The garbage collector around builds: a build run from Python (as a host program or `pelican
--autoreload` runs it) leaves the host's collector as it found it: its thresholds, switched on or
off, and nothing frozen."""

from __future__ import annotations

import gc

from digest_plugin.store.folder import Store
from digest_plugin.store.sample import SampleSize, generate_sample
from tests.site_builder import build_site

HOST_THRESHOLDS = (1234, 7, 3)  # a host's own, not Python's defaults


def collector() -> tuple:
    return gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()


def test_a_build_in_process_leaves_the_hosts_collector_as_it_was(tmp_path):
    generate_sample(Store(tmp_path / "data"), size=SampleSize(1, 4))
    before = collector()
    try:
        gc.set_threshold(*HOST_THRESHOLDS)
        for enabled in (True, False):  # the host may run with the collector off
            gc.enable() if enabled else gc.disable()
            build_site(tmp_path)
            assert (tmp_path / "output" / "index.html").is_file()
            assert collector() == (HOST_THRESHOLDS, enabled, before[2])
    finally:
        gc.set_threshold(*before[0])
        gc.enable() if before[1] else gc.disable()


def test_a_build_that_failed_before_its_end_does_not_leave_its_thresholds_as_the_hosts():
    from digest_plugin.build import gc_pause

    before = gc.get_threshold()
    try:
        gc.set_threshold(*HOST_THRESHOLDS)
        gc_pause.start_build()  # a build that raised: Pelican sends no `finalized`
        gc_pause.start_build()  # the next build of the same process (pelican --autoreload)
        assert gc.get_threshold() == (*HOST_THRESHOLDS[:2], gc_pause.DEFERRED)
        gc_pause.end_build()
        assert gc.get_threshold() == HOST_THRESHOLDS
    finally:
        gc.set_threshold(*before)
