"""Cutting spans of merge times into search windows under GitHub's 1,000-result cap (pure)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from digest_plugin.fetch.windows import (
    SEARCH_CAP,
    can_split,
    pack,
    parts_needed,
    search_qualifier,
    split,
    steps,
)
from digest_plugin.records.state import Window

T0 = datetime(2026, 1, 5, tzinfo=UTC)


def window(days: float, start: datetime = T0) -> Window:
    return Window(start, start + timedelta(days=days))


def test_qualifier_is_inclusive_to_the_second_before_the_end():
    assert (
        search_qualifier(window(7)) == "merged:2026-01-05T00:00:00+00:00..2026-01-11T23:59:59+00:00"
    )


def test_qualifier_is_in_utc_whatever_the_input_zone():
    from zoneinfo import ZoneInfo

    start = datetime(2026, 1, 5, 8, tzinfo=ZoneInfo("Asia/Shanghai"))  # 00:00 UTC
    assert (
        search_qualifier(Window(start, start + timedelta(hours=1)))
        == "merged:2026-01-05T00:00:00+00:00..2026-01-05T00:59:59+00:00"
    )


@given(seconds=st.integers(1, 10**8), parts=st.integers(1, 50))
def test_split_covers_the_window_exactly_with_consecutive_whole_second_parts(seconds, parts):
    whole = Window(T0, T0 + timedelta(seconds=seconds))
    pieces = split(whole, parts)
    assert pieces[0].start == whole.start and pieces[-1].end == whole.end
    assert all(a.end == b.start for a, b in itertools.pairwise(pieces))
    assert all(p.start < p.end and (p.end - p.start).microseconds == 0 for p in pieces)
    assert len(pieces) == min(parts, seconds)


def test_a_one_second_window_cannot_be_split():
    one = Window(T0, T0 + timedelta(seconds=1))
    assert not can_split(one)
    assert split(one, 5) == [one]
    assert can_split(Window(T0, T0 + timedelta(seconds=2)))


def test_parts_needed_aims_at_half_the_cap():
    assert parts_needed(1001) == 3
    assert parts_needed(2300) == 5
    assert parts_needed(10) == 2  # at least two, or splitting would not progress


def test_steps_cut_at_each_step_and_keep_the_short_tail():
    pieces = steps(window(17), timedelta(days=7))
    assert [(p.end - p.start).days for p in pieces] == [7, 7, 3]
    assert pieces[-1].end == T0 + timedelta(days=17)


def test_pack_merges_neighbours_up_to_the_cap_and_keeps_order():
    weeks = steps(window(35), timedelta(days=7))
    counted = list(zip(weeks, [400, 500, 200, 900, 0]))
    packed = pack(counted)
    assert [count for _, count in packed] == [900, 200, 900]
    assert packed[0][0] == Window(weeks[0].start, weeks[1].end)
    assert packed[2][0] == Window(weeks[3].start, weeks[4].end)  # an empty week joins its neighbour


@given(st.lists(st.integers(0, SEARCH_CAP), min_size=1, max_size=40))
def test_pack_never_exceeds_the_cap_and_loses_no_count_or_time(counts):
    pieces = steps(window(len(counts)), timedelta(days=1))
    packed = pack(list(zip(pieces, counts)))
    assert all(count <= SEARCH_CAP for _, count in packed)
    assert sum(count for _, count in packed) == sum(counts)
    assert packed[0][0].start == pieces[0].start and packed[-1][0].end == pieces[-1].end
    assert all(a.end == b.start for (a, _), (b, _) in itertools.pairwise(packed))


def test_pack_leaves_an_unsplittable_overflow_alone():
    pieces = steps(window(3), timedelta(days=1))
    packed = pack(list(zip(pieces, [10, 1500, 10])))
    assert [count for _, count in packed] == [10, 1500, 10]
