"""Fetch benchmark: requests and wall time against the local GitHub, ours against the obvious way.

    .venv/bin/python bench/bench_fetch.py

Backfills astral-sh/ruff's merged PRs of 2026-01-01..2026-06-30 (real data from ../shared/data),
then refreshes with nothing new, first with repo-digest's fetcher, then with the obvious PyGithub
approach (search month by month to stay under the cap, then get_pull and get_files per PR).
Both run unpaced against 127.0.0.1, so wall times measure the client and the local server, not
GitHub; the request counts are what GitHub would see. Targets: at most 3 requests per 100 PRs for
the backfill, at most 2 requests for the empty refresh.
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from github import Auth, Github  # noqa: E402

from digest_plugin.fetch import FetchOptions, fetch_repos  # noqa: E402
from digest_plugin.fetch.progress import Progress  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from digest_plugin.store.folder import Store  # noqa: E402
from tests.github_server import GOOD_TOKEN, GitHubServer, shared_file, shared_pulls  # noqa: E402

REPO = "astral-sh/ruff"
SINCE, UNTIL = date(2026, 1, 1), date(2026, 6, 30)
GITHUB_PACE = 0.25  # seconds PyGithub waits between requests by default


def ours(server: GitHubServer) -> dict:
    store = Store(tempfile.mkdtemp(prefix="bench-fetch-"))
    options = FetchOptions(pace=0, env=server.env())
    first = server.count()
    started = time.perf_counter()
    report = fetch_repos(
        store,
        DigestSettings(),
        [REPO],
        since=SINCE,
        until=UNTIL,
        progress=Progress(),
        options=options,
    )
    backfill_seconds = time.perf_counter() - started
    backfill_requests = server.count() - first
    first = server.count()
    fetch_repos(store, DigestSettings(), [REPO], progress=Progress(), options=options)
    numbers = {p.number for p in store.read_pulls(REPO) if p.merged_at < _end()}
    return {
        "pulls": report.pulls,
        "numbers": numbers,
        "requests": backfill_requests,
        "seconds": backfill_seconds,
        "refresh": server.count() - first,
    }


def baseline(server: GitHubServer, first_day: date) -> dict:
    github = Github(
        auth=Auth.Token(GOOD_TOKEN),
        base_url=server.url,
        per_page=100,
        seconds_between_requests=None,
        seconds_between_writes=None,
    )
    repo = github.get_repo(REPO)
    first = server.count()
    started = time.perf_counter()
    numbers = set()
    for month_start, month_end in _months(first_day, UNTIL):
        for issue in github.search_issues(
            f"repo:{REPO} is:pr is:merged merged:{month_start}..{month_end}"
        ):
            pull = repo.get_pull(issue.number)
            list(pull.get_files())
            numbers.add(pull.number)
    seconds = time.perf_counter() - started
    requests = server.count() - first
    # the obvious refresh: search the last week again and read each PR again
    first = server.count()
    week_ago = UNTIL - timedelta(days=7)
    for issue in github.search_issues(f"repo:{REPO} is:pr is:merged merged:>={week_ago}"):
        list(repo.get_pull(issue.number).get_files())
    return {
        "pulls": len(numbers),
        "numbers": numbers,
        "requests": requests,
        "seconds": seconds,
        "refresh": server.count() - first,
    }


def _months(first: date, last: date):
    start = first
    while start <= last:
        following = (start.replace(day=1) + timedelta(days=32)).replace(day=1)
        yield start, min(following - timedelta(days=1), last)
        start = following


def _end() -> datetime:
    return datetime.combine(UNTIL + timedelta(days=1), datetime.min.time(), UTC)


def main() -> int:
    if not shared_file(REPO).exists():
        print(
            f"skipped: real data {shared_file(REPO)} is absent (it lives in ../shared, beside the checkout)"
        )
        return 0
    # the server knows nothing after UNTIL, so the refresh finds nothing new
    pulls = shared_pulls(REPO, merged_before=_end().strftime("%Y-%m-%dT%H:%M:%SZ"))
    # GitHub allows 5,000 REST requests an hour; the baseline needs more, so this server allows more
    with GitHubServer({REPO: pulls}, rate_limit=100_000) as server:
        mine = ours(server)
        # the baseline reads the same PRs ours stored (ours starts on the Monday of SINCE's week)
        monday = SINCE - timedelta(days=SINCE.weekday())
        theirs = baseline(server, monday)
    if mine["numbers"] != theirs["numbers"]:
        print(
            f"MISMATCH: ours stored {len(mine['numbers'])} PRs, the baseline read {len(theirs['numbers'])}"
        )
        return 1

    def per_100(result):
        return 100 * result["requests"] / result["pulls"]

    print(
        f"fetch benchmark: {REPO}, merged {SINCE - timedelta(days=SINCE.weekday())}..{UNTIL}, {mine['pulls']} PRs, local server"
    )
    print(
        f"{'':22}{'requests':>10}{'per 100 PRs':>13}{'empty refresh':>15}{'wall time':>11}{'at 0.25 s/request':>19}"
    )
    for name, result in (("repo-digest (GraphQL)", mine), ("baseline (PyGithub)", theirs)):
        paced = result["seconds"] + GITHUB_PACE * result["requests"]
        print(
            f"{name:22}{result['requests']:>10}{per_100(result):>13.2f}{result['refresh']:>15}"
            f"{result['seconds']:>10.1f}s{paced / 60:>17.1f} min"
        )
    if theirs["requests"] > 5000:
        print(
            f"the baseline's {theirs['requests']} requests exceed GitHub's 5,000 REST requests an hour: "
            "on GitHub it would stop for the reset part-way through"
        )
    print(
        f"ratio baseline/ours: {theirs['requests'] / mine['requests']:.0f}x requests, "
        f"{theirs['refresh'] / max(mine['refresh'], 1):.0f}x empty-refresh requests, "
        f"{theirs['seconds'] / mine['seconds']:.1f}x wall time"
    )
    backfill_ok = per_100(mine) <= 3
    refresh_ok = mine["refresh"] <= 2
    print(
        f"targets: backfill <= 3 requests per 100 PRs: {'met' if backfill_ok else 'MISSED'}; "
        f"empty refresh <= 2 requests: {'met' if refresh_ok else 'MISSED'}"
    )
    return 0 if backfill_ok and refresh_ok else 1


if __name__ == "__main__":
    sys.exit(main())
