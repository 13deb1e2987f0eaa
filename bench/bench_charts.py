"""Chart time for every week of verl (../shared/data): cold and warm builds, and the per-chart median.

    .venv/bin/python bench/bench_charts.py [--workers N] [--sample N] [--formats svg,png]

Cold: an empty cache, every chart drawn. Warm: the same charts again, which must draw nothing.
The per-chart median times `draw` in this process on an evenly spread sample of the charts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from digest_plugin.analysis import analyse_repo  # noqa: E402
from digest_plugin.build.cache import ChartCache  # noqa: E402
from digest_plugin.charts import render_many, repo_charts, site_palette, week_charts  # noqa: E402
from digest_plugin.charts.draw import cjk_font, draw  # noqa: E402
from digest_plugin.i18n import translations  # noqa: E402
from digest_plugin.publish.history import analysis_options  # noqa: E402
from digest_plugin.records.state import RepoState  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from digest_plugin.store.jsonl_import import read_export  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "github" / "verl-project__verl.pulls.jsonl.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workers", type=int, default=None, help="drawing processes (default: one per core)"
    )
    parser.add_argument(
        "--sample", type=int, default=30, help="charts timed one by one for the median"
    )
    parser.add_argument("--formats", default="svg,png")
    parser.add_argument("--language", default="en", choices=("en", "zh"))
    args = parser.parse_args()
    formats = tuple(args.formats.split(","))
    if not DATA.exists():
        sys.exit(f"{DATA} is absent: the benchmark needs ../shared/data beside the checkout.")

    started = time.perf_counter()
    pulls = list(read_export(DATA))
    now = max(p.merged_at for p in pulls) + timedelta(days=1)
    settings = DigestSettings(language=args.language)
    history = analyse_repo(
        "verl-project/verl",
        pulls,
        RepoState("verl-project/verl", "import"),
        analysis_options(settings),
        now,
    )
    analysed = time.perf_counter()

    _ = translations(args.language).gettext
    palette = site_palette([history], settings.trend_weeks)
    palette_done = time.perf_counter()
    pages = {
        Path(w.week): week_charts(w, history[: i + 1], settings.trend_weeks, palette, _)
        for i, w in enumerate(history)
    }
    pages[Path(".")] = repo_charts(history, palette, _)
    prepared = time.perf_counter()
    charts = [chart for page in pages.values() for chart in page]

    print(f"cores: {len(os.sched_getaffinity(0))}, load average {os.getloadavg()[0]:.1f}")
    print(
        f"verl: {len(pulls)} merged PRs, {len(history)} weeks, {len(charts)} charts x {len(formats)} formats"
        f" = {len(charts) * len(formats)} files; CJK font: {cjk_font() and cjk_font()[0]}"
    )
    print(f"analysis            {analysed - started:8.2f} s  (not chart time)")
    print(f"site palette        {palette_done - analysed:8.2f} s")
    print(f"chart data          {prepared - palette_done:8.2f} s")

    with tempfile.TemporaryDirectory() as scratch:
        out, cache = Path(scratch) / "out", Path(scratch) / "cache"
        for label in ("cold", "warm"):
            begin = time.perf_counter()
            written = render_many(
                {out / folder: page for folder, page in pages.items()},
                ChartCache.under(cache),
                formats,
                args.workers,
            )
            elapsed = time.perf_counter() - begin
            files = [f for page in written.values() for f in page]
            renders = len({(f.path.parent, f.name) for f in files if f.drawn})
            print(
                f"{label} build          {elapsed:8.2f} s  charts drawn: {renders:4d}  files written: {len(files)}"
            )
            if label == "warm" and renders:
                sys.exit("FAIL: the warm build drew charts")
        size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
        print(f"output size         {size / 1e6:8.2f} MB")

    step = max(1, len(charts) // max(1, args.sample))
    timings, cpu = [], []
    for chart in charts[::step][: args.sample]:
        begin, begin_cpu = time.perf_counter(), time.process_time()
        draw(chart, formats)
        timings.append(time.perf_counter() - begin)
        cpu.append(time.process_time() - begin_cpu)  # steadier than wall time on a shared machine
    print(
        f"per chart (serial)  median {statistics.median(timings) * 1000:6.0f} ms wall, {statistics.median(cpu) * 1000:6.0f} ms CPU;"
        f" max {max(timings) * 1000:6.0f} ms wall; {len(timings)} charts, all formats drawn from one figure"
    )


if __name__ == "__main__":
    main()
