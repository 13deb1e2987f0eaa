"""Chart files: drawn once per content into the chart cache (build/cache.py's ChartCache), copied
to the output.

A chart's key hashes its data (series, colours, words, numbers), the format and the renderer's
identity (code version, matplotlib version, fonts, sizes), and nothing else: a rebuild draws only
the charts whose picture would change. When much is to be drawn, drawing is spread over processes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from digest_plugin.atomic import write_if_changed
from digest_plugin.build.cache import ChartCache
from digest_plugin.build.workers import WORKER_PRELOAD, parallel_stream
from digest_plugin.charts.chart import Chart, ChartFile
from digest_plugin.charts.draw import PICTOGRAPH, Drawing, draw, pixel_size, renderer_identity

log = logging.getLogger(__name__)
PARALLEL_FROM = 8  # charts to draw before starting worker processes pays for their start-up
WINDOW = 64  # drawings in flight or waiting to be written: enough to keep every worker busy


def render_many(
    pages: Mapping[Path, Sequence[Chart]],
    cache: ChartCache,
    formats: Sequence[str] | None = None,
    workers: int | None = None,
    used: set[str] | None = None,
) -> dict[Path, list[ChartFile]]:
    """Write `{chart.name}.{format}` into each output folder for every chart and format, in that
    order, the formats each chart's own (`Chart.formats`) unless `formats` names them: every folder
    at once, so one pool of workers serves a whole build.

    `workers`: processes to draw with; None for one per core, 1 to draw in this process. `used`
    gathers the cache keys the files came from, for `ChartCache.prune`. A file that holds the right
    bytes already is left as it is."""
    identity = renderer_identity()

    def formats_of(chart: Chart) -> Sequence[str]:
        return formats or chart.formats

    keys = {
        (out_dir, chart.name, fmt): ChartCache.key(chart, fmt, identity)
        for out_dir, charts in pages.items()
        for chart in charts
        for fmt in formats_of(chart)
    }
    if used is not None:
        used.update(keys.values())
    drawn_keys = _draw_missing(
        [
            (chart, [(fmt, keys[out_dir, chart.name, fmt]) for fmt in formats_of(chart)])
            for out_dir, charts in pages.items()
            for chart in charts
        ],
        cache,
        workers,
    )
    written: dict[Path, list[ChartFile]] = {}
    for out_dir, charts in pages.items():
        files = written.setdefault(out_dir, [])
        for chart in charts:
            for fmt in formats_of(chart):
                key = keys[out_dir, chart.name, fmt]
                target = Path(out_dir) / f"{chart.name}.{fmt}"
                _copy_if_changed(cache.path(key), target)
                files.append(
                    ChartFile(chart.name, fmt, target, *pixel_size(fmt), drawn=key in drawn_keys)
                )
    return written


def draw_into_cache(
    charts: Iterable[tuple[Chart, Sequence[str]]], cache: ChartCache, workers: int | None = None
) -> set[str]:
    """Each (chart, formats) in the formats the cache lacks, drawn once however often it is listed;
    returns the keys drawn."""
    identity = renderer_identity()
    return _draw_missing(
        [
            (chart, [(fmt, ChartCache.key(chart, fmt, identity)) for fmt in formats])
            for chart, formats in charts
        ],
        cache,
        workers,
    )


def _draw_missing(
    charts: Iterable[tuple[Chart, Sequence[tuple[str, str]]]],
    cache: ChartCache,
    workers: int | None,
) -> set[str]:
    """`draw_into_cache` for charts whose (format, key) pairs are known already."""
    # by the keys of its missing formats
    to_draw: dict[str, tuple[Chart, list[tuple[str, str]]]] = {}
    for chart, keyed in charts:
        missing = [(fmt, key) for fmt, key in keyed if not cache.has(key)]
        if missing:
            to_draw.setdefault("+".join(key for _, key in missing), (chart, missing))
    jobs = list(to_draw.values())
    drawn_keys: set[str] = set()
    missing_glyphs: set[str] = set()
    for (_chart, missing), drawing in zip(
        jobs, _draw_all([(chart, [fmt for fmt, _ in missing]) for chart, missing in jobs], workers)
    ):
        missing_glyphs.update(drawing.missing_glyphs)
        for fmt, key in missing:
            cache.put(key, drawing.files[fmt])
            drawn_keys.add(key)
    # Emoji aside: matplotlib draws them in no font, whatever is installed, and an SVG chart's text
    # is set in the reader's fonts, which have them (the PDFs say for themselves: publish/pdf.py).
    if undrawable := "".join(
        sorted(char for char in missing_glyphs if not PICTOGRAPH.fullmatch(char))
    ):
        log.warning(
            "Charts contain characters no installed font can draw (%s); install a CJK font such as "
            "Debian's fonts-noto-cjk.",
            undrawable,
        )
    return drawn_keys


def _draw_all(jobs: list[tuple[Chart, list[str]]], workers: int | None) -> Iterator[Drawing]:
    """The drawings in order, each handed back as soon as it and those before it are done, so
    that a cold build writes them as they come rather than holding ten thousand at once."""
    return parallel_stream(
        draw,
        ((chart, tuple(fmts)) for chart, fmts in jobs),
        len(jobs),
        preload=WORKER_PRELOAD,
        parallel_from=PARALLEL_FROM,
        window=WINDOW,
        workers=workers,
    )


def _copy_if_changed(source: Path, target: Path) -> None:
    """`source` written to `target`, which takes its modification time, unless `target` has the
    size and time of `source` already: rsync's quick check, so that a warm build of 15,000 charts
    reads none of them. Cached files are never rewritten (their name is their content's hash)."""
    wanted = source.stat()
    try:
        present = target.stat()
        if (present.st_size, present.st_mtime_ns) == (wanted.st_size, wanted.st_mtime_ns):
            return
    except FileNotFoundError:
        pass
    write_if_changed(target, source.read_bytes())
    os.utime(target, ns=(wanted.st_atime_ns, wanted.st_mtime_ns))
