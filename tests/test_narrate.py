"""The narrative on hand-made weeks: numbers from the analysis, citations of the week's PRs, both languages."""

from __future__ import annotations

import dataclasses
import logging
import re

import pytest

from digest_plugin.i18n import translations
from digest_plugin.narrate import Cited, Narrative, check_grounding, cited_html, narrate
from digest_plugin.narrate.wording import Language
from tests.narrate_fixtures import (
    REPO_URL,
    analysed,
    bot_only_week,
    busy_week,
    english_left,
    movement_week,
    previous_week,
    quiet_week,
    week_of,
)

LANGUAGES = ("en", "zh")
CITATION = re.compile(r"#(\d+)")
EN, ZH = Language.of("en"), Language.of("zh")


def all_texts(narrative: Narrative) -> list[str]:
    texts = [cited.text for _, cited in narrative.texts()]
    texts += [g.heading for g in narrative.highlights] + [r.name for r in narrative.risks] + [r.impact for r in narrative.risks]
    return [narrative.title, *texts]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_cited_pull_is_in_the_week_and_grounding_finds_nothing(language):
    week, previous = movement_week(), [previous_week()]
    narrative = narrate(week, previous, Language.of(language))
    numbers = {101, 102, 103, 104, 105, 106}
    for where, cited in narrative.texts():
        assert set(cited.pulls) <= numbers, where
    assert check_grounding(week, narrative, previous) == []
    assert not any("{" in text or "}" in text for text in all_texts(narrative))


def test_english_summary_states_the_weeks_figures():
    narrative = narrate(busy_week(), [], EN)
    # six PRs were made for the fixture, three of them flagged key; scores 8.2 7.1 6.4 5.5 3.0 2.5 average 5.45 -> 5.5
    assert narrative.summary.text.startswith("6 PRs were merged this week (3 of them key), with an average importance of 5.5.")
    assert "The most important changes: Add *streaming* <export> support (#101), Split the reader [part 1] (#102), and" in narrative.summary.text
    assert "Main risks: large changes (#102, #101), changes without tests (#101, #106), and dependency upgrades (#105)." in narrative.summary.text
    assert narrative.summary.pulls[:3] == (101, 102, 103)


def test_chinese_summary_reads_as_chinese():
    narrative = narrate(busy_week(), [], ZH)
    assert narrative.summary.text.startswith("本周共合入 6 个 PR（其中 3 个重点 PR），平均重要度为 5.5。")
    assert "主要风险：大规模改动（#102、#101）" in narrative.summary.text


def test_chinese_has_no_english_left_but_names_titles_and_code():
    week, previous = movement_week(), [previous_week()]
    narrative = narrate(week, previous, ZH)
    for text in all_texts(narrative):
        assert english_left(week, text) is None, text


def test_week_over_week_movement_comes_from_the_analysis_or_the_week_before():
    with_movement = narrate(movement_week(), [previous_week()], EN)
    assert "That is up from 2 the week before (recent weekly average: 4.5)." in with_movement.summary.text
    without = narrate(busy_week(), [previous_week()], EN)
    assert "That is up from 2 the week before." in without.summary.text
    assert any(t.text == "3 key PRs, against 1 the week before." for t in without.trends)
    alone = narrate(busy_week(), [], EN)
    assert "week before" not in alone.summary.text


def test_a_gap_before_the_week_is_not_read_as_the_week_before():
    older = dataclasses.replace(previous_week(), week="2026-W19", start=previous_week().start.replace(day=4))
    narrative = narrate(busy_week(), [older], EN)
    assert "week before" not in narrative.summary.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_quiet_week_says_so_in_one_line(language):
    _ = translations(language).gettext
    narrative = narrate(quiet_week(), [previous_week()], Language.of(language))
    assert narrative.quiet
    assert narrative.summary.text == _("A quiet week: no pull requests were merged.")
    assert "\n" not in narrative.summary.text
    assert not (narrative.highlights or narrative.key_changes or narrative.trends or narrative.risks or narrative.recommendations)


def test_quiet_weeks_that_are_in_progress_or_incomplete_say_that_instead():
    assert narrate(quiet_week(in_progress=True), [], EN).summary.text.startswith("No pull requests have been merged so far this week")
    assert "incomplete" in narrate(quiet_week(complete=False), [], EN).summary.text
    assert narrate(quiet_week(in_progress=True), [], ZH).summary.text == "本周仍在进行中，目前还没有合入任何 PR。"


@pytest.mark.parametrize("language", LANGUAGES)
def test_incomplete_and_in_progress_weeks_say_so_in_the_summary(language):
    _ = translations(language).gettext
    incomplete = narrate(busy_week(complete=False), [], Language.of(language)).summary.text
    assert incomplete.startswith(_("The data for this week is incomplete, so some pull requests may be missing from this digest."))
    running = narrate(busy_week(in_progress=True), [], Language.of(language)).summary.text
    assert running.startswith(_("This week is still in progress: the figures cover the pull requests merged so far."))


def test_a_week_of_only_bot_pulls_says_that():
    en = narrate(bot_only_week(), [], EN)
    assert en.summary.text.startswith("Only bots merged pull requests this week: 2 PRs, by dependabot[bot] and pre-commit-ci[bot].")
    assert "most important" not in en.summary.text
    zh = narrate(bot_only_week(), [], ZH)
    assert zh.summary.text.startswith("本周只有机器人合入了 PR：共 2 个，来自 dependabot[bot]、pre-commit-ci[bot]。")


def test_highlights_are_grouped_by_kind_and_bots_only_appear_as_upgrades():
    narrative = narrate(busy_week(), [], EN)
    groups = {g.kind: g.pulls for g in narrative.highlights}
    assert groups == {"features": (101,), "upgrades": (105,), "fixes": (103,), "refactors": (102,), "performance": (106,), "docs": (104,)}
    assert narrative.highlights[0].text == "New capabilities: Add *streaming* <export> support (#101)"


def test_key_changes_are_the_key_pulls_in_order_with_size_and_score_factors():
    narrative = narrate(busy_week(), [], EN)
    assert [c.number for c in narrative.key_changes] == [101, 102, 103]
    first = narrative.key_changes[0]
    assert first.title == "[core] feat: add *streaming* <export> support"  # verbatim; renderers escape it
    assert first.summary == "Adds streaming export; see #99 for the design."
    assert first.details.text == (
        "#101 changes the module core. Size: +900 −40 lines in 2 files. "
        "Importance 8.2: kind of change +2.0, lines changed +1.25, and modules touched +4.95."
    )


def test_risks_are_ordered_by_impact_and_recommendations_cite_their_pulls():
    narrative = narrate(busy_week(), [], EN)
    assert [(r.kind, r.level, r.pulls) for r in narrative.risks] == [
        ("large-change", "high", (102, 101)),
        ("missing-tests", "medium", (101, 106)),
        ("dependency-upgrade", "low", (105,)),
    ]
    assert narrative.risks[1].sentence.text == "2 PRs changed code without changing any test: #101, #106."
    texts = {r.text: r.pulls for r in narrative.recommendations}
    assert texts["Regression-test the large refactors #102 before the next release."] == (102,)  # 102 is the refactor
    assert texts["Give the large changes #101 a second review and regression tests."] == (101,)
    assert texts["Add tests for #101, #106, which shipped without them."] == (101, 106)


def test_trends_name_modules_files_authors_and_newcomers():
    narrative = narrate(busy_week(), [previous_week()], EN)
    texts = [t.text for t in narrative.trends]
    assert "Busiest modules: core (2, up from 1), io (2, up from 1), and deps (1, none the week before)." in texts
    assert "Most-touched files: src/core.py (3 PRs: #101, #102, #106)." in texts
    assert "3 people merged PRs (against 1 the week before); the most active: alice (2) and bob (2)." in texts
    assert "First-time contributor: carol (#103)." in texts


def test_grounding_catches_a_pull_from_elsewhere_and_an_invented_number():
    week = busy_week()
    narrative = narrate(week, [], EN)
    foreign = dataclasses.replace(narrative, summary=Cited("See #4242 for more.", (4242,)))
    problems = check_grounding(week, foreign)
    assert any("#4242" in p and "not a pull request" in p for p in problems)
    uncited = dataclasses.replace(narrative, summary=Cited("#101 matters.", ()))
    assert any("does not list it" in p for p in check_grounding(week, uncited))
    invented = dataclasses.replace(narrative, summary=Cited("7 PRs were merged this week (#101).", (101,)))
    assert any("states 7" in p for p in check_grounding(week, invented))
    rounded = dataclasses.replace(narrative, summary=Cited("An average importance of 5.4 (#101).", (101,)))
    assert any("5.4" in p for p in check_grounding(week, rounded))
    placeholder = dataclasses.replace(narrative, summary=Cited("{count} PRs were merged.", ()))
    assert any("placeholder" in p for p in check_grounding(week, placeholder))


def test_grounding_ignores_numbers_and_references_inside_quoted_titles():
    week = week_of([analysed(7, "Revert #3 and pin numpy to 1.26 for 3 platforms", key=True, score=7.0)])
    narrative = narrate(week, [], EN)
    assert "Revert #3 and pin numpy to 1.26 for 3 platforms (#7)" in narrative.summary.text
    assert check_grounding(week, narrative) == []


class InventingWriter:
    name = "inventive"

    def write(self, week, previous, language):
        return Narrative(language.code, "t", Cited("A record 999 PRs, led by #4242.", (4242,)))


class HonestWriter:
    name = "honest"

    def write(self, week, previous, language):
        return Narrative(language.code, "t", Cited(f"{week.stats.merged_count} PRs; see #101.", (101,)), writer=self.name)


def test_a_plugged_in_writer_is_used_only_when_its_text_is_grounded(caplog):
    week = busy_week()
    assert narrate(week, [], EN, writer=HonestWriter()).writer == "honest"
    with caplog.at_level(logging.WARNING, logger="digest_plugin.narrate"):
        fallback = narrate(week, [], EN, writer=InventingWriter())
    assert fallback.writer == "builtin"
    assert "not grounded" in caplog.text


def test_the_same_week_gives_the_same_narrative():
    assert narrate(movement_week(), [previous_week()], ZH) == narrate(movement_week(), [previous_week()], ZH)


def test_cited_html_escapes_text_and_links_each_reference():
    html = cited_html("Fix <script>alert('x')</script> & more (#101, #102)", REPO_URL + "/")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html and "&amp; more" in html
    assert f'<a class="pr-ref" href="{REPO_URL}/pull/101">#101</a>' in html
    assert f'href="{REPO_URL}/pull/102"' in html
    assert html.count("<a ") == 2  # the escaped quote (&#39;) is not a reference


def test_cited_html_gives_no_link_for_an_address_that_is_not_the_web():
    html = cited_html("See #5", "javascript:alert(1)//")
    assert "<a" not in html and "See #5" in html


def test_a_week_in_progress_is_not_compared_with_whole_weeks():
    narrative = narrate(busy_week(in_progress=True, merged_movement=movement_week().stats.merged_movement), [previous_week()], EN)
    texts = [narrative.summary.text, *(t.text for t in narrative.trends)]
    assert not any("week before" in text for text in texts)


def test_grounding_is_not_fooled_by_names_that_are_digits():
    """A label "1" or a login "3" must not be cut out of the figures around it."""
    week = week_of([analysed(7, "Rework the parser", key=True, score=7.0, additions=819, deletions=3, labels=("1",), login="3")])
    narrative = narrate(week, [], EN)
    assert "+819" in " ".join(cited.text for _, cited in narrative.texts())
    assert check_grounding(week, narrative) == []
