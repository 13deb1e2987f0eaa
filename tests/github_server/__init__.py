"""A local GitHub for the fetcher's tests and benchmark (see server.py)."""

from tests.github_server.data import (
    HANDMADE_REPO,
    SHARED_DATA,
    burst_pulls,
    handmade_pull,
    handmade_pulls,
    shared_file,
    shared_pulls,
)
from tests.github_server.graphql_api import NodeFault
from tests.github_server.server import GOOD_TOKEN, LEFT_OUT, Fault, GitHubServer

__all__ = [
    "GOOD_TOKEN",
    "HANDMADE_REPO",
    "LEFT_OUT",
    "SHARED_DATA",
    "Fault",
    "GitHubServer",
    "NodeFault",
    "burst_pulls",
    "handmade_pull",
    "handmade_pulls",
    "shared_file",
    "shared_pulls",
]
