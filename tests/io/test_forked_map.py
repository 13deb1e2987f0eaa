"""`forked_map`: work split between the build and forked copies of it gives what the build alone
gives, in order, and any error or lost copy ends as it would have here. Each test runs in a
process of its own, as a `pelican` build does."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

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


def test_a_thread_stuck_in_a_write_stops_no_copy():
    # Pelican's spinner writes to the terminal from a thread of its own while the build forks. Here
    # that thread writes into a pipe nobody reads, so that it holds stderr's lock for good: a copy
    # that printed to stderr, which the copy's code must not but might, would wait for ever.
    script = textwrap.dedent("""
        import os, sys, threading, time
        from digest_plugin.build.workers import forked_map
        def spin():
            while True:
                sys.stderr.write("|/-\\\\" * 10000)
        threading.Thread(target=spin, daemon=True).start()
        time.sleep(0.5)  # the pipe is full: the spinner waits inside its write
        here = os.getpid()
        def noisy(n):
            if os.getpid() != here:
                print("analysing", n, file=sys.stderr)
            return n
        print(forked_map(noisy, list(range(2000)), workers=2) == list(range(2000)), flush=True)
        os._exit(0)  # not the interpreter's exit, which would wait for stderr's lock too
    """)
    process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        process.wait(timeout=60)  # stderr is never read; stdout's one line fits in its pipe
        assert process.stdout.read().strip() == "True"
    finally:
        process.kill()
        process.stdout.close()
        process.stderr.close()


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
            print(forked, [week.value for week in weeks] == here)
    """)
    assert out.splitlines() == ["[24] True True", "[24] True", "[] True"]
