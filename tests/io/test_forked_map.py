"""`forked_map`: work split between the build and forked copies of it gives what the build alone
gives, in order, and any error or lost copy ends as it would have here. Each test runs in a
process of its own, with one thread, as a `pelican` build is (a test runner's worker has threads,
where the map stays in one process)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from digest_plugin.build.workers import forked_map

ROOT = Path(__file__).resolve().parents[2]


def run(script: str) -> str:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_copies_compute_their_runs_and_the_results_come_in_order():
    out = run("""
        import os
        from digest_plugin.build.workers import forked_map
        here = os.getpid()
        results = forked_map(lambda n: (n * n, os.getpid() == here), list(range(1000)), workers=3)
        assert [square for square, _ in results] == [n * n for n in range(1000)]
        print(sum(1 for _, mine in results if mine), len({mine for _, mine in results}))
    """)
    assert out == "334 2"  # a third here, the rest in the copies


def test_an_error_in_a_copy_is_raised_in_the_build():
    out = run("""
        from digest_plugin.build.workers import forked_map
        def check(n):
            if n == 900:
                raise ValueError(f"record {n} is damaged")
            return n
        try:
            forked_map(check, list(range(1000)), workers=2)
        except ValueError as error:
            print(error)
    """)
    assert out == "record 900 is damaged"


def test_a_copy_that_is_killed_has_its_run_done_by_the_build():
    out = run("""
        import os, signal
        from digest_plugin.build.workers import forked_map
        here = os.getpid()
        def square(n):
            if os.getpid() != here:
                os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
            return n * n
        print(forked_map(square, list(range(1000)), workers=2) == [n * n for n in range(1000)])
    """)
    assert out == "True"


def test_with_other_threads_running_nothing_is_forked():
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait)
    helper.start()
    try:
        pids = forked_map(lambda _: os.getpid(), list(range(1000)), workers=2)
    finally:
        stop.set()
        helper.join()
    assert set(pids) == {os.getpid()}


def test_a_repository_analysed_on_every_core_is_the_one_analysed_here(tmp_path):
    out = run(f"""
        from datetime import UTC, datetime
        from digest_plugin.build import workers
        from digest_plugin.build.cache import Memo
        from digest_plugin.publish import history
        from digest_plugin.publish.history import analysis_options, load_weeks
        from digest_plugin.settings import DigestSettings
        from tests.io.test_history import NOW, site_store
        from pathlib import Path

        workers.FORK_FROM = 5  # the small store's 24 PRs, in copies
        forked = []
        history.forked_map = lambda function, items: forked.append(len(items)) or workers.forked_map(function, items, workers=2)
        store, options = site_store(Path({str(tmp_path)!r})), analysis_options(DigestSettings())
        spread = load_weeks(store, "acme/widget", options, NOW, Memo("salt"), spread=True)
        here = load_weeks(store, "acme/widget", options, NOW, Memo("salt"))
        print(forked, spread == here, len(here) > 1)
        # A build: spread while nothing is remembered, not once the memo is saved.
        memos = history.AnalysisMemos(Path({str(tmp_path / "cache")!r}), "salt")
        for again in (False, True):
            forked.clear()
            for repo, weeks, memo in history.stream_histories(store, ["acme/widget"], options, NOW, memos):
                memos.save(repo, memo)
            print(forked, weeks == here)
    """)
    assert out.splitlines() == ["[24] True True", "[24] True", "[] True"]
