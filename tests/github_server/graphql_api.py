"""GitHub's GraphQL API for the local server: a subset of the real schema, executed by graphql-core.

The SDL below copies the real schema's names and types for what the fetcher reads (tests check
that every query also validates against the full schema in ../shared/github/schema.graphql).
Search behaves like GitHub's: `issueCount` is the real total, pages stop at result 1,000, and
`first` above 100 is an error.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
from dataclasses import dataclass
from datetime import UTC, datetime

from graphql import GraphQLError, build_schema, graphql_sync

from tests.github_server import search

SDL = """
scalar DateTime
scalar URI

interface Actor { login: String! url: URI! }
type User implements Actor { login: String! url: URI! }
type Bot implements Actor { login: String! url: URI! }
type Mannequin implements Actor { login: String! url: URI! }
type Issue { number: Int! title: String! }

enum SearchType { DISCUSSION ISSUE ISSUE_ADVANCED REPOSITORY USER }
enum CommentAuthorAssociation { COLLABORATOR CONTRIBUTOR FIRST_TIMER FIRST_TIME_CONTRIBUTOR MANNEQUIN MEMBER NONE OWNER }
enum PatchStatus { ADDED CHANGED COPIED DELETED MODIFIED RENAMED }
enum PullRequestReviewState { APPROVED CHANGES_REQUESTED COMMENTED DISMISSED PENDING }

type PageInfo { endCursor: String hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String }

type Label { name: String! }
type LabelConnection { nodes: [Label] pageInfo: PageInfo! totalCount: Int! }
type PullRequestChangedFile { additions: Int! changeType: PatchStatus! deletions: Int! path: String! }
type PullRequestChangedFileConnection { nodes: [PullRequestChangedFile] pageInfo: PageInfo! totalCount: Int! }
type IssueCommentConnection { totalCount: Int! }
type PullRequestReview { author: Actor body: String! state: PullRequestReviewState! submittedAt: DateTime }
type PullRequestReviewConnection { nodes: [PullRequestReview] pageInfo: PageInfo! totalCount: Int! }
type PullRequestReviewComment { author: Actor body: String! path: String! }
type PullRequestReviewCommentConnection { nodes: [PullRequestReviewComment] pageInfo: PageInfo! totalCount: Int! }
type PullRequestReviewThread {
  comments(after: String, before: String, first: Int, last: Int, skip: Int): PullRequestReviewCommentConnection!
  path: String!
}
type PullRequestReviewThreadConnection { nodes: [PullRequestReviewThread] pageInfo: PageInfo! totalCount: Int! }
type PullRequestCommitConnection { totalCount: Int! }

type PullRequest {
  additions: Int!
  author: Actor
  authorAssociation: CommentAuthorAssociation!
  body: String!
  changedFiles: Int!
  comments(after: String, before: String, first: Int, last: Int): IssueCommentConnection!
  commits(after: String, before: String, first: Int, last: Int): PullRequestCommitConnection!
  createdAt: DateTime!
  deletions: Int!
  files(after: String, before: String, first: Int, last: Int): PullRequestChangedFileConnection
  headRefName: String!
  labels(after: String, before: String, first: Int, last: Int): LabelConnection
  mergedAt: DateTime
  number: Int!
  reviewThreads(after: String, before: String, first: Int, last: Int): PullRequestReviewThreadConnection!
  reviews(after: String, author: String, before: String, first: Int, last: Int, states: [PullRequestReviewState!]): PullRequestReviewConnection
  title: String!
  url: URI!
}

union SearchResultItem = Issue | PullRequest | User

type SearchResultItemConnection {
  issueCount: Int!
  nodes: [SearchResultItem]
  pageInfo: PageInfo!
}

type Repository { createdAt: DateTime! name: String! nameWithOwner: String! url: URI! }

type RateLimit { cost: Int! limit: Int! nodeCount: Int! remaining: Int! resetAt: DateTime! used: Int! }

type Query {
  rateLimit(dryRun: Boolean = false): RateLimit
  repository(followRenames: Boolean = true, name: String!, owner: String!): Repository
  search(after: String, before: String, first: Int, last: Int, query: String!, type: SearchType!): SearchResultItemConnection!
}
"""

PAGE_LIMIT = 100
SEARCH_RESULT_LIMIT = 1_000


@functools.cache
def schema():
    return build_schema(SDL)


class NotFoundError(Exception):
    """Shown as GitHub's NOT_FOUND error type."""


@dataclass(frozen=True)
class NodeFault:
    """How GitHub's answer spoils one PR's node, every time it is asked: an error beside the rest
    of the data, with `field` nulled (a nullable one such as files or labels) or, for a required
    one such as body, the whole node nulled, as GraphQL does."""

    field: str = "files"
    # None: the field nulled with no error at all (GitHub's answer for a diff too large to list)
    message: str | None = (
        "Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug."
    )
    type: str | None = None  # GitHub's error type, where it gives one


class FieldError(GraphQLError):
    """A field GitHub could not resolve, with GitHub's error `type`."""

    def __init__(self, message: str, type: str | None):
        super().__init__(message)
        self.type = type


def execute(
    body: dict,
    repos: dict[str, list[dict]],
    rate: dict,
    node_faults: dict | None = None,
    hidden: frozenset = frozenset(),
) -> dict:
    """Run one GraphQL request body; the answer GitHub would send (data and/or errors). `node_faults`
    spoils the nodes of some PRs ((repo, number) -> NodeFault); `hidden` PRs ((repo, number)) are
    counted by search but never listed, as GitHub's search index sometimes does."""
    query = body.get("query")
    if not isinstance(query, str):
        return {
            "errors": [{"message": "A query attribute must be specified and must be a string."}]
        }
    faults = node_faults or {}
    root = {
        "rateLimit": lambda info, dryRun=False: rate,
        "repository": lambda info, owner, name, followRenames=True: _repository(repos, owner, name),
        "search": lambda info, query, type, first=None, last=None, after=None, before=None: _search(
            repos, query, first, last, after, faults, hidden
        ),
    }
    result = graphql_sync(
        schema(), query, root_value=root, variable_values=body.get("variables") or {}
    )
    answer: dict = {}
    if result.errors:
        answer["errors"] = [_error(e) for e in result.errors]
    if result.data is not None:
        answer["data"] = result.data
    return answer


def _error(error: GraphQLError) -> dict:
    formatted = error.formatted
    if isinstance(error.original_error, NotFoundError):
        formatted["type"] = "NOT_FOUND"
    if isinstance(error.original_error, FieldError) and error.original_error.type:
        formatted["type"] = error.original_error.type
    return formatted


def spelled(repos, name: str | None) -> str | None:
    """The repository's own spelling of `name`, matched as GitHub matches names: ignoring case."""
    if name is None or name in repos:
        return name
    return next((known for known in repos if known.lower() == name.lower()), name)


def _repository(repos, owner: str, name: str):
    full = spelled(repos, f"{owner}/{name}")
    if full not in repos:
        raise NotFoundError(f"Could not resolve to a Repository with the name '{full}'.")
    return {
        "name": full.split("/")[1],
        "nameWithOwner": full,
        "url": f"https://github.com/{full}",
        "createdAt": created_at(repos[full]),
    }


def created_at(pulls: list[dict]) -> str:
    """When the repository was created: a month before its first PR was opened (or long ago, when it has none)."""
    first = min((p["created_at"] for p in pulls), default="2010-01-01T00:00:00Z")
    return reset_time(
        int(datetime.fromisoformat(first.replace("Z", "+00:00")).timestamp()) - 30 * 86400
    )


def _check_page(connection: str, first, last) -> int:
    if first is None and last is None:
        raise GraphQLError(
            f"You must provide a `first` or `last` value to properly paginate the `{connection}` connection."
        )
    size = first if first is not None else last
    if size > PAGE_LIMIT:
        raise GraphQLError(
            f"Requesting {size} records on the `{connection}` connection exceeds the `first` limit of {PAGE_LIMIT} records."
        )
    if size < 0:
        raise GraphQLError(f"`first` on the `{connection}` connection cannot be less than zero.")
    return size


def _cursor(offset: int) -> str:
    return base64.b64encode(f"cursor:{offset}".encode()).decode()


def _offset(cursor: str | None) -> int:
    if not cursor:
        return 0
    try:
        return int(base64.b64decode(cursor).decode().split(":", 1)[1])
    except (ValueError, IndexError):
        raise GraphQLError("`after` is not a valid cursor.") from None


def _slice(items: list, first, after, connection: str, available: int | None = None) -> dict:
    size = _check_page(connection, first, None)
    offset = _offset(after)
    available = len(items) if available is None else min(available, len(items))
    page = items[offset : min(offset + size, available)]
    end = offset + len(page)
    return {
        "nodes": page,
        "totalCount": len(items),
        "pageInfo": {
            "hasNextPage": end < available,
            "hasPreviousPage": offset > 0,
            "startCursor": _cursor(offset + 1) if page else None,
            "endCursor": _cursor(end) if page else None,
        },
    }


def _search(repos, text: str, first, last, after, faults: dict, hidden: frozenset) -> dict:
    _check_page("search", first, last)
    parsed = dataclasses.replace(search.parse(text), repo=spelled(repos, search.parse(text).repo))
    pulls = [p for p in repos.get(parsed.repo or "", ()) if search.matches(parsed, p)]
    pulls.sort(key=lambda p: (p["created_at"], p["number"]), reverse=parsed.descending)
    nodes = [
        _spoiled(_pull_node(p), faults.get((parsed.repo, p["number"])))
        for p in pulls
        if (parsed.repo, p["number"]) not in hidden
    ]
    connection = _slice(nodes, first, after, "search", available=SEARCH_RESULT_LIMIT)
    return {
        "issueCount": len(pulls),
        "nodes": connection["nodes"],
        "pageInfo": connection["pageInfo"],
    }


_CHANGE_TYPES = {
    "added": "ADDED",
    "removed": "DELETED",
    "modified": "MODIFIED",
    "renamed": "RENAMED",
    "copied": "COPIED",
    "changed": "CHANGED",
    "unchanged": "MODIFIED",
}


def _pull_node(pull: dict) -> dict:
    author = _actor(pull.get("user"))
    files = [
        {
            "path": f["filename"],
            "additions": f["additions"],
            "deletions": f["deletions"],
            "changeType": _CHANGE_TYPES.get(f.get("status"), "MODIFIED"),
        }
        for f in pull["files"]
    ]
    labels = [{"name": label["name"]} for label in pull.get("labels") or ()]
    return {
        "__typename": "PullRequest",
        "number": pull["number"],
        "title": pull["title"],
        "url": pull["html_url"],
        "body": pull.get("body") or "",
        "createdAt": pull["created_at"],
        "mergedAt": pull["merged_at"],
        "headRefName": pull["head"]["ref"],
        "additions": pull["additions"],
        "deletions": pull["deletions"],
        "changedFiles": pull["changed_files"],
        "authorAssociation": pull.get("author_association") or "NONE",
        "author": author,
        "labels": lambda info, first=None, last=None, after=None, before=None: _slice(
            labels, first, after, "labels"
        ),
        "files": lambda info, first=None, last=None, after=None, before=None: _slice(
            files, first, after, "files"
        ),
        "comments": lambda info, **_: {"totalCount": pull["comments"]},
        "reviews": lambda info, first=None, last=None, states=None, **_: _reviews(
            pull, first, last, states
        ),
        "reviewThreads": lambda info, first=None, last=None, **_: _ends(
            [_thread(t) for t in pull.get("review_threads") or ()], first, last, "reviewThreads"
        ),
        "commits": lambda info, **_: {"totalCount": pull["commits"]},
    }


def _actor(user: dict | None) -> dict | None:
    """A REST user as GraphQL's Actor: null for a deleted account, a bot's login without "[bot]"."""
    if not user:
        return None
    is_bot = user.get("type") == "Bot"
    login = user["login"].removesuffix("[bot]") if is_bot else user["login"]
    return {
        "__typename": "Bot" if is_bot else "User",
        "login": login,
        "url": f"https://github.com/{login}",
    }


def _reviews(pull: dict, first, last, states) -> dict:
    """The PR's reviews (REST's /pulls/N/reviews objects, oldest first) as GitHub's connection,
    `states` filtering them; only the count where neither `first` nor `last` is given (GitHub
    refuses `nodes` then)."""
    reviews = pull.get("reviews")
    if reviews is None:  # a count without the reviews themselves (the exports have none)
        return (
            {"totalCount": pull.get("reviews_count") or 0}
            if first is None and last is None
            else _ends([], first, last, "reviews")
        )
    chosen = [r for r in reviews if not states or r["state"] in states]
    if first is None and last is None:
        return {"totalCount": len(chosen)}
    nodes = [
        {
            "author": _actor(r.get("user")),
            "body": r.get("body") or "",
            "state": r["state"],
            "submittedAt": r.get("submitted_at"),
        }
        for r in chosen
    ]
    return _ends(nodes, first, last, "reviews")


def _thread(thread: dict) -> dict:
    comments = [
        {"author": _actor(c.get("user")), "body": c.get("body") or "", "path": thread["path"]}
        for c in thread["comments"]
    ]
    return {
        "path": thread["path"],
        "comments": lambda info, first=None, last=None, **_: _ends(
            comments, first, last, "comments"
        ),
    }


def _ends(items: list, first, last, connection: str) -> dict:
    """The first `first` or the last `last` items, as a connection."""
    size = _check_page(connection, first, last)
    page = items[:size] if first is not None else items[max(0, len(items) - size) :]
    return {
        "nodes": page,
        "totalCount": len(items),
        "pageInfo": {
            "hasNextPage": first is not None and size < len(items),
            "hasPreviousPage": last is not None and size < len(items),
            "startCursor": None,
            "endCursor": None,
        },
    }


def _spoiled(node: dict, fault: NodeFault | None) -> dict:
    if fault is None:
        return node

    def resolve(info, **_):
        if fault.message is None:
            return
        raise FieldError(fault.message, fault.type)

    return {**node, fault.field: resolve}


def reset_time(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
