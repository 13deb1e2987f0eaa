"""What a label's or an author's page is made of (publish/site_index.py), on small stand-ins for
week pages: the page grows with the weeks, not with the PRs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from digest_plugin.publish.site_index import (
    NEWEST_PULLS,
    NEWEST_WEEKS,
    TRENDS_SIZE,
    AcrossWeeks,
    WeekPulls,
)


def across(*sizes: int) -> AcrossWeeks:
    """Weeks of that many PRs, newest first."""
    return AcrossWeeks(
        tuple(
            WeekPulls(SimpleNamespace(week=f"2026-W{40 - i}"), (None,) * n)
            for i, n in enumerate(sizes)
        ),
        "2026-W40",
    )


def test_the_newest_weeks_are_listed_whole_up_to_a_hundred_prs_and_the_newest_whatever_its_size():
    assert NEWEST_WEEKS == 4 and NEWEST_PULLS == 100
    assert [len(week.rows) for week in across(3, 5, 2, 7, 9).newest] == [3, 5, 2, 7]
    assert [len(week.rows) for week in across(60, 30, 20, 5).newest] == [60, 30]
    assert [len(week.rows) for week in across(150, 1).newest] == [150]


def test_a_trend_adds_up_the_repositories_weeks_and_runs_to_the_sites_newest_week():
    w10, w12 = SimpleNamespace(week="2026-W10"), SimpleNamespace(week="2026-W12")
    other_repo_w10 = SimpleNamespace(week="2026-W10")
    trend = AcrossWeeks(
        (WeekPulls(w12, (1,)), WeekPulls(w10, (1, 2)), WeekPulls(other_repo_w10, (1, 2, 3))),
        "2026-W14",
    ).trend
    assert (trend.first, trend.last, trend.most) == ("2026-W10", "2026-W14", 5)
    assert [bar.label for bar in trend.bars] == [
        "2026-W10: 5",
        "2026-W12: 1",
    ]  # the quiet weeks keep their place, without a bar
    slot = TRENDS_SIZE[0] / 5  # five weeks, 2026-W10 to W14
    assert trend.bars[1].x - trend.bars[0].x == pytest.approx(
        2 * slot
    )  # 2026-W11 left empty between them
