"""The results of analysing a week: plain frozen dataclasses, consumed by narrative, charts and pages.

Field names follow the JSON of `repo-digest show --format json` (DESIGN.md), which is assembled
from these by `digest_plugin.report`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ..records import Pull

TYPES = ("feat", "fix", "refactor", "perf", "docs", "test", "ci", "build", "chore", "revert")
RISK_KINDS = (
    "missing-tests",
    "breaking-change",
    "dependency-upgrade",
    "security",
    "revert",
    "deprecation",
    "large-change",
    "config-change",
    "ci-change",
    "hotspot",
)


@dataclass(frozen=True)
class Classification:
    type: str | None  # one of TYPES; None when nothing says what kind of change it is
    modules: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()  # keyword topics, e.g. "npu"
    breaking: bool = False
    bot: bool = False
    reverts: int | None = None  # the PR number a revert reverts, where it can be told
    is_revert: bool = False  # the title says it reverts something (whatever its type)


@dataclass(frozen=True)
class Score:
    value: float  # 0..10, rounded to one decimal
    factors: tuple[tuple[str, float], ...]  # (factor name, points), in the order they were applied


@dataclass(frozen=True)
class AnalysedPull:
    pull: Pull
    classification: Classification
    score: Score
    key: bool
    summary: str  # plain text, one or two sentences
    risks: tuple[str, ...] = ()  # risk kinds this PR shows
    first_time: bool = False  # the author's first merged PR in the store's history


@dataclass(frozen=True)
class AuthorCount:
    login: str
    count: int
    first_time: bool = False
    bot: bool = False


@dataclass(frozen=True)
class PathCount:
    path: str
    count: int  # how many PRs of the week touched it
    pulls: tuple[int, ...] = ()


@dataclass(frozen=True)
class Risk:
    kind: str  # one of RISK_KINDS
    pulls: tuple[int, ...]
    text: str  # English sentence of why it matters; the narrative stage words it per language
    impact: str = "medium"  # "high", "medium" or "low"
    paths: tuple[str, ...] = ()  # the files it is about, where that matters (hotspot)


@dataclass(frozen=True)
class Movement:
    """A figure this week against the previous week and the trailing average."""

    current: float
    previous: float | None
    trailing_average: float | None


@dataclass(frozen=True)
class WeekStats:
    merged_count: int
    key_count: int
    average_importance: float
    additions: int
    deletions: int
    types: dict[str, int]
    modules: dict[str, int]
    labels: dict[str, int]
    authors: tuple[AuthorCount, ...]  # people, most PRs first
    bots: tuple[AuthorCount, ...]
    reviewers: dict[str, int] = field(default_factory=dict)
    hot_files: tuple[PathCount, ...] = ()
    hot_dirs: tuple[PathCount, ...] = ()
    merge_hours_median: float | None = None  # only where created_at comes from GitHub
    merge_hours_p90: float | None = None
    merged_movement: Movement | None = None
    key_movement: Movement | None = None


@dataclass(frozen=True)
class FetchInfo:
    source: str  # "github", "import", "sample"
    fetched_at: str | None
    truncated: bool


@dataclass(frozen=True)
class WeekAnalysis:
    repo: str
    week: str  # "2026-W21"
    start: date  # Monday
    end: date  # Sunday
    timezone: str
    complete: bool
    in_progress: bool
    pulls: tuple[AnalysedPull, ...]  # highest importance first
    stats: WeekStats
    risks: tuple[Risk, ...]
    fetch: FetchInfo
