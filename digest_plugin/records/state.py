"""What the store knows about one repository's history: how complete it is, and where from.

Plain frozen values beside the records (records/pull.py), so that the analysis stage can ask whether a
week is complete without importing the store. `to_json`/`from_json` are the state file's format
(`{root}/{owner}/{name}/state.json`, see docs/architecture.md, "The store").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from digest_plugin.records.pull import (
    CLOCK_SKEW,
    EARLIEST_TIME,
    RecordError,
    format_time,
    parse_time,
)

SCHEMA_VERSION = 1  # fields added since are optional, so that older readers still read newer files
SKIP_AFTER = 2  # fetches in which a PR failed the same way before it is skipped for good
STATE_SOURCES = ("github", "import", "sample")
# far enough for any arithmetic on it; a later one is repaired by the fetch
LATEST_WATERMARK = datetime(9000, 1, 1, tzinfo=UTC)


def _state_time(data: dict, name: str, latest: datetime | None = None) -> datetime | None:
    """A time field of a state file, or None where it has none. It is a time like GitHub's, no
    earlier than pull requests exist and no later than `latest` (default: now, with a day's room):
    a fetch time of year 1 or a creation in the future would hide every PR without a word."""
    value = data.get(name)
    if value is None:
        return None
    try:
        moment = parse_time(value) if isinstance(value, str) else None
    except (ValueError, OverflowError):
        moment = None
    if moment is None:
        raise RecordError(name, f"{str(value)[:40]!r} is not a time like 2026-05-18T09:00:00Z")
    latest = latest or datetime.now(UTC) + CLOCK_SKEW
    if not EARLIEST_TIME <= moment <= latest:
        raise RecordError(name, f"{value} is before {EARLIEST_TIME:%Y} or in the future")
    return moment


def _whole(value, name: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise RecordError(name, f"{str(value)[:40]!r} is not a whole number of at least {least}")
    return value


@dataclass(frozen=True)
class Window:
    """A span of merge times, [start, end)."""

    start: datetime
    end: datetime

    def to_json(self) -> list[str]:
        return [format_time(self.start), format_time(self.end)]

    @classmethod
    def from_json(cls, data: list[str], name: str = "incomplete") -> Window:
        if not isinstance(data, list) or len(data) != 2:
            raise RecordError(name, f"{str(data)[:60]!r} is not a pair of times [start, end]")
        pair = {"start": data[0], "end": data[1]}
        start = _state_time(pair, "start", LATEST_WATERMARK)
        end = _state_time(pair, "end", LATEST_WATERMARK)
        if start is None or end is None or not start < end:
            raise RecordError(
                name, f"{str(data)[:60]!r} is not a pair of times [start, end], the start first"
            )
        return cls(start, end)

    def overlaps(self, start: datetime, end: datetime) -> bool:
        return self.start < end and start < self.end

    def holds(self, other: Window) -> bool:
        return self.start <= other.start and other.end <= self.end


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
        return PullFailure(
            reason, self.times + 1 if reason == self.reason else 1, merged_at or self.merged_at
        )

    def to_json(self) -> dict:
        return {
            "reason": self.reason,
            "times": self.times,
            "merged_at": format_time(self.merged_at),
        }

    @classmethod
    def from_json(cls, data: dict, name: str = "failed_pulls") -> PullFailure:
        if not isinstance(data, dict) or not isinstance(data.get("reason"), str):
            raise RecordError(name, f"{str(data)[:60]!r} is not an object with a reason")
        return cls(
            data["reason"],
            _whole(data.get("times"), f"{name}.times", 1),
            _state_time(data, "merged_at"),
        )


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
        # written only where known: older state files stay as they were
        if self.created_at is not None:
            data["created_at"] = format_time(self.created_at)
        if self.failed_pulls:
            data["failed_pulls"] = {
                str(n): f.to_json() for n, f in sorted(self.failed_pulls.items())
            }
        return data

    @classmethod
    def from_json(cls, data: dict) -> RepoState:
        """The state a state file's JSON holds; RecordError naming the first field that cannot be read."""
        if not isinstance(data, dict):
            raise RecordError("the file", "is not a JSON object")
        if not isinstance(data.get("repo"), str):
            raise RecordError("repo", f"{str(data.get('repo'))[:60]!r} is not a repository name")
        if data.get("source") not in STATE_SOURCES:
            source = str(data.get("source"))[:40]
            raise RecordError("source", f"{source!r} is not one of {', '.join(STATE_SOURCES)}")
        progress = data.get("progress") or {}
        if not isinstance(progress, dict):
            raise RecordError("progress", f"{str(progress)[:40]!r} is not an object")
        if "since" in progress:
            _state_time(progress, "since")
        incomplete = data.get("incomplete") or []
        failed = data.get("failed_pulls") or {}
        if not isinstance(incomplete, list):
            raise RecordError("incomplete", f"{str(incomplete)[:40]!r} is not a list of windows")
        if not isinstance(failed, dict) or not all(
            isinstance(n, str) and n.isdigit() and n.isascii() for n in failed
        ):
            raise RecordError("failed_pulls", f"{str(failed)[:40]!r} is not an object by PR number")
        return cls(
            repo=data["repo"],
            source=data["source"],
            fetched_at=_state_time(data, "fetched_at"),
            complete_since=_state_time(data, "complete_since", LATEST_WATERMARK),
            watermark=_state_time(data, "watermark", LATEST_WATERMARK),
            incomplete=tuple(Window.from_json(w) for w in incomplete),
            progress=progress,
            schema=_whole(data.get("schema", SCHEMA_VERSION), "schema", 1),
            created_at=_state_time(data, "created_at"),
            failed_pulls={
                int(n): PullFailure.from_json(f, f"failed_pulls.{n}") for n, f in failed.items()
            },
        )

    def is_complete(self, start: datetime, end: datetime) -> bool:
        """Whether every PR merged in [start, end) is in the store."""
        if any(w.overlaps(start, end) for w in self.incomplete):
            return False
        if self.source != "github":
            return True  # an import or the sample is complete by definition: it is all there is
        since, watermark = self.complete_since, self.watermark
        return since is not None and watermark is not None and since <= start and end <= watermark

    def skipped(self, start: datetime, end: datetime) -> tuple[int, ...]:
        """The PRs merged in [start, end) that are left out for good (PullFailure.skipped)."""
        return tuple(
            sorted(
                n
                for n, f in self.failed_pulls.items()
                if f.skipped and f.merged_at is not None and start <= f.merged_at < end
            )
        )


def repo_life(state: RepoState | None, now: datetime) -> Window:
    """When a PR of the repository can have been merged: from the repository's creation (where the
    state knows it; else since pull requests exist) to the data's own date (when it was fetched or
    imported, or the build's `now` where that is later or unknown), with a little room for clocks
    that disagree. A record outside it is damage, and would draw years of empty weeks; one merged
    after a `now` before the data's date is not (a build of a past moment leaves it out)."""
    start = (
        state.created_at if state is not None and state.created_at is not None else EARLIEST_TIME
    )
    end = max(now, state.fetched_at) if state is not None and state.fetched_at is not None else now
    return Window(min(start, now), end + CLOCK_SKEW)
