"""What a week's PDF costs: WeasyPrint's CPU seconds and pages for the busiest weeks of real repositories.

    .venv/bin/python bench/bench_pdf.py [--repo ruff] [--busiest 3] [--all] [--keep DIR]

It imports each repository of ../shared/data (default: verl, ruff and pelican) into a scratch
site, builds it once in this process with DIGEST_PDF off, takes the PDF's HTML of the busiest
weeks (most merged PRs) as the build makes it, charts inline, and draws each here, one at a time,
timing the process's CPU (steadier than wall time on a shared machine). With `--all`, every week
of each repository too: what a cold build's PDFs cost in all, before they are spread over the cores.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench_build import DATA, REPOS, ROOT, Site, read_export

sys.path.insert(0, str(ROOT))


@dataclass
class Drawn:
    repo: str
    week: str
    pulls: int
    pages: int
    cpu_seconds: float
    kib: float


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", action="append", choices=sorted(REPOS), help="repositories (default: all three)"
    )
    parser.add_argument(
        "--busiest",
        type=int,
        default=3,
        help="the busiest weeks of each repository drawn (default 3)",
    )
    parser.add_argument(
        "--all", action="store_true", help="also draw every week, for the total a cold build pays"
    )
    parser.add_argument(
        "--keep", type=Path, help="work in this folder and keep it (default: a temporary one)"
    )
    args = parser.parse_args()
    if not DATA.exists():
        sys.exit(f"{DATA} is absent: the benchmark needs ../shared/data beside the checkout.")
    keys = args.repo or ["verl", "ruff", "pelican"]
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-pdf-"))
    shutil.rmtree(work, ignore_errors=True)
    site = Site(work, language="en")
    for key in keys:
        site.import_pulls(REPOS[key][0], read_export(DATA / REPOS[key][1]))
    pages = pdf_pages(site)
    print(
        f"load average {os.getloadavg()[0]:.1f} before drawing, on {len(os.sched_getaffinity(0))} cores"
    )
    draw(pages[0][1])  # WeasyPrint's first drawing loads its fonts: not a week's cost
    busiest = [
        p
        for key in keys
        for p in sorted(
            (p for p in pages if p[0].repo == REPOS[key][0]),
            key=lambda p: -p[0].analysis.stats.merged_count,
        )[: args.busiest]
    ]
    print_table("the busiest weeks", [measure(week, html) for week, html in busiest])
    if args.all:
        every = [measure(week, html) for week, html in pages]
        for key in keys:
            drawn = [d for d in every if d.repo == REPOS[key][0]]
            print(
                f"{key}: {len(drawn)} weeks, {sum(d.cpu_seconds for d in drawn):.1f} CPU s and {sum(d.pages for d in drawn)} pages"
                f" in all; per week median {statistics.median(d.cpu_seconds for d in drawn):.2f} s,"
                f" {statistics.median(d.pages for d in drawn):.0f} pages"
            )
    print(f"load average {os.getloadavg()[0]:.1f} after")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


def pdf_pages(site: Site) -> list[tuple[object, str]]:
    """Every week's PDF HTML, charts inline, as a build with DIGEST_PDF off would hand it to WeasyPrint."""
    from pelican.settings import read_settings

    from digest_plugin.publish.hooks import pdf_html
    from digest_plugin.publish.pdf import printable
    from pelican import Pelican, signals

    settings = read_settings(
        str(site.settings), override={"DIGEST_PDF": False, "OUTPUT_PATH": str(site.output)}
    )
    pelican = Pelican(
        settings
    )  # registers the plugin's handlers first: the charts are written before ours runs
    pages: list[tuple[object, str]] = []

    def collect(generator, writer) -> None:
        render, output = pdf_html(generator), Path(generator.output_path)
        pages.extend(
            (week, printable(render(week), output / week.url))
            for repo in generator.context["digest"].repos
            for week in repo.weeks
        )

    signals.article_writer_finalized.connect(collect)
    started = time.perf_counter()
    pelican.run()
    print(f"built {len(pages)} weeks in {time.perf_counter() - started:.0f} s")
    return pages


def draw(html: str):
    """The PDF's document (its pages) and bytes, drawn as the build draws them."""
    import weasyprint

    document = weasyprint.HTML(string=html).render()
    return document, document.write_pdf()


def measure(week, html: str) -> Drawn:
    started = time.process_time()
    document, pdf = draw(html)
    cpu = time.process_time() - started
    return Drawn(
        week.repo,
        week.week,
        week.analysis.stats.merged_count,
        len(document.pages),
        cpu,
        len(pdf) / 1024,
    )


def print_table(title: str, rows: list[Drawn]) -> None:
    print(f"{title}:")
    print(f"{'repository':22} {'week':9} {'PRs':>5} {'pages':>6} {'CPU s':>6} {'KiB':>6}")
    for d in rows:
        print(f"{d.repo:22} {d.week:9} {d.pulls:5d} {d.pages:6d} {d.cpu_seconds:6.2f} {d.kib:6.0f}")


if __name__ == "__main__":
    main()
