"""The sitemap, as search engines read it: the plugin's own, saying when each week's page last
changed (the week's end), or, where the site runs pelican-sitemap, that plugin's, with the week
pages in it and nothing overwriting it."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.tiny_project import REPO, tiny_project

SITEURL = "https://example.org/digest"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def _build(folder: Path, **settings) -> Path:
    """The tiny project (2026-W10 and W11 merged, W12 and W13 quiet), built by `pelican` as a user runs it."""
    project = tiny_project(
        folder,
        SITEURL=SITEURL,
        RELATIVE_URLS=False,
        FEED_DOMAIN=SITEURL,
        DIGEST_PDF=False,
        **settings,
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GITHUB_", "GH_", "DIGEST_", "SITEURL"))
    }
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("pelican")),
            "content",
            "-o",
            "output",
            "-s",
            "pelicanconf.py",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return project / "output"


def _urls(output: Path) -> dict[str, str | None]:
    """Each URL of the sitemap, with its lastmod."""
    root = ET.parse(output / "sitemap.xml").getroot()
    return {
        url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
        for url in root.findall("s:url", NS)
    }


def test_the_sitemap_says_when_each_week_last_changed(tmp_path):
    urls = _urls(_build(tmp_path / "site"))
    assert urls[f"{SITEURL}/{REPO}/2026-W10/"] == "2026-03-09T00:00:00+00:00"  # the week's end
    assert urls[f"{SITEURL}/{REPO}/2026-W11/"] == "2026-03-16T00:00:00+00:00"
    assert (
        urls[f"{SITEURL}/{REPO}/"] == "2026-03-16T00:00:00+00:00"
    )  # the repository's page, with its newest week
    assert (
        f"{SITEURL}/" in urls and f"{SITEURL}/{REPO}/2026-W12/" not in urls
    )  # every page; a quiet week has none


def test_with_pelican_sitemap_the_weeks_are_in_its_sitemap_and_nothing_overwrites_it(tmp_path):
    pytest.importorskip(
        "pelican.plugins.sitemap", reason="pelican-sitemap is part of the test extra"
    )
    output = _build(
        tmp_path / "site",
        PLUGINS=["digest_plugin", "pelican.plugins.sitemap"],
        DIGEST_IN_BLOG=False,
    )
    assert "<changefreq>" in (output / "sitemap.xml").read_text(
        encoding="utf-8"
    )  # pelican-sitemap's own
    urls = _urls(output)
    for week, end in (("2026-W10", "2026-03-09"), ("2026-W11", "2026-03-16")):
        assert urls[f"{SITEURL}/{REPO}/{week}/"] == f"{end}T00:00:00+00:00", (
            week
        )  # in a section of their own too
