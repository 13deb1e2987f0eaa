"""Fetching against a local GitHub over real HTTP: complete, incremental, resumable, under the cap."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from digest_plugin.fetch import fetch_repos
from digest_plugin.fetch.progress import BarProgress
from digest_plugin.records.pull import parse_time
from digest_plugin.records.state import RepoState
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from digest_plugin.weeks import week_of
from tests.github_server import (
    HANDMADE_REPO,
    GitHubServer,
    burst_pulls,
    graphql_api,
    handmade_pull,
    handmade_pulls,
    shared_file,
    shared_pulls,
)
from tests.github_server.expect import expected_pulls, quick_options

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = DigestSettings()


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def real(repo: str) -> list[dict]:
    if not shared_file(repo).exists():
        pytest.skip(
            f"real data {shared_file(repo)} is absent (it lives in ../shared, beside the checkout)"
        )
    return shared_pulls(repo)


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "data")


@pytest.fixture(scope="module")
def handmade_server():
    with GitHubServer({HANDMADE_REPO: handmade_pulls()}) as server:
        yield server


# -- complete -------------------------------------------------------------------------------


def test_handmade_prs_arrive_with_every_field_we_keep(handmade_server, store):
    report = fetch_repos(
        store,
        SETTINGS,
        [HANDMADE_REPO],
        since=date(2026, 3, 1),
        progress=False,
        options=quick_options(handmade_server),
    )
    expected = expected_pulls(handmade_pulls())
    assert store.read_pulls(HANDMADE_REPO) == expected
    by_number = {p.number: p for p in store.read_pulls(HANDMADE_REPO)}
    # the cases the hand-made data exists for, checked the way a reader would
    assert by_number[101].labels == ("bug", "area: parser")
    assert by_number[102].author.login == "dependabot[bot]" and by_number[102].author.type == "Bot"
    assert by_number[103].author.login == "ghost"
    assert len(by_number[104].files) == 250 and not by_number[104].files_truncated
    assert (
        len(by_number[105].files) == 300
        and by_number[105].files_truncated
        and by_number[105].changed_files == 340
    )
    assert by_number[106].author.association == "FIRST_TIME_CONTRIBUTOR"
    # reviews: the verdicts in order without the COMMENTED replies, a deleted reviewer as "ghost",
    # hostile text cleaned, the latest REVIEWS_LIMIT verdicts and the first THREADS_LIMIT threads
    assert [(r.author, r.state) for r in by_number[110].verdicts] == [
        ("carol", "CHANGES_REQUESTED"),
        ("dave", "APPROVED"),
    ]
    assert [(c.author, c.path, c.body) for c in by_number[110].threads] == [
        ("carol", "src/module_0.py", "Missing a test here.")
    ]
    assert (
        by_number[110].reviews == 3
        and by_number[110].verdicts[1].submitted_at < by_number[110].merged_at
    )
    assert [(r.author, r.state) for r in by_number[111].verdicts] == [
        ("ghost", "APPROVED"),
        ("eve", "CHANGES_REQUESTED"),
    ]
    hostile = by_number[111].verdicts[1].body
    assert (
        "<script>" in hostile and "\u202e" not in hostile and "\x1b" not in hostile
    )  # escaped where shown, cleaned here
    assert [c.author for c in by_number[111].threads] == [
        "ghost"
    ]  # a thread with no comment left has nothing to keep
    assert [r.author for r in by_number[112].verdicts] == [f"reviewer{i}" for i in range(5, 25)]
    assert [c.path for c in by_number[112].threads] == [f"src/f{i}.py" for i in range(10)]
    assert by_number[100].verdicts == () and by_number[100].threads == ()
    assert report.pulls == len(expected) and report.repos[0].incomplete == []
    state = store.read_state(HANDMADE_REPO)
    assert state.source == "github" and state.incomplete == () and state.progress == {}
    assert state.complete_since == utc("2026-02-23")  # the Monday of 2026-03-01's week
    assert state.created_at == utc(
        graphql_api.created_at(handmade_pulls())
    )  # the repository's life starts here
    assert state.is_complete(utc("2026-03-02"), utc("2026-03-23"))


@pytest.mark.realdata
@pytest.mark.parametrize(
    ("repo", "since", "until"),
    [
        ("verl-project/verl", date(2026, 4, 27), date(2026, 5, 31)),
        ("astral-sh/ruff", date(2026, 3, 2), date(2026, 3, 29)),
    ],
)
def test_fetched_store_equals_the_source_data(repo, since, until, store):
    source = real(repo)
    with GitHubServer({repo: source}) as server:
        fetch_repos(
            store,
            SETTINGS,
            [repo],
            since=since,
            until=until,
            progress=False,
            options=quick_options(server),
        )
    start, end = utc(since.isoformat()), utc((until + timedelta(days=1)).isoformat())
    expected = expected_pulls(source, start, end)
    assert len(expected) > 50
    assert store.read_pulls(repo) == expected
    state = store.read_state(repo)
    assert (state.complete_since, state.watermark, state.incomplete) == (start, end, ())


@pytest.mark.realdata
def test_a_window_of_more_than_1000_prs_is_split_until_each_search_fits(store):
    repo = "astral-sh/ruff"
    source = real(repo)
    start, end = utc("2025-12-29"), utc("2026-04-20")
    expected = expected_pulls(source, start, end)
    assert len(expected) > 1000  # the point of the test
    with GitHubServer({repo: source}) as server:
        report = fetch_repos(
            store,
            SETTINGS,
            [repo],
            since=date(2026, 1, 1),
            until=date(2026, 4, 19),
            progress=False,
            options=quick_options(server),
        )
        pages = server.count("graphql")
    assert store.read_pulls(repo) == expected
    assert report.repos[0].windows >= 2 and report.repos[0].incomplete == []
    state = store.read_state(repo)
    assert (state.complete_since, state.watermark, state.incomplete) == (start, end, ())
    assert pages <= len(expected) / 100 + 5  # pages of 100 plus a little planning


@pytest.mark.realdata
def test_a_refresh_after_a_long_absence_splits_too(store):
    repo = "verl-project/verl"
    source = real(repo)
    with GitHubServer({repo: source}) as server:
        options = quick_options(server)
        fetch_repos(
            store,
            SETTINGS,
            [repo],
            since=date(2025, 1, 6),
            until=date(2025, 1, 12),
            progress=False,
            options=options,
        )
        report = fetch_repos(
            store, SETTINGS, [repo], until=date(2025, 12, 31), progress=False, options=options
        )
    expected = expected_pulls(source, utc("2025-01-06"), utc("2026-01-01"))
    assert len(expected) > 1000
    assert store.read_pulls(repo) == expected
    assert report.repos[0].windows >= 2
    assert store.read_state(repo).watermark == utc("2026-01-01")


def test_more_than_1000_prs_in_one_second_are_marked_incomplete_not_passed_off(store):
    repo = "octo-org/burst"
    moment = utc("2026-03-04T12:00:00")
    normal = [
        handmade_pull(n, utc("2026-03-10T08:00:00") + timedelta(hours=n), repo=repo)
        for n in range(1, 6)
    ]
    with GitHubServer({repo: burst_pulls(1001, moment) + normal}) as server:
        report = fetch_repos(
            store,
            SETTINGS,
            [repo],
            since=date(2026, 1, 5),
            until=date(2026, 3, 31),
            progress=False,
            options=quick_options(server),
        )
    stored = store.read_pulls(repo)
    assert len([p for p in stored if p.merged_at == moment]) == 1000
    assert {p["number"] for p in normal} <= {p.number for p in stored}
    state = store.read_state(repo)
    assert (
        len(state.incomplete) == 1 and state.incomplete[0].start <= moment < state.incomplete[0].end
    )
    assert report.repos[0].incomplete == list(state.incomplete)
    week = week_of(moment, UTC)
    assert not state.is_complete(week.start(UTC), week.end(UTC))
    later = week_of(utc("2026-03-10T09:00:00"), UTC)
    assert state.is_complete(later.start(UTC), later.end(UTC))


# -- incremental ----------------------------------------------------------------------------


def test_a_refresh_fetches_only_after_the_watermark_plus_the_look_back(store):
    now = datetime.now(UTC).replace(microsecond=0)
    recent = handmade_pull(900, now - timedelta(days=3), labels=[{"name": "triage"}])
    older = handmade_pull(901, now - timedelta(days=20), labels=[{"name": "triage"}])
    with GitHubServer({HANDMADE_REPO: [*handmade_pulls(), recent, older]}) as server:
        options = quick_options(server)
        yesterday = datetime.now(UTC).date() - timedelta(days=1)
        fetch_repos(
            store,
            SETTINGS,
            [HANDMADE_REPO],
            since=date(2026, 3, 1),
            until=yesterday,
            progress=False,
            options=options,
        )
        first_watermark = store.read_state(HANDMADE_REPO).watermark
        before = server.count()
        # late label edits on GitHub, and a new merge
        server.add_pulls(
            HANDMADE_REPO,
            [
                handmade_pull(900, now - timedelta(days=3), labels=[{"name": "security"}]),
                handmade_pull(901, now - timedelta(days=20), labels=[{"name": "security"}]),
                handmade_pull(902, now - timedelta(hours=1)),
            ],
        )
        report = fetch_repos(store, SETTINGS, [HANDMADE_REPO], progress=False, options=options)
        refresh_requests = server.count() - before
    by_number = {p.number: p for p in store.read_pulls(HANDMADE_REPO)}
    assert by_number[900].labels == ("security",)  # inside the 7-day look-back: refreshed
    assert by_number[901].labels == ("triage",)  # older than the look-back: kept as fetched
    assert 902 in by_number
    assert refresh_requests == 1 and report.repos[0].pulls == 2  # #900 and #902, nothing older
    state = store.read_state(HANDMADE_REPO)
    assert state.watermark > first_watermark and state.complete_since == utc("2026-02-23")


def test_a_refresh_with_nothing_new_costs_at_most_two_requests(store):
    now = datetime.now(UTC).replace(microsecond=0)
    files = [
        {"filename": f"pkg/f{i:03d}.py", "status": "modified", "additions": i, "deletions": 1}
        for i in range(230)
    ]
    big = handmade_pull(
        950, now - timedelta(days=2), files=files
    )  # in the look-back, more files than GraphQL's page
    with GitHubServer({HANDMADE_REPO: [*handmade_pulls(), big]}) as server:
        options = quick_options(server)
        yesterday = now.date() - timedelta(days=1)
        fetch_repos(
            store,
            SETTINGS,
            [HANDMADE_REPO],
            since=date(2026, 3, 1),
            until=yesterday,
            progress=False,
            options=options,
        )
        files_before = {p: p.read_bytes() for p in store.root.rglob("*.jsonl")}
        before = server.count()
        report = fetch_repos(store, SETTINGS, [HANDMADE_REPO], progress=False, options=options)
        # a day and the look-back week searched in one page; the big PR's files come from the store, not REST
        assert server.count() - before == 1
    assert report.repos[0].changed == 0 and report.repos[0].pulls == 1
    assert {p: p.read_bytes() for p in store.root.rglob("*.jsonl")} == files_before
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls([*handmade_pulls(), big])


def test_an_earlier_since_extends_the_history_backwards(handmade_server, store):
    options = quick_options(handmade_server)
    fetch_repos(
        store, SETTINGS, [HANDMADE_REPO], since=date(2026, 3, 16), progress=False, options=options
    )
    assert store.read_state(HANDMADE_REPO).complete_since == utc("2026-03-16")
    fetch_repos(
        store, SETTINGS, [HANDMADE_REPO], since=date(2026, 3, 1), progress=False, options=options
    )
    assert store.read_state(HANDMADE_REPO).complete_since == utc("2026-02-23")
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())


def test_since_is_taken_to_the_monday_of_its_week_in_the_sites_timezone(handmade_server, store):
    settings = DigestSettings(timezone=__import__("zoneinfo").ZoneInfo("Asia/Shanghai"))
    fetch_repos(
        store,
        settings,
        [HANDMADE_REPO],
        since=date(2026, 3, 4),
        progress=False,
        options=quick_options(handmade_server),
    )
    assert store.read_state(HANDMADE_REPO).complete_since == utc(
        "2026-03-01T16:00:00"
    )  # Monday 00:00 in Shanghai


def test_the_bundled_sample_is_never_fetched(handmade_server, store):
    store.write_state(RepoState(HANDMADE_REPO, "sample"))
    before = handmade_server.count()
    report = fetch_repos(
        store, SETTINGS, [HANDMADE_REPO], progress=False, options=quick_options(handmade_server)
    )
    assert handmade_server.count() == before
    assert (
        report.repos[0].skipped
        == f"{HANDMADE_REPO} holds the bundled sample, which is never fetched from GitHub."
    )
    assert store.read_pulls(HANDMADE_REPO) == []


# -- environment ----------------------------------------------------------------------------


def test_enterprise_paths_and_gh_token(handmade_server, store):
    env = handmade_server.env(enterprise=True)
    env["GH_TOKEN"] = env.pop("GITHUB_TOKEN")
    fetch_repos(
        store,
        SETTINGS,
        [HANDMADE_REPO],
        since=date(2026, 3, 1),
        progress=False,
        options=quick_options(handmade_server, env=env),
    )
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())
    paths = {entry.path for entry in handmade_server.log[-7:]}
    assert "/api/graphql" in paths and any(
        p.startswith("/repos/") for p in paths
    )  # REST under /api/v3


def test_the_progress_bar_names_the_repository(handmade_server, store):
    import io

    stream = io.StringIO()
    fetch_repos(
        store,
        SETTINGS,
        [HANDMADE_REPO],
        since=date(2026, 3, 1),
        progress=BarProgress(stream),
        options=quick_options(handmade_server),
    )
    text = stream.getvalue()
    assert HANDMADE_REPO in text and "requests" in text


def test_plain_lines_when_not_a_terminal(handmade_server, store, capsys):
    fetch_repos(
        store,
        SETTINGS,
        [HANDMADE_REPO],
        since=date(2026, 3, 1),
        progress=None,
        options=quick_options(handmade_server),
    )
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == f"fetch: {HANDMADE_REPO} (1 of 1)"
    assert any("window 1/1" in line and "36 PRs" in line for line in lines)


# -- resumable ------------------------------------------------------------------------------

_CHILD = """
import sys
from datetime import date
from digest_plugin.fetch import FetchOptions, fetch_repos
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
fetch_repos(Store(sys.argv[1]), DigestSettings(), [sys.argv[2]], since=date(2025, 1, 6), until=date(2025, 12, 28),
            progress=False, options=FetchOptions(pace=0))
"""


@pytest.mark.realdata
def test_a_killed_backfill_resumes_where_it_stopped(store):
    repo = "verl-project/verl"
    source = real(repo)
    start, end = utc("2025-01-06"), utc("2025-12-29")
    with GitHubServer({repo: source}) as server:
        # 2025 holds about 1,800 PRs: two count requests, then searches of at most 10 pages each, newest
        # first. The 13th GraphQL request is past the first search, so it hangs mid-way through another.
        server.faults.add("stall", on="graphql", skip=12, delay=60)
        env = {**os.environ, **server.env(), "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(store.root), repo],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            assert server.wait_for(
                lambda: any(e.fault == "stall" for e in server.log), timeout=60
            ), child.stderr
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        killed = store.read_state(repo)
        assert killed is not None and killed.progress["since"] == "2025-01-06T00:00:00Z"
        assert start < killed.complete_since < end and killed.watermark == end
        saved = store.read_pulls(repo)  # readable after the kill
        assert saved and all(p.merged_at >= killed.complete_since for p in saved)

        server.faults.clear()
        first = len(server.log)
        fetch_repos(
            store,
            SETTINGS,
            [repo],
            until=date(2025, 12, 28),
            progress=False,
            options=quick_options(server),
        )
        searched = [e.detail for e in server.log[first:] if e.kind == "graphql"]
    assert store.read_pulls(repo) == expected_pulls(source, start, end)
    state = store.read_state(repo)
    assert (state.complete_since, state.watermark, state.progress) == (start, end, {})
    # nothing the killed run had completed was searched again
    uppers = [upper for text in searched for upper in _merged_upper_bounds(text)]
    assert uppers and all(upper < killed.complete_since for upper in uppers)


def _merged_upper_bounds(query_variables: str) -> list[datetime]:
    import re

    return [
        parse_time(m) for m in re.findall(r"merged:[^. ]+\.\.(\S+?)(?=[\s\"])", query_variables)
    ]
