"""Import: GitHub REST pull objects (JSON Lines, optionally gzipped) into the store.

`pull_from_rest` is the one translation from GitHub's REST shape to our record; the fetcher
uses it too where it falls back to REST.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from .errors import DigestError
from .records import Author, FileChange, Pull, cap_body, cap_files, parse_time
from .repo_state import RepoState
from .settings import check_repo_name
from .store import Store


def pull_from_rest(data: dict, source: str = "import") -> Pull | None:
    """The record for one REST pull object, or None when it was not merged."""
    if not data.get("merged_at"):
        return None
    user = data.get("user") or {}
    login = user.get("login") or "ghost"  # GitHub's name for a deleted account
    author_type = user.get("type") or ("Bot" if login.endswith("[bot]") else "User")
    files = [
        FileChange(
            path=f["filename"],
            additions=f.get("additions"),
            deletions=f.get("deletions"),
            status=f.get("status") or "modified",
        )
        for f in data.get("files") or ()
    ]
    kept, truncated = cap_files(files)
    changed_files = data.get("changed_files")
    return Pull(
        number=int(data["number"]),
        title=str(data.get("title") or ""),
        url=str(data.get("html_url") or ""),
        author=Author(login, author_type, data.get("author_association")),
        created_at=parse_time(data.get("created_at")),
        merged_at=parse_time(data["merged_at"]),
        body=cap_body(data.get("body")),
        labels=tuple(label["name"] if isinstance(label, dict) else str(label) for label in data.get("labels") or ()),
        additions=int(data.get("additions") or sum(f.additions or 0 for f in files)),
        deletions=int(data.get("deletions") or sum(f.deletions or 0 for f in files)),
        changed_files=int(changed_files if changed_files is not None else len(files)),
        files=kept,
        files_truncated=truncated or (changed_files or 0) > len(kept),
        comments=data.get("comments"),
        reviews=None,
        commits=data.get("commits"),
        source=source,
    )


def read_export(path: Path) -> Iterator[Pull]:
    """Merged pulls from a JSON Lines export; one error naming the file and line if a line is bad."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as lines:
            for line_number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    pull = pull_from_rest(json.loads(line))
                except (ValueError, KeyError, TypeError, AttributeError) as error:
                    raise DigestError(f"{path}, line {line_number}, is not a GitHub pull request object ({error}).") from None
                if pull is not None:
                    yield pull
    except FileNotFoundError:
        raise DigestError(f"{path} does not exist.") from None
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise DigestError(f"{path} could not be read ({error}).") from None


def import_file(path: Path, repo: str, store: Store) -> tuple[int, int]:
    """Load an export into the store; returns (merged pulls read, records changed).

    The whole file is read before anything is written, so a bad line changes nothing.
    """
    check_repo_name(repo)
    pulls = list(read_export(path))
    state = store.read_state(repo)
    if state is not None and state.source == "sample":
        raise DigestError(f"{repo} holds the bundled sample; import into another repository name.")
    changed = store.upsert(repo, pulls)
    if state is None or state.source == "import":  # a fetched repository keeps its fetch's record
        store.write_state(RepoState(repo=repo, source="import", fetched_at=datetime.now(UTC)))
    return len(pulls), changed
