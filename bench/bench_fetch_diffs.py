"""Diff excerpts benchmark: what a fetch costs with the built-in writer and with a model writer.

    .venv/bin/python bench/bench_fetch_diffs.py

Backfills astral-sh/ruff's merged PRs of 2026-01-01..2026-06-30 (real data from ../shared/data)
against the local GitHub, as `repo-digest fetch` does (with the diff excerpts its settings call for),
once per writer: the built-in writer reads no diff, so its fetch asks for none; a model writer reads
the excerpts of the ten most important key PRs of each week, one REST request each. Prints the
requests, per 100 PRs, and the excerpts stored.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from digest_plugin.errors import DigestError  # noqa: E402
from digest_plugin.fetch import FetchOptions, fetch_key_diffs, fetch_repos  # noqa: E402
from digest_plugin.fetch.progress import Progress  # noqa: E402
from digest_plugin.publish.history import diff_targets  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from digest_plugin.store.folder import Store  # noqa: E402
from tests.github_server import GitHubServer, shared_file, shared_pulls  # noqa: E402

REPO = "astral-sh/ruff"
SINCE, UNTIL = date(2026, 1, 1), date(2026, 6, 30)
WRITERS = {"built-in writer": {}, "model writer (copilot)": {"DIGEST_WRITER": "copilot"}}


def backfill(server: GitHubServer, values: dict) -> dict:
    settings = DigestSettings.from_pelican(values, ".")
    store = Store(tempfile.mkdtemp(prefix="bench-diffs-"))
    first = server.count()
    options = FetchOptions(pace=0, env=server.env())
    report = fetch_repos(
        store, settings, [REPO], since=SINCE, until=UNTIL, progress=Progress(), options=options
    )
    fetch_key_diffs(store, report, diff_targets(store, settings, report.fetched), options=options)
    return {
        "pulls": report.pulls,
        "requests": server.count() - first,
        "files": report.repos[0].diffs,
    }


def main() -> int:
    if not shared_file(REPO).exists():
        print(
            f"skipped: real data {shared_file(REPO)} is absent (it lives in ../shared, beside the checkout)"
        )
        return 0
    end = datetime.combine(UNTIL + timedelta(days=1), datetime.min.time(), UTC)
    pulls = shared_pulls(REPO, merged_before=end.strftime("%Y-%m-%dT%H:%M:%SZ"))
    print(f"diff excerpts benchmark: {REPO}, merged {SINCE}..{UNTIL}, local server")
    print(f"{'':26}{'PRs':>7}{'requests':>10}{'per 100 PRs':>13}{'diff excerpts':>15}")
    with GitHubServer({REPO: pulls}, rate_limit=100_000) as server:
        for name, values in WRITERS.items():
            try:
                result = backfill(server, values)
            except DigestError as error:  # a version without that writer
                print(f"{name:26}{'':>7}{str(error)[:60]}")
                continue
            print(
                f"{name:26}{result['pulls']:>7}{result['requests']:>10}{100 * result['requests'] / result['pulls']:>13.2f}{result['files']:>15}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
