"""Time bins for trend charts and what each bin counts: weeks from the analysed week stats, and
calendar months, quarters or years from the analysed pulls when a history is too long for weeks.

Counting months from the pulls' own merge dates (in the site's timezone) keeps a month exactly the
PRs merged in it, rather than whole weeks that straddle two months.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from zoneinfo import ZoneInfo

from digest_plugin.analysis.model import AnalysedPull, WeekAnalysis

# The longest span, in bins, each unit is used for; beyond the last, years.
MOST_BINS = {"week": 26, "month": 36, "quarter": 48}


@dataclass(frozen=True)
class Bin:
    label: str  # "2026-W21", "2026-05", "2026-Q2" or "2026": the bin in tables and alt text
    tick: str  # shorter, for the axis: "W21", "05"; a second line gives the year where it changes
    start: date
    partial: bool = False  # not every PR of it can be in the history: in progress, unfetched or cut
    in_progress: bool = False
    incomplete: bool = False


@dataclass
class Tally:
    """What one bin counts. People and bots are apart; labels and modules may count a PR twice."""

    merged: int = 0
    key: int = 0
    labels: Counter = field(default_factory=Counter)
    modules: Counter = field(default_factory=Counter)
    types: Counter = field(default_factory=Counter)  # "unclassified" for PRs of no type
    people: Counter = field(default_factory=Counter)
    bots: int = 0


def tally_of_week(week: WeekAnalysis) -> Tally:
    stats = week.stats
    types = Counter(
        {name if name else "unclassified": count for name, count in stats.types.items() if count}
    )
    # Every PR has at most one type, so what the type counts miss is the unclassified PRs.
    untyped = stats.merged_count - sum(types.values())
    if untyped > 0:
        types["unclassified"] += untyped
    return Tally(
        merged=stats.merged_count,
        key=stats.key_count,
        labels=Counter({k: v for k, v in stats.labels.items() if v}),
        modules=Counter({k: v for k, v in stats.modules.items() if v}),
        types=types,
        people=Counter({a.login: a.count for a in stats.authors if a.count}),
        bots=sum(b.count for b in stats.bots),
    )


def tally_of_pulls(pulls: Iterable[AnalysedPull]) -> Tally:
    tally = Tally()
    for analysed in pulls:
        kind = analysed.classification
        tally.merged += 1
        tally.key += analysed.key
        tally.labels.update(set(kind.labels))
        tally.modules.update(set(kind.modules))
        tally.types[kind.type or "unclassified"] += 1
        if kind.bot:
            tally.bots += 1
        else:
            tally.people[analysed.pull.author.login] += 1
    return tally


def unit_for(weeks: int) -> str:
    """The finest unit that shows a history of `weeks` weeks in a readable number of bars."""
    months = weeks * 7 / 30.44
    if weeks <= MOST_BINS["week"]:
        return "week"
    if months <= MOST_BINS["month"]:
        return "month"
    if months / 3 <= MOST_BINS["quarter"]:
        return "quarter"
    return "year"


def weekly_bins(weeks: Sequence[WeekAnalysis]) -> list[tuple[Bin, Tally]]:
    bins, previous_year = [], None
    for week in weeks:
        year = week.week[:4]
        tick = week.week[5:] + (f"\n{year}" if year != previous_year else "")
        previous_year = year
        found = _bin(week.week, tick, week.start, week.in_progress, not week.complete)
        bins.append((found, tally_of_week(week)))
    return bins


def calendar_bins(history: Sequence[WeekAnalysis], unit: str) -> list[tuple[Bin, Tally]]:
    """Months, quarters or years from the first week's Monday to the last week's Sunday."""
    if not history:
        return []
    tz = ZoneInfo(history[0].timezone)
    first, last = history[0].start, history[-1].end
    starts = _bin_starts(first, last, unit)
    pulls: dict[date, list[AnalysedPull]] = {start: [] for start in starts}
    flags: dict[date, set[str]] = {start: set() for start in starts}
    for week in history:
        for analysed in week.pulls:
            pulls[_bin_start(analysed.pull.merged_at.astimezone(tz).date(), unit)].append(analysed)
        for day in (week.start, week.end):
            if week.in_progress:
                flags[_bin_start(day, unit)].add("in_progress")
            if not week.complete:
                flags[_bin_start(day, unit)].add("incomplete")
    bins, previous_year = [], None
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else _bin_start_after(start, unit)
        cut = start < first or (end - last).days > 1  # the history begins or ends inside the bin
        label, tick = _names(start, unit, start.year != previous_year)
        previous_year = start.year
        in_progress, incomplete = "in_progress" in flags[start], "incomplete" in flags[start]
        found = _bin(label, tick, start, in_progress, incomplete, cut)
        bins.append((found, tally_of_pulls(pulls[start])))
    return bins


def _bin(
    label: str, tick: str, start: date, in_progress: bool, incomplete: bool, cut: bool = False
) -> Bin:
    partial = cut or in_progress or incomplete
    return Bin(label, _starred(tick, partial), start, partial, in_progress, incomplete)


def _bin_start(day: date, unit: str) -> date:
    if unit == "month":
        return day.replace(day=1)
    if unit == "quarter":
        return date(day.year, (day.month - 1) // 3 * 3 + 1, 1)
    return date(day.year, 1, 1)


def _bin_start_after(start: date, unit: str) -> date:
    months = {"month": 1, "quarter": 3, "year": 12}[unit]
    index = start.year * 12 + start.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _bin_starts(first: date, last: date, unit: str) -> list[date]:
    starts, start = [], _bin_start(first, unit)
    while start <= last:
        starts.append(start)
        start = _bin_start_after(start, unit)
    return starts


def _names(start: date, unit: str, new_year: bool) -> tuple[str, str]:
    year = f"\n{start.year:04d}" if new_year else ""
    if unit == "month":
        return f"{start.year:04d}-{start.month:02d}", f"{start.month:02d}{year}"
    if unit == "quarter":
        quarter = f"Q{(start.month - 1) // 3 + 1}"
        return f"{start.year:04d}-{quarter}", f"{quarter}{year}"
    return f"{start.year:04d}", f"{start.year:04d}"


def _starred(tick: str, partial: bool) -> str:
    if not partial:
        return tick
    first, _newline, rest = tick.partition("\n")
    return f"{first}*" + (f"\n{rest}" if rest else "")
