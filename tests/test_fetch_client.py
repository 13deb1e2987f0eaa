"""Where GitHub is and which token to use, as read from the environment (pure)."""

from __future__ import annotations

import pytest

from digest_plugin.errors import DigestError
from digest_plugin.fetch.client import Endpoint, graphql_url_for


def test_github_com_by_default():
    endpoint = Endpoint.from_environment({"GITHUB_TOKEN": "t0k"})
    assert (endpoint.api_url, endpoint.graphql_url) == ("https://api.github.com", "https://api.github.com/graphql")
    assert endpoint.token == "t0k" and endpoint.token_variable == "GITHUB_TOKEN"


def test_enterprise_graphql_sits_beside_api_v3():
    assert graphql_url_for("https://ghe.example.com/api/v3") == "https://ghe.example.com/api/graphql"
    assert graphql_url_for("https://ghe.example.com/api/v3/") == "https://ghe.example.com/api/graphql"
    assert graphql_url_for("http://127.0.0.1:8080") == "http://127.0.0.1:8080/graphql"


def test_github_graphql_url_wins_when_set():
    endpoint = Endpoint.from_environment({"GITHUB_API_URL": "https://ghe.example.com/api/v3",
                                          "GITHUB_GRAPHQL_URL": "https://ghe.example.com/api/graphql"})
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
