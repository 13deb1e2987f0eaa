"""Files written beside the pages: each week's charts and Markdown download, each repository's charts."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..charts import render_many
from ..atomic import atomic_write
from .markdown import render_markdown
from .site_digest import SiteDigest

PACKAGE = Path(__file__).resolve().parents[1]
PACKAGE_TEMPLATES = PACKAGE / "templates"  # the week page and its partials; a theme may override them
PACKAGE_STATIC = PACKAGE / "static"  # copied to {THEME_STATIC_DIR}/repo-digest/ in the output


def copy_static(theme_static: Path) -> None:
    """The plugin's stylesheets, beside the theme's, whatever the theme."""
    target = theme_static / "repo-digest"
    target.mkdir(parents=True, exist_ok=True)
    for source in PACKAGE_STATIC.iterdir():
        if source.is_file():
            shutil.copyfile(source, target / source.name)


def write_week_files(digest: SiteDigest, output: Path, cache: Path) -> None:
    """Each week's Markdown and charts: SVG for the pages (and the PDF), PNG only for the one chart
    a feed entry shows, since feed readers do not all show SVG."""
    language = digest.settings.language
    pictures, feed_pictures = {}, {}
    for repo in digest.repos:
        pictures[output / repo.url] = repo.charts
        for page in repo.weeks:
            folder = output / page.url
            atomic_write(folder / "digest.md", render_markdown(page.view, page.absolute_url, language))
            pictures[folder] = page.charts
            if page.view.feed_chart:
                feed_pictures[folder] = [page.view.feed_chart]
    render_many(pictures, cache / "digest-charts", formats=("svg",))
    render_many(feed_pictures, cache / "digest-charts", formats=("png",))
