"""The pages around the weeks, read from the built HTML: the index, repository, label and author
pages, feeds, search, the 404 page and the sitemap; links, metadata and the security policy on
every page. On the bundled sample (as `make html` builds it) and on a tiny published site with
hostile text (absolute URLs)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote, urljoin, urlparse

import pytest
from bs4 import BeautifulSoup

from digest_plugin.publish.site_index import NEWEST_WEEKS
from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from tests.browser_harness import shared_sample
from tests.conftest import make_pull
from tests.site.test_site_build import HOSTILE, SITEURL, _store
from tests.site_builder import build_site


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    return shared_sample(tmp_path_factory, "en")


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    folder = tmp_path_factory.mktemp("published")
    _store(folder)
    return build_site(folder, SITEURL=SITEURL, RELATIVE_URLS=False, FEED_DOMAIN=SITEURL)


def html_pages(site):
    return sorted(p for p in site.rglob("*.html") if "pagefind" not in p.parts)


def soup_of(path):
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_every_page_forbids_inline_script_and_has_none(sample):
    for path in html_pages(sample):
        soup = soup_of(path)
        policy = soup.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
        assert policy, path
        script_src = re.search(r"script-src ([^;]*)", policy["content"])[1]
        assert "'unsafe-inline'" not in script_src and "'self'" in script_src, path
        assert all(script.get("src") for script in soup.find_all("script")), (
            f"inline script in {path}"
        )
        handlers = [
            attr
            for tag in soup.find_all(True)
            for attr in tag.attrs
            if attr.lower().startswith("on")
        ]
        assert handlers == [], path


def test_a_weeks_link_preview_is_the_plain_text_of_its_summary(sample):
    """Link previews (description, og:description) show the summary as a reader reads it: no
    markup of the PR links, no character references."""
    weeks = sorted(sample.glob("*/*/[0-9][0-9][0-9][0-9]-W[0-9][0-9]/index.html"))
    assert weeks
    for path in weeks:
        soup = soup_of(path)
        summary = " ".join(soup.select_one("section.summary p").get_text().split())
        for meta in (
            soup.find("meta", attrs={"name": "description"}),
            soup.find("meta", property="og:description"),
        ):
            text = meta["content"]
            assert "<" not in text and not re.search(r"&#?\w+;", text), (path, text)
            assert summary.startswith(text.removesuffix("…")), (path, text, summary)


def test_every_page_describes_itself_and_offers_the_site_feed(sample):
    for path in html_pages(sample):
        soup = soup_of(path)
        description = soup.find("meta", attrs={"name": "description"})
        assert description and description["content"].strip(), path
        assert soup.find("meta", property="og:title")["content"].strip(), path
        image = soup.find("meta", property="og:image")
        assert image and image["content"].endswith(".png"), path
        feeds = [link["href"] for link in soup.find_all("link", rel="alternate")]
        assert any(href.endswith("feeds/all.atom.xml") for href in feeds), path


def test_published_pages_preview_with_absolute_urls(published):
    for path in (
        "index.html",
        "acme/widget/index.html",
        "acme/widget/2026-W21/index.html",
        "labels/dependencies/index.html",
    ):
        soup = soup_of(published / path)
        image = soup.find("meta", property="og:image")["content"]
        assert image.startswith(SITEURL + "/") and image.endswith(".png"), image
        assert (published / image[len(SITEURL) + 1 :]).is_file(), image
        assert soup.find("meta", property="og:url")["content"] == SITEURL + "/" + path.removesuffix(
            "index.html"
        )


def test_png_is_drawn_only_for_the_chart_a_feed_or_preview_shows(sample):
    pngs = sorted(sample.rglob("*.png"))
    weeks = sorted(sample.glob("*/*/20??-W??/index.html"))
    assert len(pngs) == len(weeks)  # one per week: the activity chart
    assert all(png.name == "activity-trend.png" for png in pngs)
    for week in weeks:
        assert not soup_of(week).select('img[src$=".png"]')  # pages show SVG


def test_every_internal_link_resolves(sample):
    broken = []
    for path in html_pages(sample):
        url = "http://site/" + path.relative_to(sample).as_posix()
        soup = soup_of(path)
        for tag, attribute in (("a", "href"), ("link", "href"), ("img", "src"), ("script", "src")):
            for element in soup.find_all(tag, attrs={attribute: True}):
                target = urlparse(urljoin(url, element[attribute]))
                if target.netloc != "site" or target.scheme not in ("http", ""):
                    continue
                local = sample / unquote(target.path).lstrip("/")
                if not (local.is_file() or (local / "index.html").is_file()):
                    broken.append(f"{path.relative_to(sample)} -> {element[attribute]}")
    assert broken == []


def test_the_header_links_the_repositories_labels_feeds_search_and_about(sample):
    nav = soup_of(sample / "index.html").select_one(".site-header nav")
    hrefs = [a["href"] for a in nav.find_all("a")]
    for target in ("repositories/", "labels/", "archives/", "feeds/", "search/", "pages/about/"):
        assert any(href.endswith(target) for href in hrefs), target


def test_index_shows_each_repository_once_with_its_last_complete_week(sample):
    soup = soup_of(sample / "index.html")
    cards = soup.select(".repo-cards .card")
    assert len(cards) == 2
    for card in cards:
        assert card.select_one("svg.trend")["aria-label"].startswith(
            "Merged pull requests per week"
        )
        summary = card.select_one(".summary").get_text(" ", strip=True)
        assert soup.get_text(" ", strip=True).count(summary[:80]) == 1  # not repeated below


def test_repository_page_leads_with_its_latest_week_then_weeks_then_charts(sample):
    soup = soup_of(sample / "brackenforge/glassfinch/index.html")
    order = [section.get("aria-labelledby") for section in soup.select("main section")]
    assert order[:3] == ["latest", "weeks", "history"]
    latest = soup.select_one(".latest h2 a")["href"]
    assert (
        latest == soup.select_one("table.weeks tbody a")["href"]
    )  # the newest week, complete in the sample
    feeds = [link["href"] for link in soup.find_all("link", rel="alternate")]
    assert any(href.endswith("feeds/brackenforge/glassfinch.atom.xml") for href in feeds)


def test_a_label_page_shows_a_row_per_week_and_the_pull_requests_of_its_newest_weeks(published):
    soup = soup_of(published / "labels/dependencies/index.html")
    weeks = soup.select("table.weeks tbody tr")
    assert [[cell.get_text(strip=True) for cell in row.select("td")] for row in weeks] == [
        ["2026-W19", "1", "0"]
    ]
    assert weeks[0].select_one("a")["href"] == SITEURL + "/acme/widget/2026-W19/"
    assert [
        row.select_one("td").get_text(strip=True)
        for row in soup.select("table.week-pulls tbody tr")
    ] == ["#3"]
    assert soup.select_one("figure.trend-figure svg rect")
    feeds = [link["href"] for link in soup.find_all("link", rel="alternate")]
    assert SITEURL + "/feeds/labels/dependencies.atom.xml" in feeds
    # every module and label page, hostile ones included, has its weeks and its newest PRs
    for path in published.glob("labels/*/index.html"):
        label = soup_of(path)
        assert label.select("table.weeks tbody tr") and label.select("table.week-pulls tbody tr"), (
            path
        )


def test_a_busy_labels_weeks_count_what_their_pages_list_and_its_newest_prs_are_theirs(sample):
    """Each row of a label's weeks counts the PRs with the label that the week's own page lists; the
    label's newest weeks list exactly those PRs, and the older ones are left to their week's page."""
    label = soup_of(sample / "labels/bug/index.html")
    rows = label.select("table.weeks tbody tr")
    assert len(rows) > NEWEST_WEEKS and not label.select_one(
        "nav.pagination"
    )  # a page holds a hundred weeks
    counted, listed = 0, {}
    for row in rows:
        link = row.select_one("a")["href"]
        week = soup_of(sample / urljoin("labels/bug/", link) / "index.html")
        with_label = [
            tr
            for tr in week.select("table.pulls tbody tr")
            if "bug" in tr.select_one("td.tags").get_text().split(", ")
        ]
        cells = [cell.get_text(strip=True) for cell in row.select("td")]
        assert cells[-2:] == [
            str(len(with_label)),
            str(sum("key" in tr.get("class", []) for tr in with_label)),
        ], link
        listed[link] = [tr.select_one("td.pr").get_text(strip=True) for tr in with_label]
        counted += len(with_label)
    assert counted == int(label.select_one("p.lead").get_text().split()[0])
    groups = label.select("section[aria-labelledby=newest] h3")
    assert 1 <= len(groups) <= NEWEST_WEEKS
    assert [group.select_one("a")["href"] for group in groups] == [
        row.select_one("a")["href"] for row in rows[: len(groups)]
    ]
    for group in groups:
        shown = group.find_next("table").select("tbody tr")
        assert [tr.select_one("td").get_text(strip=True) for tr in shown] == listed[
            group.select_one("a")["href"]
        ]


def test_a_label_and_an_author_with_many_weeks_are_paged_and_only_the_first_page_lists_prs(
    tmp_path,
):
    monday = datetime(2026, 3, 2, 9, tzinfo=UTC)
    pulls = [
        make_pull(
            n + 1,
            monday + timedelta(days=7 * (n // 2)),
            f"fix: bug number {n + 1}",
            author="carol",
            labels=("bug",),
            files=[("core/parse.py", 5, 2, "modified")],
        )
        for n in range(14)
    ]  # seven weeks, two PRs each
    store = Store(tmp_path / "data")
    store.upsert("acme/widget", pulls)
    store.write_state(
        RepoState(repo="acme/widget", source="import", fetched_at=monday + timedelta(weeks=8))
    )
    site = build_site(tmp_path, PAGINATED_TEMPLATES={"index": None, "tag": 3, "digest_author": 3})
    for folder in ("labels/bug", "authors/carol"):
        pages = sorted(
            (site / folder).glob("index*.html"), key=lambda path: (len(path.name), path.name)
        )
        soups = [soup_of(path) for path in pages]
        assert len(soups) == 3, folder
        weeks = [
            row.select_one("a").get_text()
            for soup in soups
            for row in soup.select("table.weeks tbody tr")
        ]
        assert weeks == sorted(set(weeks), reverse=True) and len(weeks) == 7, (folder, weeks)
        listed = [
            [
                row.select_one("td").get_text(strip=True)
                for row in soup.select("table.week-pulls tbody tr")
            ]
            for soup in soups
        ]
        assert len(listed[0]) == 2 * NEWEST_WEEKS and listed[1:] == [[], []], (folder, listed)
        assert [bool(soup.select("figure.trend-figure")) for soup in soups] == [True, False, False]
        assert all(soup.select_one("nav.pagination") for soup in soups)


def test_a_label_and_an_author_page_grow_with_their_weeks_not_with_their_prs(tmp_path):
    """Two labels (and two authors) over the same eight weeks, one PR a week each, except that the
    busy one has 25 PRs in each of its four older weeks: the busy pages list the same four newest
    PRs, count the older ones in their weeks' rows, and are no bigger for it than a few digits."""
    monday = datetime(2026, 3, 2, 9, tzinfo=UTC)
    quiet = [(monday + timedelta(weeks=week), "quiet", "erin") for week in range(8)]
    busy = [
        (monday + timedelta(weeks=week, minutes=n), "busy", "dave")
        for week in range(8)
        for n in range(25 if week < 4 else 1)
    ]
    pulls = [
        make_pull(number, merged, f"fix: {label} change {number}", author=author, labels=(label,))
        for number, (merged, label, author) in enumerate(quiet + busy, start=1)
    ]
    store = Store(tmp_path / "data")
    store.upsert("acme/widget", pulls)
    store.write_state(
        RepoState(repo="acme/widget", source="import", fetched_at=monday + timedelta(weeks=9))
    )
    site = build_site(tmp_path)
    for small, big in (("labels/quiet", "labels/busy"), ("authors/erin", "authors/dave")):
        page = soup_of(site / big / "index.html")
        assert [
            [cell.get_text(strip=True) for cell in row.select("td")][1]
            for row in page.select("table.weeks tbody tr")
        ] == ["1"] * 4 + ["25"] * 4
        assert [a["href"] for a in page.select("table.weeks a")] == [
            f"../../acme/widget/2026-W{week}/" for week in range(17, 9, -1)
        ]
        listed = [
            row.select_one("td").get_text(strip=True)
            for row in page.select("table.week-pulls tbody tr")
        ]
        assert listed == [f"#{number}" for number in (112, 111, 110, 109)], (
            big
        )  # the newest four weeks' PRs, one each
        assert "change 9 " not in page.get_text()  # an older week's PR is on its week's page only
        growth = (site / big / "index.html").stat().st_size - (
            site / small / "index.html"
        ).stat().st_size
        assert abs(growth) < 500, (
            big,
            growth,
        )  # 96 more PRs, which listed would add 200 bytes or more each
        assert page.select_one("p.lead").get_text() == "104 pull requests in 8 weeks."


def test_an_author_page_lists_their_pull_requests_and_escapes_titles(published):
    soup = soup_of(published / "authors/mallory/index.html")
    assert HOSTILE in soup.get_text() and not soup.find("script")
    assert [a.get_text() for a in soup.select("table.week-pulls td a[href*='/pull/']")] == ["#4"]
    assert [a["href"] for a in soup.select("table.weeks td a")] == [
        SITEURL + "/acme/widget/2026-W21/"
    ]
    assert soup.select_one("p.lead").get_text() == "1 pull request in 1 week."
    crafted = soup_of(published / "authors/3/index.html")  # PR 7's address is javascript:...
    assert crafted.select("table.week-pulls tbody tr") and not crafted.select(
        "a[href^='javascript']"
    )
    bob = soup_of(published / "authors/index.html")
    assert "dependabot[bot]" in bob.get_text()
    assert (published / "authors/dependabot-bot/index.html").is_file()


def test_the_samples_feeds_together_stay_under_5_mb(sample):
    """Site and repository feeds carry each week's report in brief, label feeds only the label's PRs."""
    feeds = list((sample / "feeds").rglob("*.xml"))
    assert (
        len(feeds) > 50
    )  # the site's, each repository's, each label's and path module's, Atom and RSS
    assert sum(f.stat().st_size for f in feeds) < 5_000_000


def test_a_week_page_with_its_charts_stays_under_200_kb(sample):
    for week in sorted(sample.glob("*/*/20??-W??/index.html")):
        charts = [
            week.parent / img["src"]
            for img in soup_of(week).select("img[src]")
            if "/" not in img["src"]
        ]
        assert charts, week
        size = week.stat().st_size + sum(chart.stat().st_size for chart in charts)
        assert size < 200_000, f"{week.parent.name}: {size} bytes"


def test_feeds_page_lists_every_feed_the_site_writes(sample):
    soup = soup_of(sample / "feeds/index.html")
    listed = {
        urlparse(urljoin("http://site/feeds/", a["href"])).path.lstrip("/")
        for a in soup.select(".feed-list a")
    }
    written = {p.relative_to(sample).as_posix() for p in (sample / "feeds").rglob("*.xml")}
    assert listed == written


def test_sitemap_lists_every_page_but_the_404(published):
    root = ET.parse(published / "sitemap.xml").getroot()
    locs = {loc.text for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}
    assert SITEURL + "/acme/widget/2026-W21/" in locs and SITEURL + "/" in locs
    assert SITEURL + "/404.html" not in locs
    assert len(locs) == len(list(published.rglob("*.html"))) - 1


def test_404_page_works_from_any_depth(published):
    soup = soup_of(published / "404.html")
    assert soup.select_one("link[rel=stylesheet]")["href"] == SITEURL + "/theme/css/style.css"
    assert all(a["href"].startswith(SITEURL) for a in soup.select("main a"))


def test_search_page_and_index(sample):
    soup = soup_of(sample / "search/index.html")
    assert soup.select_one("#search[data-bundle]") and soup.select_one(".search-fallback")
    assert (sample / "pagefind" / "pagefind-entry.json").is_file()
    assert (sample / "pagefind" / "pagefind-ui.js").is_file()
