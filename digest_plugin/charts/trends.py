"""Chart stage, data side: which charts a week page and a repository page get, and their series.

Pure functions from analysed weeks to `Chart` values; drawing and caching are in draw.py and
render.py. A week page charts the trailing `trend_weeks` weeks up to its week (fewer where the
history is shorter; no week before the history is invented); a repository page charts its whole
history, in weeks, months, quarters or years as its length requires.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from digest_plugin.analysis.claims import type_speaks
from digest_plugin.analysis.model import TYPES, WeekAnalysis
from digest_plugin.analysis.stats import ranked
from digest_plugin.charts import alt_text as describe
from digest_plugin.charts.bins import Bin, Tally, calendar_bins, unit_for, weekly_bins
from digest_plugin.charts.chart import Chart, Series, printable
from digest_plugin.charts.palette import Palette, assign_styles

Translate = Callable[[str], str]
TOP_GROUPS = 6  # labels or modules drawn by name; the rest are "other"
TOP_AUTHORS = 5
# the trailing average of merged PRs spans this many bins, the current one included
TRAILING_BINS = 4


def week_charts(
    week: WeekAnalysis,
    history: Sequence[WeekAnalysis],
    trend_weeks: int,
    palette: Palette,
    _: Translate,
) -> list[Chart]:
    """The charts of a week page: labels and modules (each where there are any), the week's top
    authors (when it has merged PRs), and merged and key PRs with their trailing average (the one
    chart with `raster` set).

    `history` is the repository's analysed weeks in order, quiet weeks included; weeks after
    `week` are ignored, and `week` itself need not be in it."""
    before = [w for w in history if w.start < week.start]
    shown = before[max(0, len(before) - (trend_weeks - 1)) :]
    # for the first weeks' averages
    lead_in = before[: len(before) - len(shown)][-(TRAILING_BINS - 1) :]
    bins = weekly_bins([*shown, week])
    earlier = [w.stats.merged_count for w in lead_in]
    frame = _Frame(bins, "week", len(bins) - 1, palette, _)
    charts = [_groups_chart("labels", "label", frame), _groups_chart("modules", "module", frame)]
    if week.stats.merged_count:
        top = [a.login for a in week.stats.authors[:TOP_AUTHORS]]  # ranked by the statistics
        charts.append(_authors_chart(_("Pull requests of this week's top authors"), top, frame))
    # The activity chart is the week's picture outside the page (feed entry, PDF, link preview): drawn as PNG too.
    charts.append(replace(_activity_chart(earlier, frame), raster=True))
    return [replace(chart, name=f"{chart.name}-trend") for chart in charts if chart]


def repo_charts(history: Sequence[WeekAnalysis], palette: Palette, _: Translate) -> list[Chart]:
    """The charts of a repository page over its whole history: labels and modules (where there
    are any), top authors, merged and key PRs, and PRs by type."""
    if not history:
        return []
    unit = unit_for(len(history))
    bins = weekly_bins(history) if unit == "week" else calendar_bins(history, unit)
    totals: Counter[str] = Counter()
    for _bin, tally in bins:
        totals.update(tally.people)
    top = [login for login, _count in ranked(totals)[:TOP_AUTHORS]]
    frame = _Frame(bins, unit, None, palette, _)
    charts = [
        _groups_chart("labels", "label", frame),
        _groups_chart("modules", "module", frame),
        _authors_chart(_("Pull requests of the top authors"), top, frame),
        _activity_chart([], frame),
        _types_chart(frame),
    ]
    return [replace(chart, name=f"{chart.name}-history") for chart in charts if chart]


def site_palette(histories: Iterable[Sequence[WeekAnalysis]], trend_weeks: int = 12) -> Palette:
    """One style per label, module, type and author for a whole site, deterministic for the same
    histories (in any order), and with no two series of any one chart alike where possible."""
    return _palette_of(
        {
            history[0].repo: unstyled_charts(history, trend_weeks, str)
            for history in histories
            if history
        }
    )


@dataclass(frozen=True)
class RepoCharts:
    """A repository's charts: each week page's, oldest first, and its own page's."""

    weeks: list[list[Chart]]
    page: list[Chart]

    def every_chart(self) -> list[Chart]:
        """Each week's charts, oldest first, then the page's: the order the palette takes keys in.
        A new week's keys come last and leave the styles of the charts before as they were; with
        the page's first, whose top authors and labels a new week can change, a new week on a
        site of 2,600 weeks restyled (and redrew) 1,218 charts."""
        return [*(chart for charts in self.weeks for chart in charts), *self.page]


def unstyled_charts(history: Sequence[WeekAnalysis], trend_weeks: int, _: Translate) -> RepoCharts:
    """Every chart of a repository (`week_charts` and `repo_charts`), with no style yet: the site's
    palette, which `in_site_palette` gives them, is known once every repository's charts are."""
    weeks = [
        week_charts(week, history[trend_window(index, trend_weeks)], trend_weeks, Palette(), _)
        for index, week in enumerate(history)
    ]
    return RepoCharts(weeks, repo_charts(history, Palette(), _))


def trend_window(index: int, trend_weeks: int) -> slice:
    """The weeks of a history that the charts of its `index`-th week show, with their first
    average's lead-in: all that `week_charts` reads of it."""
    return slice(max(0, index + 1 - trend_weeks - (TRAILING_BINS - 1)), index + 1)


def in_site_palette(charts: Mapping[str, RepoCharts]) -> dict[str, RepoCharts]:
    """Every repository's charts in the site's palette (`site_palette`): each chart made once,
    then styled, rather than made once more for the palette alone."""
    palette = _palette_of(charts)
    return {
        name: RepoCharts(
            [[_styled(chart, palette) for chart in week] for week in repo.weeks],
            [_styled(chart, palette) for chart in repo.page],
        )
        for name, repo in charts.items()
    }


def _palette_of(charts: Mapping[str, RepoCharts]) -> Palette:
    """The styles that keep the series of every chart apart, repositories taken by name."""
    return assign_styles(
        [series.key for series in chart.series]
        for name in sorted(charts)
        for chart in charts[name].every_chart()
    )


def _styled(chart: Chart, palette: Palette) -> Chart:
    return replace(
        chart,
        series=tuple(replace(series, style=palette.style(series.key)) for series in chart.series),
    )


@dataclass(frozen=True)
class _Frame:
    """What the charts of one page share: the bins and their unit, the bin marked (a week page's
    own week), the palette of their bars, and the page's language."""

    bins: Sequence[tuple[Bin, Tally]]
    unit: str
    marked: int | None
    palette: Palette
    translate: Translate

    def bar(self, key: str, name: str, values: Sequence[int]) -> Series:
        return Series(key, printable(name), tuple(values), self.palette.style(key))


def _groups_chart(field: str, namespace: str, frame: _Frame) -> Chart | None:
    _ = frame.translate
    counts = [getattr(tally, field) for _bin, tally in frame.bins]
    totals: Counter[str] = sum(counts, Counter())
    if not totals:
        return None
    names = _top(totals, TOP_GROUPS)
    series = [frame.bar(f"{namespace}:{name}", name, [c[name] for c in counts]) for name in names]
    rest = [sum(v for k, v in c.items() if k not in names) for c in counts]
    if any(rest):
        series.append(frame.bar("other", _("other"), rest))
    if field == "labels":
        title = _("Pull requests by label")
        note = _("A pull request with several labels counts once under each.")
    else:
        title = _("Pull requests by module")
        note = _("A pull request in several modules counts once under each.")
    return _chart(field, title, series, (note,), frame)


def _authors_chart(title: str, top: Sequence[str], frame: _Frame) -> Chart | None:
    _ = frame.translate
    tallies = [tally for _bin, tally in frame.bins]
    series = [
        frame.bar(f"author:{login}", login, [t.people[login] for t in tallies]) for login in top
    ]
    others = [sum(t.people.values()) - sum(t.people[login] for login in top) for t in tallies]
    if any(others):
        series.append(frame.bar("other", _("other people"), others))
    bots = [t.bots for t in tallies]
    if any(bots):
        series.append(frame.bar("bots", _("bots"), bots))
    if not series:
        return None
    return _chart("authors", title, series, (), frame)


def _types_chart(frame: _Frame) -> Chart | None:
    _ = frame.translate
    counts = [_said_types(tally.types) for _bin, tally in frame.bins]
    present = {name for c in counts for name, n in c.items() if n}
    if not present - {"unclassified", "unsaid"}:  # no kind may be said: nothing to chart
        return None
    known = [t for t in TYPES if t in present]
    names = known + sorted(present - set(TYPES) - {"unclassified", "unsaid"})
    series = [frame.bar(f"type:{name}", name, [c[name] for c in counts]) for name in names]
    for key, name in (("unsaid", _("kind not said")), ("unclassified", _("unclassified"))):
        if key in present:
            series.append(frame.bar(key, name, [c[key] for c in counts]))
    return _chart("types", _("Pull requests by type"), series, (), frame)


def _said_types(types: Counter) -> Counter:
    """A type whose claim is imprecise (analysis/claims.py) is not drawn as such: its PRs are one
    bar, "kind not said"."""
    said: Counter[str] = Counter()
    for name, count in types.items():
        said[name if type_speaks(name) or name == "unclassified" else "unsaid"] += count
    return said


def _activity_chart(earlier: Sequence[int], frame: _Frame) -> Chart:
    _ = frame.translate
    merged = [tally.merged for _bin, tally in frame.bins]
    key = [tally.key for _bin, tally in frame.bins]
    every = [*earlier, *merged]
    offset = len(earlier)
    average = [
        sum(every[i - TRAILING_BINS + 1 : i + 1]) / TRAILING_BINS
        if i + 1 >= TRAILING_BINS
        else None
        for i in range(offset, len(every))
    ]
    own = replace(frame, palette=Palette())  # the activity chart's styles are its own
    average_name = {
        "week": _("{n}-week trailing average"),
        "month": _("{n}-month trailing average"),
        "quarter": _("{n}-quarter trailing average"),
        "year": _("{n}-year trailing average"),
    }[frame.unit].format(n=TRAILING_BINS)
    series = [
        own.bar("activity:merged", _("merged"), merged),
        own.bar("activity:key", _("key"), key),
        Series(
            "activity:average",
            average_name,
            tuple(average),
            own.palette.style("activity:average"),
            kind="line",
        ),
    ]
    title = _("Merged and key pull requests")
    return _chart("activity", title, series, (), frame, stacked=False)


def _chart(
    name: str,
    title: str,
    series: Sequence[Series],
    notes: Sequence[str],
    frame: _Frame,
    stacked: bool = True,
) -> Chart:
    """A chart of `series` over the frame's bins: stacked bars (parts of a whole) or overlaid activity."""
    _, unit, marked = frame.translate, frame.unit, frame.marked
    only_bins = [b for b, _tally in frame.bins]
    notes = (*notes, *describe.partial_notes(only_bins, unit, _))
    return Chart(
        name=name,
        title=title,
        alt=describe.chart_alt(title, unit, only_bins, series, marked, notes, stacked, _),
        x_label=describe.unit_header(unit, _),
        y_label=_("Pull requests"),
        ticks=tuple(b.tick for b in only_bins),
        series=tuple(series),
        stacked=stacked,
        table=describe.table(unit, only_bins, series, _),
        marked=marked,
        notes=tuple(notes),
    )


def _top(totals: Counter, n: int) -> list[str]:
    """The n largest by count, ties by name; all of them when only one more would be left over."""
    names = [name for name, _count in ranked(totals)]
    return names if len(names) <= n + 1 else names[:n]
