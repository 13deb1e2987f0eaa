"""Files written beside the pages: each week's charts and Markdown download, each repository's charts."""

from __future__ import annotations

from pathlib import Path

from ..charts import render_charts
from ..markdown_report import render_markdown
from ..store import atomic_write
from .site_digest import SiteDigest


def write_week_files(digest: SiteDigest, output: Path, cache: Path) -> None:
    language = digest.settings.language
    chart_cache = cache / "digest-charts"
    jobs = []
    for repo in digest.repos:
        jobs.append((repo.charts, output / repo.url))
        for page in repo.weeks:
            folder = output / page.url
            atomic_write(folder / "digest.md", render_markdown(page.analysis, page.narrative, page.absolute_url, language))
            jobs.append((page.charts, folder))
    for charts, folder in jobs:
        render_charts(charts, folder, chart_cache)
