"""Fetch stage: the connection to GitHub — environment, PyGithub set-up, and every request.

All traffic goes through PyGithub's requester (`requestJsonAndCheck`), one attempt per HTTP
request, so that `GitHubClient.requests` counts exactly what GitHub sees. Failures go through
`retry.verdict`; what finally fails becomes a DigestError whose sentence never contains the token.
"""

from __future__ import annotations

import email.utils
import os
import re
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from github import Auth, Github, GithubException

from digest_plugin.errors import DigestError
from digest_plugin.fetch.retry import GraphQLErrors, NotJSON, RetryPolicy, Verdict, verdict

DEFAULT_API_URL = "https://api.github.com"
TOKEN_VARIABLES = ("GITHUB_TOKEN", "GH_TOKEN")
USER_AGENT = "repo-digest"
MAX_LIMIT_WAITS = 5  # rate-limit waits for one request before giving up on it


@dataclass(frozen=True)
class Endpoint:
    """Where GitHub is and how to authenticate, as read from the environment."""

    api_url: str = DEFAULT_API_URL
    graphql_url: str = DEFAULT_API_URL + "/graphql"
    token: str | None = field(default=None, repr=False)
    token_variable: str = "GITHUB_TOKEN"

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None) -> Endpoint:
        """GITHUB_TOKEN or GH_TOKEN; GITHUB_API_URL (Enterprise: https://HOST/api/v3); GITHUB_GRAPHQL_URL."""
        env = os.environ if env is None else env
        variable = next(
            (name for name in TOKEN_VARIABLES if env.get(name, "").strip()), TOKEN_VARIABLES[0]
        )
        api_url = (env.get("GITHUB_API_URL") or DEFAULT_API_URL).strip().rstrip("/")
        graphql_url = (env.get("GITHUB_GRAPHQL_URL") or graphql_url_for(api_url)).strip()
        for name, url in (("GITHUB_API_URL", api_url), ("GITHUB_GRAPHQL_URL", graphql_url)):
            if not _web_address(url):
                raise DigestError(
                    f"{name} must be an http(s) URL such as {DEFAULT_API_URL}{'/graphql' * (name != 'GITHUB_API_URL')}, "
                    f"not {_without_userinfo(url)!r}."
                )
        token = env.get(variable, "").strip() or None
        return cls(api_url, graphql_url, token, variable)

    @property
    def has_token(self) -> bool:
        return bool(self.token)


def graphql_url_for(api_url: str) -> str:
    """GitHub's GraphQL endpoint beside a REST root: /graphql, or /api/graphql for /api/v3."""
    parts = urllib.parse.urlparse(api_url.rstrip("/"))
    path = parts.path[: -len("/v3")] if parts.path.endswith("/v3") else parts.path
    return urllib.parse.urlunparse(parts._replace(path=path + "/graphql"))


class RateLimitStop(DigestError):
    """The primary rate limit is used up and lifts too late to wait for it."""

    def __init__(self, reset_at: datetime):
        self.reset_at = reset_at
        when = reset_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
        super().__init__(
            f"GitHub's API rate limit is used up until {when}; what was fetched so far is saved, "
            "so run the fetch again after that time."
        )


class Refused(DigestError):
    """GitHub said no for good (a bad token, a query it rejects): trying again changes nothing.
    `detail` is GitHub's answer in a few words ("HTTP 422: ...")."""

    def __init__(self, sentence: str, detail: str = ""):
        super().__init__(sentence)
        self.detail = detail


class TokenRejected(Refused):
    """401: the token is wrong, expired or revoked."""


class NotFound(Refused):
    """The repository does not exist, or the token cannot see it."""


class Unreachable(DigestError):
    """No answer at all from the API root: wrong URL, or no network."""


class GitHubClient:
    """PyGithub with our retries, request count and rate-limit bookkeeping."""

    def __init__(
        self,
        endpoint: Endpoint,
        policy: RetryPolicy | None = None,
        timeout: int = 30,
        pace: float = 0.25,
    ):
        if not endpoint.has_token:
            raise DigestError(
                "No GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the repositories."
            )
        self.endpoint = endpoint
        self.policy = policy or RetryPolicy()
        self.requests = 0
        # GitHub keeps separate budgets ("graphql", "core" for REST), named by x-ratelimit-resource
        self.limits: dict[str, tuple[int, datetime]] = {}
        # called after each answered request, for progress
        self.on_response: Callable[[GitHubClient], None] | None = None
        # the Date of GitHub's latest answer, and when it came
        self._github_time: tuple[datetime, float] | None = None
        token = endpoint.token
        assert token is not None  # has_token

        # retry=None: PyGithub's own retries would hide attempts from our count and our waits.
        def connect(base_url: str) -> Github:
            return Github(
                auth=Auth.Token(token),
                base_url=base_url,
                timeout=timeout,
                retry=None,
                user_agent=USER_AGENT,
                # PyGithub waits a second between POSTs, meant for writes; our POSTs are GraphQL reads.
                seconds_between_requests=pace or None,
                seconds_between_writes=pace or None,
            )

        self.github = connect(endpoint.api_url)
        # PyGithub sends requests to the host of its base URL only: GraphQL served from another
        # host (a proxy, an Enterprise set-up) gets a connection of its own
        graphql_origin = _origin(endpoint.graphql_url)
        self.graphql_github = (
            self.github if graphql_origin == _origin(endpoint.api_url) else connect(graphql_origin)
        )

    def close(self) -> None:
        self.github.close()
        if self.graphql_github is not self.github:
            self.graphql_github.close()

    def github_now(self) -> datetime | None:
        """GitHub's own time (the Date of its latest answer, plus the time since), never this
        machine's clock, which may run ahead; None before the first answer."""
        if self._github_time is None:
            return None
        date, received = self._github_time
        return date + timedelta(seconds=time.monotonic() - received)

    def graphql(
        self,
        query: str,
        variables: dict | Callable[[int], dict],
        subject: str,
        items: tuple[str, ...] = (),
    ) -> tuple[dict, list[dict]]:
        """The `data` of a GraphQL answer, and the errors it came with; `subject` (owner/name)
        names what failed in errors.

        `variables` may be a function of the failed tries so far, so that a caller can ask for
        less after a timeout (GitHub times out expensive queries). An error about one item of the
        list at the path `items` (such as ("search", "nodes")) comes back beside the data rather
        than failing the request: GitHub answers what it could serve and nulls the rest, and one
        PR must not stop the others."""

        def send(failures: int):
            values = variables(failures) if callable(variables) else variables
            headers, answer = self.graphql_github.requester.requestJsonAndCheck(
                "POST", self.endpoint.graphql_url, input={"query": query, "variables": values}
            )
            if (
                isinstance(answer, dict)
                and isinstance(answer.get("data"), str)
                and set(answer) <= {"data", "url"}
            ):
                raise NotJSON()  # PyGithub's wrapping of an answer that is not JSON
            if not isinstance(answer, dict):
                raise ValueError("empty GraphQL answer")
            errors = answer.get("errors") or []
            partial = items and isinstance(answer.get("data"), dict) and isinstance(errors, list)
            if errors and not (
                partial and all(item_of(error, items) is not None for error in errors)
            ):
                raise GraphQLErrors(
                    errors if isinstance(errors, list) else [{"message": str(errors)}], headers
                )
            if not isinstance(answer.get("data"), dict):
                raise ValueError("GraphQL answer without data")
            return headers, (answer["data"], errors)

        return self._call(send, subject, "graphql")[1]

    def rest_get(self, url: str, parameters: dict, subject: str) -> tuple[dict, object]:
        """(headers, JSON) of a REST GET; `url` is a path under the API root or a full Link URL."""
        return self._call(
            lambda _: self.github.requester.requestJsonAndCheck("GET", url, parameters),
            subject,
            "core",
        )

    @property
    def rate_remaining(self) -> int | None:
        """What is left of the GraphQL budget, which carries the bulk of a fetch."""
        return self.limits["graphql"][0] if "graphql" in self.limits else None

    # -- one request, with retries --------------------------------------------------------

    def _call(self, send, subject: str, resource: str):
        failures = limit_waits = 0
        while True:
            self._wait_for_known_reset(resource)
            self.requests += 1
            try:
                headers, data = send(failures)
            except Exception as error:  # noqa: BLE001 - every failure is judged by verdict()
                self._note_limits(getattr(error, "headers", None) or {}, resource)
                judged = verdict(error, self.policy.clock(), self.policy)
                if judged.action == "retry":
                    failures += 1
                    if failures >= self.policy.attempts:
                        raise self._gave_up(judged, subject) from None
                    self.policy.sleep(self.policy.backoff_for(failures))
                elif judged.action in ("wait", "reset"):
                    limit_waits += 1
                    wait = judged.wait
                    if judged.action == "reset":
                        wait = self.policy.seconds_until(judged.reset_at) + 1
                    if wait > self.policy.max_wait or limit_waits > MAX_LIMIT_WAITS:
                        raise RateLimitStop(judged.reset_at or self.policy.after(wait)) from None
                    self.policy.sleep(wait)
                else:
                    raise self._failure(error, judged, subject) from None
            else:
                self._note_limits(headers, resource)
                self._note_time(headers)
                if self.on_response:
                    self.on_response(self)
                return headers, data

    def _wait_for_known_reset(self, resource: str) -> None:
        """Do not send a request GitHub has already said it will refuse."""
        remaining, reset = self.limits.get(resource, (None, None))
        if remaining != 0:
            return
        assert reset is not None  # noted with its count
        wait = self.policy.seconds_until(reset) + 1
        if wait <= 1:
            return
        if wait > self.policy.max_wait:
            raise RateLimitStop(reset)
        self.policy.sleep(wait)
        del self.limits[resource]

    def _note_time(self, headers: dict) -> None:
        date = next((v for k, v in headers.items() if k.lower() == "date"), None)
        try:
            moment = email.utils.parsedate_to_datetime(date) if isinstance(date, str) else None
        except (TypeError, ValueError, IndexError):
            moment = None
        if moment is not None and moment.tzinfo is not None:
            self._github_time = (moment.astimezone(UTC), time.monotonic())

    def _note_limits(self, headers: dict, resource: str) -> None:
        headers = {k.lower(): v for k, v in headers.items()}
        try:
            remaining = int(headers["x-ratelimit-remaining"])
            reset = datetime.fromtimestamp(int(headers["x-ratelimit-reset"]), UTC)
        except (KeyError, ValueError):
            return
        self.limits[headers.get("x-ratelimit-resource") or resource] = (remaining, reset)

    # -- failures as sentences ------------------------------------------------------------

    def _gave_up(self, judged: Verdict, subject: str) -> DigestError:
        tries = self.policy.attempts
        if judged.reason == "connection failed" and not self.limits and self.requests <= tries:
            return Unreachable(
                f"Could not reach the GitHub API at {_without_userinfo(self.endpoint.api_url)} after {tries} tries; "
                "check GITHUB_API_URL and the network connection."
            )
        return DigestError(
            f"GitHub kept failing ({judged.reason}) after {tries} tries while fetching {subject}; "
            "what was fetched so far is saved, so run the fetch again later."
        )

    def _failure(self, error: Exception, judged: Verdict, subject: str) -> Refused:
        status = getattr(error, "status", None)
        message = self._github_message(error)
        detail = f"{judged.reason}{': ' + message if message else ''}"
        if status == 401:
            return TokenRejected(
                f"GitHub rejected the token in {self.endpoint.token_variable} (401 Bad credentials); "
                f"create a new token and set {self.endpoint.token_variable} again.",
                detail,
            )
        if isinstance(error, NotJSON):
            return Refused(
                f"{_without_userinfo(self.endpoint.graphql_url)} answered with a web page, not GitHub's JSON, while fetching {subject}; "
                "check GITHUB_GRAPHQL_URL and GITHUB_API_URL.",
                detail,
            )
        if isinstance(error, RuntimeError) and (
            moved := re.search(r"redirected from (.+?), please", str(error))
        ):
            return Refused(
                f"GitHub's API at {_without_userinfo(self.endpoint.api_url)} redirected the request for {subject} "
                f"({moved[1]}), which is not followed; set GITHUB_API_URL (and GITHUB_GRAPHQL_URL) to where the API is now.",
                detail,
            )
        if status == 404 or (isinstance(error, GraphQLErrors) and "NOT_FOUND" in error.types):
            return NotFound(
                f"GitHub has no repository {subject}, or the token cannot see it; check the name and the token's access.",
                detail,
            )
        return Refused(f"GitHub refused the request for {subject} ({detail}).", detail)

    def _github_message(self, error: Exception) -> str:
        if isinstance(error, GraphQLErrors):
            text = str(error)
        elif isinstance(error, GithubException) and isinstance(error.data, dict):
            text = str(error.data.get("message") or "")
        else:
            text = ""
        return redact(" ".join(text.split())[:200], self.endpoint.token).rstrip(".")


def item_of(error, items: tuple[str, ...]) -> int | None:
    """The index of the item of the list at `items` that a GraphQL error is about, or None."""
    path = error.get("path") if isinstance(error, dict) else None
    if not isinstance(path, list) or len(path) <= len(items) or tuple(path[: len(items)]) != items:
        return None
    index = path[len(items)]
    return index if isinstance(index, int) and not isinstance(index, bool) else None


def redact(text: str, token: str | None) -> str:
    return text.replace(token, "[token]") if token else text


def _web_address(url: str) -> bool:
    try:
        parts = urllib.parse.urlparse(url)
        return parts.scheme in ("http", "https") and bool(parts.hostname) and (parts.port or 0) >= 0
    except ValueError:  # a port that is not a number
        return False


def _origin(url: str) -> str:
    """scheme://host:port of `url`, without its path or credentials."""
    parts = urllib.parse.urlparse(url)
    return f"{parts.scheme}://{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")


def _without_userinfo(url: str) -> str:
    return re.sub(r"//[^/@]*@", "//", url)
