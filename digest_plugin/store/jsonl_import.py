"""Import: GitHub REST pull objects (JSON Lines, optionally gzipped) into the store.

`pull_from_rest` is the one translation from GitHub's REST shape to our record; the fetcher
uses it too where it falls back to REST.
"""

from __future__ import annotations

import codecs
import gzip
import logging
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Author, Pull, RecordError, files_from_rest, read_line
from digest_plugin.records.state import RepoState, Window, repo_life
from digest_plugin.settings import check_repo_name
from digest_plugin.store.folder import Store, outside_life, report_rejected

logger = logging.getLogger(__name__)


def pull_from_rest(data: dict, source: str = "import") -> Pull | None:
    """The record for one REST pull object, or None when it was not merged.

    Values are handed to the record as they are, never converted: the record's gate rejects a
    title that is a list or labels that are a string, where `str()` would have shown them.
    """
    if not isinstance(data, dict):
        raise RecordError("record", "expected a pull request object")
    if not data.get("merged_at"):
        return None
    files = files_from_rest(data.get("files") or ())
    additions, deletions = data.get("additions"), data.get("deletions")
    changed_files = data.get("changed_files")
    return Pull(
        number=data.get("number"),  # type: ignore[arg-type]  # None too: the gate names it
        title=data.get("title") or "",
        url=data.get("html_url") or "",
        author=_author(data),
        created_at=data.get("created_at"),
        merged_at=data["merged_at"],
        body=data.get("body") or "",
        labels=_label_names(data.get("labels") or ()),
        additions=additions if additions is not None else sum(f.additions or 0 for f in files),
        deletions=deletions if deletions is not None else sum(f.deletions or 0 for f in files),
        changed_files=changed_files if changed_files is not None else len(files),
        files=files,
        files_truncated=isinstance(changed_files, int) and changed_files > len(files),
        comments=data.get("comments"),
        reviews=None,
        commits=data.get("commits"),
        source=source,
        branch=_head_branch(data.get("head")),
    )


def _author(data: dict) -> Author:
    user = data.get("user") or {}
    if not isinstance(user, dict):
        raise RecordError("user", "expected an object")
    login = user.get("login") or "ghost"  # GitHub's name for a deleted account
    bot = isinstance(login, str) and login.endswith("[bot]")
    try:
        return Author(
            login, user.get("type") or ("Bot" if bot else "User"), data.get("author_association")
        )
    except RecordError as error:
        raise error.within("user") from None


def _head_branch(head):
    """REST's `head.ref`; exports rebuilt from git have no `head`."""
    if head is None:
        return None
    if not isinstance(head, dict):
        raise RecordError("head", "expected an object")
    return head.get("ref")


def _label_names(labels) -> Any:
    """REST gives label objects; some exports give bare names. Anything else fails at the gate."""
    if not isinstance(labels, list):
        return labels
    return [label.get("name") if isinstance(label, dict) else label for label in labels]


def read_export(
    path: Path, rejected: list[str] | None = None, life: Window | None = None
) -> Iterator[Pull]:
    """Merged pulls from a JSON Lines export. A line that fails the gate, or was merged outside
    `life` (records/state.repo_life), is described in `rejected` (file, line, field) and skipped;
    without `rejected` it is an error."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as lines:
            for line_number, raw in enumerate(lines, 1):
                if line_number == 1:
                    # written by an editor on Windows: not part of the record
                    raw = raw.removeprefix(codecs.BOM_UTF8)
                if not raw.strip():
                    continue
                pull, problem = read_line(raw, pull_from_rest)
                if problem is None and pull is not None:
                    problem = outside_life(pull, life)
                if problem is None:
                    if pull is not None:
                        yield pull
                    continue
                sentence = f"{path}, line {line_number}, {problem}"
                if rejected is None:
                    raise DigestError(sentence + "; fix or remove that line.")
                rejected.append(sentence)
    except FileNotFoundError:
        raise DigestError(f"{path} does not exist.") from None
    except IsADirectoryError:
        raise DigestError(f"{path} is a folder; name a JSON Lines file of pull requests.") from None
    # EOFError: a gzip file cut short, which has no strerror
    except (OSError, EOFError, zlib.error) as error:
        raise DigestError(
            f"{path} could not be read ({getattr(error, 'strerror', None) or error}); check that it is a whole JSON Lines file, gzipped or not."
        ) from None


def import_file(path: Path, repo: str, store: Store) -> tuple[int, int, int]:
    """Load an export into the store; returns (merged pulls read, records changed, lines rejected).

    The whole file is read before anything is written. Lines that fail the gate are reported
    (file, line and field) and the rest is imported; a file with no usable line changes nothing.
    """
    check_repo_name(repo)
    store.open_for_writing()
    state = store.read_state(repo)
    rejected: list[str] = []
    pulls = list(read_export(path, rejected, repo_life(state, datetime.now(UTC))))
    report_rejected([f"{sentence}; that line was not imported" for sentence in rejected])
    if rejected and not pulls:
        raise DigestError(
            f"{path} has no line that is a GitHub pull request object ({len(rejected)} rejected); nothing was imported."
        )
    # a repository with nothing in it would be published as an empty one
    if not pulls and state is None:
        raise DigestError(
            f"{path} holds no merged pull request; nothing was imported, and {repo} was not added to the store."
        )
    if state is not None and state.source == "sample":
        raise DigestError(f"{repo} holds the bundled sample; import into another repository name.")
    changed = store.upsert(repo, pulls)
    if state is None or state.source == "import":  # a fetched repository keeps its fetch's record
        # what an earlier fetch learned
        created_at = state.created_at if state is not None else None
        now = datetime.now(UTC)
        store.write_state(RepoState(repo, "import", fetched_at=now, created_at=created_at))
    return len(pulls), changed, len(rejected)
