"""Fetch stage, pure part: cutting a span of merge times into search windows under the cap.

GitHub's search returns at most 1,000 results per query, whatever `issueCount` says. A window is
fetched in one search only when its count is at most the cap; larger ones are split into equal
parts (whole seconds, because `merged:` qualifiers have second resolution) and counted again.
Counted neighbours are then packed back together so that each search carries as many PRs as the
cap allows: fewer searches, fewer pages.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from digest_plugin.records.state import Window

SEARCH_CAP = 1_000  # results GitHub's search will page through
SECOND = timedelta(seconds=1)


def search_qualifier(window: Window) -> str:
    """The `merged:` qualifier for [start, end): GitHub's ranges are inclusive, to the second."""
    last = window.end - SECOND
    return f"merged:{_search_time(window.start)}..{_search_time(last)}"


def split(window: Window, parts: int) -> list[Window]:
    """`window` cut into at most `parts` consecutive windows of (nearly) equal whole seconds."""
    seconds = int((window.end - window.start).total_seconds())
    parts = max(1, min(parts, seconds))
    bounds = [window.start + timedelta(seconds=seconds * i // parts) for i in range(parts)]
    bounds.append(window.end)
    return [Window(a, b) for a, b in itertools.pairwise(bounds) if a < b]


def parts_needed(count: int, cap: int = SEARCH_CAP) -> int:
    """How many parts to cut a window of `count` results into so that each part likely fits.

    Merges are bursty, so aim at half the cap per part; a part that still overflows is split again.
    """
    return max(2, math.ceil(count / (cap / 2)))


def can_split(window: Window) -> bool:
    return window.end - window.start > SECOND


def steps(window: Window, step: timedelta) -> list[Window]:
    """`window` cut at every `step` from its start (the last part may be shorter)."""
    windows, start = [], window.start
    while start < window.end:
        end = min(start + step, window.end)
        windows.append(Window(start, end))
        start = end
    return windows


def pack(counted: Sequence[tuple[Window, int]], cap: int = SEARCH_CAP) -> list[tuple[Window, int]]:
    """Merge consecutive counted windows while their total stays within `cap`.

    Each input must already fit (count <= cap) and the windows must be consecutive in time.
    Returns the merged windows with their summed counts, in the same order.
    """
    packed: list[tuple[Window, int]] = []
    for window, count in counted:
        if packed and packed[-1][1] + count <= cap and packed[-1][0].end == window.start:
            previous, total = packed[-1]
            packed[-1] = (Window(previous.start, window.end), total + count)
        else:
            packed.append((window, count))
    return packed


def _search_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
