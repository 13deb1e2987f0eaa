"""The store: plain JSON Lines files under DIGEST_DATA_PATH, one per repository and UTC month.

Layout (see DESIGN.md): `{root}/{owner}/{name}/{YYYY-MM}.jsonl`, one pull per line sorted by
number, and `{root}/{owner}/{name}/state.json`. Every write goes to a temporary file that is
fsynced and renamed over the old one, so a kill at any moment leaves the previous file whole.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .errors import DigestError
from .records import Pull, format_time, parse_time

SCHEMA_VERSION = 1
_MONTH_FILE = re.compile(r"^\d{4}-\d{2}\.jsonl$")
_REPO_NAME = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


@dataclass(frozen=True)
class Window:
    """A span of merge times, [start, end)."""

    start: datetime
    end: datetime

    def to_json(self) -> list[str]:
        return [format_time(self.start), format_time(self.end)]

    @classmethod
    def from_json(cls, data: list[str]) -> Window:
        return cls(parse_time(data[0]), parse_time(data[1]))

    def overlaps(self, start: datetime, end: datetime) -> bool:
        return self.start < end and start < self.end


@dataclass(frozen=True)
class RepoState:
    """What the store knows about its own completeness for one repository."""

    repo: str
    source: str  # "github", "import" or "sample"; sample repositories are never fetched
    fetched_at: datetime | None = None
    complete_since: datetime | None = None  # history is complete from here ...
    watermark: datetime | None = None  # ... up to here
    incomplete: tuple[Window, ...] = ()  # windows known to be missing PRs (search cap, errors)
    progress: dict = field(default_factory=dict)  # fetcher's resumable position, opaque here
    schema: int = SCHEMA_VERSION

    def to_json(self) -> dict:
        return {
            "schema": self.schema,
            "repo": self.repo,
            "source": self.source,
            "fetched_at": format_time(self.fetched_at),
            "complete_since": format_time(self.complete_since),
            "watermark": format_time(self.watermark),
            "incomplete": [w.to_json() for w in self.incomplete],
            "progress": self.progress,
        }

    @classmethod
    def from_json(cls, data: dict) -> RepoState:
        return cls(
            repo=data["repo"],
            source=data["source"],
            fetched_at=parse_time(data.get("fetched_at")),
            complete_since=parse_time(data.get("complete_since")),
            watermark=parse_time(data.get("watermark")),
            incomplete=tuple(Window.from_json(w) for w in data.get("incomplete") or ()),
            progress=data.get("progress") or {},
            schema=int(data.get("schema", SCHEMA_VERSION)),
        )

    def is_complete(self, start: datetime, end: datetime) -> bool:
        """Whether every PR merged in [start, end) is in the store."""
        if any(w.overlaps(start, end) for w in self.incomplete):
            return False
        if self.source != "github":
            return True  # an import or the sample is complete by definition: it is all there is
        return (
            self.complete_since is not None
            and self.watermark is not None
            and self.complete_since <= start
            and end <= self.watermark
        )


def check_repo_name(repo: str) -> str:
    if not _REPO_NAME.match(repo) or ".." in repo:
        raise DigestError(f"'{repo}' is not a repository name: write it as OWNER/NAME, for example getpelican/pelican.")
    return repo


class Store:
    def __init__(self, root: Path | str):
        self.root = Path(root)

    def repo_dir(self, repo: str) -> Path:
        return self.root / check_repo_name(repo)

    def repos(self) -> list[str]:
        """Repositories that have a state file, as OWNER/NAME."""
        if not self.root.is_dir():
            return []
        return sorted(f"{p.parent.parent.name}/{p.parent.name}" for p in self.root.glob("*/*/state.json"))

    # -- pulls ------------------------------------------------------------------------------

    def read_pulls(self, repo: str) -> list[Pull]:
        """Every stored pull of a repository, sorted by merge time then number."""
        pulls = [pull for path in self._month_files(repo) for pull in _read_month(path)]
        return sorted(pulls, key=lambda p: (p.merged_at, p.number))

    def upsert(self, repo: str, pulls: Iterable[Pull]) -> int:
        """Add or replace pulls by number; returns how many records changed.

        A PR whose merged_at moved to another month (it never should, but GitHub data is GitHub
        data) is removed from its old month file.
        """
        by_month: dict[str, dict[int, Pull]] = defaultdict(dict)
        for pull in pulls:
            by_month[_month_of(pull)][pull.number] = pull
        if not by_month:
            return 0
        directory = self.repo_dir(repo)
        directory.mkdir(parents=True, exist_ok=True)
        incoming_numbers = {n for month in by_month.values() for n in month}
        changed = 0
        for path in self._month_files(repo):
            month = path.stem
            existing = {p.number: p for p in _read_month(path)}
            updated = dict(existing)
            for number in incoming_numbers & existing.keys():
                if number not in by_month.get(month, {}):
                    del updated[number]  # moved to another month
            for number, pull in by_month.pop(month, {}).items():
                updated[number] = pull
            changed += sum(1 for n, p in updated.items() if existing.get(n) != p)
            if updated != existing:
                _write_month(path, updated.values())
        for month, new in by_month.items():
            changed += len(new)
            _write_month(directory / f"{month}.jsonl", new.values())
        return changed

    def _month_files(self, repo: str) -> list[Path]:
        directory = self.repo_dir(repo)
        if not directory.is_dir():
            return []
        return sorted(p for p in directory.iterdir() if _MONTH_FILE.match(p.name))

    # -- state ------------------------------------------------------------------------------

    def read_state(self, repo: str) -> RepoState | None:
        path = self.repo_dir(repo) / "state.json"
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            state = RepoState.from_json(data)
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise DigestError(f"{path} is not a valid state file ({error}); restore it from version control or delete it to refetch.") from None
        if state.schema > SCHEMA_VERSION:
            raise DigestError(f"{path} was written by a newer repo-digest (schema {state.schema}); upgrade repo-digest to read it.")
        return state

    def forget(self, repo: str) -> None:
        """Remove a repository's state, and its folder when nothing else is in it."""
        directory = self.repo_dir(repo)
        (directory / "state.json").unlink(missing_ok=True)
        for folder in (directory, directory.parent):
            try:
                folder.rmdir()
            except OSError:
                break  # not empty, or not there: keep it

    def write_state(self, state: RepoState) -> None:
        directory = self.repo_dir(state.repo)
        directory.mkdir(parents=True, exist_ok=True)
        text = json.dumps(state.to_json(), indent=2, ensure_ascii=False) + "\n"
        atomic_write(directory / "state.json", text)


def _month_of(pull: Pull) -> str:
    return pull.merged_at.astimezone(UTC).strftime("%Y-%m")


def _read_month(path: Path) -> list[Pull]:
    pulls = []
    with path.open(encoding="utf-8") as lines:
        for line_number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                pulls.append(Pull.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError) as error:
                raise DigestError(
                    f"{path}, line {line_number}, is not a valid pull request record ({error}); "
                    "restore the file from version control or delete it and fetch again."
                ) from None
    return pulls


def _write_month(path: Path, pulls: Iterable[Pull]) -> None:
    lines = (json.dumps(p.to_json(), ensure_ascii=False, sort_keys=True) for p in sorted(pulls, key=lambda p: p.number))
    atomic_write(path, "".join(line + "\n" for line in lines))


def atomic_write(path: Path, text: str | bytes) -> None:
    """Write via a temporary file in the same folder, fsync, then rename over `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes owner-only files; the store and the site are meant to be shared
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
