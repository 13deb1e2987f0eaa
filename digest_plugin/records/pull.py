"""The record model: one merged pull request as the store keeps it, and the gate it passes.

Every stage after the store works on these frozen dataclasses; nothing downstream sees raw
GitHub JSON. `to_json`/`from_json` are the store's line format (see docs/architecture.md, "The store").

The constructors are the one gate for stored data: a record is checked and normalised whenever
it is made, whether fetched, imported or read back from the store. Types and ranges are checked
(a wrong one raises `RecordError` naming the field); text is cleaned (control characters other
than newline and tab, Unicode non-characters, lone surrogates and bidirectional overrides are
removed; one-line fields lose their line breaks) and capped with a visible "…"; a name that would
be left blank (a path " ", a label of one U+202E) is kept, spelled out (`visible_name`). A record
that passed can be rendered anywhere: HTML, XML feeds, Markdown, a terminal.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, overload

from digest_plugin.records.frozen import frozen_record

BODY_LIMIT = 10_000  # characters kept of a PR body; templates rarely exceed this
FILES_LIMIT = 300  # files kept per PR; totals stay exact in additions/deletions/changed_files
TITLE_LIMIT = 300  # GitHub allows 256
LABEL_LIMIT = 50  # GitHub's own limit; a label becomes a feed's file name
LOGIN_LIMIT = 60  # GitHub allows 39, plus "[bot]"
PATH_LIMIT = 500
BRANCH_LIMIT = 255  # git's limit for a ref name
URL_LIMIT = 2_000
LIST_LIMIT = 100  # labels and reviewers kept per PR
REVIEWS_LIMIT = 20  # review verdicts kept per PR, the latest (fetch/queries.py asks for as many)
THREADS_LIMIT = 10  # review threads kept per PR, each by its first comment
REVIEW_BODY_LIMIT = 1_000  # characters kept of a review's body
COMMENT_BODY_LIMIT = 500  # characters kept of a review thread's first comment
DIFF_LIMIT = 4_000  # characters kept of a key PR's diff excerpt (fetch/diffs.py)
COUNT_LIMIT = 10**9  # lines, files, comments: more than any real PR, small enough for any sum
NUMBER_LIMIT = 10**9
# Pull requests exist since 2008; a merge time outside [then, now + a day] is damage, and a
# single one would make the site draw decades of empty weeks.
EARLIEST_TIME = datetime(2008, 1, 1, tzinfo=UTC)
CLOCK_SKEW = timedelta(days=1)

T = TypeVar("T")

# Where a record came from. Only "github" records carry GitHub's own created_at, so only
# those give a time to merge that may be shown as fact.
SOURCES = ("github", "import", "sample")
AUTHOR_TYPES = ("User", "Bot", "Organization", "Mannequin")
FILE_STATUSES = ("added", "removed", "modified", "renamed", "copied", "changed", "unchanged")
# GitHub's PullRequestReviewState but PENDING, which is never seen by another account
REVIEW_STATES = ("APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED")
ASSOCIATIONS = tuple(
    "COLLABORATOR CONTRIBUTOR FIRST_TIMER FIRST_TIME_CONTRIBUTOR MANNEQUIN MEMBER NONE OWNER".split()
)

# C0 controls but tab and newline, DEL and C1; surrogates (an escaped lone "\ud800" in JSON);
# non-characters (U+FDD0..U+FDEF and the last two of every plane); bidirectional embeddings,
# overrides and isolates (U+202A..E, U+2066..9), which can make a title read backwards. Those are
# removed rather than kept and balanced: right-to-left text needs none of them (its letters carry
# their direction), and much of the output (feeds' plain titles, Markdown, the terminal) has no
# markup that could contain an unbalanced one. In HTML every text from GitHub is also isolated
# (`<bdi>`, templates/partials/bdi.html), so that a right-to-left title shows as written without
# reordering the page's words around it. The marks U+200E and U+200F stay: they have no scope.
_UNSAFE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\u202a-\u202e\u2066-\u2069"
    + "".join(rf"\U{plane:04x}fffe\U{plane:04x}ffff" for plane in range(17))
    + "]"
)
_LINE_BREAKS = re.compile(r"\r\n?|[\u2028\u2029\x85]")
_ONE_LINE = re.compile(r"\s*[\n\t\r\u2028\u2029]\s*")


class RecordError(ValueError):
    """A stored or incoming record that fails the gate; `field` names where."""

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem

    def within(self, outer: str) -> RecordError:
        return RecordError(f"{outer}.{self.field}", self.problem)


def clean_text(value: str, limit: int, one_line: bool = False) -> str:
    """`value` safe to show anywhere, at most `limit` characters (the last one "…" when cut)."""
    if value.isascii() and value.isprintable():
        # most titles, paths and names: no control character, line break or tab to take out
        value = value.strip() if one_line else value
    else:
        value = _UNSAFE.sub("", _LINE_BREAKS.sub("\n", value))
        if one_line:
            value = _ONE_LINE.sub(" ", value).strip()
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _text(value, field: str, limit: int, one_line: bool = True, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise RecordError(field, f"expected text, found {_kind(value)}")
    cleaned = clean_text(value, limit, one_line)
    if required and not cleaned:
        if not value:
            raise RecordError(field, "is empty")
        return visible_name(value, limit)
    return cleaned


def visible_name(value: str, limit: int) -> str:
    """A name that cleaning leaves blank, written out character by character ("U+001B", "U+202E
    U+202E"): GitHub allows a file named " " or ESC and a label of one bidirectional override, and
    such a PR is real. Plain ASCII, so that it is shown as written on every surface and is markup
    in none; distinct blank names stay distinct."""
    return clean_text(" ".join(f"U+{ord(c):04X}" for c in value), limit)


def _count(
    value, field: str, limit: int = COUNT_LIMIT, optional: bool = False, least: int = 0
) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(field, f"expected a whole number, found {_kind(value)}")
    if not least <= value <= limit:
        raise RecordError(field, f"{value} is outside {least} to {limit:,}")
    return value


def _names(value, field: str, limit: int) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise RecordError(field, f"expected a list of names, found {_kind(value)}")
    names = (
        sys.intern(_text(item, f"{field}[{i}]", limit, required=True))
        for i, item in enumerate(value[:LIST_LIMIT])
    )
    return tuple(dict.fromkeys(names))


def _time(value, field: str, optional: bool = False) -> datetime | None:
    if value is None and optional:
        return None
    if isinstance(value, str):
        try:
            value = parse_time(value)
        except (ValueError, OverflowError):
            raise RecordError(
                field, f"{clean_text(value, 40)!r} is not a time like 2026-05-18T09:00:00Z"
            ) from None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise RecordError(field, f"expected a time like 2026-05-18T09:00:00Z, found {_kind(value)}")
    latest = datetime.now(UTC) + CLOCK_SKEW
    if not EARLIEST_TIME <= value <= latest:
        raise RecordError(
            field, f"{format_time(value)} is before {EARLIEST_TIME:%Y} or in the future"
        )
    return value.astimezone(UTC)


def _choice(value, field: str, choices: tuple[str, ...], default: str | None) -> str | None:
    """One of `choices`; `default` for nothing or a value GitHub may have added since."""
    if value is not None and not isinstance(value, str):
        raise RecordError(field, f"expected one of {', '.join(choices)}, found {_kind(value)}")
    return choices[choices.index(value)] if value in choices else default  # the one shared string


_KINDS = {
    bool: "true/false",
    int: "a number",
    float: "a number",
    str: "text",
    dict: "an object",
    list: "a list",
    tuple: "a list",
}


def _kind(value) -> str:
    return "nothing" if value is None else _KINDS.get(type(value), type(value).__name__)


@frozen_record
class Author:
    login: str
    type: str = "User"  # "User" or "Bot", as GitHub reports it
    association: str | None = None  # FIRST_TIME_CONTRIBUTOR, MEMBER, ... where known

    def __post_init__(self):
        _set(
            self,
            login=sys.intern(_text(self.login, "login", LOGIN_LIMIT, required=True)),
            type=_choice(self.type, "type", AUTHOR_TYPES, "User"),
            association=_choice(self.association, "association", ASSOCIATIONS, None),
        )


@frozen_record
class FileChange:
    path: str
    additions: int | None = 0  # None where the source could not count the lines
    deletions: int | None = 0
    status: str = "modified"

    def __post_init__(self):
        _set(
            self,
            path=sys.intern(_text(self.path, "path", PATH_LIMIT, required=True)),
            additions=_count(self.additions, "additions", optional=True),
            deletions=_count(self.deletions, "deletions", optional=True),
            status=_choice(self.status, "status", FILE_STATUSES, "modified"),
        )


@frozen_record
class Review:
    """One submitted review: who, the verdict (REVIEW_STATES), when, and what it said (capped)."""

    author: str  # "ghost" for a deleted account, as GitHub names it
    state: str
    submitted_at: datetime | None = None
    body: str = ""

    def __post_init__(self):
        state = _choice(self.state, "state", REVIEW_STATES, None)
        if state is None:
            raise RecordError("state", f"expected one of {', '.join(REVIEW_STATES)}")
        _set(
            self,
            author=sys.intern(_text(self.author, "author", LOGIN_LIMIT, required=True)),
            state=state,
            submitted_at=_time(self.submitted_at, "submitted_at", optional=True),
            body=_text(self.body, "body", REVIEW_BODY_LIMIT, one_line=False),
        )


@frozen_record
class ThreadComment:
    """The first comment of a review thread: who, on which file, and what it said (capped)."""

    author: str
    path: str
    body: str = ""

    def __post_init__(self):
        _set(
            self,
            author=sys.intern(_text(self.author, "author", LOGIN_LIMIT, required=True)),
            path=sys.intern(_text(self.path, "path", PATH_LIMIT, required=True)),
            body=_text(self.body, "body", COMMENT_BODY_LIMIT, one_line=False),
        )


@frozen_record
class Pull:
    number: int
    title: str
    url: str
    author: Author
    merged_at: datetime
    created_at: datetime | None = None
    body: str = ""
    labels: tuple[str, ...] = ()
    additions: int = 0
    deletions: int = 0
    changed_files: int = 0
    files: tuple[FileChange, ...] = ()
    files_truncated: bool = False
    comments: int | None = None
    reviews: int | None = None
    commits: int | None = None
    reviewers: tuple[str, ...] = ()
    source: str = "github"
    branch: str = ""  # the PR's head branch; "" where unknown (stores written before it was kept)
    # the latest REVIEWS_LIMIT reviews that give a verdict, oldest first, and the first comment of
    # each of the first THREADS_LIMIT review threads; () where the source has none (imports, stores
    # written before they were kept)
    verdicts: tuple[Review, ...] = ()
    threads: tuple[ThreadComment, ...] = ()
    # a key PR's diff excerpt: the hunks of its main files, capped; None where none was fetched, ""
    # where it was and GitHub showed no text diff of them (so that it is not asked again)
    diff: str | None = None

    def __post_init__(self):
        if not isinstance(self.author, Author):
            raise RecordError("author", f"expected an author, found {_kind(self.author)}")
        for name, kind, what in (
            ("files", FileChange, "changed files"),
            ("verdicts", Review, "reviews"),
            ("threads", ThreadComment, "review comments"),
        ):
            items = getattr(self, name)
            if not isinstance(items, list | tuple) or not all(isinstance(i, kind) for i in items):
                raise RecordError(name, f"expected a list of {what}")
        merged_at = _time(self.merged_at, "merged_at")
        created_at = _time(self.created_at, "created_at", optional=True)
        _set(
            self,
            # GitHub numbers its PRs from 1
            number=_count(self.number, "number", NUMBER_LIMIT, least=1),
            title=_text(self.title, "title", TITLE_LIMIT),
            # rendered as a link everywhere: anything but a web address (`javascript:`) is dropped here, once
            url=web_url(_text(self.url, "url", URL_LIMIT + 1)),
            merged_at=merged_at,
            # an export rebuilt from git can date the opening after the merge: then it is unknown
            created_at=created_at if created_at is None or created_at <= merged_at else None,
            body=_text(self.body, "body", BODY_LIMIT, one_line=False),
            labels=_names(self.labels, "labels", LABEL_LIMIT),
            additions=_count(self.additions, "additions"),
            deletions=_count(self.deletions, "deletions"),
            changed_files=_count(self.changed_files, "changed_files"),
            files=tuple(self.files[:FILES_LIMIT]),
            files_truncated=bool(self.files_truncated) or len(self.files) > FILES_LIMIT,
            comments=_count(self.comments, "comments", optional=True),
            reviews=_count(self.reviews, "reviews", optional=True),
            commits=_count(self.commits, "commits", optional=True),
            reviewers=_names(self.reviewers, "reviewers", LOGIN_LIMIT),
            branch=_text(self.branch, "branch", BRANCH_LIMIT),
            verdicts=tuple(self.verdicts[-REVIEWS_LIMIT:]),
            threads=tuple(self.threads[:THREADS_LIMIT]),
            diff=None
            if self.diff is None
            else _text(self.diff, "diff", DIFF_LIMIT, one_line=False),
        )
        if self.source not in SOURCES:
            raise RecordError("source", f"expected one of {', '.join(SOURCES)}")
        _set(self, source=SOURCES[SOURCES.index(self.source)])

    def to_json(self) -> dict:
        data = {
            "number": self.number,
            "title": self.title,
            "url": self.url,
            "author": {
                "login": self.author.login,
                "type": self.author.type,
                "association": self.author.association,
            },
            "created_at": format_time(self.created_at),
            "merged_at": format_time(self.merged_at),
            "body": self.body,
            "labels": list(self.labels),
            "additions": self.additions,
            "deletions": self.deletions,
            "changed_files": self.changed_files,
            "files": [[f.path, f.additions, f.deletions, f.status] for f in self.files],
            "files_truncated": self.files_truncated,
            "comments": self.comments,
            "reviews": self.reviews,
            "commits": self.commits,
            "reviewers": list(self.reviewers),
            "source": self.source,
        }
        # written only where known, so that a store without them stays as it was, byte for byte
        if self.branch:
            data["branch"] = self.branch
        if self.verdicts:
            data["verdicts"] = [
                [r.author, r.state, format_time(r.submitted_at), r.body] for r in self.verdicts
            ]
        if self.threads:
            data["threads"] = [[c.author, c.path, c.body] for c in self.threads]
        if self.diff is not None:
            data["diff"] = self.diff
        return data

    @classmethod
    def from_json(cls, data: dict) -> Pull:
        """The record for one stored line; RecordError naming the field when it fails the gate."""
        if not isinstance(data, dict):
            raise RecordError("record", f"expected an object, found {_kind(data)}")
        for name in ("number", "merged_at", "author"):
            if name not in data:
                raise RecordError(name, "is missing")
        author = data["author"]
        if not isinstance(author, dict):
            raise RecordError("author", f"expected an object, found {_kind(author)}")
        try:
            author = Author(
                author.get("login"),  # type: ignore[arg-type]  # None too: the gate names it
                author.get("type") or "User",
                author.get("association"),
            )
        except RecordError as error:
            raise error.within("author") from None
        return cls(
            number=data["number"],
            title=data.get("title", ""),
            url=data.get("url", ""),
            author=author,
            created_at=data.get("created_at"),
            merged_at=data["merged_at"],
            body=data.get("body", ""),
            labels=data.get("labels") or (),
            additions=data.get("additions") or 0,
            deletions=data.get("deletions") or 0,
            changed_files=data.get("changed_files") or 0,
            files=_from_stored(
                data.get("files") or (),
                "files",
                FileChange,
                "path, additions, deletions, status",
                FILES_LIMIT,
            ),
            files_truncated=data.get("files_truncated") is True,
            comments=data.get("comments"),
            reviews=data.get("reviews"),
            commits=data.get("commits"),
            reviewers=data.get("reviewers") or (),
            source=data.get("source") or "github",
            branch=data.get("branch", ""),
            verdicts=_from_stored(
                data.get("verdicts") or (), "verdicts", Review, "author, state, submitted_at, body"
            ),
            threads=_from_stored(
                data.get("threads") or (), "threads", ThreadComment, "author, path, body"
            ),
            diff=data.get("diff"),
        )


def files_from_rest(items) -> tuple[FileChange, ...]:
    """REST's changed-file objects (`/pulls/N/files`, and exports of it) as FileChanges."""

    def fields(f) -> tuple | None:
        if not isinstance(f, dict):
            return None
        status = f.get("status") or "modified"
        return f.get("filename"), f.get("additions"), f.get("deletions"), status

    return _made_from(items, "files", FileChange, fields, "a changed file object", FILES_LIMIT)


def _from_stored(
    items, field: str, make: Callable[..., T], names: str, limit: int | None = None
) -> tuple[T, ...]:
    """`make` of each of the first `limit` stored items (files, verdicts, threads), each a list of
    the values `names` names."""
    length = len(names.split(", "))
    return _made_from(
        items,
        field,
        make,
        lambda item: item if isinstance(item, list | tuple) and len(item) == length else None,
        f"[{names}]",
        limit,
    )


def _made_from(
    items,
    field: str,
    make: Callable[..., T],
    fields: Callable[[object], Sequence | None],
    expected: str,
    limit: int | None = None,
) -> tuple[T, ...]:
    """`make` of each item of a list that `fields` turns into its values, or None where an item has
    the wrong shape; the first `limit` items; a bad item is named by its index."""
    if not isinstance(items, list | tuple):
        raise RecordError(field, f"expected a list, found {_kind(items)}")
    made = []
    for index, item in enumerate(items[:limit]):
        values = fields(item)
        if values is None:
            raise RecordError(f"{field}[{index}]", f"expected {expected}")
        try:
            made.append(make(*values))
        except RecordError as error:
            raise error.within(f"{field}[{index}]") from None
    return tuple(made)


def _set(record, **values) -> None:
    for name, value in values.items():
        object.__setattr__(record, name, value)


def web_url(url: str) -> str:
    """`url` if it is an http(s) address without spaces, quotes or angle brackets, else ""."""
    url = url.strip()
    ok = (
        url.startswith(("https://", "http://"))
        and len(url) <= URL_LIMIT
        and not any(c.isspace() or ord(c) < 32 or c in "\"'<>`\\" for c in url)
    )
    return url if ok else ""


def parse_time(value: str | None) -> datetime | None:
    """GitHub's `2026-05-18T09:00:00Z` (or any ISO 8601 with an offset) as an aware UTC datetime."""
    if not value:
        return None
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        raise ValueError(f"time without a timezone: {value!r}")
    return parsed.astimezone(UTC)


@overload
def format_time(value: datetime) -> str: ...
@overload
def format_time(value: None) -> None: ...
@overload
def format_time(value: datetime | None) -> str | None: ...
def format_time(value: datetime | None) -> str | None:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if value else None


def read_line(raw: bytes, make: Callable[[Any], T]) -> tuple[T | None, str | None]:
    """`make` applied to one JSON line, or why the line is bad: the same words for the store's
    month files and for import files."""
    try:
        return make(json.loads(raw.decode("utf-8"))), None
    except UnicodeDecodeError:
        return None, "is not UTF-8 text"
    except RecordError as error:
        return None, f"has a bad value in {error.field}: {error.problem}"
    except (ValueError, RecursionError):
        return None, "is not a JSON object"
