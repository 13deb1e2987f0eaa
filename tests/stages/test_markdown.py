"""The Markdown report: parses as CommonMark (with GitHub tables), links only to the week's PRs and
page, and shows untrusted text exactly as written."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.markdown import escape, render_markdown
from digest_plugin.publish.week_view import week_view
from tests.narrate_fixtures import (
    REAL_WEEKS,
    analysed,
    bot_only_week,
    busy_week,
    previous_week,
    quiet_week,
    real_week,
    week_of,
)

PAGE = "https://example.org/digest/octo/widgets/2026-W21/"
HOSTILE = "<img src=x onerror=alert(1)> *bold* _it_ [link](http://evil.example) `code` @someone | pipe &amp; $x$ ~~gone~~ <!-- -->"
EN, ZH = Language.of("en"), Language.of("zh")


def report(week, narrative, page_url: str, language: str) -> str:
    """The Markdown of a week without charts, as `repo-digest show` gives it for a hand-made week."""
    view = week_view(
        week, narrative, (), Language.of(language), "https://github.com/octo/widgets", ""
    )
    return render_markdown(view, page_url, Language.of(language))


def parse(markdown: str):
    return MarkdownIt("commonmark").enable("table").parse(markdown)


def inline_children(tokens):
    for token in tokens:
        if token.type == "inline":
            yield from token.children or ()


def links(tokens) -> list[tuple[str, str]]:
    """(href, text) of every link."""
    found, href, text = [], None, []
    for child in inline_children(tokens):
        if child.type == "link_open":
            href, text = child.attrs["href"], []
        elif child.type == "link_close":
            found.append((href, "".join(text)))
            href = None
        elif href is not None and child.type in ("text", "code_inline"):
            text.append(child.content)
    return found


def plain(inline) -> str:
    return "".join(c.content for c in inline.children if c.type in ("text", "code_inline"))


def paragraph_after(tokens, heading: str) -> str:
    for index, token in enumerate(tokens):
        if (
            token.type == "inline"
            and token.content == heading
            and tokens[index - 1].type == "heading_open"
        ):
            following = tokens[index + 2 :]
            return plain(next(t for t in following if t.type == "inline"))
    raise AssertionError(f"no heading {heading!r}")


def check_links(tokens, week, page_url):
    urls = {p.pull.number: p.pull.url for p in week.pulls}
    found = links(tokens)
    assert found, "the report links its PRs"
    for href, text in found:
        if href == page_url:
            continue
        number = int(re.fullmatch(r"#(\d+)", text)[1])
        assert href == urls[number], f"#{number} links to {href}"
    return found


def hostile_week():
    pulls = [
        analysed(
            301,
            HOSTILE,
            key=True,
            score=7.5,
            summary="The body explains why, in its own words: " + HOSTILE,
            risks=("missing-tests",),
        ),
        analysed(302, "1. starts like a list", type="fix", score=3.0, login="mallory@evil"),
        analysed(303, "- starts like a bullet", type="docs", modules=("docs",), score=2.0),
    ]
    from digest_plugin.analysis.model import Risk

    return week_of(pulls, [Risk("missing-tests", (301,), "high")])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_links_go_only_to_the_weeks_pulls_and_page(language):
    week = busy_week()
    markdown = report(week, narrate(week, [previous_week()], Language.of(language)), PAGE, language)
    tokens = parse(markdown)
    found = check_links(tokens, week, PAGE)
    assert (
        PAGE,
        "Read this digest on the site" if language == "en" else "在网站上阅读本期周报",
    ) in found
    assert {int(text[1:]) for href, text in found if href != PAGE} == {101, 102, 103, 104, 105, 106}
    assert all(href.startswith("https://") for href, _ in found)  # absolute links only


def test_untrusted_text_shows_as_written_and_makes_no_markup():
    week = hostile_week()
    narrative = narrate(week, [], Language.of("en"))
    tokens = parse(report(week, narrative, PAGE, "en"))
    assert not [t for t in tokens if t.type.startswith("html")]
    assert not [
        c
        for c in inline_children(tokens)
        if c.type in ("html_inline", "image", "em_open", "s_open", "code_inline")
    ]
    assert all(text != "link" for _, text in links(tokens))
    # Bold is used for key PRs only: the reference, never text from GitHub.
    strong = [c for c in inline_children(tokens) if c.type == "strong_open"]
    assert len(strong) == 2  # the key change heading and its row in the table of all PRs
    # the summary paragraph reads exactly as the narrative wrote it
    assert paragraph_after(tokens, "Summary") == narrative.summary.text
    texts = [plain(t) for t in tokens if t.type == "inline"]
    assert narrative.key_changes[0].summary in texts and HOSTILE in narrative.key_changes[0].summary
    assert any(HOSTILE in text for text in texts)


def test_titles_that_look_like_list_items_stay_text():
    week = hostile_week()
    tokens = parse(report(week, narrate(week, [], Language.of("en")), PAGE, "en"))
    assert (
        max(t.level for t in tokens if t.type == "bullet_list_open") <= 0
    )  # no list nested in a list item
    cells = [plain(t) for t in tokens if t.type == "inline"]
    assert (
        "1. starts like a list" in cells
        and "- starts like a bullet" in cells
        and "mallory@evil" in cells
    )


def test_every_pull_is_a_row_of_the_table_of_all_pulls():
    week = busy_week()
    tokens = parse(report(week, narrate(week, [], Language.of("en")), PAGE, "en"))
    rows = [t for t in tokens if t.type == "tr_open"]
    # no table of types: the fixture's types are all kinds no corpus shows precise (analysis/claims.py)
    heading_rows = 1 + 1 + 1 + 1 + 1 + 1  # figures, risks, modules, authors, hot files, all PRs
    body_rows = 1 + 3 + 4 + 4 + 1 + 6  # figures, risks, modules, authors, hot files, all PRs
    assert len(rows) == heading_rows + body_rows


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_quiet_week_is_its_title_link_and_one_line(language):
    week = quiet_week()
    narrative = narrate(week, [], Language.of(language))
    markdown = report(week, narrative, PAGE, language)
    blocks = markdown.strip().split("\n\n")
    assert len(blocks) == 4  # title, link to the page, "Summary" heading, the one line
    assert blocks[-1] == escape(narrative.summary.text)


def test_an_incomplete_week_says_so_at_the_top():
    week = busy_week(complete=False)
    markdown = report(week, narrate(week, [], Language.of("en")), PAGE, "en")
    assert markdown.split("\n\n")[2].startswith("> This week's data is incomplete")


def test_the_bot_only_week_reads_correctly_in_markdown():
    week = bot_only_week()
    markdown = report(week, narrate(week, [], Language.of("en")), PAGE, "en")
    assert (
        "Only bots merged pull requests this week: 2 PRs, by dependabot\\[bot\\] and pre-commit-ci\\[bot\\]."
        in markdown
    )


def test_a_pull_url_that_is_not_the_web_is_not_linked():
    pull = analysed(9, "Sneaky", key=True, score=7.0)
    from dataclasses import replace

    sneaky = replace(pull, pull=replace(pull.pull, url="javascript:alert(1)"))
    week = week_of([sneaky])
    tokens = parse(report(week, narrate(week, [], Language.of("en")), PAGE, "en"))
    assert all(href == PAGE for href, _ in links(tokens))


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Co", "Cn")),
        max_size=60,
    )
)
def test_escaped_text_renders_as_itself(text):
    tokens = parse("- " + escape(text) + "\n")
    inline = [t for t in tokens if t.type == "inline"]
    expected = " ".join(text.split())
    if not expected:
        return
    assert len(inline) == 1
    assert [c.type for c in inline[0].children if c.type not in ("text", "softbreak")] == []
    assert plain(inline[0]) == expected


@pytest.mark.realdata
@pytest.mark.realdata
@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", sorted(REAL_WEEKS))
def test_real_weeks_parse_and_every_link_resolves_to_a_pull_of_the_week(name, language):
    week, previous = real_week(name)
    narrative = narrate(week, previous, Language.of(language))
    page = f"https://example.org/{week.repo}/{week.week}/"
    tokens = parse(report(week, narrative, page, language))
    found = check_links(tokens, week, page)
    linked = {int(text[1:]) for href, text in found if href != page}
    assert linked == {p.pull.number for p in week.pulls}  # the table of all PRs links each one
    table_rows = [t for t in tokens if t.type == "tr_open"]
    assert len(table_rows) >= week.stats.merged_count


@pytest.mark.parametrize(
    "week",
    [busy_week(), bot_only_week(), quiet_week(in_progress=True)],
    ids=["busy", "bots", "quiet"],
)
def test_the_chinese_report_has_no_english_but_names_titles_and_code(week):
    from tests.narrate_fixtures import english_left

    tokens = parse(report(week, narrate(week, [previous_week()], Language.of("zh")), PAGE, "zh"))
    texts = [plain(t) for t in tokens if t.type == "inline"]
    summaries = {p.summary for p in week.pulls if p.summary}
    leftovers = [
        left for text in texts if text not in summaries and (left := english_left(week, text))
    ]
    assert leftovers == []


@pytest.mark.realdata
@pytest.mark.realdata
@pytest.mark.parametrize("name", sorted(REAL_WEEKS))
def test_chinese_reports_of_real_weeks_have_no_english_but_names_titles_and_code(name):
    from tests.narrate_fixtures import english_left

    week, previous = real_week(name)
    tokens = parse(
        report(week, narrate(week, previous, Language.of("zh")), "https://example.org/", "zh")
    )
    summaries = {p.summary for p in week.pulls if p.summary}
    texts = [plain(t) for t in tokens if t.type == "inline"]
    leftovers = [
        left for text in texts if text not in summaries and (left := english_left(week, text))
    ]
    assert leftovers == []
