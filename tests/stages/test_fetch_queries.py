"""Every GraphQL text the fetcher sends validates against GitHub's schema; answers translate exactly."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from graphql import build_schema, parse, validate

from digest_plugin.fetch.queries import (
    COUNTS_PER_QUERY,
    MERGED_NUMBERS,
    MERGED_PULLS,
    merged_count_query,
    pull_from_node,
    search_text,
)
from digest_plugin.records.pull import (
    BODY_LIMIT,
    FILES_LIMIT,
    Author,
    FileChange,
    RecordError,
    Review,
    ThreadComment,
)
from digest_plugin.records.state import Window
from tests.github_server import graphql_api

SCHEMA = Path(__file__).resolve().parents[2].parent / "shared" / "github" / "schema.graphql"


def all_query_texts() -> list[str]:
    """Every query text the fetcher can send (count queries for each batch size)."""
    return [MERGED_PULLS, MERGED_NUMBERS] + [
        merged_count_query(n) for n in range(1, COUNTS_PER_QUERY + 1)
    ]


@pytest.fixture(scope="module")
def github_schema():
    if not SCHEMA.exists():
        pytest.skip(
            f"GitHub's schema {SCHEMA} is absent (it lives in ../shared, beside the checkout)"
        )
    schema = build_schema(SCHEMA.read_text(encoding="utf-8"), assume_valid_sdl=True)
    schema._validation_errors = []  # GitHub's SDL trips graphql-core's strict interface check; GitHub does not apply it
    return schema


@pytest.mark.parametrize(
    "text", all_query_texts(), ids=lambda t: t.split("(")[0].split()[-1] + str(t.count("search("))
)
def test_query_validates_against_githubs_public_schema(github_schema, text):
    assert validate(github_schema, parse(text)) == []


@pytest.mark.parametrize(
    "text", all_query_texts(), ids=lambda t: t.split("(")[0].split()[-1] + str(t.count("search("))
)
def test_query_validates_against_the_local_servers_subset(text):
    assert validate(graphql_api.schema(), parse(text)) == []


def test_the_list_holds_both_queries_and_every_count_batch_size():
    texts = all_query_texts()
    assert MERGED_PULLS in texts
    assert merged_count_query(1) in texts and merged_count_query(30) in texts


def test_a_mistyped_field_would_be_caught(github_schema):
    broken = MERGED_PULLS.replace("changedFiles", "changedFile")
    assert validate(github_schema, parse(broken))


def test_search_text_names_the_repo_merged_prs_and_the_window():
    text = search_text(
        "astral-sh/ruff", Window(datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 2, tzinfo=UTC))
    )
    assert text.split() == [
        "repo:astral-sh/ruff",
        "is:pr",
        "is:merged",
        "merged:2026-01-01T00:00:00+00:00..2026-01-01T23:59:59+00:00",
        "sort:created-asc",
    ]


def node(**changes) -> dict:
    base = {
        "number": 7,
        "title": "fix: <b>bold</b>",
        "url": "https://github.com/o/n/pull/7",
        "body": "why",
        "createdAt": "2026-05-18T09:00:00Z",
        "mergedAt": "2026-05-19T10:30:00Z",
        "headRefName": "fix/bold-title",
        "additions": 12,
        "deletions": 3,
        "changedFiles": 2,
        "authorAssociation": "FIRST_TIME_CONTRIBUTOR",
        "author": {"login": "alice", "__typename": "User"},
        "labels": {"totalCount": 2, "nodes": [{"name": "bug"}, {"name": "area: parser"}]},
        "files": {
            "totalCount": 2,
            "nodes": [
                {"path": "src/a.py", "additions": 10, "deletions": 3, "changeType": "MODIFIED"},
                {"path": "docs/b.md", "additions": 2, "deletions": 0, "changeType": "ADDED"},
            ],
        },
        "comments": {"totalCount": 4},
        "reviews": {"totalCount": 2},
        "commits": {"totalCount": 3},
    }
    base.update(changes)
    return base


def test_a_node_becomes_the_record_with_every_field():
    pull = pull_from_node(node())
    assert (
        pull.number == 7
        and pull.title == "fix: <b>bold</b>"
        and pull.url == "https://github.com/o/n/pull/7"
    )
    assert pull.author == Author("alice", "User", "FIRST_TIME_CONTRIBUTOR")
    assert pull.created_at == datetime(2026, 5, 18, 9, tzinfo=UTC)
    assert pull.merged_at == datetime(2026, 5, 19, 10, 30, tzinfo=UTC)
    assert pull.labels == ("bug", "area: parser")
    assert pull.files == (
        FileChange("src/a.py", 10, 3, "modified"),
        FileChange("docs/b.md", 2, 0, "added"),
    )
    assert (pull.additions, pull.deletions, pull.changed_files) == (12, 3, 2)
    assert (pull.comments, pull.reviews, pull.commits) == (4, 2, 3)
    assert pull.source == "github" and not pull.files_truncated
    assert pull.branch == "fix/bold-title"


def test_bots_get_rests_suffix_back_and_deleted_authors_are_ghost():
    bot = pull_from_node(node(author={"login": "dependabot", "__typename": "Bot"}))
    assert bot.author.login == "dependabot[bot]" and bot.author.type == "Bot"
    ghost = pull_from_node(node(author=None))
    assert ghost.author.login == "ghost" and ghost.author.type == "User"


def test_deleted_files_read_as_rests_removed():
    files = {
        "totalCount": 1,
        "nodes": [{"path": "old.py", "additions": 0, "deletions": 9, "changeType": "DELETED"}],
    }
    assert pull_from_node(node(files=files, changedFiles=1)).files == (
        FileChange("old.py", 0, 9, "removed"),
    )


def test_rest_files_replace_the_first_page_and_the_cap_is_flagged():
    rest = [
        {"filename": f"f{i}", "additions": 1, "deletions": 0, "status": "added"}
        for i in range(FILES_LIMIT)
    ]
    pull = pull_from_node(node(changedFiles=FILES_LIMIT + 40), rest_files=rest)
    assert len(pull.files) == FILES_LIMIT and pull.files[-1].path == f"f{FILES_LIMIT - 1}"
    assert pull.files_truncated and pull.changed_files == FILES_LIMIT + 40


def test_long_bodies_are_capped():
    assert len(pull_from_node(node(body="x" * (BODY_LIMIT + 500))).body) < BODY_LIMIT + 10


def test_reviews_become_verdicts_and_threads_their_first_comments():
    verdicts = {
        "nodes": [
            {
                "state": "CHANGES_REQUESTED",
                "submittedAt": "2026-05-18T10:00:00Z",
                "body": "<b>no</b>\u202e",
                "author": {"login": "carol", "__typename": "User"},
            },
            None,  # nulled by GitHub beside an error
            {
                "state": "APPROVED",
                "submittedAt": "2026-05-19T08:00:00Z",
                "body": "",
                "author": None,
            },
            {
                "state": "APPROVED",
                "submittedAt": "2026-05-19T09:00:00Z",
                "body": "ok",
                "author": {"login": "copilot", "__typename": "Bot"},
            },
        ]
    }
    threads = {
        "nodes": [
            {
                "path": "src/a.py",
                "comments": {
                    "nodes": [{"body": "why?", "author": {"login": "dave", "__typename": "User"}}]
                },
            },
            {"path": "src/b.py", "comments": {"nodes": []}},  # its comments deleted
        ]
    }
    pull = pull_from_node(node(verdicts=verdicts, reviewThreads=threads))
    assert pull.verdicts == (
        Review("carol", "CHANGES_REQUESTED", datetime(2026, 5, 18, 10, tzinfo=UTC), "<b>no</b>"),
        Review("ghost", "APPROVED", datetime(2026, 5, 19, 8, tzinfo=UTC)),
        Review("copilot[bot]", "APPROVED", datetime(2026, 5, 19, 9, tzinfo=UTC), "ok"),
    )
    assert pull.threads == (ThreadComment("dave", "src/a.py", "why?"),)
    assert (
        pull_from_node(node()).verdicts == () and pull_from_node(node(verdicts=None)).threads == ()
    )


def test_a_review_that_fails_the_gate_is_named():
    bad = {"nodes": [{"state": "APPROVED", "submittedAt": "yesterday", "body": "", "author": None}]}
    with pytest.raises(RecordError) as raised:
        pull_from_node(node(verdicts=bad))
    assert raised.value.field == "verdicts[0].submitted_at"
