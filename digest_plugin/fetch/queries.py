"""Fetch stage: the GraphQL texts the fetcher sends, and the translation of their answers.

Every text here is validated against GitHub's public schema by tests/stages/test_fetch_queries.py,
whose list of them must name each one.
"""

from __future__ import annotations

from typing import Any

from digest_plugin.fetch.windows import search_qualifier
from digest_plugin.records.pull import (
    FILES_LIMIT,
    REVIEWS_LIMIT,
    THREADS_LIMIT,
    Author,
    Pull,
    RecordError,
    Review,
    ThreadComment,
    files_from_rest,
)
from digest_plugin.records.state import Window

# GitHub's maximum for `first`: one request carries up to 100 PRs with their files, labels and
# reviews. What a page asks of GitHub, by its published rules (docs: "Rate limits and node limits
# for the GraphQL API"): nodes 100 PRs + 100 x (100 files + 100 labels + 20 verdicts + 10 threads
# + 10 x 1 first comments) = 24,100 of the 500,000 allowed; cost (one request per connection that
# is resolved, over 100) = (1 search + 100 x 7 connections per PR + 100 x 10 thread comment lists)
# / 100 = 17 points, 0.17 a PR: a backfill of 10,000 PRs spends 1,700 of the 5,000 points an hour.
PAGE_SIZE = 100
FILES_PER_PULL = 100  # files that come with each PR; the rest come from REST
LABELS_PER_PULL = 100
# the reviews that give one: not the COMMENTED of every reply in a thread
VERDICTS = ("APPROVED", "CHANGES_REQUESTED", "DISMISSED")
COUNTS_PER_QUERY = 30  # windows counted in one request (aliases of one query)

_RATE_LIMIT = "rateLimit { cost limit remaining resetAt }"

# `repository` rides along so that an unknown repository is an error rather than an empty
# search (and to learn when it was created: no PR is older), and `rateLimit` so that progress can
# show what is left without another request.
MERGED_PULLS = """
query MergedPulls($owner: String!, $name: String!, $search: String!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) { nameWithOwner createdAt }
  %(rate_limit)s
  search(type: ISSUE, query: $search, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes {
      ... on PullRequest {
        number title url body createdAt mergedAt headRefName
        additions deletions changedFiles authorAssociation
        author { login __typename }
        labels(first: %(labels)d) { totalCount nodes { name } }
        files(first: %(files)d) { totalCount nodes { path additions deletions changeType } }
        comments { totalCount }
        reviews { totalCount }
        verdicts: reviews(last: %(verdicts)d, states: [%(states)s]) { nodes { state submittedAt body author { login __typename } } }
        reviewThreads(first: %(threads)d) { nodes { path comments(first: 1) { nodes { body author { login __typename } } } } }
        commits { totalCount }
      }
    }
  }
}
""" % {
    "rate_limit": _RATE_LIMIT,
    "labels": LABELS_PER_PULL,
    "files": FILES_PER_PULL,
    "verdicts": REVIEWS_LIMIT,
    "states": ", ".join(VERDICTS),
    "threads": THREADS_LIMIT,
}


# The numbers on a page of MERGED_PULLS, asked for when GitHub's answer nulled a PR's node beside
# an error: the same search, cursor and page size give the same PRs in the same places.
MERGED_NUMBERS = """
query MergedNumbers($owner: String!, $name: String!, $search: String!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) { nameWithOwner createdAt }
  search(type: ISSUE, query: $search, first: $first, after: $after) {
    nodes { ... on PullRequest { number mergedAt } }
  }
}
"""


def merged_count_query(windows: int) -> str:
    """One request that counts the merged PRs of `windows` searches ($q0, $q1, ...)."""
    variables = ", ".join(f"$q{i}: String!" for i in range(windows))
    searches = "\n".join(
        f"  w{i}: search(type: ISSUE, query: $q{i}, first: 1) {{ issueCount }}"
        for i in range(windows)
    )
    return (
        f"query MergedCounts($owner: String!, $name: String!, {variables}) {{\n"
        "  repository(owner: $owner, name: $name) { nameWithOwner createdAt }\n"
        f"  {_RATE_LIMIT}\n{searches}\n}}\n"
    )


def search_text(repo: str, window: Window) -> str:
    # created-asc keeps the order stable while we page; the default order is relevance.
    return f"repo:{repo} is:pr is:merged {search_qualifier(window)} sort:created-asc"


# GraphQL's PatchStatus against REST's file status, which the store keeps.
_CHANGE_TYPES = {
    "ADDED": "added",
    "DELETED": "removed",
    "MODIFIED": "modified",
    "RENAMED": "renamed",
    "COPIED": "copied",
    "CHANGED": "changed",
}


def pull_from_node(node: dict, rest_files: list[dict] | None = None) -> Pull:
    """The record for one `PullRequest` node of MERGED_PULLS; RecordError naming the field it cannot read.

    `rest_files` replaces the node's files when GraphQL did not bring them all: more than
    FILES_PER_PULL of them, or none at all (`files: null`, GitHub's answer for a diff too large to
    list). GraphQL names bots without REST's `[bot]` suffix; it is added back so that a login reads
    the same whatever the source.
    """
    files = files_from_rest(
        rest_files
        if rest_files is not None
        else [rest_file_item(f) for f in _connection(node, "files")["nodes"]]
    )
    changed_files = node.get("changedFiles") or 0
    if isinstance(changed_files, int) and node.get("files") is None:
        # GitHub counts 0 where it would not list them
        changed_files = max(changed_files, len(files))
    return Pull(
        number=node.get("number"),  # type: ignore[arg-type]  # None too: the gate names it
        title=node.get("title") or "",
        url=node.get("url") or "",
        author=_author(node),
        created_at=node.get("createdAt"),
        merged_at=node.get("mergedAt"),  # type: ignore[arg-type]  # None too: the gate names it
        body=node.get("body") or "",
        labels=_label_names(node),
        additions=node.get("additions") or 0,
        deletions=node.get("deletions") or 0,
        changed_files=changed_files,
        files=files,  # the record keeps the first FILES_LIMIT
        files_truncated=isinstance(changed_files, int)
        and changed_files > min(len(files), FILES_LIMIT),
        comments=_total(node, "comments"),
        reviews=_total(node, "reviews"),
        commits=_total(node, "commits"),
        source="github",
        branch=node.get("headRefName", ""),
        verdicts=_made(
            _connection(node, "verdicts")["nodes"],
            "verdicts",
            lambda r: Review(_login(r), r.get("state"), r.get("submittedAt"), r.get("body")),
        ),
        threads=_made(_connection(node, "reviewThreads")["nodes"], "reviewThreads", _first_comment),
    )


def _label_names(node: dict) -> Any:
    """The names of a node's labels as GitHub gave them (a list): the record's gate checks them."""
    labels = _connection(node, "labels")["nodes"]
    return [label.get("name") if isinstance(label, dict) else label for label in labels if label]


def _author(node: dict) -> Author:
    is_bot = isinstance(node.get("author"), dict) and node["author"].get("__typename") == "Bot"
    return Author(_login(node), "Bot" if is_bot else "User", node.get("authorAssociation"))


def _login(node: dict) -> str:
    """The login of a node's `author { login __typename }`: "ghost" for a deleted account (GitHub's
    own name for it), and REST's "[bot]" suffix for a bot, which GraphQL leaves out."""
    author = node.get("author") or {}
    if not isinstance(author, dict):
        raise RecordError("author", "expected an object")
    login = author.get("login") or "ghost"
    if author.get("__typename") == "Bot" and isinstance(login, str) and not login.endswith("[bot]"):
        login += "[bot]"
    return login


def _first_comment(thread: dict) -> ThreadComment | None:
    comments = _connection(thread, "comments")["nodes"]
    if not comments or not isinstance(comments[0], dict):
        return None  # a thread whose comments were all deleted
    return ThreadComment(_login(comments[0]), thread.get("path"), comments[0].get("body", ""))  # type: ignore[arg-type]  # None too: the gate names it


def _made(nodes: list, field: str, make) -> tuple:
    """`make` of each node that is an object (None where it made nothing); a bad node named by its index."""
    made = []
    for index, item in enumerate(nodes):
        if not isinstance(item, dict):
            continue  # nulled by GitHub beside an error: a review or thread it could not serve
        try:
            value = make(item)
        except RecordError as error:
            raise error.within(f"{field}[{index}]") from None
        if value is not None:
            made.append(value)
    return tuple(made)


def rest_file_item(changed_file: dict) -> dict | None:
    """A `PullRequestChangedFile` node as an item of REST's /pulls/N/files (None for what is not one,
    which the record's gate then names)."""
    if not isinstance(changed_file, dict):
        return None
    return {
        "filename": changed_file.get("path"),
        "additions": changed_file.get("additions"),
        "deletions": changed_file.get("deletions"),
        "status": _CHANGE_TYPES.get(changed_file.get("changeType", ""), "modified"),
    }


def needs_rest_files(node: dict) -> bool:
    """Whether REST must list the PR's files: GraphQL brought only the first page of them, or none."""
    files = node.get("files")
    if not isinstance(files, dict):
        return True
    total = files.get("totalCount")
    return isinstance(total, int) and total > len(_connection(node, "files")["nodes"])


def _connection(node: dict, name: str) -> dict:
    """A connection of the node with its `nodes` a list; RecordError when it is something else."""
    connection = node.get(name)
    if connection is None:
        return {"nodes": [], "totalCount": 0}  # null where GitHub would not serve it
    if not isinstance(connection, dict) or not isinstance(connection.get("nodes"), list):
        raise RecordError(name, "expected a list of nodes")
    return connection


def _total(node: dict, name: str) -> int | None:
    """A connection's totalCount; None where GitHub left the connection out (the gate checks the rest)."""
    connection = node.get(name)
    return connection.get("totalCount") if isinstance(connection, dict) else None
