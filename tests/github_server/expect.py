"""What the store should hold after fetching the local GitHub's pulls, derived from its source data."""

from __future__ import annotations

import dataclasses

from digest_plugin.fetch import FetchOptions
from digest_plugin.fetch.retry import RetryPolicy
from digest_plugin.records.pull import (
    REVIEWS_LIMIT,
    THREADS_LIMIT,
    Pull,
    Review,
    ThreadComment,
    parse_time,
)
from digest_plugin.store.jsonl_import import pull_from_rest
from tests.github_server.server import GitHubServer


def expected_pull(rest: dict) -> Pull:
    """The importer's reading of the REST object, plus the reviews only GraphQL serves: their count,
    the latest verdicts (not the COMMENTED ones) and each thread's first comment."""
    reviews = rest.get("reviews")
    verdicts = [
        Review(_login(r["user"]), r["state"], r.get("submitted_at"), r.get("body") or "")
        for r in reviews or ()
        if r["state"] != "COMMENTED"
    ][-REVIEWS_LIMIT:]
    threads = [
        ThreadComment(
            _login(t["comments"][0]["user"]), t["path"], t["comments"][0].get("body") or ""
        )
        for t in (rest.get("review_threads") or ())[:THREADS_LIMIT]
        if t["comments"]
    ]
    return dataclasses.replace(
        pull_from_rest(rest, source="github"),
        verdicts=tuple(verdicts),
        threads=tuple(threads),
        reviews=len(reviews) if reviews is not None else rest.get("reviews_count", 0),
    )


def _login(user: dict | None) -> str:
    return user["login"] if user else "ghost"


def expected_pulls(pulls: list[dict], start=None, end=None) -> list[Pull]:
    """Expected records of the pulls merged in [start, end), sorted as Store.read_pulls sorts."""
    chosen = [
        p
        for p in pulls
        if (start is None or parse_time(p["merged_at"]) >= start)
        and (end is None or parse_time(p["merged_at"]) < end)
    ]
    return sorted((expected_pull(p) for p in chosen), key=lambda p: (p.merged_at, p.number))


def quick_options(server: GitHubServer, waits: list | None = None, **changes) -> FetchOptions:
    """Options for tests: no pacing, millisecond backoff, waits recorded instead of slept."""
    record = waits.append if waits is not None else (lambda seconds: None)
    policy = RetryPolicy(
        attempts=changes.pop("attempts", 4),
        backoff=0.001,
        backoff_cap=0.01,
        sleep=record,
        max_wait=changes.pop("max_wait", 900),
    )
    return FetchOptions(
        policy=policy,
        pace=0,
        env=changes.pop("env", None) or server.env(),
        timeout=changes.pop("timeout", 10),
        **changes,
    )
