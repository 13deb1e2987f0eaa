"""The sample site as a reader gets it, in headless Chromium: English and Chinese, phone and desktop,
light and dark; with axe-core and the Nu HTML Checker on every kind of page.

Screenshots land in the pytest temporary folder (`screenshots/`), for a person to look at.
"""

from __future__ import annotations

import contextlib
import os

import pytest

from digest_plugin.charts.draw import CSS_DPI, FONT_SIZE
from tests.browser_harness import (
    ROOT,
    axe_findings,
    chromium,
    open_page,
    page_width,
    serve_folder,
    shared_sample,
    vnu_errors,
)

pytestmark = pytest.mark.browser

LANGUAGES = {"en": (), "zh": ('DIGEST_LANGUAGE="zh"',)}
PHONE, DESKTOP = 390, 1280
# axe findings that fail a page whatever their impact, besides every serious or critical one.
ALWAYS_FAILING = {"landmark-unique", "heading-order", "color-contrast"}
# The week page's own templates ship in digest_plugin/templates/; a checkout without them still has
# the earlier week page, whose PR table crushes titles on a phone and which repeats its week navigation.
EARLIER_WEEK_PAGE = not (ROOT / "digest_plugin" / "templates" / "digest_week.html").exists()
EARLIER_WEEK_PAGE_REASON = (
    "the earlier week page (before digest_plugin/templates/) is known to fail this"
)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    # Every other pytest-xdist worker asks for the languages the other way round, so that two
    # workers build the two sites at the same time rather than one after the other.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    order = sorted(LANGUAGES, reverse=int(worker.removeprefix("gw") or 0) % 2 == 1)
    built = {
        language: shared_sample(tmp_path_factory, language, *LANGUAGES[language])
        for language in order
    }
    return {language: built[language] for language in LANGUAGES}


@pytest.fixture(scope="module")
def served(sites):
    """One browser; each language's site at the root of its own server, as it is deployed."""
    with chromium() as browser, contextlib.ExitStack() as servers:
        yield (
            browser,
            {
                language: servers.enter_context(serve_folder(site))
                for language, site in sites.items()
            },
        )


def week_path(site) -> str:
    """The newest complete week of the first repository: the page the issue's readers look at."""
    weeks = sorted(site.glob("*/*/20??-W??/index.html"))
    return weeks[-2].parent.relative_to(site).as_posix() + "/"


def pages_of(site) -> dict[str, str]:
    """One page of every kind, by name: its path under the site."""
    repo = week_path(site).rsplit("/", 2)[0] + "/"
    label = next(p for p in sorted((site / "labels").glob("*/index.html")))
    author = next(p for p in sorted((site / "authors").glob("*/index.html")))
    return {
        "week": week_path(site),
        "index": "",
        "repository": repo,
        "label": label.parent.relative_to(site).as_posix() + "/",
        "labels": "labels/",
        "author": author.parent.relative_to(site).as_posix() + "/",
        "repositories": "repositories/",
        "archives": "archives/",
        "feeds": "feeds/",
        "search": "search/",
        "about": "pages/about/",
        "404": "404.html",
    }


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    return tmp_path_factory.mktemp("screenshots")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
@pytest.mark.parametrize("kind", ["week", "index", "repository"])
def test_page_loads_cleanly_and_fits_the_screen(
    served, sites, screenshots, kind, width, scheme, language
):
    browser, bases = served
    path = pages_of(sites[language])[kind]
    page, errors, failed = open_page(browser, f"{bases[language]}/{path}", width, scheme=scheme)
    page.screenshot(
        path=str(screenshots / f"{kind}-{language}-{width}-{scheme}.png"), full_page=True
    )
    assert errors == [], errors  # a CSP violation (an inline script, say) is a console error too
    assert failed == []
    assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    assert page_width(page) <= width, f"{path} scrolls sideways at {width} px"
    page.close()


def test_no_page_scrolls_sideways_on_the_narrowest_phone(served, sites):
    browser, bases = served
    wide = []
    for kind, path in pages_of(sites["en"]).items():
        page, _errors, _failed = open_page(browser, f"{bases['en']}/{path}", 360)
        if page_width(page) > 360:
            wide.append(f"{kind}: {page_width(page)} px")
        page.close()
    assert wide == []


@pytest.mark.xfail(EARLIER_WEEK_PAGE, reason=EARLIER_WEEK_PAGE_REASON, strict=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_pull_request_titles_keep_room_on_a_phone(served, sites, language):
    browser, bases = served
    page, _errors, _failed = open_page(
        browser, f"{bases[language]}/{week_path(sites[language])}", PHONE
    )
    share = page.evaluate("""() => {
        const table = document.querySelector('table.pulls');
        const title = table.querySelector('tbody tr td:nth-child(2)');
        return title.getBoundingClientRect().width / table.getBoundingClientRect().width;
    }""")
    assert share >= 0.4, f"the title column is {share:.0%} of the table"
    page.close()


@pytest.mark.parametrize("kind", ["week", "repository"])
def test_chart_text_is_at_least_11_pixels_on_a_phone(served, sites, kind):
    browser, bases = served
    page, _errors, _failed = open_page(
        browser, f"{bases['en']}/{pages_of(sites['en'])[kind]}", PHONE
    )
    scales = page.evaluate(
        "[...document.querySelectorAll('.chart figure img')].map(i => i.width / i.naturalWidth)"
    )
    assert scales
    smallest = (FONT_SIZE - 1) * CSS_DPI / 72  # ticks and legends, in CSS pixels at full size
    assert min(scales) * smallest >= 11, f"chart text shown at {min(scales) * smallest:.1f} px"
    page.close()


def test_search_finds_a_week_without_breaking_the_content_security_policy(served, sites):
    browser, bases = served
    word = "OpenTelemetry"
    page, errors, failed = open_page(browser, f"{bases['en']}/search/?q={word}", DESKTOP)
    page.locator(".pagefind-ui__result-link").first.wait_for()
    links = page.eval_on_selector_all(
        ".pagefind-ui__result-link", "links => links.map(a => a.getAttribute('href'))"
    )
    assert links and all("-W" in link for link in links)
    assert page.locator(".search-fallback").is_hidden()
    assert errors == [] and failed == []
    page.close()


def test_without_the_index_the_search_page_points_elsewhere(served):
    browser, bases = served
    page = browser.new_page()
    page.route("**/pagefind/**", lambda route: route.fulfill(status=404, body=""))
    page.goto(f"{bases['en']}/search/", wait_until="networkidle")
    assert page.locator(".search-fallback").is_visible()
    assert page.locator("input").count() == 0
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_finds_nothing_serious(served, sites, language, scheme):
    browser, bases = served
    problems, week_problems = [], []
    main_kinds = ("week", "index", "repository")
    for kind, path in pages_of(sites[language]).items():
        if language != "en" and kind not in main_kinds:
            continue  # the other kinds share their markup with English; the three main ones are checked in both
        for width in (PHONE, DESKTOP) if kind in main_kinds else (DESKTOP,):
            page, _errors, _failed = open_page(
                browser, f"{bases[language]}/{path}", width, scheme=scheme, bypass_csp=True
            )
            for finding in axe_findings(page):
                if finding["impact"] in ("serious", "critical") or finding["id"] in ALWAYS_FAILING:
                    targets = [" ".join(map(str, node["target"])) for node in finding["nodes"][:3]]
                    found = week_problems if kind == "week" and EARLIER_WEEK_PAGE else problems
                    found.append(
                        f"{kind} at {width}px: {finding['id']} ({finding['impact']}) {targets}"
                    )
            page.close()
    assert problems == [], "\n".join(problems)
    if week_problems:
        pytest.xfail(EARLIER_WEEK_PAGE_REASON + ": " + "; ".join(week_problems))


@pytest.mark.parametrize("language", LANGUAGES)
def test_nu_html_checker_finds_no_error(sites, language):
    site = sites[language]
    files = [
        site / (path + "index.html" if not path.endswith(".html") else path)
        for path in pages_of(site).values()
    ]
    files += sorted(site.glob("*/*/20??-W??/index.html"))  # every week page
    assert vnu_errors(files) == []
