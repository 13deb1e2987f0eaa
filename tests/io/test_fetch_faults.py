"""A fetch survives what GitHub does on a bad day, fails in one clear sentence, and keeps the store."""

from __future__ import annotations

import dataclasses
import logging
import time
from datetime import UTC, date, datetime, timedelta

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.fetch import fetch_before_build, fetch_repos
from digest_plugin.fetch.client import RateLimitStop
from digest_plugin.fetch.repos import SEARCH_LAG
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.github_server import (
    GOOD_TOKEN,
    HANDMADE_REPO,
    GitHubServer,
    NodeFault,
    handmade_pulls,
    shared_file,
    shared_pulls,
)
from tests.github_server.expect import expected_pulls, quick_options

SETTINGS = DigestSettings()
SINCE = date(2026, 3, 1)


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "data")


@pytest.fixture
def server():
    with GitHubServer({HANDMADE_REPO: handmade_pulls()}) as server:
        yield server


def fetch(store, server, waits=None, **options):
    return fetch_repos(
        store,
        SETTINGS,
        [HANDMADE_REPO],
        since=SINCE,
        progress=False,
        options=quick_options(server, waits, **options),
    )


def snapshot(store: Store) -> dict:
    return (
        {p: p.read_bytes() for p in store.root.rglob("*") if p.is_file()}
        if store.root.exists()
        else {}
    )


# -- passing failures are retried -----------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "on"),
    [
        ("502", "graphql"),
        ("500", "graphql"),
        ("502", "files"),
        ("reset", "graphql"),
        ("reset", "files"),
        ("truncated", "graphql"),
        ("cut", "graphql"),
        ("truncated", "files"),
        ("graphql-timeout", "graphql"),
    ],
)
def test_passing_failures_are_retried_and_the_data_is_whole(store, server, kind, on):
    server.faults.add(kind, on=on, times=2)
    waits: list[float] = []
    fetch(store, server, waits)
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())
    assert sum(1 for e in server.log if e.fault == kind) == 2
    assert waits == [0.001, 0.002]  # the configured backoff, doubled


def test_a_timeout_is_retried(store, server):
    server.faults.add("timeout", on="graphql", delay=2.5)
    waits: list[float] = []
    fetch(store, server, waits, timeout=1)
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())
    assert waits == [0.001]


@pytest.mark.parametrize("kind", ["secondary", "secondary-429"])
def test_a_secondary_limit_waits_as_long_as_retry_after_says(store, server, kind):
    server.faults.add(kind, on="graphql", retry_after=7)
    server.faults.add(kind, on="files", retry_after=3)
    waits: list[float] = []
    fetch(store, server, waits)
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())
    assert waits == [7.0, 3.0]


def test_a_failure_that_does_not_pass_ends_in_one_sentence_and_keeps_what_was_saved(store, server):
    server.faults.add("502", on="graphql", times=100)
    with pytest.raises(DigestError) as raised:
        fetch(store, server, attempts=3)
    assert str(raised.value) == (
        f"GitHub kept failing (HTTP 502) after 3 tries while fetching {HANDMADE_REPO}; "
        "what was fetched so far is saved, so run the fetch again later."
    )
    state = store.read_state(
        HANDMADE_REPO
    )  # the target is kept for the rerun, and nothing is complete
    assert state.progress["since"] == "2026-02-23T00:00:00Z"
    assert (state.complete_since, state.watermark) == (None, None)


# -- the primary limit ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("graphql_status", "error_type"), [(200, "RATE_LIMIT"), (200, "RATE_LIMITED"), (403, None)]
)
def test_a_primary_limit_that_lifts_soon_is_waited_for(store, graphql_status, error_type):
    with GitHubServer(
        {HANDMADE_REPO: handmade_pulls()},
        graphql_limit_status=graphql_status,
        graphql_limit_type=error_type or "RATE_LIMIT",
    ) as server:
        server.faults.add("primary", on="graphql", reset_in=1)
        waits: list[float] = []
        clock = [
            datetime.now(UTC)
        ]  # the fetcher's clock moves only when it waits, and GitHub's with it

        def sleep(seconds):
            waits.append(seconds)
            clock[0] += timedelta(seconds=seconds)
            server.limits.advance(seconds)

        options = quick_options(server)
        policy = dataclasses.replace(options.policy, sleep=sleep, clock=lambda: clock[0])
        options = dataclasses.replace(options, policy=policy)
        fetch_repos(store, SETTINGS, [HANDMADE_REPO], since=SINCE, progress=False, options=options)
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())
    assert len(waits) == 1 and 0 < waits[0] <= 3


@pytest.mark.realdata
def test_a_primary_limit_far_from_reset_stops_with_what_is_saved_and_says_when_to_rerun(store):
    repo = "verl-project/verl"
    if not shared_file(repo).exists():
        pytest.skip(
            f"real data {shared_file(repo)} is absent (it lives in ../shared, beside the checkout)"
        )
    source = shared_pulls(repo)
    with GitHubServer({repo: source}) as server:
        # two count requests, a first search of at most ten pages, then the limit runs out mid-search
        server.faults.add("primary", on="graphql", skip=13, reset_in=3600)
        options = quick_options(server)
        with pytest.raises(RateLimitStop) as raised:
            fetch_repos(
                store,
                SETTINGS,
                [repo],
                since=date(2025, 1, 6),
                until=date(2025, 12, 28),
                progress=False,
                options=options,
            )
        reset = raised.value.reset_at
        assert str(raised.value) == (
            f"GitHub's API rate limit is used up until {reset:%Y-%m-%d %H:%M} UTC; "
            "what was fetched so far is saved, so run the fetch again after that time."
        )
        assert 3500 < (reset - datetime.now(UTC)).total_seconds() <= 3600
        state = store.read_state(repo)
        saved = store.read_pulls(repo)
        complete = [p for p in saved if p.merged_at >= state.complete_since]
        assert complete == expected_pulls(source, state.complete_since, state.watermark)
        assert len(saved) > len(complete)  # the interrupted search's pages were kept too
        assert state.progress["since"] == "2025-01-06T00:00:00Z"

        server.limits.state["graphql"]["exhausted_until"] = 1  # the hour has passed
        fetch_repos(
            store, SETTINGS, [repo], until=date(2025, 12, 28), progress=False, options=options
        )
    start, end = datetime(2025, 1, 6, tzinfo=UTC), datetime(2025, 12, 29, tzinfo=UTC)
    assert store.read_pulls(repo) == expected_pulls(source, start, end)
    assert store.read_state(repo).complete_since == start


# -- final failures: one sentence each, store untouched -------------------------------------


def _existing_store(store: Store, server: GitHubServer) -> dict:
    fetch(store, server)
    return snapshot(store)


def test_a_bad_token(store, server):
    before = _existing_store(store, server)
    with pytest.raises(
        DigestError
    ) as raised:  # asking for more history, so that there is something to fetch
        fetch_repos(
            store,
            SETTINGS,
            [HANDMADE_REPO],
            since=date(2026, 2, 1),
            progress=False,
            options=quick_options(
                server, env=server.env(token="ghp_revokedToken000000000000000000000000")
            ),
        )
    assert str(raised.value) == (
        "GitHub rejected the token in GITHUB_TOKEN (401 Bad credentials); create a new token and set GITHUB_TOKEN again."
    )
    assert snapshot(store) == before


def test_an_unknown_repository(store, server):
    before = _existing_store(store, server)
    with pytest.raises(DigestError) as raised:
        fetch_repos(
            store,
            SETTINGS,
            ["octo-org/no-such-repo"],
            progress=False,
            options=quick_options(server),
        )
    assert str(raised.value) == (
        "GitHub has no repository octo-org/no-such-repo, or the token cannot see it; check the name and the token's access."
    )
    assert snapshot(store) == before


def test_an_unreachable_host(store, server):
    before = _existing_store(store, server)
    env = {
        "GITHUB_API_URL": "http://127.0.0.1:9",
        "GITHUB_TOKEN": GOOD_TOKEN,
    }  # the discard port: nothing listens
    with pytest.raises(DigestError) as raised:
        fetch_repos(
            store,
            SETTINGS,
            ["octo-org/other"],
            progress=False,
            options=quick_options(server, env=env, attempts=2),
        )
    assert str(raised.value) == (
        "Could not reach the GitHub API at http://127.0.0.1:9 after 2 tries; check GITHUB_API_URL and the network connection."
    )
    assert snapshot(store) == before


def test_no_token(store, server):
    with pytest.raises(DigestError) as raised:
        fetch(store, server, env={"GITHUB_API_URL": server.url})
    assert (
        str(raised.value)
        == "No GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the repositories."
    )
    assert server.count() == 0


def test_a_bad_gh_token_is_named_as_such(store, server):
    with pytest.raises(DigestError, match=r"^GitHub rejected the token in GH_TOKEN \(401"):
        fetch(store, server, env={"GITHUB_API_URL": server.url, "GH_TOKEN": "not-a-token"})


# -- the token stays secret -----------------------------------------------------------------


def test_the_token_never_appears_in_output_logs_errors_or_the_store(store, capfd, caplog):
    secret = "ghp_SECRETsecret1234567890SECRETsecret12"
    caplog.set_level(logging.DEBUG)
    messages = []
    with GitHubServer({HANDMADE_REPO: handmade_pulls()}, tokens=(secret,)) as server:
        env = server.env(token=secret)
        server.faults.add("502", on="graphql")
        server.faults.add("secondary", on="files")
        fetch_repos(
            store,
            SETTINGS,
            [HANDMADE_REPO],
            since=SINCE,
            progress=False,
            options=quick_options(server, env=env),
        )
        fetch_repos(
            store, SETTINGS, [HANDMADE_REPO], progress=True, options=quick_options(server, env=env)
        )
        for bad_env, repo in [
            (env, "octo-org/missing"),
            ({**env, "GITHUB_API_URL": "http://127.0.0.1:9"}, "octo-org/other"),
        ]:
            try:
                fetch_repos(
                    store,
                    SETTINGS,
                    [repo],
                    progress=False,
                    options=quick_options(server, env=bad_env, attempts=2),
                )
            except DigestError as error:
                messages.append(str(error))
        settings = DigestSettings(fetch="always", repos=("octo-org/missing",), data_path=store.root)
        messages += fetch_before_build(store, settings, options=quick_options(server, env=env))
    assert len(messages) == 3
    captured = capfd.readouterr()
    everything = [
        captured.out,
        captured.err,
        caplog.text,
        *messages,
        *(r.getMessage() for r in caplog.records),
    ]
    everything += [p.read_text(encoding="utf-8") for p in store.root.rglob("*") if p.is_file()]
    assert all(secret not in text for text in everything)
    assert all(secret[4:20] not in text for text in everything)


# -- before a build -------------------------------------------------------------------------


def test_fetch_before_build_never_and_auto_without_token_do_nothing(store, server):
    for mode in ("never", "auto"):
        settings = DigestSettings(fetch=mode, repos=(HANDMADE_REPO,))
        assert (
            fetch_before_build(
                store, settings, options=quick_options(server, env={"GITHUB_API_URL": server.url})
            )
            == []
        )
    assert server.count() == 0


def test_fetch_before_build_always_without_token_warns(store, server):
    settings = DigestSettings(fetch="always", repos=(HANDMADE_REPO,))
    assert fetch_before_build(
        store, settings, options=quick_options(server, env={"GITHUB_API_URL": server.url})
    ) == [
        "DIGEST_FETCH is 'always' but neither GITHUB_TOKEN nor GH_TOKEN is set; the site shows the data already in the store."
    ]


def test_fetch_before_build_fetches_with_a_token(store, server):
    settings = DigestSettings(fetch="auto", repos=(HANDMADE_REPO,), since=SINCE)
    assert fetch_before_build(store, settings, options=quick_options(server)) == []
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())


def test_a_build_whose_fetch_fails_keeps_the_store_and_says_what_it_shows(store, server):
    before = _existing_store(store, server)
    fetched_at = store.read_state(HANDMADE_REPO).fetched_at
    settings = DigestSettings(
        fetch="auto", repos=(HANDMADE_REPO,), since=date(2026, 2, 1)
    )  # more history wanted
    env = {"GITHUB_API_URL": "http://127.0.0.1:9", "GITHUB_TOKEN": GOOD_TOKEN}
    warnings = fetch_before_build(
        store, settings, options=quick_options(server, env=env, attempts=2)
    )
    assert warnings == [  # shown on public pages: no host, path or token
        (
            f"Fetching {HANDMADE_REPO} from GitHub failed: GitHub's API could not be reached. "
            f"Showing the data fetched at {fetched_at:%Y-%m-%d %H:%M} UTC."
        )
    ]
    assert snapshot(store) == before


def test_a_build_time_warning_never_names_the_host_a_path_or_the_token(store, server, caplog):
    settings = DigestSettings(fetch="auto", repos=(HANDMADE_REPO, "octo-org/missing"), since=SINCE)
    secret_host = "http://127.0.0.1:9/ghe.internal.example/api/v3"
    for env in (
        {"GITHUB_API_URL": secret_host, "GITHUB_TOKEN": GOOD_TOKEN},
        {"GITHUB_API_URL": "ftp://ghe.internal.example", "GITHUB_TOKEN": GOOD_TOKEN},
        {**server.env(), "GITHUB_TOKEN": "ghp_revokedSecret00000000000000000000000"},
        server.env(),
    ):
        if env == server.env():
            server.faults.add("502", on="graphql", times=100)
        for warning in fetch_before_build(
            store, settings, options=quick_options(server, env=env, attempts=2)
        ):
            assert (
                "127.0.0.1" not in warning and "internal" not in warning and "ghp_" not in warning
            ), warning
            assert str(store.root) not in warning
    assert "ghe.internal.example" in caplog.text  # the build log keeps the details


def test_a_build_fetches_every_github_repository_in_the_store_when_none_are_named(store, server):
    fetch(store, server)
    before = server.count()
    settings = DigestSettings(
        fetch="auto", since=date(2026, 2, 1)
    )  # more history wanted than the store has
    assert fetch_before_build(store, settings, options=quick_options(server)) == []
    assert server.count() > before
    assert store.read_state(HANDMADE_REPO).complete_since == datetime(2026, 1, 26, tzinfo=UTC)


def test_after_a_graphql_timeout_the_pages_get_smaller(store, server):
    import json

    server.faults.add("graphql-timeout", on="graphql", times=2)
    # four weeks: short enough to be searched straight away, without counting first
    fetch_repos(
        store,
        SETTINGS,
        [HANDMADE_REPO],
        since=SINCE,
        until=date(2026, 3, 22),
        progress=False,
        options=quick_options(server),
    )
    assert store.read_pulls(HANDMADE_REPO) == expected_pulls(handmade_pulls())
    sizes = [json.loads(e.detail).get("first") for e in server.log if e.kind == "graphql"]
    # two failed tries of the first page, then 36 PRs: a page of 25, and the size grows back
    assert sizes == [100, 50, 25, 50]


def test_page_size_recovers_so_passing_faults_cost_only_their_retries(store, server):
    import json

    clean_store = Store(store.root.parent / "clean")
    fetch_repos(
        clean_store,
        SETTINGS,
        [HANDMADE_REPO],
        since=SINCE,
        progress=False,
        options=quick_options(server, page_size=10),
    )
    clean = server.count("graphql")
    server.log.clear()
    for skip in (0, 2, 4):  # a timeout at the first, third and fifth page
        server.faults.add("graphql-timeout", on="graphql", skip=skip)
    fetch_repos(
        store,
        SETTINGS,
        [HANDMADE_REPO],
        since=SINCE,
        progress=False,
        options=quick_options(server, page_size=10),
    )
    assert store.read_pulls(HANDMADE_REPO) == clean_store.read_pulls(HANDMADE_REPO)
    sizes = [
        json.loads(e.detail)["first"]
        for e in server.log
        if e.kind == "graphql" and "first" in json.loads(e.detail)
    ]
    assert sizes[-1] == 10  # back to full size after the last fault
    assert (
        server.count("graphql") <= clean + 3 + 3
    )  # each fault costs its retry and at most one smaller page


def test_an_unreachable_host_is_tried_once_per_build_not_once_per_repository(store, server):
    settings = DigestSettings(fetch="auto", repos=(HANDMADE_REPO, "octo-org/other"))
    env = {"GITHUB_API_URL": "http://127.0.0.1:9", "GITHUB_TOKEN": GOOD_TOKEN}
    waits: list[float] = []
    warnings = fetch_before_build(
        store, settings, options=quick_options(server, waits, env=env, attempts=3)
    )
    assert [w.split(":")[0] for w in warnings] == [
        f"Fetching {HANDMADE_REPO} from GitHub failed",
        "Fetching octo-org/other from GitHub failed",
    ]
    assert all("No data for it has been fetched yet." in w for w in warnings)
    assert waits == [0.001, 0.002]  # the backoff of one repository's tries only


def test_a_pr_stored_before_that_github_no_longer_serves_keeps_its_record(store, server):
    fetch(store, server)
    before = {p.number: p for p in store.read_pulls(HANDMADE_REPO)}
    server.node_faults[(HANDMADE_REPO, 120)] = NodeFault("files")
    server.failing_files.add((HANDMADE_REPO, 120))
    # a fetch within the same second as the last has nothing newer to fetch, and fetches nothing
    watermark = store.read_state(HANDMADE_REPO).watermark
    while datetime.now(UTC) - SEARCH_LAG < watermark + timedelta(seconds=1):
        time.sleep(0.05)
    fetch_repos(
        store,
        dataclasses.replace(SETTINGS, lookback_days=365),
        [HANDMADE_REPO],
        progress=False,
        options=quick_options(server),
    )  # a look-back that reaches #120 again
    assert any(e.path.endswith("/pulls/120/files") and e.status == 422 for e in server.log)
    assert {p.number: p for p in store.read_pulls(HANDMADE_REPO)} == before
    state = store.read_state(HANDMADE_REPO)
    assert state.failed_pulls == {} and state.incomplete == ()
