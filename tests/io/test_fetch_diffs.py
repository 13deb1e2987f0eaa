"""Diff excerpts of key PRs, fetched against the local GitHub when a model writer reads them: one REST
request per key PR that a week's request shows (at most ten a week), only the hunks of its main files,
capped, cleaned, stored, and never asked again; none at all for the built-in writer. As the command
line does it: the PRs fetched, then the analysis asked for the targets, then fetch's diff step."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.repository import DIFF_PULLS_PER_WEEK, key_pull_files
from digest_plugin.fetch import FetchReport, fetch_key_diffs, fetch_repos
from digest_plugin.fetch.diffs import diff_excerpt
from digest_plugin.narrate.llm.prompt import week_document
from digest_plugin.publish.history import analysis_options, diff_targets
from digest_plugin.records.pull import DIFF_LIMIT
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.github_server import GitHubServer, handmade_pull
from tests.github_server.expect import quick_options

REPO = "octo-org/diffs"
SETTINGS = DigestSettings.from_pelican(
    {"DIGEST_WRITER": "copilot"}, "."
)  # a model writer: it reads the excerpts
START = datetime(2026, 3, 2, 9, tzinfo=UTC)
HOSTILE = "+print('<script>alert(1)</script>')\u202e\x1b[31m"


def hunk(start: int, lines: int, text: str = "x") -> str:
    return f"@@ -{start},{lines} +{start},{lines} @@ def f{start}():\n" + "\n".join(
        f"+    {text} = {start + i}" for i in range(lines)
    )


def changed(path: str, additions: int, patch: str | None = None) -> dict:
    item = {"filename": path, "status": "modified", "additions": additions, "deletions": 0}
    if patch is not None:
        item["patch"] = patch
    return item


def big_pull(number: int, merged: datetime) -> dict:
    """A large feature PR: the analysis ranks it key, and its core files carry patches."""
    files = [
        changed("src/engine/core.py", 700, "\n".join([hunk(1, 30), HOSTILE, hunk(200, 400)])),
        changed("src/engine/plan.py", 300, hunk(10, 12, "plan")),
        changed("tests/test_core.py", 200, hunk(1, 20, "test_only")),
        changed("docs/engine.md", 50, "@@ -1 +1 @@\n+docs only"),
    ]
    return handmade_pull(
        number,
        merged,
        repo=REPO,
        files=files,
        title=f"feat(engine): new planner {number}",
        body="Adds a planner to the engine so that queries run in parallel. " * 3,
        comments=12,
    )


def pulls() -> list[dict]:
    """120 PRs over three weeks, one in ten of them large."""
    made = []
    for i in range(120):
        merged = START + timedelta(hours=4 * i)
        if i % 10 == 3:
            made.append(big_pull(1000 + i, merged))
        else:
            made.append(
                handmade_pull(
                    1000 + i,
                    merged,
                    repo=REPO,
                    files=[changed(f"src/util_{i % 7}.py", 3, hunk(1, 3))],
                    title=f"docs: typo {i}",
                )
            )
    return made


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "data")


def fetch(
    store: Store,
    settings: DigestSettings,
    server: GitHubServer,
    since: date,
    until: date | None = None,
) -> FetchReport:
    """As `repo-digest fetch`: the PRs, then the excerpts of the key PRs the analysis picks."""
    options = quick_options(server)
    report = fetch_repos(
        store, settings, [REPO], since=since, until=until, progress=False, options=options
    )
    fetch_key_diffs(store, report, diff_targets(store, settings, report.fetched), options=options)
    return report


def test_a_backfill_stays_within_its_budget_and_each_key_pr_costs_one_request(store):
    source = pulls()
    with GitHubServer({REPO: source}) as server:
        report = fetch(store, SETTINGS, server, date(2026, 3, 1), date(2026, 3, 22))
        graphql, files = server.count("graphql"), server.count("files")
        stored = {p.number: p for p in store.read_pulls(REPO)}
        weeks = analyse_repo(
            REPO, list(stored.values()), None, analysis_options(SETTINGS), datetime.now(UTC)
        )
        targets = key_pull_files(weeks, stored)
        assert len(stored) == 120 and len(targets) >= 10  # every large PR is key
        assert graphql <= 3 * math.ceil(
            len(stored) / 100
        )  # the PRs and their reviews: 3 requests per 100 at most
        assert files == len(targets) == report.repos[0].diffs  # one per key PR, and no other
        assert server.count() == graphql + files
        assert f"{len(targets)} diff excerpts of key PRs" in report.lines()[0]

        excerpt = stored[1003].diff
        assert excerpt.startswith(
            "diff --git a/src/engine/core.py b/src/engine/core.py\n@@ -1,30 +1,30 @@"
        )
        assert (
            "diff --git a/src/engine/plan.py" in excerpt
            and "test_only" not in excerpt
            and "docs only" not in excerpt
        )
        assert (
            len(excerpt) <= DIFF_LIMIT and "…" in excerpt
        )  # core.py's second hunk is too long: cut at a line
        assert (
            "<script>alert(1)</script>" in excerpt
            and "\u202e" not in excerpt
            and "\x1b" not in excerpt
        )  # cleaned; escaped where shown
        assert all(stored[n].diff is None for n in stored if n not in targets)

        # a later fetch of the same weeks (a look-back) keeps every excerpt and asks for none again
        fetch(store, SETTINGS, server, date(2026, 3, 1), date(2026, 3, 22))
        assert server.count("files") == files
        assert {p.number: p.diff for p in store.read_pulls(REPO)} == {
            n: p.diff for n, p in stored.items()
        }


def test_a_diff_github_will_not_show_is_stored_empty_and_not_asked_again(store):
    source = pulls()[:40]
    with GitHubServer({REPO: source}) as server:
        server.failing_files.add((REPO, 1003))  # 422: "this diff is taking too long to generate"
        fetch(store, SETTINGS, server, date(2026, 3, 1), date(2026, 3, 9))
        asked = server.count("files")
        assert {p.number: p.diff for p in store.read_pulls(REPO) if p.diff is not None}[1003] == ""
        fetch(store, SETTINGS, server, date(2026, 3, 1), date(2026, 3, 9))
        assert server.count("files") == asked


def test_with_the_builtin_writer_a_fetch_asks_for_no_diff_and_costs_what_it_did_before_excerpts(
    store,
):
    with GitHubServer({REPO: pulls()}) as server:
        fetch(store, DigestSettings(), server, date(2026, 3, 1), date(2026, 3, 22))
        assert server.count("files") == 0 and server.count() == server.count(
            "graphql"
        ) <= 3 * math.ceil(120 / 100)
        assert all(p.diff is None for p in store.read_pulls(REPO))


def test_a_week_of_many_key_prs_fetches_only_the_excerpts_its_request_shows(store):
    monday = START - timedelta(days=START.weekday(), hours=9)
    busy = [
        big_pull(2000 + i, monday + timedelta(hours=6 * i + 1)) for i in range(14)
    ]  # fourteen key PRs in one week
    with GitHubServer({REPO: busy}) as server:
        fetch(store, SETTINGS, server, monday.date(), monday.date() + timedelta(days=6))
        fetched = {p.number for p in store.read_pulls(REPO) if p.diff}
    [week] = [
        w
        for w in analyse_repo(
            REPO, store.read_pulls(REPO), None, analysis_options(SETTINGS), datetime.now(UTC)
        )
        if w.pulls
    ]
    shown = {p["number"] for p in week_document(week, [], "en")["pull_requests"] if "diff" in p}
    assert (
        sum(p.key for p in week.pulls) == 14
        and server.count("files") == len(fetched) == DIFF_PULLS_PER_WEEK
    )
    assert shown == fetched  # the ten most important: what the model reads, and nothing it does not


def test_without_targets_a_fetch_asks_for_no_diff(store):
    with GitHubServer({REPO: pulls()[:20]}) as server:
        fetch_repos(
            store,
            SETTINGS,
            [REPO],
            since=date(2026, 3, 1),
            progress=False,
            options=quick_options(server),
        )
        assert server.count("files") == 0 and all(p.diff is None for p in store.read_pulls(REPO))


def test_the_excerpt_shares_the_cap_between_the_main_files_and_cuts_at_a_line():
    long = "\n".join(hunk(i * 100, 40) for i in range(10))
    files = [
        changed("a.py", 1, long),
        changed("b.py", 1, hunk(1, 5, "b")),
        changed("c.png", 1),
        changed("d.py", 1, ""),
    ]
    text = diff_excerpt(files, ["a.py", "b.py", "c.png", "d.py"], limit=1500)
    assert (
        len(text) <= 1500 and text.count("diff --git") == 2
    )  # no patch for a binary file or an empty one
    a, b = text.split("\ndiff --git a/b.py b/b.py\n")
    assert b == hunk(1, 5, "b")  # the small file whole, the large one in the rest of the room
    kept = a.split("\n")
    assert (
        kept[0] == "diff --git a/a.py b/a.py"
        and kept[-1] == "…"
        and long.startswith("\n".join(kept[1:-1]))
    )
    assert len(text) > 1400  # the room the small file left went to the large one
    assert diff_excerpt(files, ["c.png"]) == "" and diff_excerpt([], ["a.py"]) == ""
    assert diff_excerpt(files, ["b.py"]) == "diff --git a/b.py b/b.py\n" + hunk(1, 5, "b")


def stored_targets(store: Store) -> dict[int, tuple[str, ...]]:
    options = analysis_options(SETTINGS)
    weeks = analyse_repo(REPO, store.read_pulls(REPO), None, options, datetime.now(UTC))
    return key_pull_files(weeks, {p.number for p in store.read_pulls(REPO)})


def test_repo_digest_fetch_stores_the_excerpts_of_the_key_prs_it_fetched(tmp_path):
    (tmp_path / "pelicanconf.py").write_text(
        f'DIGEST_DATA_PATH = "data"\nDIGEST_WRITER = "copilot"\nDIGEST_REPOS = ["{REPO}"]\n'
    )
    command = [
        str(Path(sys.executable).with_name("repo-digest")),
        "fetch",
        "--since",
        "2026-03-01",
        "--until",
        "2026-03-08",
    ]
    with GitHubServer({REPO: pulls()[:40]}) as server:
        result = subprocess.run(
            command,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={**os.environ, **server.env()},
        )
        asked = server.count("files")
    store = Store(tmp_path / "data")
    targets = stored_targets(store)
    assert result.returncode == 0, result.stderr
    assert f"{len(targets)} diff excerpts of key PRs" in result.stdout
    assert f"up to {len(targets)} key PRs" in result.stderr
    assert asked == len(targets) >= 2
    assert {p.number for p in store.read_pulls(REPO) if p.diff} == set(targets)


def test_a_build_that_fetches_stores_the_excerpts_of_the_key_prs_it_fetched(store, monkeypatch):
    from digest_plugin.publish.hooks import _fetch_first

    with GitHubServer({REPO: pulls()[:40]}) as server:
        for name, value in server.env().items():  # the build reads GitHub's address and token here
            monkeypatch.setenv(name, value)
        settings = DigestSettings.from_pelican(
            {"DIGEST_WRITER": "copilot", "DIGEST_REPOS": [REPO], "DIGEST_SINCE": "2026-03-01"}, "."
        )
        assert _fetch_first(store, settings) == []
        asked = server.count("files")
    targets = stored_targets(store)
    assert asked == len(targets) >= 2
    assert {p.number for p in store.read_pulls(REPO) if p.diff} == set(targets)
