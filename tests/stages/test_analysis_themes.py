"""Themes: what a week was about, against the repository's recent weeks, found without configuration."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from digest_plugin.analysis import analyse_repo
from digest_plugin.publish.history import analysis_options
from digest_plugin.settings import DigestSettings
from digest_plugin.store.records import FileChange
from tests.conftest import make_pull

NOW = datetime(2026, 11, 30, tzinfo=UTC)
MONDAY = datetime(2026, 3, 2, 10, tzinfo=UTC)  # a Monday; ten weeks follow


def history(last_week_titles, usual=("[trainer] fix: step {n}", "[worker] feat: pool {n}", "[docs] fix: page {n}"), sizes=None):
    """Nine ordinary weeks of the same subsystems, then a last week of `last_week_titles` (with the
    lines of `sizes` in its core file, where given)."""
    pulls, number = [], 1
    for week in range(9):
        for index in range(9):
            title = usual[index % len(usual)].format(n=number)
            pulls.append(make_pull(number, MONDAY + timedelta(weeks=week, hours=index), title, files=[FileChange("widget/core.py", 10, 2)]))
            number += 1
    for index, title in enumerate(last_week_titles):
        lines = sizes[index] if sizes else 10
        pulls.append(make_pull(number, MONDAY + timedelta(weeks=9, hours=index), title.format(n=number), files=[FileChange("widget/core.py", lines, 2)]))
        number += 1
    return analyse_repo("acme/widget", pulls, None, analysis_options(DigestSettings()), NOW)


def test_a_platform_that_takes_a_third_of_the_week_is_a_theme():
    weeks = history(["[trainer] feat: NPU support for step {n}", "[worker] fix: Ascend NPU hang {n}", "[rollout] feat: NPU kernels {n}",
                     "[trainer] fix: step {n}", "[worker] feat: pool {n}", "[docs] fix: page {n}", "[trainer] fix: step {n}",
                     "[worker] feat: pool {n}", "[docs] fix: page {n}"])
    last = weeks[-1]
    themes = {t.name: t for t in last.themes}
    assert "npu" in themes  # the default `npu` topic names "NPU" and "Ascend" as one theme
    npu = themes["npu"]
    assert len(npu.pulls) == 3 and npu.share == round(3 / 9, 3) and npu.baseline_share == 0.0
    assert {"trainer", "worker", "docs"}.isdisjoint(themes)  # busy every week: no theme
    assert all("npu" in p.themes for p in last.pulls if p.pull.number in npu.pulls)


def test_a_usual_week_has_no_theme_and_subjects_with_the_same_prs_are_one_theme():
    assert history(["[trainer] fix: step {n}", "[worker] feat: pool {n}", "[docs] fix: page {n}"] * 3)[-1].themes == ()
    weeks = history(["[sglang] feat: sglang rollout {n}"] * 4 + ["[trainer] fix: step {n}", "[worker] feat: pool {n}"] * 2 + ["[docs] fix: page {n}"])
    assert [t.name for t in weeks[-1].themes] == ["sglang"]  # the scope and the title word, one theme


def test_rules_topics_name_and_merge_subjects():
    pulls = []
    for index, title in enumerate(["feat: faster MoE routing", "fix: expert parallel hang", "feat: moe gate", "fix: step", "fix: page", "fix: pool"]):
        pulls.append(make_pull(index + 1, MONDAY + timedelta(hours=index), title, files=[FileChange("widget/core.py", 10, 2)]))
    settings = analysis_options(DigestSettings.from_pelican({"DIGEST_RULES": {"topics": {"mixture-of-experts": r"\b(moe|expert\w*)\b"}}}, "."))
    (week,) = analyse_repo("acme/widget", pulls, None, settings, NOW)
    assert sorted(next(t for t in week.themes if t.name == "mixture-of-experts").pulls) == [1, 2, 3]


def test_themes_are_ranked_by_the_work_they_took_weighed_with_how_new_they_are():
    """Two new subjects of three PRs each: the one with twenty times the lines leads; and a subject
    that is the bulk of the week is a theme even when it is the bulk of every week."""
    titles = ["[cache] feat: tier {n}"] * 3 + ["[log] fix: field {n}"] * 3 + ["[trainer] fix: step {n}"] * 3
    week = history(titles, sizes=[10, 10, 10, 200, 200, 200, 10, 10, 10])[-1]
    assert [t.name for t in week.themes][:2] == ["log", "cache"]
    log, cache = week.themes[:2]
    assert log.share == cache.share and log.line_share == round(606 / (606 + 6 * 12), 3) > cache.line_share
    bulk = history(["[trainer] fix: step {n}"] * 6 + ["[cache] feat: tier {n}"] * 3, usual=("[trainer] fix: step {n}",) * 2 + ("[docs] fix: page {n}",))[-1]
    trainer = next(t for t in bulk.themes if t.name == "trainer")
    assert trainer.share > 0.6 and trainer.baseline_share > 0.5


def test_plural_and_singular_titles_are_one_subject():
    from digest_plugin.analysis.themes import singular

    assert [singular(w) for w in ("patterns", "matches", "crates", "class", "alias", "status", "analysis", "dependencies", "ty")] == [
        "pattern", "match", "crate", "class", "alias", "status", "analysis", "dependencies", "ty"]
    week = history(["[core] feat: exhaustive match patterns {n}", "[io] fix: class pattern {n}", "[api] feat: mapping patterns {n}"] * 2
                   + ["[trainer] fix: step {n}"] * 3)[-1]
    assert "pattern" in {t.name for t in week.themes}
