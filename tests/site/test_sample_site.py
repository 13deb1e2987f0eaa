"""The bundled sample, built as `make html` builds it, then read in a real headless browser."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import feedparser
import pytest
from bs4 import BeautifulSoup

from tests.browser_harness import open_page, serve_in_browser, shared_sample
from tests.site_builder import build_site

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory):
    """`pelican content -o OUT -s pelicanconf.py` and the search index, as `make html` runs them."""
    return shared_sample(tmp_path_factory, "en")


def test_sample_builds_every_week_of_both_repositories(sample_site):
    weeks = sorted(sample_site.glob("*/*/20??-W??/index.html"))
    repos = {p.parent.parent.relative_to(sample_site).as_posix() for p in weeks}
    assert len(repos) == 2
    for repo in repos:
        assert (
            len([p for p in weeks if p.parent.parent.relative_to(sample_site).as_posix() == repo])
            >= 16
        )
        assert (sample_site / repo / "index.html").exists()
    finished = [p for p in weeks if "status-in-progress" not in p.read_text(encoding="utf-8")]
    for repo in repos:
        feed = feedparser.parse((sample_site / "feeds" / f"{repo}.atom.xml").read_bytes())
        assert not feed.bozo and len(feed.entries) == min(
            len([p for p in finished if f"/{repo}/" in p.as_posix()]), 20
        )
    # The site is the digest: its own feed has an entry per repository and week, as the About page says, the newest 20.
    about = (sample_site / "pages/about/index.html").read_text(encoding="utf-8")
    assert "Every complete week is also an entry in the site's Atom and RSS feeds" in " ".join(
        about.split()
    )
    feed = feedparser.parse((sample_site / "feeds/all.atom.xml").read_bytes())
    entries = {tuple(e.link.rstrip("/").rsplit("/", 3)[-3:]) for e in feed.entries}
    oldest_kept = sorted((p.parent.name for p in finished), reverse=True)[19]
    assert not feed.bozo and len(entries) == len(feed.entries) == min(len(finished), 20)
    assert (
        entries <= {p.parent.relative_to(sample_site).parts for p in finished}
        and min(e[-1] for e in entries) >= oldest_kept
    )
    assert {e[:2] for e in entries} == {tuple(r.split("/")) for r in repos}


def test_sample_week_pages_have_charts_and_downloads(sample_site):
    page = max(sample_site.glob("*/*/20??-W??/index.html"))
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    for img in soup.select(".chart figure img"):
        assert (page.parent / img["src"]).exists(), img["src"]
        assert img["alt"].strip()
    assert (page.parent / "digest.md").exists()


@pytest.fixture(scope="module")
def browser_page(sample_site):
    with serve_in_browser(sample_site) as served:
        yield served


@pytest.mark.browser
def test_index_and_repository_pages_link_to_existing_pages(browser_page, sample_site):
    browser, base = browser_page
    page, errors, failed = open_page(browser, f"{base}/", 1280)
    assert errors == [] and failed == []
    repo_link = page.locator(".repo-cards h3 a").first
    repo_link.click()
    page.wait_for_load_state("networkidle")
    assert page.locator("table.weeks tbody tr").count() >= 16
    page.locator("table.weeks tbody a").first.click()
    page.wait_for_load_state("networkidle")
    assert (
        page.locator(".figures").count() == 1
        or "quiet" in page.locator(".summary").inner_text().lower()
    )
    page.close()


@pytest.mark.parametrize(
    "override, message",
    [
        ('DIGEST_REPOS=["acme/nothing"]', "acme/nothing is not in the store"),
        ('DIGEST_DATA_PATH="no-such-folder"', "does not exist"),
        ('DIGEST_TIMEZONE="Mars/Olympus"', "is not a known timezone"),
        ('DIGEST_RULES={"nonsense": 1}', "nonsense"),
        ('DIGEST_BOTS="dependabot"', "DIGEST_BOTS must be a list"),
        ('DIGEST_PDF="yes"', "DIGEST_PDF must be True or False"),
    ],
)
def test_a_failed_build_is_one_error_and_writes_nothing(tmp_path, override, message):
    pelican = Path(sys.executable).with_name("pelican")
    output = tmp_path / "output"
    result = subprocess.run(
        [str(pelican), "content", "-o", str(output), "-s", "pelicanconf.py", "-e", override],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "COLUMNS": "400"},
    )
    text = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 1
    assert message in text and "Traceback" not in text
    assert not output.exists()


def test_the_sample_home_page_says_its_repositories_are_made_up_and_what_a_key_pr_is(sample_site):
    home = BeautifulSoup((sample_site / "index.html").read_text(encoding="utf-8"), "html.parser")
    note = home.select_one(".sample-note")
    assert note is not None and "made up" in note.get_text() and "A key PR is" in note.get_text()
    about = note.find("a")[
        "href"
    ]  # relative to the home page: the sample is built with RELATIVE_URLS
    assert "Importance" in (sample_site / about / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_counts_of_a_thousand_and_more_have_thousands_separators(tmp_path, language):
    """A repository of 1,200 merged PRs says so with a separator, in both languages ("7554 merged pull requests" before)."""
    folder = tmp_path / language
    folder.mkdir()
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("repo-digest")),
            "sample",
            "--repos",
            "1",
            "--weeks",
            "12",
            "--prs-per-week",
            "200",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    output = build_site(folder, DIGEST_LANGUAGE=language)
    repo_page = next(p for p in output.glob("*/*/index.html") if not p.parent.name.startswith("20"))
    text = BeautifulSoup(repo_page.read_text(encoding="utf-8"), "html.parser").get_text(" ")
    overview = {
        "en": r"([\d,]+) merged pull requests \(([\d,]+) key\)",
        "zh": r"共合入 ([\d,]+) 个 PR（其中 ([\d,]+) 个重点 PR）",
    }[language]
    merged, _key = re.search(overview, text).groups()
    assert int(merged.replace(",", "")) >= 1000 and merged == f"{int(merged.replace(',', '')):,}", (
        merged
    )
