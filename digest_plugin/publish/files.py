"""Files written beside the pages: each week's charts and Markdown download, each repository's charts."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..charts import render_many
from ..markdown_report import render_markdown
from ..store import atomic_write
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
    language = digest.settings.language
    charts = {}
    for repo in digest.repos:
        charts[output / repo.url] = repo.charts
        for page in repo.weeks:
            folder = output / page.url
            atomic_write(folder / "digest.md", render_markdown(page.analysis, page.narrative, page.absolute_url, language))
            charts[folder] = page.charts
    render_many(charts, cache / "digest-charts")
