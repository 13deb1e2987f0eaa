"""Each merged PR lands in exactly one analysed week, whose bounds hold its merge time: at week
boundaries, in ISO week 53, across daylight-saving changes and far from UTC."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.publish.history import analysis_options
from digest_plugin.settings import DigestSettings, check_timezone
from digest_plugin.weeks import Week
from tests.conftest import make_pull

ZONES = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Shanghai"]
# local days around which merges are placed: DST changes in the US and the EU (spring, autumn),
# the turn of 2015 and of 2020 into their week 53, and out of it into W01
DAYS = [
    date(2025, 3, 9),
    date(2025, 3, 30),
    date(2025, 10, 26),
    date(2025, 11, 2),
    date(2015, 12, 31),
    date(2016, 1, 3),
    date(2020, 12, 31),
    date(2021, 1, 3),
]


def merges_around(zone: str) -> list[datetime]:
    """Every local hour of a day either side of each day above, and a second before and at each
    local Monday midnight near it, as UTC times."""
    tz = check_timezone(zone)
    moments = set()
    for day in DAYS:
        for hour in range(-36, 36):
            moments.add(datetime.combine(day, time(), UTC) + timedelta(hours=hour))
        monday = day - timedelta(days=day.weekday()) + timedelta(days=7)
        for midnight in (
            datetime.combine(monday, time(), tz),
            datetime.combine(monday - timedelta(days=7), time(), tz),
        ):
            moments.update(
                {midnight.astimezone(UTC), (midnight - timedelta(seconds=1)).astimezone(UTC)}
            )
    return sorted(moments)


@pytest.mark.parametrize("zone", ZONES)
def test_each_pr_is_in_exactly_one_week_and_inside_its_bounds(zone):
    tz = check_timezone(zone)
    moments = merges_around(zone)
    pulls = [make_pull(1 + i, moment) for i, moment in enumerate(moments)]
    settings = analysis_options(replace(DigestSettings(), timezone=tz))
    weeks = analyse_repo("acme/widget", pulls, None, settings, datetime(2026, 6, 1, tzinfo=UTC))
    seen = Counter(p.pull.number for w in weeks for p in w.pulls)
    assert set(seen) == {p.number for p in pulls} and set(seen.values()) == {1}
    for week in weeks:
        parsed = Week.parse(week.week)
        start, end = parsed.start(tz), parsed.end(tz)
        assert all(start <= p.pull.merged_at < end for p in week.pulls), week.week
        assert (end - start) in (timedelta(hours=167), timedelta(hours=168), timedelta(hours=169))
    ids = [w.week for w in weeks]
    assert {"2015-W53", "2016-W01", "2020-W53", "2021-W01", "2025-W10", "2025-W44"} <= set(ids)
    assert ids == sorted(ids) and len(ids) == len(set(ids))
