"""ISO weeks in the site's timezone, at year ends and across daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from digest_plugin.errors import DigestError
from digest_plugin.weeks import Week, week_of, weeks_between, weeks_in_year

ZONES = [
    "UTC",
    "Asia/Shanghai",
    "America/Los_Angeles",
    "Europe/Berlin",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Australia/Lord_Howe",
]
moments = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2060, 1, 1), timezones=st.just(UTC)
)


@given(moment=moments, zone=st.sampled_from(ZONES))
def test_a_moment_lies_inside_its_week(moment, zone):
    tz = ZoneInfo(zone)
    week = week_of(moment, tz)
    assert week.start(tz) <= moment < week.end(tz)
    assert week.start(tz).astimezone(tz).weekday() == 0
    assert week.start(tz).astimezone(tz).time().hour == 0


@given(moment=moments, zone=st.sampled_from(ZONES))
def test_week_matches_the_local_calendar(moment, zone):
    local = moment.astimezone(ZoneInfo(zone))
    week = week_of(moment, ZoneInfo(zone))
    assert (week.year, week.number) == tuple(local.isocalendar())[:2]
    assert Week.parse(str(week)) == week


@given(day=st.dates(min_value=date(1990, 1, 1), max_value=date(2060, 1, 1)))
def test_consecutive_weeks_tile_time(day):
    week = Week(*tuple(day.isocalendar())[:2])
    assert week.next().previous() == week
    assert week.next().monday - week.monday == timedelta(days=7)
    assert week < week.next()


def test_year_ends():
    assert str(week_of(datetime(2021, 1, 3, 12, tzinfo=UTC), UTC)) == "2020-W53"
    assert (
        str(week_of(datetime(2024, 12, 30, 0, tzinfo=UTC), UTC)) == "2025-W01"
    )  # week 1 starts in December
    assert weeks_in_year(2020) == 53 and weeks_in_year(2026) == 53 and weeks_in_year(2025) == 52
    assert Week(2020, 53).next() == Week(2021, 1)
    assert [str(w) for w in weeks_between(Week(2026, 52), Week(2027, 2))] == [
        "2026-W52",
        "2026-W53",
        "2027-W01",
        "2027-W02",
    ]


def test_timezone_moves_a_merge_to_the_next_week():
    sunday_evening_utc = datetime(2026, 5, 24, 20, tzinfo=UTC)
    assert str(week_of(sunday_evening_utc, ZoneInfo("UTC"))) == "2026-W21"
    assert str(week_of(sunday_evening_utc, ZoneInfo("Asia/Shanghai"))) == "2026-W22"


def test_daylight_saving_weeks_are_167_and_169_hours():
    berlin = ZoneInfo("Europe/Berlin")
    spring, autumn = Week(2026, 13), Week(2026, 43)  # 29 March and 25 October 2026
    assert spring.end(berlin) - spring.start(berlin) == timedelta(hours=167)
    assert autumn.end(berlin) - autumn.start(berlin) == timedelta(hours=169)


@pytest.mark.parametrize(
    "text", ["2026-21", "2026-W54", "2025-W53", "2026-W00", "W21", "2026-w21x"]
)
def test_bad_week_ids_are_refused(text):
    with pytest.raises(DigestError):
        Week.parse(text)
