"""The week pages in other people's themes, in real headless Chromium: Pelican's notmyidea and
simple, and a theme of the Flex family, whose base.html has no `head` block. A host blog of one
post digests the bundled sample (a busy week with an editor's note is the page checked)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser_harness import ROOT, axe_findings, chromium, open_page, page_width, serve_folder

WEEK = "quillmoss/fernwheel/2026-W47/"
PHONE, DESKTOP = 375, 1280
# A theme in the manner of Flex: its head holds a `meta` block and no `head` block; its content
# block sits in a <main> of its own; its links are told from text by nothing but a shade.
HEADLESS_BASE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="data:,">
  {% block meta %}{% endblock %}
  <title>{{ SITENAME }}{% block title %}{% endblock %}</title>
  <style>body { margin: 0 auto; max-width: 60rem; padding: 0 1rem; font-family: sans-serif; color: #222; }
         a { color: #333; text-decoration: none; }</style>
</head>
<body><main>{% block content %}{% endblock %}</main></body>
</html>
"""


def _headless_theme(folder: Path) -> Path:
    templates = folder / "templates"
    templates.mkdir(parents=True)
    (templates / "base.html").write_text(HEADLESS_BASE)
    for name in (
        "index",
        "article",
        "page",
        "category",
        "tag",
        "author",
        "archives",
        "tags",
        "categories",
        "authors",
        "period_archives",
    ):
        (templates / f"{name}.html").write_text(
            '{% extends "base.html" %}{% block content %}<article class="single">'
            "{{ (article or page or {}).content }}</article>{% endblock %}"
        )
    return folder


# pelican-quickstart's settings (every feed off, SITEURL empty), which the reflex site keeps.
QUICKSTART = """AUTHOR = "Ann"
SITENAME = "A blog"
SITEURL = ""
PATH = "content"
TIMEZONE = "Europe/Rome"
DEFAULT_LANG = "en"
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
LINKS = (("Pelican", "https://getpelican.com/"), ("Python.org", "https://www.python.org/"))
SOCIAL = (("You can add links in your config file", "#"),)
DEFAULT_PAGINATION = 10
"""
# pelican-theme-reflex, as its README sets it up: dark by the reader's system; its footer reads
# CC_LICENSE unguarded; no fonts from Google (the test runs offline).
REFLEX = """import pelican.themes.reflex
THEME = pelican.themes.reflex.path()
THEME_COLOR_AUTO_DETECT_BROWSER_PREFERENCE = True
CC_LICENSE = None
USE_GOOGLE_FONTS = False
"""


def _host_settings(site: Path, theme: str) -> str:
    if theme == "reflex":
        pytest.importorskip(
            "pelican.themes.reflex",
            reason="pelican-theme-reflex is not installed (the test extra has it)",
        )
        (site / "content/two.md").write_text(
            "Title: Two\nDate: 2026-05-08\nTags: news\n\nThe second post.\n"
        )
        return QUICKSTART + REFLEX
    path = str(_headless_theme(site / "theme")) if theme == "headless" else theme
    return f'SITENAME = "A blog"\nPATH = "content"\nTHEME = "{path}"\nTIMEZONE = "UTC"\n'


@pytest.fixture(scope="module")
def host_sites(tmp_path_factory):
    """host_sites(theme): (output folder, build log) of a blog digesting the sample in that theme,
    built once: one post in Pelican's themes and the Flex-like one; quickstart's settings and two
    posts in pelican-theme-reflex."""
    built = {}

    def site_in(theme: str) -> tuple[Path, str]:
        if theme not in built:
            site = tmp_path_factory.mktemp(theme)
            (site / "content").mkdir()
            (site / "content/hello.md").write_text(
                "Title: Hello\nDate: 2026-05-01\nCategory: Notes\n\n"
                "The blog's own post, with [a link](https://example.org/).\n"
            )
            (site / "pelicanconf.py").write_text(
                _host_settings(site, theme) + 'PLUGINS = ["digest_plugin"]\n'
                f'DIGEST_DATA_PATH = "{ROOT / "data"}"\n'
                'DIGEST_FETCH = "never"\nDIGEST_PDF = False\n'
            )
            env = {
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("GITHUB_", "GH_", "DIGEST_", "SITEURL"))
            }
            pelican = str(Path(sys.executable).with_name("pelican"))
            done = subprocess.run(
                [pelican, "content", "-o", "output", "-s", "pelicanconf.py"],
                cwd=site,
                env={**env, "COLUMNS": "300"},
                capture_output=True,
                text=True,
                timeout=900,
            )
            assert done.returncode == 0, done.stdout + done.stderr
            built[theme] = (site / "output", done.stdout + done.stderr)
        return built[theme]

    return site_in


def _contrast_failures(browser, url: str, scheme: str, within: str) -> list[dict]:
    page, _errors, _failed = open_page(browser, url, DESKTOP, scheme=scheme, bypass_csp=True)
    found = [
        node
        for finding in axe_findings(page, within=within)
        if finding["id"] == "color-contrast"
        for node in finding["nodes"]
    ]
    page.close()
    return found


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["notmyidea", "simple"])
def test_the_week_adds_no_contrast_failure_to_pelicans_themes_in_light_or_dark(host_sites, theme):
    """The report takes the theme's colours: its text and figures stay readable whichever scheme
    the theme follows (notmyidea turns its text white in dark mode). What fails in the week is only
    what fails in the theme's own post: its link colour (notmyidea's red on its dark column)."""
    output, _log = host_sites(theme)
    added = []
    with chromium() as browser, serve_folder(output) as base:
        for scheme in ("light", "dark"):
            own = _contrast_failures(browser, f"{base}/hello.html", scheme, "article")
            theirs = {
                node["html"].split(" ", 1)[0] for node in own
            }  # the kinds of element failing in the theme's post: "<a"
            week = _contrast_failures(browser, f"{base}/{WEEK}", scheme, "article.week")
            added += [
                f"{scheme}: {' '.join(map(str, node['target']))}"
                for node in week
                if node["html"].split(" ", 1)[0] not in theirs
            ]
    assert added == [], f"{len(added)} text nodes: {added[:5]}"


@pytest.mark.browser
def test_the_week_sits_in_notmyideas_content_column(host_sites):
    output, _log = host_sites("notmyidea")
    with chromium() as browser, serve_folder(output) as base:
        page, _errors, _failed = open_page(browser, f"{base}/{WEEK}", DESKTOP)
        assert (
            page.locator("#content.body > article.week").count() == 1
        )  # the theme's own column, as its pages have
        box = page.locator("article.week").bounding_box()
        assert box["x"] > 100 and box["width"] <= 800, box  # centred, not edge to edge
        page.close()


@pytest.mark.browser
def test_a_theme_without_a_head_block_still_gets_the_stylesheet_and_the_feeds(host_sites):
    output, log = host_sites("headless")
    assert log.count("has no `head` block") == 1, log  # said once, for the whole build
    with chromium() as browser, serve_folder(output) as base:
        page, errors, failed = open_page(browser, f"{base}/{WEEK}", PHONE)
        assert errors == [] and failed == []
        assert (
            page.locator("main link[rel=stylesheet][href$='repo-digest/digest.css']").count() == 1
        )
        assert (
            page.locator(".figures").evaluate("element => getComputedStyle(element).display")
            == "grid"
        )  # the stylesheet applies
        assert page_width(page) <= PHONE, "a phone scrolls sideways"
        feeds = page.locator("article.week .follow a[type='application/atom+xml']")
        assert feeds.count() == 1 and feeds.get_attribute("href").endswith(
            "feeds/quillmoss/fernwheel.atom.xml"
        )
        page.goto(f"{base}/{feeds.get_attribute('href')}")  # the feed it offers is there
        assert "<feed" in page.content()
        page.close()


def _luminance(css: str) -> float:
    red, green, blue = (int(part) / 255 for part in re.findall(r"[\d.]+", css)[:3])
    return sum(
        weight * (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
        for weight, c in zip((0.2126, 0.7152, 0.0722), (red, green, blue))
    )


def _contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_charts_text_reads_on_a_theme_that_stays_light_in_dark_mode(host_sites, scheme):
    """Simple stays white when the reader's system is dark; an SVG shown by <img> follows the
    system's scheme, not the page: its dark-scheme ink (#b1bac4) was 2:1 on simple's white page. Its
    text is measured against what is behind it: the chart's own background, or the page's."""
    output, _log = host_sites("simple")
    with chromium() as browser, serve_folder(output) as base:
        page, _errors, _failed = open_page(browser, f"{base}/{WEEK}", DESKTOP, scheme=scheme)
        page_background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        page_background = (
            "rgb(255, 255, 255)" if "0, 0, 0, 0" in page_background else page_background
        )  # transparent: the canvas
        charts = page.eval_on_selector_all(".chart img", "images => images.map(image => image.src)")
        assert charts
        for chart in charts:
            page.goto(
                chart
            )  # the SVG as its own document, in the same scheme: its styles follow it as in the <img>
            ink, own = page.evaluate(
                "[getComputedStyle(document.querySelector('text')).fill, getComputedStyle(document.documentElement).backgroundColor]"
            )
            behind = page_background if own in ("rgba(0, 0, 0, 0)", "transparent") else own
            assert _contrast(ink, behind) >= 4.5, (chart, ink, behind)
        page.close()


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("theme", ["headless", "reflex"])
def test_a_pr_link_inside_a_sentence_is_told_from_the_text_in_a_theme_that_removes_underlines(
    host_sites, theme, scheme
):
    """Reflex underlines only the links of an article's `.entry-content`: in dark mode its link
    colour on its dark page could not be told from the text around it (87 links)."""
    output, _log = host_sites(theme)
    with chromium() as browser, serve_folder(output) as base:
        page, _errors, _failed = open_page(
            browser, f"{base}/{WEEK}", DESKTOP, scheme=scheme, bypass_csp=True
        )
        found = [
            node["target"]
            for finding in axe_findings(page, within="article.week")
            if finding["id"] == "link-in-text-block"
            for node in finding["nodes"]
        ]
        page.close()
    assert found == [], f"{len(found)} links: {found[:5]}"


SPLIT_WORDS = """heading => {
  const split = [];
  const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      if (tops.size > 1) split.push(match[0]);
    }
  }
  return split;
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("theme", ["notmyidea", "simple", "headless", "reflex"])
def test_the_weeks_heading_breaks_between_words_or_at_a_slash_on_a_small_phone(
    host_sites, theme, width
):
    """ "quillmoss/fernwheel," is one word to the browser, wider than a small phone's line in a
    theme's big heading: it broke mid-word ("quillmoss/fernwh" over "eel,"); it may break after its slash."""
    output, _log = host_sites(theme)
    with chromium() as browser, serve_folder(output) as base:
        split = []
        for path in (WEEK, "quillmoss/fernwheel/"):  # the repository's page too
            page, _errors, _failed = open_page(browser, f"{base}/{path}", width)
            split += page.eval_on_selector(".week h1", SPLIT_WORDS)
            page.close()
    assert split == []


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["notmyidea", "simple", "headless", "reflex"])
def test_the_six_figures_come_in_even_rows_at_every_width(host_sites, theme):
    """Six tiles in rows of 6, 3 or 2: at some widths they wrapped five and one."""
    output, _log = host_sites(theme)
    rows_seen = {}
    with chromium() as browser, serve_folder(output) as base:
        page, _errors, _failed = open_page(browser, f"{base}/{WEEK}", 320)
        for width in range(320, 1300, 20):
            page.set_viewport_size({"width": width, "height": 900})
            tops = page.eval_on_selector_all(
                ".figures > div",
                "tiles => tiles.map(tile => Math.round(tile.getBoundingClientRect().top))",
            )
            rows = sorted({top: tops.count(top) for top in tops}.values())
            rows_seen[width] = rows
        page.close()
    uneven = {width: rows for width, rows in rows_seen.items() if len(set(rows)) > 1}
    assert uneven == {}


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["notmyidea", "simple", "headless", "reflex"])
def test_a_weeks_title_names_the_site_once(host_sites, theme):
    """A theme in the manner of Flex writes SITENAME before its title block: the week's title said "A blog" twice."""
    output, _log = host_sites(theme)
    with chromium() as browser, serve_folder(output) as base:
        for path in (WEEK, "quillmoss/fernwheel/"):
            page, _errors, _failed = open_page(browser, f"{base}/{path}", DESKTOP)
            title = page.title()
            page.close()
            assert title.count("A blog") == 1 and "quillmoss/fernwheel" in title, (path, title)


def _contrast_of(node: dict) -> str:
    """ "#999999 on #ffffff, 2.84:1" from axe's color-contrast node."""
    data = next((check["data"] for check in node["any"] if isinstance(check.get("data"), dict)), {})
    return f"{data.get('fgColor')} on {data.get('bgColor')}, {data.get('contrastRatio')}:1"


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, DESKTOP])
def test_every_text_of_the_week_reads_in_reflex(host_sites, width, scheme):
    """Reflex greys the paragraphs of an article's <header> (#999 on white, 2.84:1), where the
    week's status line sits; in dark mode it paints code #c25 on #080808 (3.74:1), the path cells'.
    Unlike in Pelican's themes, nothing of the theme's own pages is excused: its text reads."""
    output, _log = host_sites("reflex")
    failing = []
    with chromium() as browser, serve_folder(output) as base:
        for path in (WEEK, "quillmoss/fernwheel/"):
            page, _errors, _failed = open_page(
                browser, f"{base}/{path}", width, scheme=scheme, bypass_csp=True
            )
            failing += [
                f"{path} {' '.join(map(str, node['target']))}: {_contrast_of(node)}"
                for finding in axe_findings(page, within=".week")
                if finding["id"] == "color-contrast"
                for node in finding["nodes"]
            ]
            page.close()
    assert failing == [], f"{len(failing)} texts: {failing[:6]}"


@pytest.mark.browser
def test_a_week_shared_from_reflex_says_what_it_is_and_where(host_sites):
    """Reflex fills Open Graph from the site alone (og:url SITEURL, empty in quickstart's settings;
    og:description SITEDESCRIPTION, unset): a week or repository shared was an empty card. Now
    each says its own title, description, address and chart."""
    output, _log = host_sites("reflex")
    with chromium() as browser, serve_folder(output) as base:
        for path in (WEEK, "quillmoss/fernwheel/"):
            page, _errors, _failed = open_page(browser, f"{base}/{path}", DESKTOP)
            tags = page.eval_on_selector_all(
                "meta[property^='og:'], meta[name=description]",
                "metas => metas.map(m => [m.getAttribute('property') || m.name, m.content])",
            )
            images = [
                page.request.get(f"{base}{content}") for name, content in tags if name == "og:image"
            ]
            page.close()
            assert len(images) == 1 and images[0].ok, (path, tags)
            assert images[0].headers["content-type"] == "image/png", (path, tags)
            by_name = {}
            for name, content in tags:
                by_name.setdefault(name, []).append(content)
            assert by_name["og:url"] == [f"/{path}"], (path, by_name)  # quickstart's SITEURL: ""
            description = by_name["og:description"]
            assert len(description) == 1 and len(description[0]) > 40, (path, by_name)
            assert by_name["description"] == description, (path, by_name)
            title = by_name["og:title"]
            assert len(title) == 1 and "quillmoss/fernwheel" in title[0], (path, by_name)


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["notmyidea", "reflex"])
def test_the_weeks_breadcrumbs_and_week_links_show_all_their_words(host_sites, theme):
    """Reflex styles every <nav> in its <main> as its menu, text at font-size 0 and links at 12 px:
    the breadcrumbs read "MY SITE QUILLMOSS/FERNWHEEL", the week itself ("› 2026-W47") gone."""
    output, _log = host_sites(theme)
    with chromium() as browser, serve_folder(output) as base:
        page, _errors, _failed = open_page(browser, f"{base}/{WEEK}", PHONE)
        hidden = page.eval_on_selector_all(
            ".week nav",
            """navs => navs.flatMap(nav => {
            const walker = document.createTreeWalker(nav, NodeFilter.SHOW_TEXT);
            const words = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const range = document.createRange();
              range.selectNodeContents(node);
              const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
              const unseen = range.getBoundingClientRect().width === 0 || size < 12;
              if (node.data.trim() && unseen) words.push(node.data.trim());
            }
            return words;
        })""",
        )
        shown = page.locator(".week nav.breadcrumbs").inner_text()
        page.close()
    assert hidden == [], hidden
    assert "2026-W47" in shown and "quillmoss/fernwheel" in shown, shown  # not in capitals


@pytest.mark.browser
def test_a_week_in_a_theme_without_a_head_block_offers_no_feeds_where_none_are_written(host_sites):
    """Quickstart's settings turn every feed off: the week in reflex, and the repository's page in
    any theme, ended on a "Follow this repository" heading with nothing under it."""
    output, _log = host_sites("reflex")
    with chromium() as browser, serve_folder(output) as base:
        for path, other in ((WEEK, "Downloads"), ("quillmoss/fernwheel/", "History")):
            page, _errors, _failed = open_page(browser, f"{base}/{path}", PHONE)
            headings = page.locator(".week h2").all_inner_texts()
            page.close()
            assert "Follow this repository" not in headings and other in headings, (path, headings)
