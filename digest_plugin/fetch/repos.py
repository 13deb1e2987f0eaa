"""Fetch stage: a fetch over the repositories of DIGEST_REPOS, for `repo-digest fetch` and for
DIGEST_FETCH before a build; each repository is brought up to date by `sync.RepoSync`."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta

from digest_plugin.errors import DigestError
from digest_plugin.fetch.client import (
    Endpoint,
    GitHubClient,
    NotFound,
    RateLimitStop,
    Refused,
    TokenRejected,
    Unreachable,
)
from digest_plugin.fetch.diffs import fetch_diffs
from digest_plugin.fetch.owner_listing import resolve_owners
from digest_plugin.fetch.progress import LineProgress, Progress, make_progress
from digest_plugin.fetch.queries import PAGE_SIZE
from digest_plugin.fetch.retry import RetryPolicy
from digest_plugin.fetch.sync import SEARCH_LAG, RepoReport, RepoSync
from digest_plugin.records.pull import parse_time
from digest_plugin.settings import DigestSettings, check_repo_name
from digest_plugin.store.folder import Store
from digest_plugin.store.owner_index import owner_of
from digest_plugin.weeks import week_of, week_of_date

logger = logging.getLogger(__name__)

DEFAULT_HISTORY = timedelta(weeks=26)  # how far back a first fetch goes without DIGEST_SINCE


@dataclass(frozen=True)
class FetchOptions:
    """Knobs for tests and benchmarks; the defaults are what users get."""

    policy: RetryPolicy = field(default_factory=RetryPolicy)
    timeout: int = 30  # seconds per HTTP request (PyGithub takes whole seconds)
    page_size: int = PAGE_SIZE
    # seconds between requests, PyGithub's default for reads; GraphQL queries are reads
    pace: float = 0.25
    endpoint: Endpoint | None = None  # default: read from the environment
    env: Mapping[str, str] | None = None  # the environment to read it from (default os.environ)


# What a fetch's diff step is handed: repository -> key PR number -> the files its excerpt shows
DiffTargets = Mapping[str, Mapping[int, tuple[str, ...]]]


@dataclass
class FetchReport:
    repos: list[RepoReport] = field(default_factory=list)
    requests: int = 0

    @property
    def fetched(self) -> dict[str, set[int]]:
        """The numbers of the PRs received, by repository, of the repositories fetched in full."""
        return {r.repo: r.fetched for r in self.repos if r.error is None and r.fetched}

    @property
    def pulls(self) -> int:
        return sum(r.pulls for r in self.repos)

    @property
    def changed(self) -> int:
        return sum(r.changed for r in self.repos)

    @property
    def failed(self) -> list[RepoReport]:
        return [r for r in self.repos if r.error is not None]

    def lines(self) -> list[str]:
        """One sentence per repository fetched, for the command line (those that failed: `failed`)."""
        lines = []
        for r in self.repos:
            if r.skipped:
                lines.append(r.skipped)
                continue
            if r.error is not None:
                continue
            span = ""
            if r.complete_since and r.watermark:
                span = f"; complete from {r.complete_since:%Y-%m-%d %H:%M} to {r.watermark:%Y-%m-%d %H:%M} UTC"
            gaps = f"; {len(r.incomplete)} window(s) incomplete" if r.incomplete else ""
            unread = ""
            if r.set_aside:
                numbers = ", ".join(
                    f"#{n}" + (" (skipped)" if f.skipped else "")
                    for n, f in sorted(r.set_aside.items())
                )
                unread = f"; could not read {numbers}"
            diffs = f", {r.diffs} diff excerpts of key PRs" if r.diffs else ""
            lines.append(
                f"{r.repo}: {r.pulls} PRs fetched, {r.changed} new or changed{diffs}, {r.requests} requests{span}{gaps}{unread}."
            )
        return lines


def fetch_repos(
    store: Store,
    settings: DigestSettings,
    repos: Sequence[str],
    since: date | None = None,
    until: date | None = None,
    progress: bool | Progress | None = None,
    *,
    options: FetchOptions | None = None,
) -> FetchReport:
    """Fetch or refresh each repository, each on its own: a repository that fails (its fetched part
    saved) does not stop the others. Once all were tried, a failure is raised: the one repository's
    own DigestError, or FetchFailed for several; either carries the whole report as `report`.

    `since`/`until` are dates in DIGEST_TIMEZONE; `since` is taken back to the Monday of its
    week so that the first week is whole. Without `since`, an interrupted backfill resumes, then
    DIGEST_SINCE, then 26 weeks back for a repository new to the store. `progress`: True for a
    bar, False for plain lines, None to pick by whether stderr is a terminal. The diff excerpts of
    key PRs are a step of their own, after this one: `fetch_key_diffs`.
    """
    options = options or FetchOptions()
    repos = _once_each([r if owner_of(r) else check_repo_name(r) for r in repos])
    if not repos:
        raise DigestError("No repository to fetch: name one (OWNER/NAME) or set DIGEST_REPOS.")
    now = datetime.now(UTC)
    upper = now - SEARCH_LAG
    if until is not None:
        day_after = datetime.combine(until + timedelta(days=1), time(), settings.timezone)
        upper = min(upper, day_after.astimezone(UTC))
    upper = upper.replace(microsecond=0)
    if since is not None and since >= (until or now.date()) + timedelta(days=1):
        raise DigestError(
            f"--since {since} is after --until {until or now.date()}: nothing to fetch."
        )
    store.open_for_writing()
    client = _client(options)
    shown = progress if isinstance(progress, Progress) else make_progress(progress)
    client.on_response = lambda c: shown.request_done(c.requests, c.rate_remaining)
    report = FetchReport()
    try:
        repos = resolve_owners(client, store, repos, now, report.repos)
        # a spent rate limit or no answer: every repository after it would fail alike
        stop: DigestError | None = None
        for index, repo in enumerate(repos, 1):
            shown.repo_started(repo, index, len(repos))
            sync = RepoSync(store, client, repo, shown, options.page_size)
            try:
                if stop is not None:
                    raise stop
                start = _history_start(store.read_state(repo), since, settings, now)
                # GitHub's time, once an answer gave it: this machine's clock may run ahead
                github_now = client.github_now()
                repo_upper = upper
                if github_now is not None:
                    repo_upper = min(upper, (github_now - SEARCH_LAG).replace(microsecond=0))
                lookback = timedelta(days=settings.lookback_days)
                report.repos.append(sync.run(start, repo_upper, lookback))
            except DigestError as error:
                # this repository failed; what it fetched is saved, and the others are fetched all the same
                sync.report.error = error
                report.repos.append(sync.report)
                if isinstance(error, RateLimitStop | Unreachable):
                    stop = error
            finally:
                report.requests = client.requests
            if sync.report.skipped:
                shown.note(sync.report.skipped)
    finally:
        shown.close()
        client.close()
    if report.failed:
        raise _failure(report)
    return report


def _failure(report: FetchReport) -> DigestError:
    """The error of a fetch some repositories failed, holding `report` (the command line reads it)."""
    failure = report.failed[0].error if len(report.failed) == 1 else FetchFailed(report)
    assert failure is not None  # a failed repository's error
    failure.report = report  # type: ignore[attr-defined]  # any error's: read with getattr
    return failure


def _once_each(repos: list[str]) -> list[str]:
    """`repos` in order, a repository named twice (in any case: GitHub's names ignore it) once."""
    firsts: dict[str, str] = {}
    for repo in repos:
        firsts.setdefault(repo.lower(), repo)
    return list(firsts.values())


def _client(options: FetchOptions) -> GitHubClient:
    endpoint = options.endpoint or Endpoint.from_environment(options.env)
    return GitHubClient(endpoint, options.policy, options.timeout, pace=options.pace)


def fetch_key_diffs(
    store: Store,
    report: FetchReport,
    targets: DiffTargets,
    *,
    options: FetchOptions | None = None,
    progress: Progress | None = None,
) -> None:
    """The diff step, after `fetch_repos` made `report`: an excerpt (fetch/diffs.py) for each PR of
    `targets` that has none yet, counted in its repository's report. The caller asked the analysis
    for the targets (publish/history.diff_targets). A repository whose excerpts fail keeps those
    stored and gets the error in its report; a spent rate limit or no answer fails the rest too."""
    wanted = [r for r in report.repos if r.error is None and targets.get(r.repo)]
    if not wanted:
        return
    client = _client(options or FetchOptions())
    stop: DigestError | None = None
    try:
        for fetched in wanted:
            requests = client.requests
            try:
                if stop is not None:
                    raise stop
                if progress is not None:
                    wanted_here = len(targets[fetched.repo])
                    progress.note(f"{fetched.repo}: diff excerpts of up to {wanted_here} key PRs")
                fetched.diffs = fetch_diffs(client, store, fetched.repo, targets[fetched.repo])
            except DigestError as error:
                fetched.error = error
                if isinstance(error, RateLimitStop | Unreachable):
                    stop = error
            finally:
                fetched.requests += client.requests - requests
    finally:
        report.requests += client.requests
        client.close()


class FetchFailed(DigestError):
    """Several repositories could not be fetched (the others were); `report` says which and why."""

    def __init__(self, report: FetchReport):
        super().__init__(
            f"{len(report.failed)} repositories could not be fetched: "
            + " ".join(str(r.error) for r in report.failed)
        )
        self.report = report


def fetch_before_build(
    store: Store,
    settings: DigestSettings,
    *,
    options: FetchOptions | None = None,
    fetched: FetchReport | None = None,
) -> list[str]:
    """Run DIGEST_FETCH before a build; returns warnings for the site, never raises for GitHub trouble.

    auto: fetch when a token is set; always: fetch, and warn when no token is set; never: nothing.
    Repositories: DIGEST_REPOS, else every repository the store has fetched from GitHub before.
    `fetched` gains the report of each repository fetched, for the diff step (`diffs_before_build`).
    """
    if settings.fetch == "never":
        return []
    options = options or FetchOptions()
    try:
        endpoint = options.endpoint or Endpoint.from_environment(options.env)
    except DigestError as error:
        logger.warning("%s", error)
        return [
            "Fetching from GitHub was skipped: GITHUB_API_URL is not a web address; the site shows the data already in the store."
        ]
    if not endpoint.has_token:
        if settings.fetch == "always":
            return [
                "DIGEST_FETCH is 'always' but neither GITHUB_TOKEN nor GH_TOKEN is set; the site shows the data already in the store."
            ]
        return []
    options = replace(options, endpoint=endpoint)
    repos = list(settings.repos) or [r for r in store.repos() if _source(store, r) == "github"]
    warnings = []
    unreachable: Unreachable | None = None
    for repo in repos:
        try:
            if _source(store, repo) == "sample":
                continue
            if unreachable is not None:
                raise unreachable  # no need to wait for the same silence once per repository
            report = fetch_repos(
                store, settings, [repo], progress=LineProgress(logger.info), options=options
            )
            if fetched is not None:
                fetched.repos += report.repos
        except Exception as error:  # noqa: BLE001 (_build_warning logs its traceback)
            if isinstance(error, Unreachable):
                unreachable = error
            warnings.append(_build_warning(store, repo, error))
    return warnings


def diffs_before_build(store: Store, fetched: FetchReport, targets: DiffTargets) -> list[str]:
    """`fetch_key_diffs` after `fetch_before_build`: warnings for the site, never raises for
    GitHub trouble."""
    fetch_key_diffs(store, fetched, targets, progress=LineProgress(logger.info))
    return [_build_warning(store, r.repo, r.error) for r in fetched.failed if r.error is not None]


def _build_warning(store: Store, repo: str, error: BaseException) -> str:
    # The whole sentence (it may name the API's host) goes to the build log only.
    logger.warning(
        "Fetching %s from GitHub failed: %s",
        repo,
        error,
        exc_info=not isinstance(error, DigestError),
    )
    return f"Fetching {repo} from GitHub failed: {public_reason(error)} {_showing(store, repo)}"


def public_reason(error: BaseException) -> str:
    """Why a fetch failed, in words fit for a public page: no host, path, token or GitHub message."""
    if isinstance(error, RateLimitStop):
        return f"GitHub's API rate limit was used up until {error.reset_at:%Y-%m-%d %H:%M} UTC."
    if isinstance(error, Unreachable):
        return "GitHub's API could not be reached."
    if isinstance(error, NotFound):
        return "GitHub has no such repository, or the token cannot see it."
    if isinstance(error, TokenRejected):
        return "GitHub rejected the token; set a new one in GITHUB_TOKEN or GH_TOKEN."
    if isinstance(error, Refused):
        return "GitHub refused the request (see the build log)."
    if isinstance(error, DigestError):
        return "GitHub kept failing (see the build log)."
    return f"an unexpected error ({type(error).__name__}; see the build log)."


def _history_start(state, since: date | None, settings: DigestSettings, now: datetime) -> datetime:
    """Where the complete history should begin: --since, else the larger of an interrupted
    backfill's target and DIGEST_SINCE, else what the store has, else 26 weeks back."""
    tz = settings.timezone
    if since is not None:
        return week_of_date(since).start(tz)
    wanted = []
    if state is not None and (interrupted := parse_time(state.progress.get("since"))) is not None:
        wanted.append(interrupted)
    if settings.since is not None:
        wanted.append(week_of_date(settings.since).start(tz))
    if wanted:
        return min(wanted)
    if state is not None and state.complete_since is not None:
        return state.complete_since
    return week_of(now - DEFAULT_HISTORY, tz).start(tz)


def _source(store: Store, repo: str) -> str | None:
    try:
        state = store.read_state(repo)
    except DigestError:
        return None
    return state.source if state else None


def _showing(store: Store, repo: str) -> str:
    try:
        state = store.read_state(repo)
    except DigestError:
        state = None
    if state is None or state.fetched_at is None:
        return "No data for it has been fetched yet."
    return f"Showing the data fetched at {state.fetched_at:%Y-%m-%d %H:%M} UTC."
