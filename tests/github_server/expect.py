"""What the store should hold after fetching the local GitHub's pulls, derived from its source data."""

from __future__ import annotations

import dataclasses

from digest_plugin.fetch import FetchOptions
from digest_plugin.fetch.retry import RetryPolicy
from digest_plugin.store.jsonl_import import pull_from_rest
from digest_plugin.store.records import Pull, parse_time
from tests.github_server.server import GitHubServer


def expected_pull(rest: dict) -> Pull:
    """The importer's reading of the REST object, plus the review count only GraphQL serves."""
    return dataclasses.replace(pull_from_rest(rest, source="github"), reviews=rest.get("reviews_count", 0))


def expected_pulls(pulls: list[dict], start=None, end=None) -> list[Pull]:
    """Expected records of the pulls merged in [start, end), sorted as Store.read_pulls sorts."""
    chosen = [
        p for p in pulls
        if (start is None or parse_time(p["merged_at"]) >= start) and (end is None or parse_time(p["merged_at"]) < end)
    ]
    return sorted((expected_pull(p) for p in chosen), key=lambda p: (p.merged_at, p.number))


def quick_options(server: GitHubServer, waits: list | None = None, **changes) -> FetchOptions:
    """Options for tests: no pacing, millisecond backoff, waits recorded instead of slept."""
    record = waits.append if waits is not None else (lambda seconds: None)
    policy = RetryPolicy(attempts=changes.pop("attempts", 4), backoff=0.001, backoff_cap=0.01, sleep=record,
                         max_wait=changes.pop("max_wait", 900))
    return FetchOptions(policy=policy, pace=0, env=changes.pop("env", None) or server.env(), timeout=changes.pop("timeout", 10), **changes)
