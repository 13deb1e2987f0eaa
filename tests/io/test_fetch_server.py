"""The local GitHub behaves like GitHub where the fetcher depends on it (checked through PyGithub)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from github import Auth, Github, GithubException

from digest_plugin.fetch.queries import MERGED_PULLS
from tests.github_server import GOOD_TOKEN, GitHubServer, burst_pulls, handmade_pulls
from tests.github_server.data import HANDMADE_REPO

BURST = "octo-org/burst"


@pytest.fixture(scope="module")
def server():
    pulls = burst_pulls(1200, datetime(2026, 3, 4, 12, tzinfo=UTC), repo=BURST)
    with GitHubServer({HANDMADE_REPO: handmade_pulls(), BURST: pulls}) as server:
        yield server


def client(server, token=GOOD_TOKEN, enterprise=False) -> Github:
    base = server.enterprise_url if enterprise else server.url
    return Github(
        auth=Auth.Token(token),
        base_url=base,
        retry=None,
        seconds_between_requests=None,
        seconds_between_writes=None,
    )


def test_rest_search_counts_everything_but_stops_at_result_1000(server):
    github = client(server)
    query = {"q": f"repo:{BURST} is:pr is:merged", "per_page": 100}
    headers, first = github.requester.requestJsonAndCheck(
        "GET", "/search/issues", {**query, "page": 1}
    )
    last = next(link for link in headers["link"].split(", ") if link.endswith('rel="last"'))
    assert first["total_count"] == 1200 and "?page=10&" in last
    # following Link headers ends quietly after 1,000: how PRs past the cap get lost
    assert len(list(github.search_issues(query["q"]))) == 1000
    with pytest.raises(GithubException) as raised:
        github.requester.requestJsonAndCheck("GET", "/search/issues", {**query, "page": 11})
    assert (
        raised.value.status == 422
        and raised.value.data["message"] == "Only the first 1000 search results are available"
    )


def test_graphql_search_counts_everything_but_pages_stop_at_1000(server):
    requester = client(server).requester
    seen, after = 0, None
    while True:
        _, answer = requester.graphql_query(
            MERGED_PULLS,
            {
                "owner": "octo-org",
                "name": "burst",
                "first": 100,
                "after": after,
                "search": f"repo:{BURST} is:pr is:merged",
            },
        )
        search = answer["data"]["search"]
        assert search["issueCount"] == 1200
        seen += len(search["nodes"])
        if not search["pageInfo"]["hasNextPage"]:
            break
        after = search["pageInfo"]["endCursor"]
    assert seen == 1000


def test_link_pagination_on_enterprise_paths(server):
    pull = client(server, enterprise=True).get_repo(HANDMADE_REPO).get_pull(105)
    assert pull.changed_files == 340
    assert len(list(pull.get_files())) == 340  # followed through Link headers under /api/v3
    assert any(e.path == "/repos/octo-org/widgets/pulls/105/files" for e in server.log)


def test_rate_limit_headers_count_down(server):
    github = client(server)
    github.get_repo(HANDMADE_REPO)
    first = github.rate_limiting[0]
    github.get_repo(HANDMADE_REPO)
    assert github.rate_limiting == (first - 1, 5000)


def test_errors_are_shaped_like_githubs(server):
    with pytest.raises(GithubException) as missing:
        client(server).get_repo("octo-org/nothing")
    assert missing.value.status == 404 and missing.value.data["message"] == "Not Found"
    with pytest.raises(GithubException) as bad:
        client(server, token="wrong").get_repo(HANDMADE_REPO)
    assert bad.value.status == 401 and bad.value.data["message"] == "Bad credentials"


def test_graphql_refuses_more_than_100_per_page(server):
    _, answer = client(server).requester.requestJsonAndCheck(
        "POST",
        server.url + "/graphql",
        input={
            "query": MERGED_PULLS,
            "variables": {
                "owner": "octo-org",
                "name": "widgets",
                "first": 101,
                "after": None,
                "search": f"repo:{HANDMADE_REPO} is:pr",
            },
        },
    )
    assert "exceeds the `first` limit of 100 records" in answer["errors"][0]["message"]
