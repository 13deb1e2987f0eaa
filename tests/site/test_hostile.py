"""A hostile corpus in every field a stranger controls, served by the local GitHub and fetched for
real: the site builds, and no page, feed, Markdown download, PDF or terminal line carries live markup."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import zlib
from datetime import UTC, date, datetime, timedelta
from xml.etree import ElementTree as ET

import pytest
from bs4 import BeautifulSoup
from markdown_it import MarkdownIt

from digest_plugin.fetch import fetch_repos
from digest_plugin.records.pull import BRANCH_LIMIT, clean_text
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from tests.browser_harness import serve_in_browser
from tests.github_server import GitHubServer, handmade_pull
from tests.github_server.expect import quick_options
from tests.hostile_corpus import PAYLOADS, live_markup
from tests.site_builder import build_site

REPO = "octo-org/hostile"
SITEURL = "https://example.org/digest"
MONDAY = datetime(2026, 3, 2, 9, tzinfo=UTC)
TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


RTL_PAYLOAD = next(payload for payload in PAYLOADS if "\u05ea" in payload)


def hostile_pulls() -> list[dict]:
    """One PR per payload, the payload in its title, body, labels, login, file path and branch."""
    pulls = []
    for index, payload in enumerate(PAYLOADS):
        number = 1 + index
        pulls.append(
            handmade_pull(
                number,
                MONDAY + timedelta(hours=7 * index),
                repo=REPO,
                title=f"fix: {payload}",
                body=f"Fixes {payload}\n\n{payload}",
                labels=[{"name": payload}, {"name": "bug"}],
                user={"login": payload, "id": 1, "type": "User"},
                # the right-to-left one the largest, so that its week tells it in full (ten are, the rest in brief)
                files=[
                    {
                        "filename": f"src/{payload}.py",
                        "status": "modified",
                        "additions": 30 if payload == RTL_PAYLOAD else 3,
                        "deletions": 1,
                    },
                    {
                        "filename": "tests/test_x.py",
                        "status": "added",
                        "additions": 2,
                        "deletions": 0,
                    },
                ],
                head={"ref": payload, "label": f"stranger:{payload}"},
            )
        )
    return pulls


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    store = Store(folder / "data")
    with GitHubServer({REPO: hostile_pulls()}) as server:
        report = fetch_repos(
            store,
            DigestSettings(),
            [REPO],
            since=date(2026, 3, 2),
            until=date(2026, 3, 22),
            progress=False,
            options=quick_options(server),
        )
    assert report.pulls == len(PAYLOADS)
    output = build_site(
        folder,
        SITEURL=SITEURL,
        RELATIVE_URLS=False,
        FEED_DOMAIN=SITEURL,
        DIGEST_PDF=True,
        DIGEST_KEY_THRESHOLD=0,
    )  # every PR key: every payload in a key change, told in full or in brief
    return folder, output


def test_every_payload_was_stored_and_the_site_builds(hostile_site):
    folder, output = hostile_site
    stored = Store(folder / "data").read_pulls(REPO)
    assert len(stored) == len(PAYLOADS)  # none rejected: cleaned, not lost
    weeks = sorted(p.parent.name for p in (output / REPO).glob("2026-W*/index.html"))
    assert weeks == ["2026-W10", "2026-W11"]  # the quiet 2026-W12, up to --until, has no page
    assert (output / "index.html").exists() and (output / "feeds/all.atom.xml").exists()


def test_no_page_carries_live_markup(hostile_site):
    _, output = hostile_site
    pages = sorted(output.rglob("*.html"))
    assert len(pages) > 10
    found = {str(p.relative_to(output)): live_markup(p.read_text(encoding="utf-8")) for p in pages}
    assert {page: items for page, items in found.items() if items} == {}


def test_every_feed_is_well_formed_xml_and_its_entries_carry_no_live_markup(hostile_site):
    _, output = hostile_site
    feeds = sorted(output.glob("feeds/**/*.xml"))
    assert len(feeds) >= 4
    for feed in feeds:
        root = ET.parse(feed).getroot()  # strict XML 1.0: a control character fails here
        for element in root.iter():
            name = element.tag.rpartition("}")[2]
            # Atom text is HTML only where type="html"; RSS's description is HTML, its titles plain text
            if element.get("type") in ("html", "xhtml") or name == "description":
                assert not live_markup(element.text or ""), (feed.name, element.tag)


def test_markdown_downloads_render_without_live_markup(hostile_site):
    _, output = hostile_site
    downloads = sorted(output.rglob("digest.md"))
    assert len(downloads) >= 2
    renderer = MarkdownIt("commonmark")  # raw HTML allowed, as in many Markdown viewers
    for download in downloads:
        text = download.read_text(encoding="utf-8")
        assert not TERMINAL_UNSAFE.search(text)
        assert live_markup(renderer.render(text)) == [], download


def test_the_terminal_gets_no_control_characters(hostile_site):
    folder, _ = hostile_site
    settings = folder / "pelicanconf.py"
    settings.write_text(f"DIGEST_DATA_PATH = {str(folder / 'data')!r}\n")
    for fmt in ("markdown", "json"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "digest_plugin.cli",
                "show",
                REPO,
                "--week",
                "2026-W10",
                "--format",
                fmt,
                "--settings",
                str(settings),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        assert not TERMINAL_UNSAFE.search(result.stdout + result.stderr), fmt
        if fmt == "json":
            assert len(json.loads(result.stdout)["pulls"]) > 10


def test_no_text_from_github_reaches_output_unescaped_or_with_bidi_overrides(hostile_site):
    _, output = hostile_site
    for path in output.rglob("*"):
        if path.suffix in (".html", ".xml", ".md", ".svg"):
            text = path.read_text(encoding="utf-8")
            assert not re.search("[\u202a-\u202e\u2066-\u2069\x00-\x08\x0b\x0c\x0e-\x1f]", text), (
                path
            )
            assert not re.search(r"(?<![\w-])49 (&lt;|<)?Config|fix: 49\b", text), (
                path
            )  # templates were not run
            assert (
                "/etc/passwd" not in text or "{static}" in text
            )  # Pelican did not resolve the link


def test_a_browser_opens_the_pages_with_no_dialog_and_no_script_run(hostile_site):
    _, output = hostile_site
    pages = [
        "index.html",
        f"{REPO}/index.html",
        f"{REPO}/2026-W10/index.html",
        f"{REPO}/2026-W11/index.html",
        "labels/index.html",
        "archives/index.html",
    ]
    with serve_in_browser(output) as (browser, base):
        context = browser.new_context()
        dialogs = []
        context.on(
            "page",
            lambda page: page.on(
                "dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss())
            ),
        )
        context.add_init_script("window.__pwned = undefined;")
        for path in pages:
            page = context.new_page()
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.goto(f"{base}/{path}", wait_until="load")
            # hover and focus everything: handlers that wait for a reader must not exist either
            page.evaluate(
                "for (const e of document.querySelectorAll('*')) { e.dispatchEvent(new Event('mouseover')); e.dispatchEvent(new Event('focus')); }"
            )
            assert page.evaluate("window.__pwned") is None, path
            page.close()
        assert dialogs == []


def test_every_branch_name_was_stored_cleaned_and_key_prs_show_theirs_as_isolated_code(
    hostile_site,
):
    folder, output = hostile_site
    stored = {p.number: p for p in Store(folder / "data").read_pulls(REPO)}
    assert {n: p.branch for n, p in stored.items()} == {
        1 + i: clean_text(payload, BRANCH_LIMIT, one_line=True)
        for i, payload in enumerate(PAYLOADS)
    }
    shown = {}
    for page in output.glob(f"{REPO}/2026-W*/index.html"):
        for item in BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select(
            "ol.key-pulls > li"
        ):
            number = int(item.select_one("h3 a").get_text().lstrip("#"))
            shown[number] = item.select_one(".branch code bdi").get_text()
    assert len(shown) >= 10  # the payloads in key PRs, text to the reader, markup to nobody
    assert shown == {n: stored[n].branch for n in shown}


def _pdf_blocks(pdf) -> list[str]:
    """The PDF's text blocks in reading order as poppler finds them (a heading, a cell), without white
    space: lines wrap anywhere in a PDF."""
    layout = subprocess.run(
        ["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [
        "".join(html.unescape(word) for word in re.findall(r"<word[^>]*>(.*?)</word>", block, re.S))
        for block in re.findall(r"<block.*?</block>", layout, re.S)
    ]


@pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed"
)
def test_every_week_has_a_pdf_that_shows_every_payload_as_text(hostile_site):
    folder, output = hostile_site
    pdfs = sorted(output.glob(f"{REPO}/2026-W*/digest.pdf"))
    assert [p.parent.name for p in pdfs] == ["2026-W10", "2026-W11"]
    text = "".join(block for pdf in pdfs for block in _pdf_blocks(pdf))
    # Each key PR's heading, "#N title", holds its title character for character, brackets and all:
    # had WeasyPrint taken a payload for markup, its tags would be gone (and an <img> or <svg> drawn).
    stored = Store(folder / "data").read_pulls(REPO)
    invisible = re.compile(
        r"[\s\u200b-\u200d\ufeff]+"
    )  # zero-width characters have no glyph to extract
    missing = [
        p.number
        for p in stored
        if f"#{p.number}{invisible.sub('', p.title.removesuffix('…'))}" not in text
        and p.title != f"fix: {RTL_PAYLOAD}"
    ]
    assert missing == []
    # poppler's word boxes hold right-to-left words as drawn, letters left to right (numbers as read): word by word
    rtl_heading = re.search(f"#{1 + PAYLOADS.index(RTL_PAYLOAD)}fix:([^#]*)", text)
    assert rtl_heading and all(
        word[::-1] in rtl_heading[1] or (word.isdigit() and word in rtl_heading[1])
        for word in RTL_PAYLOAD.split()
    )
    for pdf in pdfs:
        objects = _pdf_objects(pdf)
        links = re.findall(rb"/URI\s*\(([^)]*)\)", objects)
        assert links and all(link.startswith(b"https://") for link in links), (
            pdf.parent.name,
            links[:5],
        )
        assert not re.search(rb"/(JavaScript|JS|Launch|SubmitForm|ImportData)\b", objects), (
            pdf.parent.name
        )


def _pdf_objects(pdf) -> bytes:
    """The PDF's bytes with every compressed stream (object streams included) inflated."""
    data = pdf.read_bytes()
    inflated = []
    for stream in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            inflated.append(zlib.decompress(stream[1]))
        except zlib.error:
            continue  # an image or a font kept as it is
    return b"\n".join([data, *inflated])


def test_right_to_left_text_reads_as_written_without_moving_the_words_around_it(hostile_site):
    """Hebrew followed by a number, as a title, login and branch: without isolation the number and
    the size after it ("+5 −1 lines") would be drawn left of the Hebrew, out of their order."""
    _, output = hostile_site
    number = 1 + PAYLOADS.index(RTL_PAYLOAD)
    week = next(
        p.parent.name
        for p in output.glob(f"{REPO}/2026-W*/index.html")
        if f'/pull/{number}"' in p.read_text(encoding="utf-8")
    )
    with serve_in_browser(output) as (browser, base):
        page = browser.new_page()
        page.goto(f"{base}/{REPO}/{week}/index.html", wait_until="load")
        item = page.locator("ol.key-pulls > li").filter(
            has=page.locator(f'h3 a[href$="/pull/{number}"]')
        )
        # each element's extent on the screen: the union of its pieces (a line breaks a text into several)
        boxes = item.evaluate("""li => Object.fromEntries(["h3 a", "h3 bdi", ".by bdi", ".branch bdi", ".size"].map(s => {
            const rects = [...li.querySelector(s).getClientRects()];
            return [s, [Math.min(...rects.map(r => r.left)), Math.max(...rects.map(r => r.right)), rects.length && rects[0].top,
                        new Set(rects.map(r => r.top)).size]];
        }))""")
        direction = item.evaluate(
            "li => getComputedStyle(li.querySelector('.branch bdi')).direction"
        )
        page.close()
    link, title, by, branch, size = (
        boxes[s] for s in ("h3 a", "h3 bdi", ".by bdi", ".branch bdi", ".size")
    )
    assert link[1] <= title[0], boxes  # "#N" before the title
    # one line, as laid out here (code sits a few pixels lower than text)
    assert (
        abs(by[2] - branch[2]) < 8
        and abs(branch[2] - size[2]) < 8
        and by[3] == branch[3] == size[3] == 1
    ), boxes
    assert by[1] <= branch[0] and branch[1] <= size[0], (
        boxes
    )  # in the page's order, left to right: nothing moved
    assert direction == "rtl"  # <bdi> takes the direction of its first strong letter


def test_the_checker_sees_a_payload_that_is_live_and_not_one_that_is_escaped():

    assert sum(1 for payload in PAYLOADS if live_markup(payload)) >= 15
    assert [payload for payload in PAYLOADS if live_markup(html.escape(payload))] == []
