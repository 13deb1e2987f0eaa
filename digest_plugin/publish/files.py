"""Files written beside the pages: each week's charts and Markdown download, each repository's charts."""

from __future__ import annotations

from pathlib import Path

from ..charts import render_many
from ..markdown_report import render_markdown
from ..atomic import atomic_write
from .site_digest import SiteDigest


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
