"""Files written beside the pages: each week's charts and Markdown download, each repository's charts."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path

from digest_plugin.atomic import write_if_changed
from digest_plugin.build.cache import ChartCache, PdfCache, TextCache
from digest_plugin.charts import Chart, draw_into_cache, render_many
from digest_plugin.publish.markdown import render_markdown
from digest_plugin.publish.pdf import PdfJob, write_pdfs
from digest_plugin.publish.site_digest import SiteDigest, WeekPage

PACKAGE = Path(__file__).resolve().parents[1]
# the week page and its partials; a theme may override them
PACKAGE_TEMPLATES = PACKAGE / "templates"
PACKAGE_STATIC = PACKAGE / "static"  # copied to {THEME_STATIC_DIR}/repo-digest/ in the output


def copy_static(theme_static: Path) -> None:
    """The plugin's stylesheets, beside the theme's, whatever the theme."""
    target = theme_static / "repo-digest"
    target.mkdir(parents=True, exist_ok=True)
    for source in PACKAGE_STATIC.iterdir():
        if source.is_file():
            shutil.copyfile(source, target / source.name)


def start_drawing(cache: Path, charts: Sequence[Chart]) -> Future:
    """Start drawing, in each chart's formats, the charts the cache lacks, while the build goes on
    (Pelican rendering pages leaves a core idle): `write_week_files` then finds them drawn. The
    drawing waits in a thread on worker processes; the future raises what drawing raised."""
    drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="repo-digest-charts")
    jobs = [(chart, chart.formats) for chart in charts]
    future = drawing.submit(draw_into_cache, jobs, ChartCache.under(cache))
    drawing.shutdown(wait=False)
    return future


def write_week_files(digest: SiteDigest, output: Path, cache: Path, texts: TextCache) -> None:
    """Each week's Markdown (made again only when its view changed: `texts`) and charts. Files that
    hold the right bytes already are left alone; charts no page shows any more are removed, from the
    pages' folders and from the cache."""
    for repo in digest.repos:
        for page in repo.weeks:
            parts = ("markdown", page.view_key, page.absolute_url, digest.language.code)
            markdown = texts.text(
                parts, partial(render_markdown, page.view, page.absolute_url, digest.language)
            )
            write_if_changed(output / page.url / "digest.md", markdown)
    pictures: dict[Path, Sequence[Chart]] = {
        output / repo.url: repo.charts for repo in digest.repos
    }
    pictures.update(
        (output / page.url, page.charts) for repo in digest.repos for page in repo.weeks
    )
    charts = ChartCache.under(cache)
    used: set[str] = set()
    # SVG, and PNG for a feed's chart (Chart.formats)
    for folder, files in render_many(pictures, charts, used=used).items():
        _remove_other_charts(folder, {file.path.name for file in files})
    charts.prune(used)


def _remove_other_charts(folder: Path, keep: set[str]) -> None:
    """The chart files of a page that no longer shows them (the data or the settings changed)."""
    for path in folder.iterdir():
        if path.suffix in (".svg", ".png") and path.name not in keep and path.is_file():
            path.unlink()


def write_week_pdfs(
    digest: SiteDigest, render: Callable[[WeekPage], str], output: Path, cache: Path, site: str
) -> int:
    """Each week's digest.pdf from `render(week)`'s HTML; returns how many had to be drawn (the rest
    came from the cache). Runs after the week pages are written, whose bytes, with `site` (what
    else the PDFs depend on: the key of the templates, settings and stylesheets), tell whether a PDF would change,
    and after `write_week_files`, whose SVG charts the PDFs show."""

    def job(page: WeekPage) -> PdfJob:
        html = partial(render, page)
        web_page = output / page.url / "index.html"
        shown = (
            _week_article(web_page.read_bytes()) if web_page.is_file() else html().encode("utf-8")
        )
        return PdfJob(site.encode() + shown, html, output / page.url)

    return write_pdfs([job(page) for repo in digest.repos for page in repo.weeks], PdfCache(cache))


def _week_article(page: bytes) -> bytes:
    """The week's report in its web page: not the site around it (its menu, a fetch warning) nor
    the links to the weeks beside it (a new week changes the one before), which the PDF does not
    show and which change for reasons of their own."""
    start = page.find(b'<article class="week">')
    end = page.find(b'<nav class="week-nav"', start)
    end = end if end > start else page.rfind(b"</article>")
    return page[start:end] if 0 <= start < end else page


def stylesheets() -> dict[str, str]:
    """The plugin's CSS as text, for the PDF template to inline."""
    return {
        "digest_css": (PACKAGE_STATIC / "digest.css").read_text(encoding="utf-8"),
        "digest_print_css": (PACKAGE_STATIC / "print.css").read_text(encoding="utf-8"),
    }
