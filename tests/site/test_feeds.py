"""The weeks' feeds in a host site whose Writer stays Pelican's (or the host's own): each week's
entry keeps its id in the blog's, the repository's and the labels' feeds Pelican writes, and the
section's feeds are the digest's own files, rewritten only when their text changes."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import ClassVar

import feedparser
import pytest
from pelican.writers import Writer

from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from pelican import signals
from tests.conftest import make_pull
from tests.site_builder import build_site

SITEURL = "https://example.org/blog"
MONDAY = datetime(2026, 5, 4, 9, tzinfo=UTC)  # 2026-W19
IDS = {
    "2026-W19": "tag:github.com,2026-05-04:acme/widget/2026-W19",
    "2026-W20": "tag:github.com,2026-05-11:acme/widget/2026-W20",
}


def _site(folder, post: bool = True):
    """Two finished weeks of acme/widget, and (`post`) one post of the blog's own."""
    store = Store(folder / "data")
    store.upsert(
        "acme/widget",
        [
            make_pull(
                1,
                MONDAY,
                "feat: add the widget cache",
                labels=("area/core",),
                files=[("core/cache.py", 120, 4, "modified")],
            ),
            make_pull(
                2,
                MONDAY + timedelta(days=8),
                "docs: explain the cache",
                labels=("area/core",),
                files=[("docs/cache.md", 30, 0, "added")],
            ),
        ],
    )
    fetched = MONDAY + timedelta(days=14)
    store.write_state(RepoState(repo="acme/widget", source="import", fetched_at=fetched))
    if post:
        (folder / "content").mkdir(parents=True, exist_ok=True)
        (folder / "content/hello.md").write_text(
            "Title: Hello\nDate: 2026-05-01\nCategory: Notes\n\nThe blog's own post.\n"
        )
    return folder


def _build(folder, **settings):
    return build_site(folder, SITEURL=SITEURL, RELATIVE_URLS=False, FEED_DOMAIN=SITEURL, **settings)


def _feed(output, path):
    feed = feedparser.parse((output / path).read_bytes())
    assert not feed.bozo, (path, feed.get("bozo_exception"))
    return feed


def _week(entry) -> str:
    return entry.link.split("?")[0].rstrip("/").rsplit("/", 1)[-1]


class HostWriter(Writer):
    """A host plugin's writer (a minifying or an asset plugin ships one), noting what it writes."""

    written: ClassVar[list[str]] = []

    def write_file(self, name, *args, **kwargs):
        HostWriter.written.append(name)
        return super().write_file(name, *args, **kwargs)

    def write_feed(self, elements, context, path=None, *args, **kwargs):
        HostWriter.written.append(path)
        return super().write_feed(elements, context, path, *args, **kwargs)


def test_a_host_plugins_writer_writes_every_page_and_feed_and_the_weeks_keep_ids(tmp_path, caplog):
    def host_writer(pelican):
        return HostWriter

    HostWriter.written = []
    signals.get_writer.connect(host_writer)
    try:
        with caplog.at_level(logging.WARNING):
            output = _build(_site(tmp_path))
    finally:
        signals.get_writer.disconnect(host_writer)
    # One writer, the host's: Pelican found no other to choose from.
    assert not [r.getMessage() for r in caplog.records if "writers found" in r.getMessage()]
    assert {
        "acme/widget/2026-W19/index.html",
        "posts/hello/index.html",
        "feeds/all.atom.xml",
        "feeds/acme/widget.atom.xml",
    } <= set(HostWriter.written)
    assert {_week(e): e.id for e in _feed(output, "feeds/acme/widget.atom.xml").entries} == IDS


def test_in_the_blog_the_weeks_entries_keep_their_ids_and_the_blogs_feed_its_newest_week(tmp_path):
    """Pelican writes the blog's, the repository's (a category's) and the label's (a tag's) feeds,
    with the links FEED_APPEND_REF asks for; the digest gives each week's entry its id."""
    output = _build(_site(tmp_path), FEED_APPEND_REF=True)
    blog = _feed(output, "feeds/all.atom.xml")
    # The newest week stands for the digest; its link ends in "?ref=feed" (Pelican 4.10 and later).
    assert [_week(e) for e in blog.entries] == ["2026-W20", "hello"]
    assert blog.entries[0].id == IDS["2026-W20"]
    for path in ("feeds/acme/widget.atom.xml", "feeds/acme/widget.rss.xml"):
        assert {_week(e): e.id for e in _feed(output, path).entries} == IDS, path
    (label,) = output.glob("feeds/labels/area*.atom.xml")
    entries = _feed(output, label.relative_to(output)).entries
    assert {_week(e): e.id for e in entries} == {w: f"{id_}#area%2Fcore" for w, id_ in IDS.items()}
    assert "add the widget cache" in entries[-1].content[0].value  # the label's PRs of the week


@pytest.mark.parametrize("kind", ["atom", "rss"])
def test_the_sections_feeds_are_the_digests_own_and_a_rebuild_leaves_them_alone(tmp_path, kind):
    folder = _site(tmp_path, post=False)
    output = _build(folder, DIGEST_IN_BLOG=False)
    paths = [f"feeds/digest.{kind}.xml", f"feeds/acme/widget.{kind}.xml"]
    for path in paths:
        feed = _feed(output, path)
        assert [(_week(e), e.id) for e in feed.entries] == sorted(IDS.items(), reverse=True), path
    assert _feed(output, paths[1]).feed.title == "Repository digest - acme/widget"
    before = {path: _bytes_and_time(output / path) for path in paths}
    _build(folder, DIGEST_IN_BLOG=False)
    assert {path: _bytes_and_time(output / path) for path in paths} == before


def _bytes_and_time(file):
    return file.read_bytes(), file.stat().st_mtime_ns
