"""A fetch that stops early leaves a store that says so, and the next run resumes to the same target."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.fetch import fetch_repos
from digest_plugin.publish.history import analysis_options, load_weeks
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.github_server import HANDMADE_REPO, GitHubServer, handmade_pulls
from tests.github_server.expect import expected_pulls, quick_options

SETTINGS = DigestSettings()
SINCE = date(2026, 3, 1)
NOW = datetime(2026, 11, 30, tzinfo=UTC)


@pytest.fixture
def server():
    with GitHubServer({HANDMADE_REPO: handmade_pulls()}) as server:
        yield server


def test_a_first_fetch_that_stops_after_one_page_shows_no_week_as_complete(tmp_path, server):
    store = Store(tmp_path / "data")
    server.faults.add(
        "502", on="graphql", skip=1, times=100
    )  # a first page of ten arrives, then nothing
    with pytest.raises(DigestError):  # four weeks: searched straight away, without counting first
        fetch_repos(
            store,
            SETTINGS,
            [HANDMADE_REPO],
            since=SINCE,
            until=date(2026, 3, 22),
            progress=False,
            options=quick_options(server, attempts=2, page_size=10),
        )
    saved = store.read_pulls(HANDMADE_REPO)
    assert 0 < len(saved) < len(handmade_pulls())
    weeks = load_weeks(store, HANDMADE_REPO, analysis_options(SETTINGS), NOW)
    assert weeks and not any(w.complete for w in weeks)


def test_a_store_without_state_shows_no_week_as_complete(tmp_path):
    from tests.conftest import make_pull

    store = Store(tmp_path / "data")
    store.upsert(
        HANDMADE_REPO, [make_pull(1, "2026-03-03T10:00:00Z"), make_pull(2, "2026-03-11T10:00:00Z")]
    )
    weeks = load_weeks(store, HANDMADE_REPO, analysis_options(SETTINGS), NOW)
    assert [w.complete for w in weeks] == [False, False]


def test_an_interrupted_backfill_resumes_to_its_target_without_since(tmp_path, server):
    store = Store(tmp_path / "data")
    server.faults.add(
        "502", on="graphql", times=100
    )  # not one answer: only the target was recorded
    with pytest.raises(DigestError):
        fetch_repos(
            store,
            SETTINGS,
            [HANDMADE_REPO],
            since=SINCE,
            progress=False,
            options=quick_options(server, attempts=2),
        )
    assert store.read_state(HANDMADE_REPO).progress["since"] == "2026-02-23T00:00:00Z"
    server.faults.clear()
    fetch_repos(
        store, SETTINGS, [HANDMADE_REPO], progress=False, options=quick_options(server)
    )  # no --since
    state = store.read_state(HANDMADE_REPO)
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())
    assert (
        state.complete_since == datetime(2026, 2, 23, tzinfo=UTC) and "since" not in state.progress
    )
