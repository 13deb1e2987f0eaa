"""Where GitHub is, which token to use, and what a failed request calls for (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from github import GithubException

from digest_plugin.errors import DigestError
from digest_plugin.fetch.client import Endpoint, graphql_url_for
from digest_plugin.fetch.retry import GraphQLErrors, RetryPolicy, verdict


def test_github_com_by_default():
    endpoint = Endpoint.from_environment({"GITHUB_TOKEN": "t0k"})
    assert (endpoint.api_url, endpoint.graphql_url) == (
        "https://api.github.com",
        "https://api.github.com/graphql",
    )
    assert endpoint.token == "t0k" and endpoint.token_variable == "GITHUB_TOKEN"


def test_enterprise_graphql_sits_beside_api_v3():
    assert (
        graphql_url_for("https://ghe.example.com/api/v3") == "https://ghe.example.com/api/graphql"
    )
    assert (
        graphql_url_for("https://ghe.example.com/api/v3/") == "https://ghe.example.com/api/graphql"
    )
    assert graphql_url_for("http://127.0.0.1:8080") == "http://127.0.0.1:8080/graphql"


def test_github_graphql_url_wins_when_set():
    endpoint = Endpoint.from_environment(
        {
            "GITHUB_API_URL": "https://ghe.example.com/api/v3",
            "GITHUB_GRAPHQL_URL": "https://ghe.example.com/api/graphql",
        }
    )
    assert endpoint.graphql_url == "https://ghe.example.com/api/graphql"


def test_gh_token_when_github_token_is_unset_or_empty():
    endpoint = Endpoint.from_environment({"GITHUB_TOKEN": "  ", "GH_TOKEN": "fromgh"})
    assert (endpoint.token, endpoint.token_variable) == ("fromgh", "GH_TOKEN")
    assert not Endpoint.from_environment({}).has_token


def test_the_token_is_not_in_the_endpoints_repr():
    assert "s3cr3t" not in repr(Endpoint.from_environment({"GITHUB_TOKEN": "s3cr3t"}))


def test_a_url_that_is_not_http_is_refused_without_echoing_credentials():
    with pytest.raises(DigestError) as raised:
        Endpoint.from_environment({"GITHUB_API_URL": "ftp://user:pw@example.com"})
    assert "pw" not in str(raised.value) and "GITHUB_API_URL" in str(raised.value)


# -- what a failure calls for (pure) -------------------------------------------------------

NOW = datetime(2026, 5, 18, 9, tzinfo=UTC)
POLICY = RetryPolicy(secondary_wait=42)


def http_error(status, message="", **headers):
    return GithubException(status, {"message": message}, headers)


def test_server_errors_are_retried():
    assert verdict(http_error(502), NOW, POLICY).action == "retry"
    assert verdict(http_error(503), NOW, POLICY).action == "retry"


def test_retry_after_is_obeyed_and_its_absence_means_a_minute_or_as_configured():
    assert (
        verdict(
            http_error(403, "You have exceeded a secondary rate limit", **{"Retry-After": "30"}),
            NOW,
            POLICY,
        ).wait
        == 30
    )
    assert verdict(http_error(429, "slow down"), NOW, POLICY).wait == 42
    assert (
        verdict(http_error(403, "You have exceeded a secondary rate limit."), NOW, POLICY).wait
        == 42
    )


def test_the_primary_limit_waits_for_the_reset_named_in_the_headers():
    reset = NOW + timedelta(minutes=12)
    judged = verdict(
        http_error(
            403,
            "API rate limit exceeded",
            **{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(reset.timestamp()))},
        ),
        NOW,
        POLICY,
    )
    assert (judged.action, judged.reset_at) == ("reset", reset)
    for error_type in ("RATE_LIMIT", "RATE_LIMITED"):  # GitHub's answer today, and its older one
        graphql = verdict(
            GraphQLErrors(
                [
                    {
                        "type": error_type,
                        "code": "graphql_rate_limit",
                        "message": "API rate limit already exceeded",
                    }
                ],
                {"x-ratelimit-remaining": "1", "x-ratelimit-reset": str(int(reset.timestamp()))},
            ),
            NOW,
            POLICY,
        )
        assert (graphql.action, graphql.reset_at) == ("reset", reset)


def test_what_retrying_cannot_fix_fails_at_once():
    assert verdict(http_error(401, "Bad credentials"), NOW, POLICY).action == "fail"
    assert verdict(http_error(404, "Not Found"), NOW, POLICY).action == "fail"
    assert (
        verdict(http_error(403, "Resource not accessible by integration"), NOW, POLICY).action
        == "fail"
    )
    assert (
        verdict(
            GraphQLErrors([{"type": "NOT_FOUND", "message": "Could not resolve"}], {}), NOW, POLICY
        ).action
        == "fail"
    )
