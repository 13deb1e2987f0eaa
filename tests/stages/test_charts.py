"""Chart data: which series a week page and a repository page get, their numbers, alt text,
tables and the site-wide palette; on hand-made weeks, and on real verl weeks when the analysis
stage and ../shared/data are there."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from digest_plugin.analysis.claims import type_speaks
from digest_plugin.analysis.model import (
    AnalysedPull,
    AuthorCount,
    Classification,
    FetchInfo,
    Score,
    WeekAnalysis,
    WeekStats,
)
from digest_plugin.charts import Palette, pixel_size, repo_charts, site_palette, week_charts
from digest_plugin.charts.draw import CSS_DPI, DARK_INK, FONT_SIZE, INK, PNG_BACKGROUND
from digest_plugin.charts.palette import FIXED, PAGE_BACKGROUNDS, SLOTS, TYPE_STYLES
from digest_plugin.records.pull import Author, Pull
from digest_plugin.weeks import Week

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def week(
    week_id: str,
    *,
    modules=None,
    labels=None,
    types=None,
    authors=(),
    bots=(),
    key=0,
    complete=True,
    in_progress=False,
    pulls=(),
    repo="o/r",
) -> WeekAnalysis:
    """A week whose stats are exactly the given counts; merged_count is the authors' and bots' sum."""
    people = tuple(AuthorCount(login, count) for login, count in authors)
    robots = tuple(AuthorCount(login, count, bot=True) for login, count in bots)
    merged = sum(a.count for a in people + robots)
    stats = WeekStats(
        merged,
        key,
        0.0,
        0,
        0,
        dict(types or {}),
        dict(modules or {}),
        dict(labels or {}),
        people,
        robots,
    )
    w = Week.parse(week_id)
    return WeekAnalysis(
        repo,
        week_id,
        w.monday,
        w.sunday,
        "UTC",
        complete,
        in_progress,
        tuple(pulls),
        stats,
        (),
        FetchInfo("import", None, False),
    )


def quiet_weeks(first: str, count: int, repo="o/r") -> list[WeekAnalysis]:
    weeks, w = [], Week.parse(first)
    for _ in range(count):
        weeks.append(week(str(w), repo=repo))
        w = w.next()
    return weeks


def by_name(charts):
    return {chart.name: chart for chart in charts}


def values(chart) -> dict[str, tuple]:
    return {series.name: series.values for series in chart.series}


def mark(text: str) -> str:
    """A translation that shows which strings went through the catalogue."""
    return f"«{text}»"


# --- week pages ---------------------------------------------------------------------------------


def test_week_page_gets_module_author_and_activity_trends_over_the_trailing_weeks():
    history = [
        week("2026-W18", modules={"trainer": 1}, authors=[("alice", 1)]),
        week("2026-W19", modules={"trainer": 2, "docs": 1}, authors=[("alice", 2)], key=1),
        week("2026-W20", modules={"rollout": 3}, authors=[("bob", 3)]),
        week(
            "2026-W21",
            modules={"trainer": 1, "rollout": 1},
            authors=[("alice", 1), ("bob", 1)],
            key=2,
        ),
        week(
            "2026-W22", modules={"docs": 9}, authors=[("carol", 9)]
        ),  # after the page's week: ignored
    ]
    charts = by_name(week_charts(history[3], history, 3, Palette(), str))

    assert list(charts) == [
        "modules-trend",
        "authors-trend",
        "activity-trend",
    ]  # no labels anywhere: no label chart
    modules = charts["modules-trend"]
    assert [t.split("\n")[0] for t in modules.ticks] == ["W19", "W20", "W21"]
    assert values(modules) == {"trainer": (2, 0, 1), "rollout": (0, 3, 1), "docs": (1, 0, 0)}
    assert modules.marked == 2
    assert modules.stacked
    activity = values(charts["activity-trend"])
    assert activity["merged"] == (2, 3, 2)
    assert activity["key"] == (1, 0, 2)


def test_labels_and_modules_each_get_a_chart_where_there_are_any():
    history = [week("2026-W21", labels={"bug": 2}, modules={"core": 1}, authors=[("a", 2)])]
    assert [c.name for c in week_charts(history[0], history, 12, Palette(), str)] == [
        "labels-trend",
        "modules-trend",
        "authors-trend",
        "activity-trend",
    ]


def test_beyond_the_top_six_modules_the_rest_are_other():
    counts = {"m1": 9, "m2": 8, "m3": 7, "m4": 6, "m5": 5, "m6": 4, "m7": 3, "m8": 2}
    history = [
        week("2026-W20", modules={"m8": 5}, authors=[("a", 5)]),
        week("2026-W21", modules=counts, authors=[("a", 9)]),
    ]
    chart = by_name(week_charts(history[1], history, 12, Palette(), str))["modules-trend"]
    # Over both weeks m8 has 7 (tied with m3, after it by name): in the top six, largest first;
    # m6 (4) and m7 (3) are "other".
    assert [s.name for s in chart.series] == ["m1", "m2", "m3", "m8", "m4", "m5", "other"]
    assert values(chart)["other"] == (0, 4 + 3)
    assert values(chart)["m8"] == (5, 2)


def test_a_single_leftover_module_is_drawn_by_name_rather_than_as_other():
    counts = {f"m{i}": 10 - i for i in range(1, 8)}  # seven modules: the seventh needs no "other"
    history = [week("2026-W21", modules=counts, authors=[("a", 9)])]
    chart = by_name(week_charts(history[0], history, 12, Palette(), str))["modules-trend"]
    assert [s.name for s in chart.series] == [f"m{i}" for i in range(1, 8)]


def test_author_trend_follows_this_weeks_top_authors_with_other_people_and_bots_apart():
    history = [
        week("2026-W19", authors=[("zoe", 4), ("ann", 1)], bots=[("dependabot[bot]", 2)]),
        week(
            "2026-W20",
            authors=[("ann", 2), ("bea", 1), ("cat", 1), ("dan", 1), ("eve", 1), ("fay", 1)],
        ),
        week(
            "2026-W21",
            authors=[("ann", 3), ("bea", 2), ("cat", 2), ("dan", 1), ("eve", 1), ("fay", 1)],
            bots=[("renovate[bot]", 1)],
        ),
    ]
    chart = by_name(week_charts(history[2], history, 12, Palette(), str))["authors-trend"]
    # The five of W21, most PRs first and ties by login; fay (tied with dan and eve) is sixth.
    assert [s.name for s in chart.series] == [
        "ann",
        "bea",
        "cat",
        "dan",
        "eve",
        "other people",
        "bots",
    ]
    assert values(chart)["ann"] == (1, 2, 3)
    assert values(chart)["other people"] == (4, 1, 1)  # zoe's 4, then fay's
    assert values(chart)["bots"] == (2, 0, 1)
    for index, w in enumerate(
        history
    ):  # each PR has one author: the stack is the week's merged count
        assert sum(s.values[index] for s in chart.series) == w.stats.merged_count


def test_a_quiet_week_has_no_author_chart_but_still_an_activity_chart():
    history = [week("2026-W20", authors=[("a", 2)]), week("2026-W21")]
    charts = by_name(week_charts(history[1], history, 12, Palette(), str))
    assert "authors-trend" not in charts
    assert values(charts["activity-trend"])["merged"] == (2, 0)


def test_trailing_average_uses_the_weeks_before_the_window():
    counts = [4, 8, 0, 2, 6, 10]  # W16..W21
    history = [
        week(f"2026-W{16 + i:02d}", authors=[("a", n)] if n else ()) for i, n in enumerate(counts)
    ]
    chart = by_name(week_charts(history[-1], history, 3, Palette(), str))["activity-trend"]
    average = values(chart)["4-week trailing average"]
    assert average == ((8 + 0 + 2 + 4) / 4, (0 + 2 + 6 + 8) / 4, (2 + 6 + 10 + 0) / 4)
    # Without four weeks of history there is no average, rather than one of fewer weeks.
    short = by_name(week_charts(history[2], history, 3, Palette(), str))["activity-trend"]
    assert values(short)["4-week trailing average"] == (None, None, None)
    assert "–" in short.table.rows[0]


def test_the_window_never_reaches_before_the_history():
    history = [week("2026-W20", authors=[("a", 1)]), week("2026-W21", authors=[("a", 1)])]
    chart = by_name(week_charts(history[1], history, 12, Palette(), str))["activity-trend"]
    assert chart.bins == 2


def test_in_progress_and_unfetched_weeks_are_starred_and_explained():
    history = [
        week("2026-W20", authors=[("a", 1)], complete=False),
        week("2026-W21", authors=[("a", 1)], in_progress=True),
    ]
    chart = by_name(week_charts(history[1], history, 12, Palette(), str))["activity-trend"]
    assert [t.split("\n")[0] for t in chart.ticks] == ["W20*", "W21*"]
    assert [row[0] for row in chart.table.rows[:2]] == ["2026-W20*", "2026-W21*"]
    assert "Still in progress: 2026-W21." in " ".join(chart.notes)
    assert "numbers may be low: 2026-W20." in " ".join(chart.notes)
    assert all(note in chart.alt for note in chart.notes)


def test_the_year_is_shown_where_it_changes():
    history = [
        week(w, authors=[("a", 1)]) for w in ("2025-W51", "2025-W52", "2026-W01", "2026-W02")
    ]
    chart = by_name(week_charts(history[-1], history, 12, Palette(), str))["activity-trend"]
    assert chart.ticks == ("W51\n2025", "W52", "W01\n2026", "W02")


# --- alt text and tables -------------------------------------------------------------------------


def test_alt_text_states_the_totals_and_the_highlighted_week():
    history = [
        week("2026-W20", modules={"trainer": 2, "docs": 1}, authors=[("a", 3)]),
        week("2026-W21", modules={"trainer": 3, "rollout": 4}, authors=[("a", 6)]),
    ]
    chart = by_name(week_charts(history[1], history, 12, Palette(), str))["modules-trend"]
    assert "stacked bars per week, 2026-W20 to 2026-W21." in chart.alt
    assert "Totals: trainer: 5, rollout: 4, docs: 1." in chart.alt
    assert "2026-W21, highlighted: trainer: 3, rollout: 4, docs: 0." in chart.alt


def test_activity_alt_text_lists_every_week():
    history = [
        week(f"2026-W{w}", authors=[("a", n)], key=k)
        for w, n, k in (("19", 5, 1), ("20", 7, 0), ("21", 2, 2))
    ]
    chart = by_name(week_charts(history[-1], history, 12, Palette(), str))["activity-trend"]
    assert "merged: 5, 7, 2." in chart.alt
    assert "key: 1, 0, 2." in chart.alt


def test_alt_text_numbers_agree_with_the_series():
    history = [
        week(
            f"2026-W{10 + i:02d}", modules={"a": i, "b": 2 * i % 5, "c": 1}, authors=[("x", i + 1)]
        )
        for i in range(10)
    ]
    for chart in week_charts(history[-1], history, 12, Palette(), str):
        if not chart.stacked:
            continue
        totals = dict(re.findall(r"([^,:]+): (\d+)", chart.alt.split("Totals: ")[1].split(".")[0]))
        assert {name.strip(): int(n) for name, n in totals.items()} == {
            s.name: sum(s.values) for s in chart.series
        }


def test_table_has_a_row_per_week_and_a_total_row():
    history = [
        week("2026-W20", modules={"a": 2}, authors=[("x", 2)]),
        week("2026-W21", modules={"a": 1, "b": 1}, authors=[("x", 1)]),
    ]
    chart = by_name(week_charts(history[1], history, 12, Palette(), str))["modules-trend"]
    assert chart.table.headers == ("Week", "a", "b")
    assert chart.table.rows == (("2026-W20", "2", "0"), ("2026-W21", "1", "1"), ("Total", "3", "1"))


def test_every_visible_word_goes_through_the_translation():
    history = [
        week(
            f"2026-W{w}",
            labels={"bug": 1},
            modules={"m": 1},
            authors=[("ann", 1)],
            bots=[("bot", 1)],
        )
        for w in ("20", "21")
    ]
    history.append(
        week(
            "2026-W22", labels={"bug": 1}, modules={"m": 1}, authors=[("ann", 2)], in_progress=True
        )
    )
    words = re.compile(r"[A-Za-z]{3,}")
    names = {"bug", "ann", "m"}
    for chart in week_charts(history[-1], history, 12, Palette(), mark):
        for text in (chart.title, chart.x_label, chart.y_label, *chart.table.headers[:1]):
            assert text.startswith("«"), text
        for s in chart.series:
            assert s.name in names or "«" in s.name
        untranslated = [
            w for w in words.findall(re.sub(r"«[^»]*»", "", chart.alt)) if w not in names
        ]
        assert untranslated == [], chart.alt


# --- repository pages ----------------------------------------------------------------------------


def pull(
    number: int, merged_at: datetime, login: str, *, modules=(), type_=None, key=False, bot=False
) -> AnalysedPull:
    record = Pull(
        number,
        f"PR {number}",
        f"https://github.com/o/r/pull/{number}",
        Author(login, "Bot" if bot else "User"),
        merged_at,
    )
    return AnalysedPull(
        record, Classification(type_, modules=tuple(modules), bot=bot), Score(0.0, ()), key, ""
    )


def weeks_with_pulls(first: str, pulls_by_week: list[list[AnalysedPull]]) -> list[WeekAnalysis]:
    history, w = [], Week.parse(first)
    for pulls in pulls_by_week:
        people = {}
        for p in pulls:
            if not p.classification.bot:
                people[p.pull.author.login] = people.get(p.pull.author.login, 0) + 1
        history.append(
            week(
                str(w),
                authors=sorted(people.items()),
                bots=[("bot", sum(p.classification.bot for p in pulls))],
                pulls=pulls,
                key=sum(p.key for p in pulls),
            )
        )
        w = w.next()
    return history


def test_a_short_history_is_charted_by_week_with_a_breakdown_by_type():
    history = [
        week("2026-W20", modules={"a": 1}, types={"feat": 1, "fix": 2}, authors=[("x", 4)]),
        week("2026-W21", modules={"a": 2}, types={"fix": 1}, authors=[("x", 1)]),
    ]
    charts = by_name(repo_charts(history, Palette(), str))
    # W20 has 4 PRs of which 3 typed: one is unclassified. A type whose claim does not speak
    # (analysis/claims.py) is not drawn by its name; when no kind may be said there is no chart.
    if not (type_speaks("feat") or type_speaks("fix")):
        assert list(charts) == ["modules-history", "authors-history", "activity-history"]
        return
    assert list(charts) == [
        "modules-history",
        "authors-history",
        "activity-history",
        "types-history",
    ]
    types = charts["types-history"]
    if type_speaks("feat") and type_speaks("fix"):
        assert values(types) == {"feat": (1, 0), "fix": (2, 1), "unclassified": (1, 0)}
    assert types.marked is None


def test_a_long_history_is_charted_by_calendar_month_from_the_pulls_merge_dates():
    # 30 weeks from Monday 2026-01-05; one PR each Sunday at 23:00 UTC, so PRs fall in the month of that Sunday.
    start = datetime(2026, 1, 11, 23, 0, tzinfo=UTC)
    pulls_by_week = [
        [
            pull(
                i + 1,
                start + timedelta(weeks=i),
                "ann" if i % 3 else "bob",
                modules=("core",),
                type_="fix",
                key=i % 2 == 0,
            )
        ]
        for i in range(30)
    ]
    history = weeks_with_pulls("2026-W02", pulls_by_week)
    charts = by_name(repo_charts(history, Palette(), str))
    activity = charts["activity-history"]
    assert activity.x_label == "Month"
    months = [row[0] for row in activity.table.rows[:-1]]
    # The history runs from Monday 2026-01-05 to Sunday 2026-08-02: both ends are partly covered.
    assert months == [
        "2026-01*",
        "2026-02",
        "2026-03",
        "2026-04",
        "2026-05",
        "2026-06",
        "2026-07",
        "2026-08*",
    ]
    sundays = [(start + timedelta(weeks=i)).date() for i in range(30)]
    expected = [sum(1 for d in sundays if d.month == m) for m in range(1, 9)]
    assert values(activity)["merged"] == tuple(expected)
    assert sum(values(charts["authors-history"])["ann"]) == sum(1 for i in range(30) if i % 3)
    assert "Only partly covered by the history: 2026-01, 2026-08." in activity.alt


def test_monthly_bins_use_the_sites_timezone():
    # Merged Sunday 2026-05-31 at 23:30 UTC is Monday 1 June in Shanghai.
    moment = datetime(2026, 5, 31, 23, 30, tzinfo=UTC)
    history = weeks_with_pulls("2026-W01", [[] for _ in range(30)])
    history = [replace(w, timezone="Asia/Shanghai") for w in history]
    history[22] = replace(history[22], pulls=(pull(1, moment, "ann"),))
    activity = by_name(repo_charts(history, Palette(), str))["activity-history"]
    rows = {row[0]: row[1] for row in activity.table.rows}
    assert rows["2026-06"] == "1" and rows["2026-05"] == "0"


# --- palette -------------------------------------------------------------------------------------


def site(repo: str, first: str) -> list[WeekAnalysis]:
    history, w = [], Week.parse(first)
    people = ["ann", "bea", "cat", "dan", "eve", "fay", "gus", "hal"]
    for i in range(20):
        modules = {f"m{(i + j) % 9}": j + 1 for j in range(4)}
        history.append(
            week(
                str(w),
                modules=modules,
                authors=[(people[(i + j) % 8], j + 1) for j in range(5)],
                repo=repo,
            )
        )
        w = w.next()
    return history


def test_palette_gives_one_name_one_style_and_keeps_series_of_a_chart_apart():
    histories = [site("o/one", "2026-W01"), site("o/two", "2026-W05")]
    palette = site_palette(histories, 12)
    seen = {}
    for history in histories:
        charts = repo_charts(history, palette, str)
        for _index, w in enumerate(history):
            charts += week_charts(w, history, 12, palette, str)
        for chart in charts:
            styles = [s.style for s in chart.series]
            assert len(set(styles)) == len(styles), chart.name
            for s in chart.series:
                assert seen.setdefault(s.key, s.style) == s.style
    assert seen["author:ann"] == palette.style("author:ann")


def test_palette_does_not_depend_on_the_order_of_repositories():
    one, two = site("o/one", "2026-W01"), site("o/two", "2026-W05")
    assert site_palette([one, two], 12) == site_palette([two, one], 12)


def test_types_and_groupings_have_fixed_styles_on_every_site():
    assert site_palette([], 12).style("type:fix") == site_palette(
        [site("o/one", "2026-W01")], 12
    ).style("type:fix")
    assert (
        Palette().style("other").color == Palette().style("bots").color
    )  # both grey; bots are hatched
    assert Palette().style("other").hatch != Palette().style("bots").hatch


def contrast(one: str, two: str) -> float:
    """WCAG 2 contrast ratio of two "#rrggbb" colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_series_colour_stands_out_from_the_light_and_the_dark_page():
    styles = [*SLOTS, *FIXED.values(), *TYPE_STYLES.values()]
    for background in PAGE_BACKGROUNDS:
        weakest = min(styles, key=lambda style: contrast(style.color, background))
        assert contrast(weakest.color, background) >= 3, (weakest.color, background)


def test_chart_text_reads_on_the_light_and_the_dark_page_and_on_png():
    assert contrast(INK, PAGE_BACKGROUNDS[0]) >= 4.5 and contrast(INK, PNG_BACKGROUND) >= 4.5
    assert contrast(DARK_INK, PAGE_BACKGROUNDS[1]) >= 4.5


def test_the_smallest_chart_text_is_legible_on_a_phone():
    column = 390 - 2 * 16  # the theme's phone column: the viewport less 1rem on each side
    width_px, _height = pixel_size("svg")
    smallest_px = (FONT_SIZE - 1) * CSS_DPI / 72
    assert smallest_px * min(1, column / width_px) >= 11


# --- real data -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def verl_weeks():
    path = DATA / "github" / "verl-project__verl.pulls.jsonl.gz"
    if not path.exists():
        pytest.skip(f"real data not found at {path} (../shared/data is not part of the repository)")
    try:
        from digest_plugin.analysis import analyse_repo
    except ImportError:
        pytest.skip("digest_plugin.analysis.analyse_repo is not there yet")
    from digest_plugin.publish.history import analysis_options
    from digest_plugin.records.state import RepoState
    from digest_plugin.settings import DigestSettings
    from digest_plugin.store.jsonl_import import read_export

    cutoff = datetime(2026, 1, 1, tzinfo=UTC)  # half a year keeps the test fast
    pulls = [p for p in read_export(path) if p.merged_at >= cutoff]
    now = max(p.merged_at for p in pulls) + timedelta(days=1)
    return analyse_repo(
        "verl-project/verl",
        pulls,
        RepoState("verl-project/verl", "import"),
        analysis_options(DigestSettings()),
        now,
    )


@pytest.mark.realdata
@pytest.mark.realdata
def test_real_weeks_author_stacks_equal_the_merged_counts(verl_weeks):
    palette = site_palette([verl_weeks], 12)
    for index, w in enumerate(verl_weeks):
        charts = by_name(week_charts(w, verl_weeks, 12, palette, str))
        shown = verl_weeks[max(0, index - 11) : index + 1]
        assert values(charts["activity-trend"])["merged"] == tuple(
            x.stats.merged_count for x in shown
        )
        if "authors-trend" in charts:
            chart = charts["authors-trend"]
            stacks = [sum(s.values[i] for s in chart.series) for i in range(chart.bins)]
            assert stacks == [x.stats.merged_count for x in shown]


@pytest.mark.realdata
@pytest.mark.realdata
def test_real_months_add_up_to_the_weeks(verl_weeks):
    charts = by_name(repo_charts(verl_weeks, site_palette([verl_weeks], 12), str))
    activity = values(charts["activity-history"])
    assert sum(activity["merged"]) == sum(w.stats.merged_count for w in verl_weeks)
    assert sum(activity["key"]) == sum(w.stats.key_count for w in verl_weeks)
    types = charts.get("types-history")
    if types is None:  # no kind of change may be said (analysis/claims.py)
        return
    assert sum(sum(s.values) for s in types.series) == sum(w.stats.merged_count for w in verl_weeks)
    for s in types.series:
        if s.key.startswith("type:"):
            assert sum(s.values) == sum(w.stats.types.get(s.name, 0) for w in verl_weeks)


@pytest.mark.realdata
@pytest.mark.realdata
def test_real_alt_text_totals_agree_with_the_week_stats(verl_weeks):
    index = len(verl_weeks) - 3
    w = verl_weeks[index]
    shown = verl_weeks[index - 11 : index + 1]
    chart = by_name(week_charts(w, verl_weeks, 12, site_palette([verl_weeks], 12), str))[
        "modules-trend"
    ]
    stated = dict(re.findall(r"([^,:]+): (\d+)", chart.alt.split("Totals: ")[1].split(". ")[0]))
    stated = {name.strip(): int(count) for name, count in stated.items()}
    everything = sum(sum(x.stats.modules.values()) for x in shown)
    named = {
        name: sum(x.stats.modules.get(name, 0) for x in shown) for name in stated if name != "other"
    }
    assert {name: stated[name] for name in named} == named
    assert stated.get("other", 0) == everything - sum(named.values())
    highlighted = dict(
        re.findall(r"([^,:]+): (\d+)", chart.alt.split("highlighted: ")[1].split(". ")[0])
    )
    for name, count in highlighted.items():
        if name.strip() != "other":
            assert int(count) == w.stats.modules.get(name.strip(), 0)


@pytest.mark.realdata
def test_a_new_week_leaves_the_styles_of_the_weeks_before_it_nearly_always_as_they_were(verl_weeks):
    """The palette takes the weeks' keys first, oldest first, and the repository page's last: a new
    week (which may change the page's top authors and labels) restyles, and so redraws, an earlier
    chart only where it draws together two names no chart drew together before: 15 of the 708
    charts of verl's weeks before each of its last 8 new weeks, where taking the page's keys first
    restyled 101."""
    compared = restyled = 0
    for last in range(len(verl_weeks) - 8, len(verl_weeks)):
        older, newer = verl_weeks[:last], verl_weeks[: last + 1]
        before, after = site_palette([older], 12), site_palette([newer], 12)
        for w in older:
            for old, new in zip(
                week_charts(w, older, 12, before, str),
                week_charts(w, newer, 12, after, str),
                strict=True,
            ):
                compared += 1
                restyled += [s.style for s in old.series] != [s.style for s in new.series]
    assert compared > 500 and restyled <= compared * 3 // 100
