"""The one view of a week (pure): sections in order, every figure written once and the same way."""

from __future__ import annotations

from dataclasses import replace

import pytest

from digest_plugin.analysis.claims import speaks, type_speaks
from digest_plugin.analysis.importance import scaled
from digest_plugin.analysis.model import Evidence, Footprint, Score
from digest_plugin.narrate import narrate
from digest_plugin.narrate.titles import display_title
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.markdown import render_markdown
from digest_plugin.publish.week_view import (
    FEED_SECTIONS,
    SECTION_ORDER,
    EditorNote,
    week_view,
)
from tests.chinese_share import chinese_share, narrative_texts
from tests.narrate_fixtures import REPO_URL, analysed, busy_week, previous_week, quiet_week, week_of


def view_of(week, code="en", note=None, previous=()):
    language = Language.of(code)
    return week_view(
        week, narrate(week, list(previous), language), (), language, REPO_URL, "", note
    )


def test_sections_follow_the_report_order_and_skip_empty_ones():
    view = view_of(busy_week(), previous=[previous_week()])
    assert view.sections[0] == "summary"
    assert list(view.sections) == [s for s in SECTION_ORDER if s in view.sections]
    assert {
        "highlights",
        "key_changes",
        "risks",
        "newcomers",
        "updates",
        "statistics",
        "pulls",
    } <= set(view.sections)
    assert set(view.feed_sections) <= set(FEED_SECTIONS)
    assert "statistics" not in view.feed_sections and "pulls" not in view.feed_sections


def test_a_note_comes_first_everywhere():
    note = EditorNote(
        html="<p>Release week.</p>",
        markdown="Release week.",
        source="content/notes/octo/widgets/2026-W21.md",
    )
    view = view_of(busy_week(), note=note)
    assert view.sections[0] == "note" and view.feed_sections[0] == "note"


def test_a_quiet_week_is_its_summary():
    view = view_of(quiet_week())
    assert view.sections == ("summary",)
    assert view.figures == () and view.pulls == ()


def test_importance_is_one_number_format_and_its_factors_have_true_minus_signs():
    pulls = [analysed(1, "feat: a", score=2.9, key=True, login="x")]  # factors: +2.0, +1.25, −0.35
    view = view_of(week_of(pulls))
    change = view.key_changes[0]
    assert change.importance.text == "2.9" and change.importance.percent == 29
    assert [f.points for f in change.importance.factors] == ["+2.0", "+1.25", "\u22120.35"]
    assert view.pulls[0].importance == "2.9"


def test_a_score_that_is_not_its_factors_total_says_why():
    factors = (("type", 3.0), ("size", 6.0), ("large", 5.25))  # 14.25, more than the scale holds
    bent = replace(analysed(1, "feat: a", key=True), score=Score(round(scaled(14.25), 1), factors))
    below = replace(
        analysed(2, "chore: b", key=True), score=Score(0.0, (("type", 0.5), ("bot", -1.5)))
    )
    plain = analysed(3, "feat: c", score=2.9, key=True)
    view = view_of(week_of([bent, below, plain]))
    scores = {change.ref.number: change.importance for change in view.key_changes}
    assert scores[1].text == "9.9" and scores[1].total == "+14.25"
    assert scores[1].reading == "Totals above 9 bend towards 10: a total of 14.25 scores 9.9."
    assert scores[2].total == "\u22121.0" and scores[2].reading == "A total below 0 scores 0."
    assert scores[3].total == "+2.9" and scores[3].reading == ""
    assert (
        "合计 14.25 记为 9.9 分" in view_of(week_of([bent]), "zh").key_changes[0].importance.reading
    )
    markdown = render_markdown(view, "https://example.org/w/", Language.of("en"))
    assert (
        "large change +5.25\n\n   Totals above 9 bend towards 10: a total of 14.25 scores 9.9.\n"
        in markdown
    )


def test_types_are_said_only_where_measured_and_counts_are_formatted():
    view = view_of(busy_week())
    kinds = {row.ref.number: row.kind for row in view.pulls}
    # performance and documentation: kinds no corpus measures, not said; the fixture's
    # classifications carry no author's prefix or label to show instead
    assert kinds[106] == "" and kinds[104] == ""
    if type_speaks("feat") and type_speaks("fix"):
        assert kinds[101] == "feature" and kinds[103] == "fix"
    else:  # an imprecise kind is not said either
        assert kinds[101] == "" and kinds[103] == ""
        assert "Types" not in [t.title for t in view.statistics]  # nothing to count
    for table in (*view.statistics, *view_of(busy_week(), "zh").statistics):
        assert all(isinstance(count, str) for _name, count in table.rows)


def test_newcomers_and_updates_are_their_own_sections():
    view = view_of(busy_week())
    assert [(c.login, [r.number for r in c.pulls]) for c in view.newcomers] == [("carol", [103])]
    assert [row.ref.number for row in view.updates] == [105]
    authors = next(t for t in view.statistics if t.title == "Authors")
    assert ("dependabot[bot]", "1") in authors.rows  # GitHub's suffix already says it is a bot


def test_a_pull_address_that_is_not_the_web_gives_no_link():
    pulls = [analysed(7, "fix: x", score=3.0)]
    week = week_of(pulls)
    crafted = replace(week.pulls[0].pull, url="javascript:alert(1)//pull/7")
    week = week_of([replace(week.pulls[0], pull=crafted)])
    view = view_of(week)
    assert view.pulls[0].ref.url == "" and 7 not in view.links


@pytest.mark.parametrize("language", ["en", "zh"])
def test_headings_are_in_the_sites_language(language):
    view = view_of(busy_week(), language)
    assert view.headings["summary"] == {"en": "Summary", "zh": "概要"}[language]


def test_the_authors_words_quoted_on_a_chinese_page_are_marked_in_the_language_they_were_written_in():
    english = analysed(
        1,
        "Parser errors",
        key=True,
        summary="The parser now recovers and reports every error in the file.",
    )
    chinese = analysed(
        2, "Rollout errors", key=True, summary="回滚时的错误现在会逐一报告，而不是只报告第一个。"
    )
    changes = {
        change.ref.number: change
        for change in view_of(week_of([english, chinese]), "zh").key_changes
    }
    assert (changes[1].quote, changes[1].quote_lang) == (
        "The parser now recovers and reports every error in the file.",
        "en",
    )
    assert (changes[2].quote, changes[2].quote_lang) == (
        "回滚时的错误现在会逐一报告，而不是只报告第一个。",
        "zh",
    )


def key_week(count: int, others=()):
    """A week of `count` key features of falling importance (titles no rule translates), and `others`."""
    keys = [
        analysed(
            n,
            f"feat: Wire the quux frobnicator number {n} into the baz pipeline",
            score=round(9.5 - n / 10, 1),
            key=True,
            modules=("engine",),
            additions=100 + n,
            deletions=n,
        )
        for n in range(1, count + 1)
    ]
    return week_of([*keys, *others])


def test_a_busy_week_tells_its_ten_most_important_key_changes_in_full_and_the_others_in_brief():
    view = view_of(key_week(14))
    assert [c.ref.number for c in view.key_changes] == list(range(1, 11))
    assert [(b.ref.number, b.text, b.importance) for b in view.brief_key_changes] == [
        (n, f"Wire the quux frobnicator number {n} into the baz pipeline", f"{9.5 - n / 10:.1f}")
        for n in range(11, 15)
    ]
    assert view.more_key_changes == "4 more key PRs, in brief"
    markdown = render_markdown(view, "https://example.org/week/", Language.of("en"))
    assert "### 4 more key PRs, in brief" in markdown
    assert (
        f"- [#12](<{REPO_URL}/pull/12>) Wire the quux frobnicator number 12 into the baz pipeline · importance 8.3"
        in markdown
    )
    assert markdown.count(". **[#") == 10  # each told in full has its numbered bold title line
    assert view_of(key_week(10)).brief_key_changes == ()


def test_a_chinese_page_shows_each_english_title_once_and_says_the_rest_in_chinese():
    others = [
        analysed(
            20 + n,
            f"fix: Stop the quux frobnicator {n} from eating the baz cache",
            type="fix",
            modules=("cache",),
            score=4.0,
            additions=7,
            deletions=3,
        )
        for n in range(3)
    ]
    week = key_week(12, others)
    view = view_of(week, "zh")
    markdown = render_markdown(view, "https://example.org/week/", Language.of("zh"))
    for p in week.pulls:
        assert markdown.count(display_title(p.pull.title)) == 1, p.pull.title
    # outside its key change or its row a PR is its number and its facts: kind, module and size
    assert (
        "- [#11](<https://github.com/octo/widgets/pull/11>) engine 模块的改动，+111 −11 行 · 重要度 8.4"
        in markdown
    )
    highlighted = [item.text for group in view.highlights for item in group.items]
    assert highlighted and all("模块的" in text for text in highlighted)
    assert any("engine 模块的改动，+101 −1 行" in text for text in highlighted)
    assert "engine 模块的改动" in view.summary.text
    assert chinese_share(narrative_texts(view)) >= 0.38


def test_an_update_reverted_the_same_week_says_so_and_a_bump_merged_from_a_bots_branch_is_listed():
    """ruff 2025-W45: renovate's #21234 (CodSpeed action v4.3.1) was reverted by #21252 the same
    day, and a person merged renovate's v4.3.3 as #21254."""
    bump = analysed(
        21234, "Update CodSpeedHQ/action action to v4.3.1", login="renovate[bot]", bot=True
    )
    revert = analysed(21252, 'Revert "Update CodSpeedHQ/action action to v4.3.1"', type="revert")
    revert = replace(revert, classification=replace(revert.classification, reverts=21234))
    merged = analysed(
        21254,
        "Update CodSpeedHQ/action action to v4.3.3",
        login="MichaReiser",
        body="Co-authored-by: renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>",
    )
    assisted = analysed(6000, "feat: a feature", body="Co-authored-by: gemini-code-assist[bot] <x>")
    # of the dependency row: one of only its requirements (verl #1439), not a feature that added
    # a crate to Cargo.lock (ruff #25410)
    pip = analysed(
        1439, "add pip dependances", files=("requirements.txt",), risks=("dependency-upgrade",)
    )

    def locked(number, title, core_lines):  # a PR of the dependency row by its Cargo.lock line
        pull = analysed(
            number,
            title,
            files=("Cargo.lock", "src/core.py"),
            risks=("dependency-upgrade",),
            footprint=Footprint(core_lines=core_lines),
        )
        return replace(pull, evidence=(Evidence("version", number, detail="files", lines=2),))

    crate = locked(25410, "[ty] Implement LSP `textDocument/implementation` request", 900)
    # nor tests "with external dependencies" whose lock file gained a line (ruff #20904): its
    # dependency files are a small part of it
    tests = locked(20904, "[ty] mdtests with external dependencies", 276)
    pip = replace(pip, evidence=(Evidence("version", 1439, detail="files", lines=3),))
    view = view_of(week_of([bump, revert, merged, assisted, pip, crate, tests]))
    rows = {row.ref.number: row for row in view.updates}
    assert sorted(rows) == [1439, 21234, 21254]  # not a code assistant's co-authored feature
    undone = rows[21234].reverted_by
    if speaks("revert.undoes"):
        assert undone is not None and undone.number == 21252
        markdown = render_markdown(view, "", Language.of("en"))
        assert "· reverted by [#21252](" in markdown
    else:
        assert undone is None
    assert rows[21254].reverted_by is None
