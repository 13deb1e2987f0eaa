"""Which PRs are key: a bar relative to the repository's own recent weeks, with a floor (analysis/key.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.key import KEY_FLOOR, KEY_RANK, KEY_WEEKS, key_cutoff
from digest_plugin.build.cache import Memo, Stages
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import FileChange
from digest_plugin.settings import DigestSettings
from tests.conftest import make_pull

MONDAY = datetime(2026, 1, 5, 9, tzinfo=UTC)  # 2026-W02
NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
SIZES = (
    5,
    20,
    50,
    100,
    200,
    300,
    400,
    600,
    800,
    1200,
)  # importance 4.6 to 8.5: seven of ten at 6 or more


def week_of_features(week: int, copies: int = 1, first: int = 0) -> list:
    """Ten features of growing size merged in the `week`-th week after MONDAY, `copies` times over."""
    monday = MONDAY + timedelta(weeks=week)
    return [
        make_pull(
            first + 1000 * week + 100 * copy + i + 1,
            monday + timedelta(hours=i),
            f"feat: add part {i}",
            files=[
                FileChange(f"widget/m{i}.py", size, size // 10),
                FileChange(f"tests/test_m{i}.py", size // 3, 0),
            ],
        )
        for copy in range(copies)
        for i, size in enumerate(SIZES)
    ]


def analyse(pulls, threshold=None, memo=None):
    options = analysis_options(DigestSettings(key_threshold=threshold))
    return (
        analyse_repo("acme/widget", pulls, None, options, NOW, Stages(memo))
        if memo
        else analyse_repo("acme/widget", pulls, None, options, NOW)
    )


def keys(weeks) -> dict[str, list[int]]:
    return {w.week: sorted(p.pull.number for p in w.pulls if p.key) for w in weeks}


def test_the_bar_is_the_kth_best_score_of_the_week_and_the_weeks_before_never_below_the_floor():
    assert key_cutoff([9.0, 1.0], [], fixed=3.5) == 3.5  # DIGEST_KEY_THRESHOLD set: a fixed bar
    assert (
        key_cutoff([9.0] * (KEY_RANK - 1), []) == KEY_FLOOR
    )  # fewer PRs than key places: the floor
    strong = [9.0 - i / 100 for i in range(KEY_RANK + 20)]
    assert key_cutoff(strong, []) == strong[KEY_RANK - 1]
    assert (
        key_cutoff([], [strong]) == strong[KEY_RANK - 1]
    )  # the weeks before count as much as the week
    assert (
        key_cutoff([5.0] * 200, []) == KEY_FLOOR
    )  # a weak repository's best are not key for want of better
    # only the KEY_WEEKS - 1 weeks before the week are read: an older strong week sets no bar
    assert key_cutoff([], [strong, *[[]] * (KEY_WEEKS - 1)]) == KEY_FLOOR
    assert key_cutoff([], [strong, *[[]] * (KEY_WEEKS - 2)]) == strong[KEY_RANK - 1]


def test_a_busy_week_among_busy_weeks_has_fewer_key_prs_than_a_fixed_bar_gives_and_they_are_its_best():
    pulls = [p for week in range(KEY_WEEKS - 1) for p in week_of_features(week)] + week_of_features(
        KEY_WEEKS - 1, copies=3
    )
    relative, fixed = analyse(pulls)[-1], analyse(pulls, threshold=KEY_FLOOR)[-1]
    assert fixed.stats.key_count == 21  # seven of each ten
    assert (
        relative.stats.key_count == 18
    )  # the weakest three (6.1) fall below the bar of the quarter
    key = [p.score.value for p in relative.pulls if p.key]
    assert min(key) > max(p.score.value for p in relative.pulls if not p.key)
    assert min(key) > KEY_FLOOR


def test_a_quiet_repository_keeps_the_floor_as_its_bar():
    pulls = [
        p for week in range(0, 30, 3) for p in week_of_features(week)[-4:]
    ]  # four strong PRs every third week
    assert keys(analyse(pulls)) == keys(analyse(pulls, threshold=KEY_FLOOR))


def test_a_weeks_key_prs_do_not_change_when_later_weeks_come():
    earlier = [p for week in range(KEY_WEEKS) for p in week_of_features(week, copies=2)]
    later = [
        p for week in range(KEY_WEEKS, KEY_WEEKS + 4) for p in week_of_features(week, copies=4)
    ]
    before, after = keys(analyse(earlier)), keys(analyse([*earlier, *later]))
    assert {week: after[week] for week in before} == before


def test_a_remembered_week_is_taken_again_only_while_the_weeks_before_it_set_the_same_bar():
    memo = Memo("salt")
    quiet = [p for week in range(KEY_WEEKS) for p in week_of_features(week)]
    analyse(quiet, memo=memo)
    memo = Memo("salt", memo.kept())
    # the first week grows busy: the last week's bar rises, though its own PRs are the same
    busier = [*week_of_features(0, copies=5, first=50_000), *quiet]
    remembered, fresh = analyse(busier, memo=memo), analyse(busier)
    assert keys(remembered) == keys(fresh)
    assert len(keys(fresh)["2026-W13"]) < 7
