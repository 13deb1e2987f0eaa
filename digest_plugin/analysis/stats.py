"""Statistics of a week: counts, authors, hot files, time to merge, movement against past weeks.

Every figure is computed from the week's analysed pulls, exactly; nothing is estimated. Time to
merge is only given from records whose source is GitHub (records/pull.py: other sources approximate
created_at). `types` counts classified PRs only: merged_count minus its sum is the number of PRs
no rule could type.
"""

from __future__ import annotations

import math
import posixpath
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import timedelta, tzinfo

from digest_plugin.analysis.classify import is_bot
from digest_plugin.analysis.model import AnalysedPull, AuthorCount, Movement, PathCount, WeekStats
from digest_plugin.analysis.rules import Rules
from digest_plugin.records.pull import Pull
from digest_plugin.weeks import week_of

FIRST_TIME_ASSOCIATIONS = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})
KNOWN_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})  # people with a history here


def first_time_pulls(pulls: Sequence[Pull], rules: Rules, tz: tzinfo) -> frozenset[int]:
    """Numbers of PRs that are their author's first merged PR, in one pass over the store.

    GitHub's author_association decides where it is telling: FIRST_TIME_CONTRIBUTOR or
    FIRST_TIMER is a first PR; OWNER, MEMBER or COLLABORATOR is not. Otherwise (no association,
    or CONTRIBUTOR, which GitHub may report once the PR itself is merged) a PR counts as first-time
    when it is its author's first in the store *and* the store's history began at least
    `thresholds.first_time_warmup_weeks` weeks before its week: in the first weeks of a store
    everyone would look new.
    """
    ordered = sorted(pulls, key=lambda p: (p.merged_at, p.number))
    if not ordered:
        return frozenset()
    history_start = week_of(ordered[0].merged_at, tz).start(tz)
    warmup = timedelta(weeks=rules.thresholds.first_time_warmup_weeks)
    seen: set[str] = set()
    first: set[int] = set()
    for pull in ordered:
        login, association = pull.author.login, pull.author.association
        if is_bot(pull, rules) or association in KNOWN_ASSOCIATIONS:
            pass
        elif association in FIRST_TIME_ASSOCIATIONS or (
            login not in seen and week_of(pull.merged_at, tz).start(tz) - history_start >= warmup
        ):
            first.add(pull.number)
        seen.add(login)
    return frozenset(first)


def week_stats(
    pulls: Sequence[AnalysedPull],
    rules: Rules,
    previous: Sequence[tuple[int, int]] = (),
    trailing_weeks: int = 12,
) -> WeekStats:
    """The statistics of one week's analysed pulls. `previous` is (merged, key) of the weeks
    before it, oldest first, for the movement against last week and the trailing average."""
    merged = len(pulls)
    key = sum(1 for p in pulls if p.key)
    people: dict[str, list[AnalysedPull]] = defaultdict(list)
    bots: dict[str, list[AnalysedPull]] = defaultdict(list)
    for pull in pulls:
        (bots if pull.classification.bot else people)[pull.pull.author.login].append(pull)
    hot_files, hot_dirs, tooling_files, generated_files = hot_paths([p.pull for p in pulls], rules)
    hours = merge_hours([p.pull for p in pulls])
    recent = list(previous)[-trailing_weeks:]
    return WeekStats(
        merged_count=merged,
        key_count=key,
        average_importance=round(sum(p.score.value for p in pulls) / merged, 1) if merged else 0.0,
        additions=sum(p.pull.additions for p in pulls),
        deletions=sum(p.pull.deletions for p in pulls),
        **_tallies(pulls),
        authors=_author_counts(people),
        bots=_author_counts(bots),
        hot_files=hot_files,
        hot_dirs=hot_dirs,
        tooling_files=tooling_files,
        generated_files=generated_files,
        merge_hours_median=round(statistics.median(hours), 1) if hours else None,
        merge_hours_p90=percentile(hours, 90),
        merged_movement=movement(merged, [m for m, _ in recent]),
        key_movement=movement(key, [k for _, k in recent]),
    )


def _tallies(pulls: Sequence[AnalysedPull]) -> dict[str, dict[str, int]]:
    """The week's types, modules, labels and reviewers, each counted once per PR."""
    return {
        "types": _counts(p.classification.type for p in pulls if p.classification.type),
        "modules": _counts(m for p in pulls for m in p.classification.modules),
        "labels": _counts(label for p in pulls for label in p.classification.labels),
        "reviewers": _counts(r for p in pulls for r in dict.fromkeys(p.pull.reviewers)),
    }


def by_count(name, count: int) -> tuple:
    """The one order of everything ranked by a count, here and in the words and charts: most
    first, then by name regardless of case, so that ties read the same every build."""
    return (-count, str(name).casefold(), str(name))


def ranked(counts: dict) -> list[tuple]:
    """The (name, count) pairs with a count, in `by_count` order."""
    return sorted(((k, v) for k, v in counts.items() if v), key=lambda item: by_count(*item))


def _counts(values) -> dict[str, int]:
    """Counts in `by_count` order, as an ordered dict."""
    return dict(ranked(Counter(values)))


def _author_counts(groups: dict[str, list[AnalysedPull]]) -> tuple[AuthorCount, ...]:
    counts = [
        AuthorCount(
            login,
            len(group),
            any(p.first_time for p in group),
            any(p.classification.bot for p in group),
        )
        for login, group in groups.items()
    ]
    return tuple(sorted(counts, key=lambda a: by_count(a.login, a.count)))


def hot_paths(pulls: Sequence[Pull], rules: Rules) -> tuple[tuple[PathCount, ...], ...]:
    """(hot files, hot folders, tooling files, generated files) of a week, most PRs first.

    Files and folders count when at least `thresholds.hot_min_pulls` PRs changed them, at most
    `thresholds.hot_limit` of each; a folder counts each PR once, however many files it changed.
    Tooling folders (.github, .claude, ...) and generated files (lock files, snapshots, ...) are
    kept apart from the hot files and folders, and counted on their own."""
    files: dict[str, set[int]] = defaultdict(set)
    dirs: dict[str, set[int]] = defaultdict(set)
    tooling: dict[str, set[int]] = defaultdict(set)
    generated: dict[str, set[int]] = defaultdict(set)
    for pull in pulls:
        for path, kinds in zip(*rules.files_of(pull), strict=True):
            if kinds & {"tooling", "ci"}:
                tooling[path].add(pull.number)
            elif "generated" in kinds:
                generated[path].add(pull.number)
            else:
                files[path].add(pull.number)
                if folder := posixpath.dirname(path):
                    dirs[folder].add(pull.number)
    needed, limit = rules.thresholds.hot_min_pulls, rules.thresholds.hot_limit

    def top(found: dict[str, set[int]], minimum: int = needed) -> tuple[PathCount, ...]:
        hot = [
            PathCount(path, len(numbers), tuple(sorted(numbers)))
            for path, numbers in found.items()
            if len(numbers) >= minimum
        ]
        return tuple(sorted(hot, key=lambda c: by_count(c.path, c.count))[:limit])

    return top(files), top(dirs), top(tooling, 1), top(generated, 1)


def merge_hours(pulls: Sequence[Pull]) -> list[float]:
    """Hours from opening to merge, only for records whose created_at comes from GitHub."""
    return sorted(
        (p.merged_at - p.created_at).total_seconds() / 3600
        for p in pulls
        if p.source == "github" and p.created_at is not None and p.created_at <= p.merged_at
    )


def percentile(values: Sequence[float], percent: float) -> float | None:
    """The nearest-rank percentile of sorted values, rounded to 0.1; None when there are none."""
    if not values:
        return None
    rank = max(1, math.ceil(percent / 100 * len(values)))
    return round(values[rank - 1], 1)


def movement(current: float, previous: Sequence[float]) -> Movement:
    return Movement(
        current=current,
        previous=previous[-1] if previous else None,
        trailing_average=round(sum(previous) / len(previous), 1) if previous else None,
    )
