"""Weeks readers can trust: feeds and the index carry finished weeks only, and a week's feed entry
keeps one id and one date forever."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import feedparser
import pytest
from bs4 import BeautifulSoup
from pelican.log import LimitFilter

from digest_plugin.fetch import SEARCH_LAG
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.site_digest import build_site_digest
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import RepoState, Store
from digest_plugin.weeks import Week
from tests.conftest import make_pull
from tests.site_builder import build_site

ENDED = Week(2026, 48)  # Monday 23 to Sunday 29 November 2026
MONDAY_RUN = datetime(2026, 11, 30, 12, 17, tzinfo=UTC)  # the workflow's schedule


def _fetched_store(folder, zone: str, fetched_at: datetime) -> Store:
    """A repository fetched at `fetched_at`: PRs all through the ended week, early and late in
    it as seen from `zone`, and one in the week after, merged shortly before the fetch."""
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(zone)
    start, end = ENDED.start(tz), ENDED.end(tz)
    pulls = [
        make_pull(1, start - timedelta(days=2), "feat: the week before"),
        make_pull(2, start + timedelta(hours=1), "feat: first of the week"),
        make_pull(3, start + timedelta(days=3), "fix: the middle of the week"),
        make_pull(4, end - timedelta(minutes=30), "docs: late on Sunday, local time"),
    ]
    if fetched_at - timedelta(hours=1) >= end:
        pulls.append(
            make_pull(5, fetched_at - timedelta(hours=1), "feat: already merged this week")
        )
    store = Store(folder / "data")
    store.upsert("acme/widget", pulls)
    store.write_state(
        RepoState(
            "acme/widget",
            "github",
            fetched_at=fetched_at,
            complete_since=start - timedelta(weeks=1),
            watermark=fetched_at - SEARCH_LAG,
        )
    )
    return store


@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai", "America/Los_Angeles"])
def test_a_monday_run_publishes_the_week_that_just_ended(tmp_path, zone):
    _fetched_store(tmp_path, zone, MONDAY_RUN)
    settings = DigestSettings.from_pelican(
        {"DIGEST_TIMEZONE": zone, "DIGEST_DATA_PATH": str(tmp_path / "data")}, tmp_path
    )
    repo = build_site_digest(
        settings, Language.of(settings.language), {"SITEURL": ""}, now=MONDAY_RUN
    ).repos[0]
    assert repo.latest.week == "2026-W48" and repo.latest.final and repo.latest.status == "complete"
    assert (
        repo.latest.analysis.stats.merged_count == 3
    )  # Sunday's late merge included, in every timezone
    assert repo.current.week == "2026-W49" and repo.current.status == "in-progress"
    assert repo.current.analysis.stats.merged_count == 1


def test_a_run_before_the_week_closed_publishes_nothing_new(tmp_path):
    """Run at the Monday time in UTC, a Los Angeles week is still Sunday evening: in progress."""
    _fetched_store(tmp_path, "America/Los_Angeles", datetime(2026, 11, 30, 6, 17, tzinfo=UTC))
    settings = DigestSettings.from_pelican(
        {"DIGEST_TIMEZONE": "America/Los_Angeles", "DIGEST_DATA_PATH": str(tmp_path / "data")},
        tmp_path,
    )
    repo = build_site_digest(
        settings,
        Language.of(settings.language),
        {"SITEURL": ""},
        now=datetime(2026, 11, 30, 6, 17, tzinfo=UTC),
    ).repos[0]
    assert repo.current.week == "2026-W48" and repo.latest.week == "2026-W47"


def _entries(output, path="feeds/acme/widget.atom.xml"):
    feed = feedparser.parse((output / path).read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    return {e.link.rstrip("/").rsplit("/", 1)[-1]: e for e in feed.entries}


def test_the_week_in_progress_has_a_page_but_no_feed_entry_and_entries_keep_their_id(
    tmp_path, monkeypatch
):
    # Thursday of week 48: the week is in progress.
    thursday = datetime(2026, 11, 26, 15, tzinfo=UTC)
    store = _fetched_store(tmp_path, "UTC", thursday)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(thursday.timestamp())))
    first = build_site(
        tmp_path,
        SITEURL="https://example.org/digest",
        RELATIVE_URLS=False,
        FEED_DOMAIN="https://example.org/digest",
    )
    page = BeautifulSoup((first / "acme/widget/2026-W48/index.html").read_text(), "html.parser")
    assert "status-in-progress" in page.select_one(".status")["class"]
    for feed in ("feeds/all.atom.xml", "feeds/all.rss.xml", "feeds/acme/widget.atom.xml"):
        assert "2026-W48" not in (first / feed).read_text(), feed
    index = BeautifulSoup((first / "index.html").read_text(), "html.parser")
    assert [a["href"] for a in index.find_all("a", string="This week so far")] == [
        "https://example.org/digest/acme/widget/2026-W48/"
    ]
    assert not any("2026-W48" in h3.text for h3 in index.select(".article-list h3"))
    before = _entries(first)["2026-W47"]

    # The next Monday the week has closed; the site has also moved to another address.
    store.write_state(
        RepoState(
            "acme/widget",
            "github",
            fetched_at=MONDAY_RUN,
            complete_since=ENDED.start(UTC) - timedelta(weeks=1),
            watermark=MONDAY_RUN - SEARCH_LAG,
        )
    )
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(MONDAY_RUN.timestamp())))
    second = build_site(
        tmp_path,
        SITEURL="https://octo.github.io/site",
        RELATIVE_URLS=False,
        FEED_DOMAIN="https://octo.github.io/site",
    )
    entries = _entries(second)
    assert next(iter(entries)) == "2026-W48"  # newest first, and now in the feed
    assert list(_entries(second, "feeds/all.atom.xml"))[:2] == [
        "2026-W48",
        "2026-W47",
    ]  # the site's feed, a site of weeks alone: every week
    assert entries["2026-W47"].id == before.id == "tag:github.com,2026-11-16:acme/widget/2026-W47"
    assert entries["2026-W47"].published == before.published
    assert entries["2026-W48"].id == "tag:github.com,2026-11-23:acme/widget/2026-W48"
    assert entries["2026-W48"].published_parsed[:3] == (2026, 11, 30)  # dated at the week's end
    rss = feedparser.parse((second / "feeds/all.rss.xml").read_bytes())
    assert rss.entries[0].id == entries["2026-W48"].id and rss.entries[0].guidislink is False


def test_a_build_of_a_past_moment_leaves_out_what_merged_later_in_one_line(
    tmp_path, monkeypatch, caplog
):
    """SOURCE_DATE_EPOCH before the data was fetched: the site as it was then. The PRs merged after
    that moment are not damage; they are left out quietly, with one line saying how many."""
    fetched = datetime(2026, 11, 30, 12, tzinfo=UTC)
    pulls = [
        make_pull(n, fetched - timedelta(days=2 * n, hours=1), f"feat: change {n}")
        for n in range(1, 13)
    ]
    store = Store(tmp_path / "data")
    store.upsert("acme/widget", pulls)
    store.write_state(RepoState("acme/widget", "import", fetched_at=fetched))
    moment = datetime(2026, 11, 12, 15, tzinfo=UTC)  # a Thursday: 2026-W46 in progress
    later = sum(1 for pull in pulls if pull.merged_at > moment)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(moment.timestamp())))
    for build in ("cold", "warm"):  # the line is said again when the analysis is remembered
        caplog.clear()
        LimitFilter._raised_messages.clear()  # each `make html` is a process of its own
        logging.getLogger().addHandler(
            caplog.handler
        )  # build_site lets go of the root logger's handlers
        output = build_site(tmp_path)
        said = [
            r.getMessage()
            for r in caplog.records
            if r.levelname == "WARNING" and "acme/widget" in r.getMessage()
        ]
        assert said == [
            (
                f"acme/widget: {later} pull requests merged after 2026-11-12 15:00 UTC, the moment this build shows, "
                "are left out of it."
            )
        ], build
    assert later == 8 and "bad value" not in caplog.text
    page = BeautifulSoup((output / "acme/widget/2026-W46/index.html").read_text(), "html.parser")
    assert "status-in-progress" in page.select_one(".status")["class"]
    assert not list(output.glob("acme/widget/2026-W4[789]"))
