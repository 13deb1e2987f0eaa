"""The narrative of real weeks (verl 2026-W21 and W23, ruff's busiest week), in both languages."""

from __future__ import annotations

import re

import pytest

from digest_plugin.narrate import check_grounding, narrate
from digest_plugin.narrate.wording import Language
from tests.narrate_fixtures import REAL_WEEKS, english_left, real_week

pytestmark = pytest.mark.realdata
WEEKS = sorted(REAL_WEEKS)
SUMMARY_FIGURES = {
    "en": re.compile(r"^([\d,]+) PRs were merged this week \(([\d,]+) of them key\), with an average importance of (\d+\.\d)\."),
    "zh": re.compile(r"^本周共合入 ([\d,]+) 个 PR（其中 ([\d,]+) 个重点 PR），平均重要度为 (\d+\.\d)。"),
}
MOVEMENT = {
    "en": re.compile(r"That is (?:up|down) from ([\d,]+) the week before|That is (as many) as the week before"),
    "zh": re.compile(r"数量比上周（([\d,]+) 个）有所(?:增加|减少)|数量(与上周持平)"),
}
EN, ZH = Language.of("en"), Language.of("zh")


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", WEEKS)
def test_summary_figures_equal_the_analysis_and_the_pulls(name, language):
    week, previous = real_week(name)
    summary = narrate(week, previous, Language.of(language)).summary.text
    merged, key, average = SUMMARY_FIGURES[language].match(summary).groups()
    assert int(merged.replace(",", "")) == week.stats.merged_count == len(week.pulls)
    assert int(key.replace(",", "")) == week.stats.key_count == sum(p.key for p in week.pulls)
    mean = sum(p.score.value for p in week.pulls) / len(week.pulls)
    assert float(average) == pytest.approx(mean, abs=0.051) and average == f"{week.stats.average_importance:.1f}"
    before = MOVEMENT[language].search(summary)
    stated = week.stats.merged_count if before[2] else int(before[1].replace(",", ""))
    assert stated == previous[-1].stats.merged_count == len(previous[-1].pulls)


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", WEEKS)
def test_every_citation_is_a_pull_of_the_week_and_the_check_agrees(name, language):
    week, previous = real_week(name)
    narrative = narrate(week, previous, Language.of(language))
    numbers = {p.pull.number for p in week.pulls}
    for where, cited in narrative.texts():
        assert set(cited.pulls) <= numbers, where
        assert not re.search(r"\{\w+\}", cited.text), where
    assert check_grounding(week, narrative, previous) == []
    key = [p.pull.number for p in week.pulls if p.key]
    assert [c.number for c in narrative.key_changes] == key


@pytest.mark.parametrize("name", WEEKS)
def test_chinese_real_weeks_leave_no_english_but_names_titles_and_code(name):
    week, previous = real_week(name)
    narrative = narrate(week, previous, ZH)
    texts = [narrative.title, *(cited.text for _, cited in narrative.texts())]
    texts += [g.heading for g in narrative.highlights] + [r.name for r in narrative.risks] + [r.impact for r in narrative.risks]
    leftovers = [left for left in (english_left(week, t) for t in texts) if left]
    assert leftovers == []


def test_every_risk_of_the_analysis_is_told_with_all_its_pulls():
    week, previous = real_week("verl-W21")
    narrative = narrate(week, previous, EN)
    assert {(r.kind, r.pulls) for r in narrative.risks} == {(r.kind, r.pulls) for r in week.risks if r.pulls}
    for line in narrative.risks:
        assert line.sentence.text.startswith(f"{len(line.pulls)} PR")
        assert all(f"#{n}" in line.sentence.text for n in line.pulls)
