"""The issue-search query language, as far as the fetcher and the baseline use it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class SearchQuery:
    repo: str | None
    pulls_only: bool
    merged_only: bool
    merged_from: datetime | None  # inclusive
    merged_to: datetime | None  # exclusive
    descending: bool


def parse(text: str) -> SearchQuery:
    repo = None
    pulls = merged = False
    start = end = None
    descending = True  # GitHub's default is best match; newest first is near enough for a fake
    for token in text.split():
        key, _, value = token.partition(":")
        if key == "repo":
            repo = value
        elif token in ("is:pr", "type:pr"):
            pulls = True
        elif token == "is:merged":
            merged = True
        elif key == "merged":
            start, end = _range(value)
        elif key == "sort":
            descending = not value.endswith("-asc")
    return SearchQuery(repo, pulls, merged, start, end, descending)


def matches(query: SearchQuery, pull: dict) -> bool:
    if query.merged_only and not pull.get("merged_at"):
        return False
    merged = _parse_time(pull["merged_at"]) if pull.get("merged_at") else None
    if query.merged_from and (merged is None or merged < query.merged_from):
        return False
    return not (query.merged_to and (merged is None or merged >= query.merged_to))


def _range(value: str) -> tuple[datetime | None, datetime | None]:
    if ".." in value:
        low, high = value.split("..", 1)
        return _bound(low, upper=False), _bound(high, upper=True)
    for prefix in (">=", "<=", ">", "<"):
        if value.startswith(prefix):
            moment = value[len(prefix) :]
            if prefix == ">=":
                return _bound(moment, upper=False), None
            if prefix == ">":
                return _bound(moment, upper=True), None
            if prefix == "<=":
                return None, _bound(moment, upper=True)
            return None, _bound(moment, upper=False)
    return _bound(value, upper=False), _bound(value, upper=True)


def _bound(text: str, upper: bool) -> datetime | None:
    """A range end as an exclusive/inclusive instant: dates cover their whole day, times their second."""
    if text == "*":
        return None
    if _DATE.match(text):
        day = datetime.fromisoformat(text).replace(tzinfo=UTC)
        return day + timedelta(days=1) if upper else day
    moment = _parse_time(text)
    return moment + timedelta(seconds=1) if upper else moment


def _parse_time(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
