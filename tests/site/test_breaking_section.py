"""The week page of a real Pelican build shows the "Breaking and user-facing changes" section, each
line citing its PR, and the risk table's "What to do" from the PR's own words, escaped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from bs4 import BeautifulSoup

from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from tests.conftest import make_pull
from tests.site_builder import build_site

MONDAY = datetime(2026, 3, 2, 9, tzinfo=UTC)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_week_page_lists_what_breaks_and_what_to_do(tmp_path, language):
    pulls = [
        make_pull(
            7,
            MONDAY,
            "Rename setting SUMMARY_END_MARKER → SUMMARY_END_SUFFIX",
            files=[("widget/settings.py", 40, 12, "modified")],
            body="Users should set SUMMARY_END_SUFFIX <b>in</b> their pelicanconf.py instead.",
        ),
        make_pull(
            8,
            MONDAY + timedelta(hours=2),
            "fix: a crash on empty input",
            files=[("widget/parse.py", 5, 2, "modified")],
        ),
    ]
    store = Store(tmp_path / "data")
    store.upsert("acme/widget", pulls)
    store.write_state(
        RepoState(repo="acme/widget", source="import", fetched_at=MONDAY + timedelta(weeks=2))
    )
    site = build_site(tmp_path, DIGEST_LANGUAGE=language)
    page = BeautifulSoup(
        (site / "acme/widget/2026-W10/index.html").read_text(encoding="utf-8"), "html.parser"
    )
    section = page.find(id="breaking-2026-W10").find_parent("section")
    items = section.select("ul.breaking li")
    assert (
        len(items) == 1
        and "SUMMARY_END_MARKER" in items[0].get_text()
        and "SUMMARY_END_SUFFIX" in items[0].get_text()
    )
    assert items[0].select_one('a[href="https://github.com/acme/widget/pull/7"]') is not None
    advice = page.select("ul.risks p.mitigation")
    assert (
        advice
        and "Users should set SUMMARY_END_SUFFIX in their pelicanconf.py instead."
        in advice[0].get_text()
    )
    assert all(
        tag.name in ("strong", "a") for tag in advice[0].find_all()
    )  # the author's HTML is never markup of the page
    headings = [h.get_text() for h in page.select("section h2")]
    assert headings.index(section.h2.get_text()) < headings.index(
        page.select_one("ul.risks").find_parent("section").h2.get_text()
    )
