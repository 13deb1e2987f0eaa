"""End to end: a tiny store built by real Pelican, checked the way a reader would check it."""

from __future__ import annotations

import shutil
import subprocess
from datetime import UTC, datetime, timedelta

import feedparser
import pytest
from bs4 import BeautifulSoup

from digest_plugin.errors import DigestError
from digest_plugin.records.pull import Author
from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from tests.browser_harness import open_page, page_width, serve_in_browser
from tests.conftest import make_pull
from tests.site_builder import build_site

SITEURL = "https://example.org/digest"
LONG_PATH = "src/" + "/".join(["a_very_long_directory_name_without_breaks"] * 4) + "/module.py"
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _store(folder):
    """Three weeks of acme/widget (2026-W19..W21) with a quiet week in between, and a hostile title."""
    monday = datetime(2026, 5, 4, 9, tzinfo=UTC)  # 2026-W19
    pulls = [
        make_pull(
            1,
            monday,
            "[core] feat: add the widget cache",
            author="alice",
            files=[("core/cache.py", 120, 4, "modified"), ("tests/test_cache.py", 40, 0, "added")],
        ),
        make_pull(
            2,
            monday + timedelta(days=1),
            "fix: crash on empty input",
            author="bob",
            files=[("core/parse.py", 5, 2, "modified")],
        ),
        make_pull(
            3,
            monday + timedelta(days=2),
            "Bump requests from 2.31 to 2.32",
            author=Author("dependabot[bot]", "Bot"),
            files=[("requirements.txt", 1, 1, "modified")],
            labels=("dependencies",),
        ),
        make_pull(
            4,
            monday + timedelta(days=14),
            HOSTILE,
            author="mallory",
            body=HOSTILE,
            files=[("docs/index.md", 3, 1, "modified")],
            labels=("<b>label</b>",),
        ),
        make_pull(
            5,
            monday + timedelta(days=15),
            "docs: explain the cache",
            author="alice",
            files=[("docs/cache.md", 30, 0, "added")],
        ),
        make_pull(
            6,
            monday + timedelta(days=16),
            "refactor: move the deep module",
            author="bob",
            files=[(LONG_PATH, 10, 10, "modified"), ("docs/index.md", 1, 1, "modified")],
        ),
        # a crafted address, a numeric label and login, and a "#N" inside a title
        make_pull(
            7,
            monday + timedelta(days=16, hours=2),
            "fix: follow-up to #1",
            author="3",
            url="javascript:alert(1)//pull/7",
            labels=("1", "🚀"),
            files=[("core/parse.py", 712, 3, "modified")],
        ),
    ]
    store = Store(folder / "data")
    store.upsert("acme/widget", pulls)
    store.write_state(
        RepoState(repo="acme/widget", source="import", fetched_at=datetime(2026, 5, 25, tzinfo=UTC))
    )
    return pulls


NOTE = """Title: Cache week
Author: The widget team

The cache in #1 is *experimental*: tell us what breaks.
"""


def _note(folder, week="2026-W19", text=NOTE):
    path = folder / "content/notes/acme/widget" / f"{week}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    _store(folder)
    _note(folder)
    return build_site(
        folder, SITEURL=SITEURL, RELATIVE_URLS=False, FEED_DOMAIN=SITEURL, DIGEST_PDF=True
    )


def pdf_text(path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed (Debian: apt-get install poppler-utils)")
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def page(output, path):
    return BeautifulSoup((output / path).read_text(encoding="utf-8"), "html.parser")


def test_one_page_per_week_at_the_design_urls(site):
    for week in ("2026-W19", "2026-W21"):
        assert (site / "acme/widget" / week / "index.html").exists(), week
    assert not (site / "acme/widget/2026-W20").exists()  # nothing merged: no page
    assert (site / "acme/widget/index.html").exists()
    assert (site / "acme/widget/2026-W19/digest.md").exists()


def test_week_page_shows_the_real_figures(site):
    soup = page(site, "acme/widget/2026-W19/index.html")
    assert "acme/widget" in soup.h1.text and "2026-W19" in soup.h1.text
    figures = {
        dt.text.strip(): dd.text.strip()
        for dt, dd in zip(soup.select(".figures dt"), soup.select(".figures dd"))
    }
    assert figures["Merged PRs"] == "3"
    rows = soup.select("table.pulls tbody tr")
    assert {row.a["href"] for row in rows} == {
        f"https://github.com/acme/widget/pull/{n}" for n in (1, 2, 3)
    }
    authors = soup.find("caption", string="Authors").find_parent("table").text
    assert "alice" in authors and "bob" in authors and "dependabot[bot]" in authors


def test_a_quiet_week_is_a_line_of_the_repository_page_and_the_weeks_around_it_link_past_it(site):
    rows = [
        [cell.get_text(" ", strip=True) for cell in row.find_all("td")]
        for row in page(site, "acme/widget/index.html").select("table.weeks tbody tr")
    ]
    assert rows[1][0] == "2026-W20 nothing merged" and rows[1][2:] == ["0", "0"]
    assert (
        page(site, "acme/widget/2026-W19/index.html")
        .select_one(".week-nav a[rel=next]")["href"]
        .endswith("/2026-W21/")
    )


def test_only_web_addresses_become_links(site):
    for path in (
        "acme/widget/2026-W21/index.html",
        "feeds/all.atom.xml",
        "acme/widget/2026-W21/digest.md",
    ):
        assert "javascript:" not in (site / path).read_text(encoding="utf-8"), path
    soup = page(site, "acme/widget/2026-W21/index.html")
    row = next(tr for tr in soup.select("table.pulls tbody tr") if "#7" in tr.td.text)
    assert row.td.find("a") is None  # shown, but not as a link
    titles = [a for a in soup.select("a.pr-ref") if a.text == "#1"]
    assert titles == []  # "#1" inside PR 7's title cites nothing: PR 1 is not in this week


def test_hostile_text_is_escaped_everywhere(site):
    for path in (
        "acme/widget/2026-W21/index.html",
        "index.html",
        "feeds/all.atom.xml",
        "feeds/acme/widget.rss.xml",
    ):
        text = (site / path).read_text(encoding="utf-8")
        assert "<script>alert" not in text, path
        assert "<img src=x onerror" not in text, path
    soup = page(site, "acme/widget/2026-W21/index.html")
    assert not soup.find("script")
    assert HOSTILE in soup.get_text()  # shown, as text
    assert "<b>label</b>" in soup.get_text() and not soup.find("b", string="label")


def test_feeds_are_valid_with_absolute_urls_and_the_weeks_report(site):
    for feed_path in (
        "feeds/all.atom.xml",
        "feeds/all.rss.xml",
        "feeds/acme/widget.atom.xml",
        "feeds/acme/widget.rss.xml",
    ):
        feed = feedparser.parse((site / feed_path).read_bytes())
        assert not feed.bozo, (feed_path, feed.get("bozo_exception"))
        # 2026-W21 and W19 (the quiet W20 has no entry), in the repository's feed and in the site's:
        # a site of weeks alone keeps every week in its own feed too.
        assert len(feed.entries) == 2, feed_path
        for entry in feed.entries:
            assert entry.link.startswith("https://example.org/digest/acme/widget/2026-W")
            body = BeautifulSoup(
                entry.content[0].value if "content" in entry else entry.description, "html.parser"
            )
            assert body.find("h2", string="Summary")
            assert body.find("a", href=entry.link), "the entry links to the whole page"
            assert not body.find("table"), "statistics and the PR table stay on the page"
            for img in body.find_all("img"):
                assert img["src"].startswith("https://example.org/digest/"), img["src"]
    atom = feedparser.parse((site / "feeds/all.atom.xml").read_bytes())
    assert atom.entries[0].link.endswith("2026-W21/")  # newest first
    label = feedparser.parse((site / "feeds/labels/dependencies.atom.xml").read_bytes())
    assert not label.bozo and [e.link for e in label.entries] == [
        "https://example.org/digest/acme/widget/2026-W19/"
    ]


def test_a_label_feed_entry_is_that_labels_pull_requests_of_the_week(site):
    """A reader following a label gets its PRs of each week and a link to the week, not the week's
    whole report again (that is in the site's and the repository's feeds, under another id)."""
    week_entry = feedparser.parse((site / "feeds/acme/widget.atom.xml").read_bytes()).entries[
        -1
    ]  # 2026-W19
    for feed_path in ("feeds/labels/dependencies.atom.xml", "feeds/labels/dependencies.rss.xml"):
        feed = feedparser.parse((site / feed_path).read_bytes())
        assert not feed.bozo, (feed_path, feed.get("bozo_exception"))
        (entry,) = feed.entries
        body = BeautifulSoup(
            entry.content[0].value if "content" in entry else entry.description, "html.parser"
        )
        assert [a["href"] for a in body.select("li a")] == ["https://github.com/acme/widget/pull/3"]
        assert (
            "Bump requests from 2.31 to 2.32" in body.get_text()
            and "dependabot[bot]" in body.get_text()
        )
        assert body.find("a", href="https://example.org/digest/acme/widget/2026-W19/")
        assert not body.find("h2") and not body.find("img"), (
            "the week's report stays in the week's own entry"
        )
        assert entry.id != week_entry.id and entry.id.startswith(week_entry.id)
    bodies = [
        BeautifulSoup(feedparser.parse(f.read_bytes()).entries[0].content[0].value, "html.parser")
        for f in (site / "feeds/labels").glob("*.atom.xml")
    ]
    (hostile,) = [
        body for body in bodies if "“<b>label</b>”" in body.get_text()
    ]  # the label, as text
    assert (
        HOSTILE in hostile.get_text()
        and not hostile.find(["b", "script"])
        and not hostile.find("img", onerror=True)
    )


def test_pelican_archives_categories_and_tags_include_the_weeks(site):
    archives = page(site, "archives/index.html")
    assert (
        len([a for a in archives.select("td a") if "/acme/widget/2026-W" in a["href"]]) == 2
    )  # the quiet 2026-W20 is no article
    labels = page(site, "labels/index.html")
    assert (
        "dependencies" in labels.get_text() and "🚀" in labels.get_text()
    )  # not overwritten by the 🚀 page
    rocket = next(a["href"] for a in labels.select(".tag-cloud a") if a.text == "🚀")
    assert rocket.rstrip("/").rsplit("/", 1)[-1].startswith("label-")
    repo = page(site, "acme/widget/index.html")
    assert [a.text for a in repo.select("table.weeks tbody a")] == ["2026-W21", "2026-W19"]


def test_markdown_download_has_absolute_links(site):
    text = (site / "acme/widget/2026-W19/digest.md").read_text(encoding="utf-8")
    assert "https://github.com/acme/widget/pull/1" in text
    assert "https://example.org/digest/acme/widget/2026-W19/" in text


def test_two_runs_in_one_process_give_the_same_site(tmp_path):
    _store(tmp_path)
    first = build_site(tmp_path)  # DIGEST_PDF = False: no PDF, and no link to one
    assert not list(first.rglob("digest.pdf"))
    assert "digest.pdf" not in (first / "acme/widget/2026-W19/index.html").read_text(
        encoding="utf-8"
    )
    snapshot = {p.relative_to(first): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    second = build_site(tmp_path)
    again = {p.relative_to(second): p.read_bytes() for p in second.rglob("*") if p.is_file()}
    assert snapshot.keys() == again.keys()
    assert [p for p in snapshot if snapshot[p] != again[p]] == []


def test_unknown_repository_is_one_clear_error(tmp_path):
    _store(tmp_path)
    with pytest.raises(DigestError, match="acme/nothing is not in the store"):
        build_site(tmp_path, DIGEST_REPOS=["acme/nothing"])


def test_missing_data_folder_is_one_clear_error(tmp_path):
    with pytest.raises(DigestError, match="does not exist"):
        build_site(tmp_path)


def test_a_corrupt_store_line_is_named_and_the_rest_builds(tmp_path, caplog):
    _store(tmp_path)
    month = tmp_path / "data/acme/widget/2026-05.jsonl"
    month.write_text(month.read_text() + "{broken\n")
    output = build_site(tmp_path)
    assert "2026-05.jsonl, line 8, is not a JSON object; it is skipped" in caplog.text
    assert (output / "acme/widget/2026-W21/index.html").exists()


@pytest.mark.browser
def test_week_page_fits_a_phone_and_loads_cleanly(site):
    with serve_in_browser(site) as (browser, _):
        page, errors, failed = open_page(
            browser, f"{SITEURL}/acme/widget/2026-W21/", 390, published=(SITEURL, site)
        )
        assert errors == [] and failed == []
        assert page_width(page) <= 390  # long paths and titles wrap instead of widening the page
        assert page.locator("table.pulls tbody tr").count() == 4
        assert page.evaluate("window.__xss === undefined")  # no injected handler ran


def test_an_incomplete_week_says_so_and_names_its_source(tmp_path):
    from digest_plugin.records.state import Window

    _store(tmp_path)
    store = Store(tmp_path / "data")
    store.write_state(
        RepoState(
            repo="acme/widget",
            source="github",
            fetched_at=datetime(2026, 5, 25, 6, tzinfo=UTC),
            complete_since=datetime(2026, 5, 4, tzinfo=UTC),
            watermark=datetime(2026, 5, 25, 6, tzinfo=UTC),
            incomplete=(
                Window(datetime(2026, 5, 12, tzinfo=UTC), datetime(2026, 5, 13, tzinfo=UTC)),
            ),
        )
    )
    output = build_site(tmp_path)
    w20 = page(output, "acme/widget/2026-W20/index.html")
    assert "status-incomplete" in w20.select_one(".status")["class"]
    assert "incomplete" in w20.select_one(".status").text
    w19 = page(output, "acme/widget/2026-W19/index.html")
    assert "status-complete" in w19.select_one(".status")["class"]
    assert "fetched from GitHub at 2026-05-25 06:00 UTC" in w20.select_one(".provenance").text
    # a complete week does not say when: its page (and PDF) stay the same at the next fetch
    assert "fetched from GitHub after the week ended" in w19.select_one(".provenance").text


def test_a_failed_fetch_still_builds_from_the_store_and_says_so(tmp_path, monkeypatch):
    _store(tmp_path)
    store = Store(tmp_path / "data")
    store.write_state(
        RepoState(
            repo="acme/widget",
            source="github",
            fetched_at=datetime(2026, 5, 25, 6, tzinfo=UTC),
            complete_since=datetime(2026, 5, 4, tzinfo=UTC),
            watermark=datetime(2026, 5, 25, 6, tzinfo=UTC),
        )
    )
    before = {p: p.read_bytes() for p in (tmp_path / "data").rglob("*.jsonl")}
    from tests.github_server import GitHubServer

    with GitHubServer({}) as github:  # a GitHub that rejects the token
        for name, value in github.env(token="ghp_revokedToken00000000000000000000000").items():
            monkeypatch.setenv(name, value)
        output = build_site(tmp_path, DIGEST_FETCH="always")
    warning = page(output, "acme/widget/2026-W19/index.html").select_one(".warning")
    assert warning is not None and "acme/widget" in warning.text and "token" in warning.text
    assert "ghp_revoked" not in (output / "acme/widget/2026-W19/index.html").read_text()
    assert {p: p.read_bytes() for p in (tmp_path / "data").rglob("*.jsonl")} == before


def test_the_markdown_has_the_sections_of_the_page_in_the_same_order(site):
    soup = page(site, "acme/widget/2026-W19/index.html")
    on_page = [h2.get_text(strip=True) for h2 in soup.select("article.week h2")]
    markdown = (site / "acme/widget/2026-W19/digest.md").read_text(encoding="utf-8")
    in_markdown = [line[3:].strip() for line in markdown.splitlines() if line.startswith("## ")]
    assert on_page[: len(in_markdown)] == in_markdown and on_page[len(in_markdown) :] == [
        "Downloads"
    ]
    for caption in soup.select(
        ".stats-grid caption"
    ):  # authors, hot files and directories included
        assert f"### {caption.get_text(strip=True)}" in markdown, caption
    numbers = [a.get_text() for a in soup.select("table.pulls td.pr a")]
    assert all(f"[{n}](<https://github.com/acme/widget/pull/{n[1:]}>)" in markdown for n in numbers)


def test_key_changes_show_importance_once_with_its_factors_on_demand(site):
    soup = page(site, "acme/widget/2026-W21/index.html")
    for change in soup.select(".key-pulls > li"):
        assert len(change.select(".score")) == 1
        assert change.select_one("details.importance table.factors")
        assert "-" not in change.select_one("table.factors").get_text().replace(
            "−", ""
        )  # a true minus, never a hyphen
        assert (
            " by " in change.select_one(".meta").get_text()
        )  # badges and words apart, as a reader hears them
    assert not soup.select("figure details"), (
        "a chart's numbers sit beside its figure, not inside it"
    )


def test_an_editors_note_leads_the_page_the_feed_the_markdown_and_the_pdf(site):
    soup = page(site, "acme/widget/2026-W19/index.html")
    first = soup.select("article.week section")[0]
    assert "editor-note" in first["class"] and "tell us what breaks" in first.get_text()
    assert "The editor's words (The widget team)" in first.get_text() and first.find(
        "em", string="experimental"
    )
    feed = feedparser.parse((site / "feeds/acme/widget.atom.xml").read_bytes())
    entry = next(e for e in feed.entries if e.link.endswith("2026-W19/"))
    assert entry.content[0].value.index("tell us what breaks") < entry.content[0].value.index(
        "Summary"
    )
    markdown = (site / "acme/widget/2026-W19/digest.md").read_text(encoding="utf-8")
    assert (
        markdown.index("## Editor's note") < markdown.index("## Summary")
        and "> The cache in #1 is *experimental*" in markdown
    )
    assert "tell us what breaks" in pdf_text(site / "acme/widget/2026-W19/digest.pdf")
    assert (
        not (site / "acme/widget/2026-W21/index.html")
        .read_text(encoding="utf-8")
        .count("editor-note")
    )
    archives = page(site, "archives/index.html")
    assert "Cache week" not in archives.get_text()  # a note is not an article of its own


def test_a_note_for_a_week_that_does_not_exist_names_its_file(tmp_path):
    _store(tmp_path)
    _note(tmp_path, "2026-W30")
    with pytest.raises(
        DigestError,
        match=r"notes/acme/widget/2026-W30\.md is for 2026-W30, a week acme/widget does not have",
    ):
        build_site(tmp_path)


def test_each_week_has_a_pdf_of_its_report(site):
    for week in ("2026-W19", "2026-W21"):
        text = pdf_text(site / "acme/widget" / week / "digest.pdf")
        assert f"acme/widget, week {week}" in " ".join(text.split())
    soup = page(site, "acme/widget/2026-W21/index.html")
    assert soup.find("a", href="digest.pdf") or soup.find(
        "a", href=f"{SITEURL}/acme/widget/2026-W21/digest.pdf"
    )
    assert "fix: follow-up to #1" in pdf_text(site / "acme/widget/2026-W21/digest.pdf")


def test_a_pdf_is_the_report_a_reader_prints_not_every_table_of_the_page(site):
    """The report's sections, each key PR's score with its factors in a line, and every PR of the
    week as a line of its own; not the highlights, whose titles the key changes and that list show
    again, the statistics, the bot updates or the table of every PR."""
    left_out = (
        "Highlights",
        "First-time contributors",
        "Dependency and bot updates",
        "Statistics",
        "Downloads",
    )
    for folder in (
        "2026-W19",
        "2026-W21",
    ):  # a week with a note and every section, and one without a note
        headings = [
            h2.get_text(strip=True)
            for h2 in page(site, f"acme/widget/{folder}/index.html").select("article.week h2")
        ]
        lines = [
            line.strip()
            for line in pdf_text(site / f"acme/widget/{folder}/digest.pdf").splitlines()
        ]
        assert [line for line in lines if line in headings] == [
            h for h in headings if h not in left_out
        ], folder
    week = page(site, "acme/widget/2026-W19/index.html")
    headings = [h2.get_text(strip=True) for h2 in week.select("article.week h2")]
    assert {
        "Editor's note",
        "Highlights",
        "Risks",
        "Statistics",
        "Dependency and bot updates",
        "All merged PRs",
    } <= set(headings)
    text = " ".join(pdf_text(site / "acme/widget/2026-W19/digest.pdf").split())
    assert (
        "How the score adds up" not in text and "The numbers" not in text
    )  # the page's tables on demand
    for row in week.select("table.pulls tbody tr"):
        number, title = (
            row.select_one("td.pr").get_text(strip=True),
            row.select_one("td.title").get_text(strip=True),
        )
        assert f"{number} {title} · {row.select_one('td.author bdi').get_text()}" in text, (
            number,
            text,
        )
    factor = week.select_one("ol.key-pulls table.factors tbody td").get_text()
    assert f"Importance {week.select_one('ol.key-pulls .score').get_text()} / 10: {factor}" in text


def test_the_page_and_the_pdf_tell_the_first_ten_key_changes_and_the_others_in_brief(tmp_path):
    monday = datetime(2026, 5, 4, 9, tzinfo=UTC)
    pulls = [
        make_pull(
            n,
            monday + timedelta(hours=n),
            f"feat: part {n} of the engine",
            author=f"dev{n % 4}",
            files=[(f"core/part{n}.py", 100 + n, 2, "modified")],
        )
        for n in range(1, 15)
    ]
    store = Store(tmp_path / "data")
    store.upsert("acme/widget", pulls)
    store.write_state(
        RepoState(repo="acme/widget", source="import", fetched_at=datetime(2026, 5, 25, tzinfo=UTC))
    )
    output = build_site(tmp_path, DIGEST_PDF=True, DIGEST_KEY_THRESHOLD=0)  # every PR is key
    week = page(output, "acme/widget/2026-W19/index.html")
    key_titles = [h3.select_one("bdi").get_text() for h3 in week.select("ol.key-pulls h3")]
    assert len(key_titles) == 10  # the ten most important in full
    assert week.select_one("h3.more-key-changes").get_text() == "4 more key PRs, in brief"
    briefly = [li.get_text(" ", strip=True) for li in week.select("ul.brief-key-pulls li")]
    listed = [
        row.select_one("a").get_text() for row in week.select("table.pulls tbody tr")
    ]  # every PR, most important first
    assert [line.split()[0] for line in briefly] == listed[10:14]
    assert all("importance" in line for line in briefly)
    text = pdf_text(output / "acme/widget/2026-W19/digest.pdf")
    key_section = " ".join(text[text.index("Key changes") : text.index("All merged PRs")].split())
    assert [title for title in key_titles if title in key_section] == key_titles
    assert "4 more key PRs, in brief" in key_section and all(
        number in key_section for number in listed[10:14]
    )


def test_a_pdf_shows_the_charts_of_its_page(site):
    """Every chart of the week's page is in its PDF (chart text is text, so its title comes back out)."""
    for week in ("2026-W19", "2026-W21"):
        titles = [
            img["alt"].split(":")[0]
            for img in page(site, f"acme/widget/{week}/index.html").select(".chart figure img")
        ]
        assert len(titles) >= 3, titles
        text = " ".join(pdf_text(site / "acme/widget" / week / "digest.pdf").split())
        for title in titles:
            assert text.count(title) >= 2, (week, title)  # drawn in the chart and in its caption


def test_an_emoji_label_is_drawn_with_an_emoji_font_in_the_pdf(site):
    """W21 has the label "🚀": its PDF embeds the emoji font; W19 has no emoji, and its PDF does not,
    so digits and "#" are never set in the emoji font's keycap glyphs."""
    fonts = shutil.which("pdffonts") and shutil.which("fc-list")
    if (
        not fonts
        or "Noto Color Emoji"
        not in subprocess.run(["fc-list"], capture_output=True, text=True).stdout
    ):
        pytest.skip(
            "pdffonts or Noto Color Emoji is missing (Debian: apt-get install poppler-utils fonts-noto-color-emoji)"
        )

    def embedded(week):
        listing = subprocess.run(
            ["pdffonts", str(site / "acme/widget" / week / "digest.pdf")],
            capture_output=True,
            text=True,
            check=True,
        )
        return listing.stdout

    assert "Emoji" in embedded("2026-W21") and "🚀" in pdf_text(
        site / "acme/widget/2026-W21/digest.pdf"
    )
    assert "Emoji" not in embedded("2026-W19")


def test_a_feed_entry_is_the_weeks_report_in_brief(site):
    feed = feedparser.parse((site / "feeds/acme/widget.atom.xml").read_bytes())
    entry = next(e for e in feed.entries if e.link.endswith("2026-W19/"))
    body = BeautifulSoup(entry.content[0].value, "html.parser")
    headings = [h2.get_text() for h2 in body.find_all("h2")]
    assert (
        headings[:2] == ["Editor's note", "Summary"]
        and "Key changes" in headings
        and "Statistics" not in headings
    )
    chart = body.find("img")
    assert chart["src"] == f"{SITEURL}/acme/widget/2026-W19/activity-trend.png"
    assert (site / "acme/widget/2026-W19/activity-trend.png").exists()
    assert not list(site.glob("acme/widget/2026-W19/labels-trend.png")), (
        "PNG only where a feed shows it"
    )
    assert len(entry.content[0].value) < 6000


def test_a_chinese_site_has_chinese_pdfs_and_a_discussion_link(tmp_path):
    _store(tmp_path)
    output = build_site(
        tmp_path,
        DIGEST_LANGUAGE="zh",
        DIGEST_PDF=True,
        DIGEST_DISCUSS_URL="https://github.com/{owner}/{name}/discussions/new?title={week}",
    )
    text = pdf_text(output / "acme/widget/2026-W19/digest.pdf")
    assert (
        "周报" in text and "已合入" in text
    )  # drawn with a CJK font: the characters come back out
    if (
        shutil.which("fc-list")
        and "Droid Sans Fallback"
        in subprocess.run(["fc-list"], capture_output=True, text=True).stdout
    ):
        assert (
            output / "acme/widget/2026-W19/digest.pdf"
        ).stat().st_size < 1_000_000  # the font cut to what is used
    soup = page(output, "acme/widget/2026-W19/index.html")
    assert soup.find("a", href="https://github.com/acme/widget/discussions/new?title=2026-W19")
