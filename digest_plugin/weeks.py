"""ISO 8601 weeks in the site's timezone: which week a merge belongs to, and a week's bounds.

A week runs from Monday 00:00 to the next Monday 00:00 local time, so across a daylight-saving
change it is 167 or 169 hours long. Week ids use the ISO year (`2020-W53`, `2021-W01`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from digest_plugin.errors import DigestError

_WEEK_ID = re.compile(r"^(\d{4})-W(\d{2})$")


@dataclass(frozen=True, order=True)
class Week:
    year: int
    number: int

    def __str__(self) -> str:
        return f"{self.year:04d}-W{self.number:02d}"

    @classmethod
    def parse(cls, text: str) -> Week:
        match = _WEEK_ID.match(text.strip())
        if not match:
            raise DigestError(
                f"'{text}' is not a week: write it as YYYY-Www, for example 2026-W21."
            )
        year, number = int(match[1]), int(match[2])
        # the calendar's own range, less a year's room for the weeks around a date
        if not 1 <= year <= 9998:
            raise DigestError(f"'{text}' is not a week: its year is outside 0001 to 9998.")
        if not 1 <= number <= weeks_in_year(year):
            raise DigestError(
                f"{year} has no week {number}: ISO year {year} has {weeks_in_year(year)} weeks."
            )
        return cls(year, number)

    @property
    def monday(self) -> date:
        return date.fromisocalendar(self.year, self.number, 1)

    @property
    def sunday(self) -> date:
        return self.monday + timedelta(days=6)

    def start(self, tz: tzinfo) -> datetime:
        """Monday 00:00 in `tz`, as UTC: arithmetic on aware datetimes that share a tzinfo
        ignores daylight-saving changes, so bounds are kept in UTC."""
        return datetime.combine(self.monday, time(), tz).astimezone(UTC)

    def end(self, tz: tzinfo) -> datetime:
        """The exclusive end: the next Monday at 00:00 local time."""
        return self.next().start(tz)

    def next(self) -> Week:
        return week_of_date(self.monday + timedelta(days=7))

    def previous(self) -> Week:
        return week_of_date(self.monday - timedelta(days=7))


def week_of_date(day: date) -> Week:
    iso = day.isocalendar()
    return Week(iso.year, iso.week)


def week_of(moment: datetime, tz: tzinfo) -> Week:
    """The week an aware datetime (a PR's merged_at) falls in, seen from timezone `tz`."""
    return week_of_date(moment.astimezone(tz).date())


def weeks_between(first: Week, last: Week) -> list[Week]:
    """Every week from `first` to `last` inclusive, quiet ones too."""
    weeks, week = [], first
    while week <= last:
        weeks.append(week)
        week = week.next()
    return weeks


def weeks_in_year(year: int) -> int:
    return date(year, 12, 28).isocalendar().week
