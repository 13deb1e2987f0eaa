"""What the store knows about one repository's history: how complete it is, and where from.

Plain frozen values beside the records (store/records.py), so that the analysis stage can ask whether a
week is complete without importing the store. `to_json`/`from_json` are the state file's format
(`{root}/{owner}/{name}/state.json`, see DESIGN.md, "The store").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from digest_plugin.store.records import CLOCK_SKEW, EARLIEST_TIME, format_time, parse_time

SCHEMA_VERSION = 1  # fields added since are optional, so that older readers still read newer files
SKIP_AFTER = 2  # fetches in which a PR failed the same way before it is skipped for good


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
class PullFailure:
    """A merged PR that GitHub's answers did not let the fetch read (a GraphQL error on its node that
    REST could not make up for, a value the record's gate refuses), and how many fetches in a row it
    failed the same way. Once `skipped`, its window counts as complete without it, and its week says so."""

    reason: str
    times: int = 1
    merged_at: datetime | None = None  # where known: the week whose completeness note names it

    @property
    def skipped(self) -> bool:
        return self.times >= SKIP_AFTER

    def again(self, reason: str, merged_at: datetime | None) -> PullFailure:
        """This failure seen by one more fetch: counted on if it failed the same way, else anew."""
        return PullFailure(reason, self.times + 1 if reason == self.reason else 1, merged_at or self.merged_at)

    def to_json(self) -> dict:
        return {"reason": self.reason, "times": self.times, "merged_at": format_time(self.merged_at)}

    @classmethod
    def from_json(cls, data: dict) -> PullFailure:
        return cls(str(data["reason"]), int(data["times"]), parse_time(data.get("merged_at")))


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
    failed_pulls: dict[int, PullFailure] = field(default_factory=dict)  # by PR number

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
        if self.failed_pulls:
            data["failed_pulls"] = {str(n): f.to_json() for n, f in sorted(self.failed_pulls.items())}
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
            failed_pulls={int(n): PullFailure.from_json(f) for n, f in (data.get("failed_pulls") or {}).items()},
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

    def skipped(self, start: datetime, end: datetime) -> tuple[int, ...]:
        """The PRs merged in [start, end) that are left out for good (PullFailure.skipped)."""
        return tuple(sorted(n for n, f in self.failed_pulls.items()
                            if f.skipped and f.merged_at is not None and start <= f.merged_at < end))


def repo_life(state: RepoState | None, now: datetime) -> Window:
    """When a PR of the repository can have been merged: from the repository's creation (where the
    state knows it; else since pull requests exist) to the data's own date (when it was fetched or
    imported, or the build's `now` where that is later or unknown), with a little room for clocks
    that disagree. A record outside it is damage, and would draw years of empty weeks; one merged
    after a `now` before the data's date is not (a build of a past moment leaves it out)."""
    start = state.created_at if state is not None and state.created_at is not None else EARLIEST_TIME
    end = max(now, state.fetched_at) if state is not None and state.fetched_at is not None else now
    return Window(min(start, now), end + CLOCK_SKEW)
