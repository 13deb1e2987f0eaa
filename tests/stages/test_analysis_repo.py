"""analyse_repo: which weeks, complete or not, ordered how, with exact statistics."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from digest_plugin.analysis import analyse_repo
from digest_plugin.errors import DigestError
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import Author, FileChange
from digest_plugin.records.state import RepoState, Window
from digest_plugin.settings import DigestSettings
from digest_plugin.settings import check_timezone as timezone
from tests.analysis_fixtures import by_week, real_pulls
from tests.conftest import make_pull

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
SRC = FileChange("widget/engine.py", 30, 5)
TEST = FileChange("tests/test_engine.py", 10, 0)


def analyse(pulls, state=None, now=NOW, base_path=".", **settings):
    """The weeks of `pulls` on a site whose DIGEST_* settings are `settings` (in lower case)."""
    checked = DigestSettings.from_pelican(
        {f"DIGEST_{name.upper()}": value for name, value in settings.items()}, base_path
    )
    return analyse_repo("acme/widget", pulls, state, analysis_options(checked), now)


def test_imported_weeks_run_from_first_to_last_pr_with_quiet_weeks():
    pulls = [
        make_pull(1, "2026-05-05T10:00:00Z", "feat: a", files=[SRC]),
        make_pull(2, "2026-05-27T10:00:00Z", "fix: b", files=[SRC]),
    ]
    weeks = analyse(pulls)
    assert [w.week for w in weeks] == ["2026-W19", "2026-W20", "2026-W21", "2026-W22"]
    assert [w.stats.merged_count for w in weeks] == [1, 0, 0, 1]
    assert all(w.complete and not w.in_progress for w in weeks)
    assert (weeks[1].start, weeks[1].end) == (date(2026, 5, 11), date(2026, 5, 17))
    assert weeks[0].fetch.source == "import"


def test_nothing_stored_gives_no_weeks():
    assert analyse([]) == []


def test_since_starts_later_but_movement_still_sees_the_weeks_before():
    pulls = [
        make_pull(n, f"2026-05-{d:02d}T10:00:00Z", "fix: x", files=[SRC])
        for n, d in ((1, 5), (2, 6), (3, 13), (4, 20))
    ]
    weeks = analyse(pulls, since=date(2026, 5, 18))
    assert [w.week for w in weeks] == ["2026-W21"]
    movement = weeks[0].stats.merged_movement
    assert (movement.current, movement.previous, movement.trailing_average) == (1, 1, 1.5)


def test_github_weeks_end_at_the_watermark_or_now_and_know_what_is_complete():
    pulls = [make_pull(1, "2026-05-05T10:00:00Z", "feat: a", files=[SRC])]
    state = RepoState(
        "acme/widget",
        "github",
        fetched_at=datetime(2026, 5, 28, tzinfo=UTC),
        complete_since=datetime(2026, 5, 4, tzinfo=UTC),
        watermark=datetime(2026, 5, 28, 9, tzinfo=UTC),
        incomplete=(Window(datetime(2026, 5, 12, tzinfo=UTC), datetime(2026, 5, 13, tzinfo=UTC)),),
    )
    weeks = analyse(pulls, state, now=datetime(2026, 5, 28, 10, tzinfo=UTC))
    assert [w.week for w in weeks] == ["2026-W19", "2026-W20", "2026-W21", "2026-W22"]
    assert [w.complete for w in weeks] == [True, False, True, False]
    assert [w.fetch.truncated for w in weeks] == [False, True, False, False]
    assert [w.in_progress for w in weeks] == [False, False, False, True]
    # a watermark in the future of `now` (clock skew) never dates a week in the future
    later = analyse(pulls, state, now=datetime(2026, 5, 20, tzinfo=UTC))
    assert later[-1].week == "2026-W21" and later[-1].in_progress


def test_a_watermark_on_monday_midnight_ends_the_week_before():
    pulls = [make_pull(1, "2026-05-05T10:00:00Z", "feat: a", files=[SRC])]
    state = RepoState(
        "acme/widget",
        "github",
        fetched_at=datetime(2026, 5, 25, 6, tzinfo=UTC),
        complete_since=datetime(2026, 5, 4, tzinfo=UTC),
        watermark=datetime(2026, 5, 25, tzinfo=UTC),
    )
    weeks = analyse(pulls, state)
    assert [w.week for w in weeks] == ["2026-W19", "2026-W20", "2026-W21"]
    assert all(w.complete for w in weeks)


def test_a_fetched_repository_with_no_merges_shows_its_quiet_weeks():
    state = RepoState(
        "acme/widget",
        "github",
        fetched_at=datetime(2026, 5, 25, 6, tzinfo=UTC),
        complete_since=datetime(2026, 5, 11, tzinfo=UTC),
        watermark=datetime(2026, 5, 25, tzinfo=UTC),
    )
    weeks = analyse([], state)
    assert [(w.week, w.stats.merged_count, w.complete) for w in weeks] == [
        ("2026-W20", 0, True),
        ("2026-W21", 0, True),
    ]


def test_weeks_are_cut_in_the_configured_timezone():
    sunday_night_utc = make_pull(
        1, "2026-05-17T20:00:00Z", "fix: x", files=[SRC]
    )  # Monday 04:00 in Shanghai
    assert analyse([sunday_night_utc])[0].week == "2026-W20"
    shanghai = analyse([sunday_night_utc], timezone=timezone("Asia/Shanghai"))
    assert shanghai[0].week == "2026-W21" and shanghai[0].timezone == "Asia/Shanghai"


def test_pulls_are_ordered_by_importance_then_number():
    same = [make_pull(n, "2026-05-19T10:00:00Z", "fix: same size", files=[SRC]) for n in (9, 3, 5)]
    big = make_pull(
        4,
        "2026-05-19T11:00:00Z",
        "[BREAKING] feat: big",
        files=[FileChange("widget/core.py", 800, 100), TEST],
    )
    week = analyse([*same, big])[0]
    assert [p.pull.number for p in week.pulls] == [4, 3, 5, 9]
    assert week.pulls[0].key and not week.pulls[1].key


def test_key_threshold_setting_decides_key():
    pulls = [make_pull(1, "2026-05-19T10:00:00Z", "fix: a", files=[SRC])]
    value = analyse(pulls)[0].pulls[0].score.value
    assert analyse(pulls, key_threshold=value)[0].stats.key_count == 1
    assert analyse(pulls, key_threshold=value + 0.1)[0].stats.key_count == 0


def test_first_time_contributors_use_github_association_or_enough_history():
    early = [
        make_pull(n, f"2026-01-0{n}T10:00:00Z", "fix: x", author=login, files=[SRC])
        for n, login in ((5, "alice"), (6, "bob"))
    ]
    association = make_pull(
        7,
        "2026-01-07T10:00:00Z",
        "fix: y",
        author=Author("carol", "User", "FIRST_TIME_CONTRIBUTOR"),
        files=[SRC],
    )
    newcomer = make_pull(8, "2026-04-01T10:00:00Z", "fix: z", author="dave", files=[SRC])
    returning = make_pull(9, "2026-04-02T10:00:00Z", "fix: w", author="alice", files=[SRC])
    again = make_pull(10, "2026-04-03T10:00:00Z", "fix: v", author="dave", files=[SRC])
    bot = make_pull(
        11,
        "2026-04-03T11:00:00Z",
        "Update x to v2",
        author="dependabot[bot]",
        files=[FileChange("uv.lock", 1, 1)],
    )
    member = make_pull(
        12, "2026-04-04T10:00:00Z", "fix: u", author=Author("erin", "User", "MEMBER"), files=[SRC]
    )
    contributor = make_pull(
        13,
        "2026-04-04T11:00:00Z",
        "fix: t",
        author=Author("frank", "User", "CONTRIBUTOR"),
        files=[SRC],
    )
    weeks = {
        w.week: w
        for w in analyse(
            [*early, association, newcomer, returning, again, bot, member, contributor]
        )
    }
    first = {p.pull.number: p.first_time for w in weeks.values() for p in w.pulls}
    assert first == {
        5: False,
        6: False,
        7: True,
        8: True,
        9: False,
        10: False,
        11: False,
        12: False,
        13: True,
    }
    april = weeks["2026-W14"].stats
    assert [(a.login, a.count, a.first_time) for a in april.authors] == [
        ("dave", 2, True),
        ("alice", 1, False),
        ("erin", 1, False),
        ("frank", 1, True),
    ]
    assert [(b.login, b.count, b.bot) for b in april.bots] == [("dependabot[bot]", 1, True)]


def test_time_to_merge_only_from_github_records():
    github = [
        make_pull(
            n,
            "2026-05-19T10:00:00Z",
            "fix: x",
            files=[SRC],
            created_at=datetime(2026, 5, 19, 10 - h, tzinfo=UTC),
            source="github",
        )
        for n, h in ((1, 1), (2, 2), (3, 4), (4, 9))
    ]
    stats = analyse(github)[0].stats
    assert (stats.merge_hours_median, stats.merge_hours_p90) == (3.0, 9.0)
    imported = [make_pull(5, "2026-05-19T10:00:00Z", "fix: x", files=[SRC], source="import")]
    assert analyse(imported)[0].stats.merge_hours_median is None


def test_revert_is_matched_to_the_stored_pr_by_title():
    original = make_pull(41, "2026-05-12T10:00:00Z", "feat: async rollout", files=[SRC])
    revert = make_pull(50, "2026-05-19T10:00:00Z", 'Revert "feat: async rollout"', files=[SRC])
    relanded = make_pull(60, "2026-05-26T10:00:00Z", "feat: async rollout", files=[SRC, TEST])
    week = next(w for w in analyse([original, revert, relanded]) if w.week == "2026-W21")
    pull = week.pulls[0]
    assert pull.classification.reverts == 41  # not the later re-landing of the same title
    assert dict(pull.score.factors)["revert"] > 0


def test_a_name_renamed_before_any_release_shipped_it_is_no_consequence_for_users():
    # ruff 2026-W11: #23777 added TID254 on Monday, #23847 renamed it on Tuesday, and 0.15.6
    # shipped both on Thursday: no release ever had TID254, so there is nothing users must update
    rule = FileChange("crates/linter/src/rules/lazy.rs", 200, 0)
    release = make_pull(10, "2026-03-03T10:00:00Z", "Bump 0.15.5", files=[SRC])
    added = make_pull(
        20,
        "2026-03-09T10:00:00Z",
        "Add a rule to enforce lazy imports",
        body="`TID254` enforces the use of `lazy` imports.",
        files=[rule],
    )
    renamed = make_pull(
        30,
        "2026-03-10T10:00:00Z",
        "Allow users to ban lazy imports",
        body="## Summary\n\nThis PR renames TID254 to `lazy-import-mismatch` and expands it.",
        files=[rule],
    )

    def rename_said(*pulls):
        week = next(w for w in analyse(list(pulls)) if w.week == "2026-W11")
        return next(p for p in week.pulls if p.pull.number == 30).consequences

    assert rename_said(release, added, renamed) == ()
    # shipped in between, the rename takes TID254 from users; without any release, nothing tells
    shipped = make_pull(25, "2026-03-09T18:00:00Z", "Bump 0.15.6", files=[SRC])
    for pulls in ((release, added, shipped, renamed), (added, renamed)):
        assert [(c.kind, c.old, c.new) for c in rename_said(*pulls)] == [
            ("rename", "TID254", "lazy-import-mismatch")
        ]


def test_hot_files_and_folders_count_each_pr_once():
    pulls = [
        make_pull(
            n, "2026-05-19T10:00:00Z", "fix: x", files=[SRC, FileChange("widget/util.py", 1, 1)]
        )
        for n in (1, 2)
    ]
    pulls.append(
        make_pull(3, "2026-05-19T10:00:00Z", "fix: y", files=[FileChange("widget/other.py", 1, 1)])
    )
    stats = analyse(pulls)[0].stats
    assert [(h.path, h.count, h.pulls) for h in stats.hot_files] == [
        ("widget/engine.py", 2, (1, 2)),
        ("widget/util.py", 2, (1, 2)),
    ]
    assert [(h.path, h.count) for h in stats.hot_dirs] == [("widget", 3)]


def test_rules_setting_errors_name_the_bad_key(tmp_path):
    pulls = [make_pull(1, "2026-05-19T10:00:00Z", "fix: x", files=[SRC])]
    with pytest.raises(DigestError, match=r"'paths\.modulez'"):
        analyse(pulls, rules={"paths": {"modulez": {}}})
    with pytest.raises(DigestError, match=r"'topics\.gpu'.*regular expression"):
        analyse(pulls, rules={"topics": {"gpu": "(cuda"}})
    with pytest.raises(DigestError, match=r"'keywords\.types\.feature'"):
        analyse(pulls, rules={"keywords": {"types": {"feature": "x"}}})
    (tmp_path / "rules.yaml").write_text(
        "paths:\n  modules:\n    'widget/*': core\n", encoding="utf-8"
    )
    week = analyse(pulls, rules="rules.yaml", base_path=tmp_path)[0]
    assert week.pulls[0].classification.modules == ("core",)
    with pytest.raises(DigestError, match="could not be read"):
        analyse(pulls, rules="missing.yaml", base_path=tmp_path)


@pytest.mark.realdata
def test_real_weeks_statistics_are_exact_recounts():
    pulls = real_pulls("verl-project/verl")
    weeks = analyse_repo("verl-project/verl", pulls, None, analysis_options(DigestSettings()), NOW)
    expected = {str(w): ps for w, ps in by_week(pulls).items()}
    assert [w.week for w in weeks] == sorted(
        {w.week for w in weeks}
    )  # chronological, no duplicates
    first, last = min(expected), max(expected)
    assert weeks[0].week == first and weeks[-1].week == last
    for week in weeks:
        mine = expected.get(week.week, [])
        stats = week.stats
        assert stats.merged_count == len(mine) == len(week.pulls)
        assert {p.pull.number for p in week.pulls} == {p.number for p in mine}
        assert stats.additions == sum(p.additions for p in mine)
        assert stats.deletions == sum(p.deletions for p in mine)
        assert stats.key_count == sum(1 for p in week.pulls if p.key)
        assert sum(a.count for a in (*stats.authors, *stats.bots)) == len(mine)
        assert Counter({a.login: a.count for a in (*stats.authors, *stats.bots)}) == Counter(
            p.author.login for p in mine
        )
        assert sum(stats.types.values()) <= len(mine)
        if mine:
            assert stats.average_importance == round(
                sum(p.score.value for p in week.pulls) / len(mine), 1
            )
        assert stats.merge_hours_median is None  # created_at of this export is approximate
    previous = None
    for week in weeks:
        if previous is not None:
            assert week.stats.merged_movement.previous == previous
        previous = week.stats.merged_count


def test_a_week_in_progress_is_never_complete():
    today = datetime(2026, 5, 20, 12, tzinfo=UTC)
    pulls = [make_pull(1, (today - timedelta(hours=2)).isoformat(), "fix: x", files=[SRC])]
    week = analyse(pulls, now=today)[0]
    assert week.in_progress and not week.complete


@settings(max_examples=60, deadline=None)
@given(
    moments=st.lists(
        st.datetimes(
            min_value=datetime(2020, 12, 20), max_value=datetime(2021, 3, 1), timezones=st.just(UTC)
        ),
        min_size=1,
        max_size=25,
    ),
    zone=st.sampled_from(["UTC", "Asia/Shanghai", "America/Los_Angeles", "Pacific/Kiritimati"]),
)
def test_every_pr_lands_in_exactly_one_week_of_a_contiguous_range(moments, zone):
    pulls = [make_pull(n, moment, "fix: x", files=[SRC]) for n, moment in enumerate(moments, 1)]
    weeks = analyse(pulls, timezone=timezone(zone))
    numbers = [p.pull.number for w in weeks for p in w.pulls]
    assert sorted(numbers) == list(range(1, len(pulls) + 1))
    for earlier, later in itertools.pairwise(weeks):
        assert later.start - earlier.start == timedelta(days=7)
    tz = timezone(zone)
    for week in weeks:
        assert week.start.weekday() == 0 and week.end - week.start == timedelta(days=6)
        for pull in week.pulls:
            assert week.start <= pull.pull.merged_at.astimezone(tz).date() <= week.end
