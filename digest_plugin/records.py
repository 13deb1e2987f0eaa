"""The record model: one merged pull request as the store keeps it.

Every stage after the store works on these frozen dataclasses; nothing downstream sees raw
GitHub JSON. `to_json`/`from_json` are the store's line format (see DESIGN.md, "The store").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

BODY_LIMIT = 10_000  # characters kept of a PR body; templates rarely exceed this
FILES_LIMIT = 300  # files kept per PR; totals stay exact in additions/deletions/changed_files

# Where a record came from. Only "github" records carry GitHub's own created_at, so only
# those give a time to merge that may be shown as fact.
SOURCES = ("github", "import", "sample")


@dataclass(frozen=True)
class Author:
    login: str
    type: str = "User"  # "User" or "Bot", as GitHub reports it
    association: str | None = None  # FIRST_TIME_CONTRIBUTOR, MEMBER, ... where known


@dataclass(frozen=True)
class FileChange:
    path: str
    additions: int | None = 0  # None where the source could not count the lines
    deletions: int | None = 0
    status: str = "modified"


@dataclass(frozen=True)
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

    def __post_init__(self):
        # The address comes from imported or fetched data and is rendered as a link everywhere:
        # anything but a web address (a `javascript:` URL, say) is dropped here, once.
        object.__setattr__(self, "url", web_url(self.url))

    def to_json(self) -> dict:
        return {
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

    @classmethod
    def from_json(cls, data: dict) -> Pull:
        author = data["author"]
        return cls(
            number=int(data["number"]),
            title=str(data["title"]),
            url=str(data["url"]),
            author=Author(author["login"], author.get("type") or "User", author.get("association")),
            created_at=parse_time(data.get("created_at")),
            merged_at=parse_time(data["merged_at"]),
            body=data.get("body") or "",
            labels=tuple(data.get("labels") or ()),
            additions=int(data.get("additions") or 0),
            deletions=int(data.get("deletions") or 0),
            changed_files=int(data.get("changed_files") or 0),
            files=tuple(FileChange(*f) for f in data.get("files") or ()),
            files_truncated=bool(data.get("files_truncated")),
            comments=data.get("comments"),
            reviews=data.get("reviews"),
            commits=data.get("commits"),
            reviewers=tuple(data.get("reviewers") or ()),
            source=data.get("source") or "github",
        )


def web_url(url: str) -> str:
    """`url` if it is an http(s) address without spaces, else ""."""
    url = url.strip()
    ok = url.startswith(("https://", "http://")) and not any(c.isspace() or ord(c) < 32 for c in url)
    return url if ok else ""


def cap_body(body: str | None) -> str:
    body = body or ""
    return body if len(body) <= BODY_LIMIT else body[:BODY_LIMIT] + "\n…"


def cap_files(files: list[FileChange]) -> tuple[tuple[FileChange, ...], bool]:
    """Keep the first FILES_LIMIT files; say whether any were dropped."""
    return tuple(files[:FILES_LIMIT]), len(files) > FILES_LIMIT


def parse_time(value: str | None) -> datetime | None:
    """GitHub's `2026-05-18T09:00:00Z` (or any ISO 8601 with an offset) as an aware UTC datetime."""
    if not value:
        return None
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        raise ValueError(f"time without a timezone: {value!r}")
    return parsed.astimezone(UTC)


def format_time(value: datetime | None) -> str | None:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if value else None
