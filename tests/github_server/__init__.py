"""A local GitHub for the fetcher's tests and benchmark (see server.py)."""

from tests.github_server.data import HANDMADE_REPO, SHARED_DATA, burst_pulls, handmade_pull, handmade_pulls, shared_file, shared_pulls
from tests.github_server.server import GOOD_TOKEN, Fault, GitHubServer

__all__ = [
    "GOOD_TOKEN",
    "HANDMADE_REPO",
    "SHARED_DATA",
    "Fault",
    "GitHubServer",
    "burst_pulls",
    "handmade_pull",
    "handmade_pulls",
    "shared_file",
    "shared_pulls",
]
