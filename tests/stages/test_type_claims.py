"""A PR's kind (feature, fix, refactor) is said only where its claim is precise (analysis/claims.py);
elsewhere the report shows the author's own word for it, as theirs ("titled fix:", "labelled bug"),
or nothing: in the table of every PR, the key changes, the statistics and the trends, in English
and in Chinese. The week is analysed from PR records as a build analyses it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from markdown_it import MarkdownIt

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.claims import type_speaks
from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.history import analysis_options
from digest_plugin.publish.markdown import render_markdown
from digest_plugin.publish.week_view import week_view
from digest_plugin.settings import DigestSettings
from tests.conftest import make_pull

NOW = datetime(2026, 6, 1, tzinfo=UTC)
SOURCE = ("src/widget/parser.py", 40, 2)


def _week(language: str):
    pulls = [
        make_pull(
            1, "2026-05-19T10:00:00Z", "[parser] fix: keep the last token of a line", files=[SOURCE]
        ),
        make_pull(
            2,
            "2026-05-19T11:00:00Z",
            "Handle a crash on empty input",
            files=[SOURCE, ("tests/test_parser.py", 10, 0)],
        ),
        make_pull(
            3, "2026-05-20T09:00:00Z", "Speed up the tokenizer", labels=("bug",), files=[SOURCE]
        ),
        make_pull(
            4,
            "2026-05-20T10:00:00Z",
            "feat(cli): add a --quiet flag",
            files=[SOURCE, ("tests/test_cli.py", 5, 0)],
        ),
        make_pull(
            5, "2026-05-21T10:00:00Z", "docs: explain the parser", files=[("docs/parser.md", 30, 0)]
        ),
    ]
    weeks = analyse_repo("acme/widget", pulls, None, analysis_options(DigestSettings()), NOW)
    week = next(w for w in weeks if w.pulls)
    lang = Language.of(language)
    view = week_view(week, narrate(week, [], lang), (), lang, "https://github.com/acme/widget", "")
    return week, render_markdown(view, "https://example.org/acme/widget/2026-W21/", lang)


def _table(markdown: str, first_head: str) -> list[list[str]]:
    """The body rows of the Markdown table whose first column is `first_head`, as plain cells."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    rows, row, inside, head = [], [], False, None
    for token in tokens:
        if token.type == "table_open":
            inside, head = True, None
        elif token.type == "table_close":
            if head == first_head:
                return rows
            inside, rows = False, []
        elif inside and token.type == "tr_open":
            row = []
        elif inside and token.type == "inline":
            row.append(
                "".join(c.content for c in token.children if c.type in ("text", "code_inline"))
            )
        elif inside and token.type == "tr_close":
            if head is None:
                head = row[0]
            else:
                rows.append(row)
    raise AssertionError(f"no table headed {first_head!r}")


@pytest.mark.skipif(
    type_speaks("fix") and type_speaks("feat"),
    reason="the type claims are precise: the kinds are said",
)
def test_every_pr_row_shows_the_authors_own_word_for_its_kind_or_nothing():
    _, markdown = _week("en")
    kinds = {int(row[0].lstrip("#")): row[3] for row in _table(markdown, "PR")}
    assert kinds[1] == "titled fix:"  # the author's prefix, as written
    assert kinds[3] == "labelled bug"  # the label wins over the title, as it does for the type
    assert kinds[4] == "titled feat(cli):"
    assert kinds[2] == ""  # read from "Handle … crash": the reading is not said
    assert kinds[5] == "titled docs:"  # a kind no corpus measures is not said: the author's word is
    assert not {"fix", "feature", "refactor"} & set(kinds.values())


@pytest.mark.skipif(
    type_speaks("fix") and type_speaks("feat"),
    reason="the type claims are precise: the kinds are said",
)
def test_the_statistics_and_trends_count_only_what_is_said():
    week, markdown = _week("en")
    assert (
        week.stats.types["fix"] == 3
    )  # the analysis still reads #1, #2 and #3 as fixes (JSON keeps it)
    counts = dict(_table(markdown, "Type"))
    assert counts == {
        "titled fix:": "1",
        "labelled bug": "1",
        "titled feat(cli):": "1",
        "titled docs:": "1",
    }
    assert "fixes (" not in markdown and "features (" not in markdown
    assert (
        "importance " in markdown
        and " · fix · " not in markdown
        and " · feature · " not in markdown
    )


@pytest.mark.skipif(
    type_speaks("fix") and type_speaks("feat"),
    reason="the type claims are precise: the kinds are said",
)
def test_in_chinese_the_authors_word_is_said_as_theirs():
    _, markdown = _week("zh")
    kinds = {int(row[0].lstrip("#")): row[3] for row in _table(markdown, "PR")}
    assert kinds[1] == "标题写作 fix:" and kinds[3] == "标签为 bug" and kinds[2] == ""
    assert "修复" not in "".join(kinds.values()) and "新功能" not in "".join(kinds.values())
