"""Fetch stage: filling and refreshing the store from GitHub (GraphQL for bulk data, REST for the rest).

Entry points:

    fetch_repos(store, settings, ["owner/name"], since=date(2026, 1, 1))   # `repo-digest fetch`
    fetch_key_diffs(store, report, {"owner/name": {123: ("src/a.py",)}})  # then diff excerpts
    fetch_before_build(store, settings)                                    # DIGEST_FETCH before a build

The token comes from GITHUB_TOKEN or GH_TOKEN, the API root from GITHUB_API_URL (Enterprise:
https://HOST/api/v3) and the GraphQL endpoint from GITHUB_GRAPHQL_URL or beside the API root.
"""

from digest_plugin.fetch.repos import (
    SEARCH_LAG,
    FetchOptions,
    FetchReport,
    diffs_before_build,
    fetch_before_build,
    fetch_key_diffs,
    fetch_repos,
)

__all__ = [
    "SEARCH_LAG",
    "FetchOptions",
    "FetchReport",
    "diffs_before_build",
    "fetch_before_build",
    "fetch_key_diffs",
    "fetch_repos",
]
