"""Python's garbage collector during a build: full collections wait for its end, and the host's
collector is then exactly as the build found it (thresholds, on or off; nothing is frozen).

A build holds millions of objects (every PR's analysis, every week's view and page), and CPython
traverses all of them in each full collection, which it starts whenever the objects kept have
grown by a quarter. A build's garbage is young, and the young collections, which stay on,
reclaim it. What holding the full ones saves is measured by bench/bench_gc.py (warm builds with
and without, taking turns); see FIGURES there. Only this module's two calls, at the start and the
end of a build (publish/hooks.py), touch the collector.
"""

from __future__ import annotations

import gc

DEFERRED = 10**9  # middle-generation collections before a full one: none within a build
_host: tuple[tuple[int, int, int], bool] | None = None  # thresholds and switch while a build runs


def start_build() -> None:
    global _host
    if _host is None:  # else a build that failed left the full collections held: the host's are kept
        _host = gc.get_threshold(), gc.isenabled()
    young, middle, _full = _host[0]
    gc.set_threshold(young, middle, DEFERRED)


def end_build() -> None:
    global _host
    if _host is None:
        return
    thresholds, enabled = _host
    _host = None
    gc.set_threshold(*thresholds)
    gc.enable() if enabled else gc.disable()
