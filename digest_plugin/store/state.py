"""What the store knows about one repository's history: how complete it is, and where from.

Plain frozen values beside the records (store/records.py), so that the analysis stage can ask whether a
week is complete without importing the store. `to_json`/`from_json` are the state file's format
(`{root}/{owner}/{name}/state.json`, see DESIGN.md, "The store").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from digest_plugin.store.records import CLOCK_SKEW, EARLIEST_TIME, format_time, parse_time

SCHEMA_VERSION = 1


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
    created_at: datetime | None = None  # when the repository was created on GitHub, where known

    def to_json(self) -> dict:
        data = {
            "schema": self.schema,
            "repo": self.repo,
            "source": self.source,
            "fetched_at": format_time(self.fetched_at),
            "complete_since": format_time(self.complete_since),
            "watermark": format_time(self.watermark),
            "incomplete": [w.to_json() for w in self.incomplete],
            "progress": self.progress,
        }
        if self.created_at is not None:  # written only where known: older state files stay as they were
            data["created_at"] = format_time(self.created_at)
        return data

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
            created_at=parse_time(data.get("created_at")),
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


def repo_life(state: RepoState | None, now: datetime) -> Window:
    """When a PR of the repository can have been merged: from the repository's creation (where the
    state knows it; else since pull requests exist) to the build's `now`, with a little room for
    clocks that disagree. A record outside it is damage, and would draw years of empty weeks."""
    start = state.created_at if state is not None and state.created_at is not None else EARLIEST_TIME
    return Window(min(start, now), now + CLOCK_SKEW)
