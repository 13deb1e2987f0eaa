"""Fetch stage: what to do when a request fails — retry, wait, or stop.

`verdict(error, now)` is pure: it reads an exception (PyGithub's, requests', a GraphQL error
list) and says whether the failure is passing (5xx, reset, timeout, truncated body), a
secondary rate limit (wait `Retry-After`), the primary limit (wait for the reset when it is near,
else stop with what is saved) or final (bad token, unknown repository). `RetryPolicy` holds the
waits, so that tests run them in milliseconds through an injected `sleep`.
"""

from __future__ import annotations

import http.client
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import requests
import urllib3.exceptions
from github import GithubException

# GraphQL's answer to a used-up budget: HTTP 200 with an error of type "RATE_LIMIT" today
# (code "graphql_rate_limit"); older answers said "RATE_LIMITED". Its x-ratelimit-remaining
# is not always 0, so the error type alone decides.
RATE_LIMIT_TYPES = frozenset({"RATE_LIMIT", "RATE_LIMITED"})


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 6  # tries of one request for passing failures (5xx, resets, timeouts)
    backoff: float = 1.0  # seconds before the second try; doubled for each further try
    backoff_cap: float = 60.0
    secondary_wait: float = 60.0  # GitHub's advice when a secondary limit names no Retry-After
    max_wait: float = 900.0  # longest wait for a limit to lift; past it, stop with what is saved
    sleep: Callable[[float], None] = time.sleep
    # tests pass one that moves only when `sleep` is called
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    def seconds_until(self, moment: datetime | None) -> float:
        return 0.0 if moment is None else max(0.0, (moment - self.clock()).total_seconds())

    def after(self, seconds: float) -> datetime:
        return self.clock() + timedelta(seconds=seconds)

    def backoff_for(self, failures: int) -> float:
        return min(self.backoff_cap, self.backoff * 2 ** (failures - 1))


class GraphQLErrors(Exception):
    """An answer whose `errors` list is not empty (HTTP 200, GitHub's way for most query errors)."""

    def __init__(self, errors: list[dict], headers: dict):
        super().__init__("; ".join(str(e.get("message", "")) for e in errors))
        self.errors = errors
        self.headers = headers

    @property
    def types(self) -> set[str]:
        return {str(e.get("type", "")) for e in self.errors}


class NotJSON(Exception):
    """An answer with status 200 that is not JSON at all (a sign-in page, a proxy's error page):
    the address is not GitHub's API, and asking again changes nothing."""


@dataclass(frozen=True)
class Verdict:
    # "retry" (back off), "wait" (a secondary limit), "reset" (the primary limit), "fail"
    action: str
    reason: str  # a few words for messages and logs, never response bodies
    wait: float = 0.0
    reset_at: datetime | None = None


def verdict(error: BaseException, now: datetime, policy: RetryPolicy) -> Verdict:
    if isinstance(error, requests.Timeout):
        return Verdict("retry", "timeout")
    if isinstance(error, requests.exceptions.ChunkedEncodingError | http.client.IncompleteRead):
        return Verdict("retry", "truncated response")
    if isinstance(
        error, requests.ConnectionError | urllib3.exceptions.ProtocolError | ConnectionError
    ):
        return Verdict("retry", "connection failed")
    if isinstance(error, NotJSON):
        return Verdict("fail", "a web page, not JSON")
    if isinstance(error, ValueError):  # json.JSONDecodeError: a body cut short
        return Verdict("retry", "truncated response")
    if isinstance(error, GraphQLErrors):
        return _graphql_verdict(error, now)
    if isinstance(error, GithubException):
        return _http_verdict(error, now, policy)
    return Verdict("fail", type(error).__name__)


def _http_verdict(error: GithubException, now: datetime, policy: RetryPolicy) -> Verdict:
    status = error.status
    headers = {k.lower(): v for k, v in (error.headers or {}).items()}
    message = str((error.data or {}).get("message", "")) if isinstance(error.data, dict) else ""
    if status >= 500:
        return Verdict("retry", f"HTTP {status}")
    if status in (403, 429):
        if "retry-after" in headers:
            wait = _seconds(headers["retry-after"], policy.secondary_wait)
            return Verdict("wait", "secondary rate limit", wait=wait)
        if headers.get("x-ratelimit-remaining") == "0":
            return Verdict("reset", "rate limit used up", reset_at=_reset_time(headers, now))
        if status == 429 or "secondary rate limit" in message.lower():
            return Verdict("wait", "secondary rate limit", wait=policy.secondary_wait)
    if status == 400 and isinstance(error.data, dict) and error.data.get("errors"):
        return _graphql_verdict(GraphQLErrors(error.data["errors"], headers), now)
    return Verdict("fail", f"HTTP {status}")


def _graphql_verdict(error: GraphQLErrors, now: datetime) -> Verdict:
    headers = {k.lower(): v for k, v in error.headers.items()}
    if error.types & RATE_LIMIT_TYPES:
        return Verdict("reset", "rate limit used up", reset_at=_reset_time(headers, now))
    text = str(error).lower()
    # GitHub answers an expensive query that ran out of time with a 200 and this error.
    if "timeout" in text or "something went wrong while executing your query" in text:
        return Verdict("retry", "GraphQL timeout")
    return Verdict("fail", "GraphQL error")


def _seconds(value: str, default: float) -> float:
    try:
        return max(0.0, float(value))
    except ValueError:
        return default


def _reset_time(headers: dict, now: datetime) -> datetime:
    try:
        return datetime.fromtimestamp(int(headers["x-ratelimit-reset"]), UTC)
    except (KeyError, ValueError):
        return now + timedelta(hours=1)  # the primary limit's window is an hour
