"""Fetches under a seeded random mix of faults, and fetches killed with SIGKILL at random points:
the store always loads, and the rerun ends equal to a clean run, byte for byte.

Three seeds by default; HOSTILE_SEEDS=N runs N of each (for example in a nightly job).
"""

from __future__ import annotations

import logging
import os
import random
import signal
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.fetch import fetch_repos
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.github_server import HANDMADE_REPO, GitHubServer, handmade_pull, handmade_pulls
from tests.github_server.expect import quick_options

SEEDS = range(1, 1 + int(os.environ.get("HOSTILE_SEEDS", "3")))
SINCE, UNTIL = date(2026, 1, 5), date(2026, 3, 29)  # long enough to be counted week by week first
FAULT_KINDS = [
    "502",
    "500",
    "reset",
    "truncated",
    "cut",
    "graphql-timeout",
    "secondary",
    "secondary-429",
]
FAULT_TARGETS = ["graphql", "files", "any"]
FIGURES = {"faults injected": 0, "fetches": 0, "kills": 0, "files differing": 0}


def source_pulls() -> list[dict]:
    """The hand-made pulls (two with hundreds of files, fetched by REST) and two months before them."""
    start = datetime(2026, 1, 5, 10, tzinfo=UTC)
    return handmade_pulls() + [
        handmade_pull(1000 + i, start + timedelta(hours=19 * i)) for i in range(70)
    ]


def _fetch(store: Store, server: GitHubServer, since: date | None = SINCE, attempts: int = 4):
    FIGURES["fetches"] += 1
    return fetch_repos(
        store,
        DigestSettings(),
        [HANDMADE_REPO],
        since=since,
        until=UNTIL,
        progress=False,
        options=quick_options(server, attempts=attempts, page_size=10),
    )


def saved(store: Store) -> dict:
    """The month files byte for byte, and what the state says about completeness."""
    folder = store.repo_dir(HANDMADE_REPO)
    months = {p.name: p.read_bytes() for p in sorted(folder.glob("*.jsonl"))}
    state = store.read_state(HANDMADE_REPO)
    return {**months, "state": replace(state, fetched_at=None)}


def _differing(one: dict, other: dict) -> list[str]:
    names = sorted(name for name in one.keys() | other.keys() if one.get(name) != other.get(name))
    FIGURES["files differing"] += len(names)
    return names


@pytest.fixture(scope="module", autouse=True)
def figures():
    """HOSTILE_FIGURES=FILE adds this module's totals (faults, fetches, kills, files differing) to FILE."""
    yield
    if os.environ.get("HOSTILE_FIGURES"):
        with open(os.environ["HOSTILE_FIGURES"], "a", encoding="utf-8") as out:
            out.write(f"fetch chaos: {FIGURES}\n")


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A clean fetch's store, and how many requests it took."""
    store = Store(tmp_path_factory.mktemp("clean") / "data")
    with GitHubServer({HANDMADE_REPO: source_pulls()}) as server:
        _fetch(store, server)
        return saved(store), server.count()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_mix_of_faults_ends_equal_to_a_clean_fetch(tmp_path, clean, seed):
    expected, requests = clean
    rng = random.Random(seed)
    store = Store(tmp_path / "data")
    with GitHubServer({HANDMADE_REPO: source_pulls()}) as server:
        for _ in range(rng.randint(6, 14)):
            server.faults.add(
                rng.choice(FAULT_KINDS),
                on=rng.choice(FAULT_TARGETS),
                skip=rng.randrange(requests),
                times=rng.randint(1, 3),
                retry_after=0,
            )
        for _ in range(10):  # a fault can outlast the retries: then the user runs the fetch again
            try:
                _fetch(store, server, since=None if store.read_state(HANDMADE_REPO) else SINCE)
                break
            except DigestError:
                assert (
                    Store(store.root).read_pulls(HANDMADE_REPO) is not None
                )  # the store loads between runs
        fired = sum(f.fired for f in server.faults.faults)
    FIGURES["faults injected"] += fired
    assert fired > 0
    assert _differing(saved(store), expected) == []


FETCH_SCRIPT = """
import sys
from datetime import date
from digest_plugin.fetch import FetchOptions, fetch_repos
from digest_plugin.fetch.retry import RetryPolicy
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
fetch_repos(Store(sys.argv[1]), DigestSettings(), [sys.argv[2]], since=date.fromisoformat(sys.argv[3]),
            until=date.fromisoformat(sys.argv[4]), progress=False,
            options=FetchOptions(pace=0, page_size=10, policy=RetryPolicy(backoff=0.001, backoff_cap=0.01)))
"""


@pytest.mark.parametrize("seed", SEEDS)
def test_a_fetch_killed_at_a_random_point_resumes_to_a_clean_store(tmp_path, clean, seed, caplog):
    expected, requests = clean
    kill_after = random.Random(seed).randint(1, requests - 1)
    store = Store(tmp_path / "data")
    with GitHubServer({HANDMADE_REPO: source_pulls()}) as server:
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                FETCH_SCRIPT,
                str(store.root),
                HANDMADE_REPO,
                str(SINCE),
                str(UNTIL),
            ],
            env={**os.environ, **server.env()},
            stderr=subprocess.DEVNULL,
        )
        reached = server.wait_for(
            lambda: server.count() >= kill_after or process.poll() is not None, timeout=120
        )
        process.send_signal(signal.SIGKILL)
        process.wait()
        FIGURES["kills"] += 1
        assert reached and process.returncode == -signal.SIGKILL
        caplog.set_level(logging.WARNING)
        store.read_pulls(HANDMADE_REPO)  # loads, nothing rejected
        assert store.read_state(HANDMADE_REPO).progress.get("since") == "2026-01-05T00:00:00Z"
        assert "rejected" not in caplog.text and "skipped" not in caplog.text
        _fetch(store, server, since=None)  # the rerun needs no --since: the target was saved first
    assert _differing(saved(store), expected) == []
