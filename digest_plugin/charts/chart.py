"""What a chart is, before any drawing: plain frozen records, so the data can be hashed and tested.

A `Chart` carries everything a page needs besides the picture: the title, an alt text that
states the data, and the same numbers as a table. Colours are resolved into each `Series`
(from the site's `Palette`), so a chart's data hash changes exactly when its picture would.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from digest_plugin.records.frozen import frozen_record


@frozen_record
class Style:
    color: str  # "#rrggbb"
    hatch: str = ""  # matplotlib hatch pattern; a second cue where colours run out


@frozen_record
class Series:
    key: str  # palette key, e.g. "module:trainer", "author:alice", "other"
    name: str  # legend text; untrusted for labels, modules and logins, never parsed as markup
    values: tuple[float | None, ...]  # one per bin; None where there is no value (a line's gap)
    style: Style
    kind: str = "bar"  # "bar" or "line"


@frozen_record
class Table:
    """The chart's numbers for the page: header cells, then rows of already formatted cells."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@frozen_record
class Chart:
    name: str  # file stem, e.g. "modules-trend"; unique among the charts of one page
    title: str
    alt: str  # states the data; used as the <img> alt and the SVG <desc>
    x_label: str
    y_label: str
    ticks: tuple[str, ...]  # short, language-neutral bin labels ("W21", "2026-05"), one per bin
    series: tuple[Series, ...]
    stacked: bool  # bars stacked (parts of a whole) or overlaid (key PRs inside merged PRs)
    table: Table
    marked: int | None = None  # index of the bin drawn as the current one
    notes: tuple[str, ...] = ()  # shown under the chart and repeated in the alt text
    # Pages show SVG; a PNG is drawn only for a chart that a feed entry, the PDF or a link preview
    # (Open Graph) shows, since those may not display SVG.
    raster: bool = False

    @property
    def bins(self) -> int:
        return len(self.ticks)

    @property
    def formats(self) -> tuple[str, ...]:
        return ("svg", "png") if self.raster else ("svg",)


@dataclass(frozen=True)
class ChartFile:
    name: str  # the chart's name
    format: str  # "svg" or "png"
    path: Path  # where it was written
    width: int  # pixels (CSS pixels for SVG), for the <img> width/height attributes
    height: int
    drawn: bool  # False when it came from the cache


def printable(name: str) -> str:
    """A label or login as one line of text: control characters and runs of spaces become one space."""
    return " ".join("".join(c if c.isprintable() else " " for c in name).split())
