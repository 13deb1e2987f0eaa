"""Chart stage, picture side: one `Chart` to SVG and PNG bytes with matplotlib, deterministically.

No pyplot (no global figures), settings applied per drawing through `rc_context`, SVG ids salted
with a constant, no dates or software versions in the files: the same chart gives the same bytes.
An SVG has a transparent background and its text follows the reader's colour scheme (a style
sheet inside the file switches the ink in dark mode); a PNG, for feed readers and link previews
whose background is unknown, is opaque white. Series colours read on both (palette.py). Text in an
SVG is text (<text>, set in the reader's own fonts through FONT_STACK) rather than glyph outlines,
which would make every chart twice as large; untrusted names are never parsed as mathtext.

The figure is sized for the text column: drawn at 4.4 inches (422 CSS pixels) with 10-point
labels, it keeps its smallest text above 11 pixels when a 390-pixel phone shows it full width.
Text is measured (and PNGs drawn) with DejaVu Sans, Chinese with a Noto Sans CJK (or similar) font
when one is installed; a reader without DejaVu Sans gets Verdana or the system's sans-serif, which
are as wide or narrower, so no label outgrows the room it was given.
"""

from __future__ import annotations

import functools
import io
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import matplotlib as mpl
from matplotlib import font_manager

from digest_plugin.charts import layout as geometry
from digest_plugin.charts.chart import Chart
from digest_plugin.charts.layout import FONT_SIZE, TICK_LENGTH, Layout

RENDERER_VERSION = "11"  # bump when a change here changes the pictures: it invalidates the cache
WIDTH, HEIGHT = geometry.WIDTH / 72, geometry.HEIGHT / 72  # inches
PNG_DPI = 150
CSS_DPI = 96  # what an SVG's size in points comes to in CSS pixels
INK = "#595959"  # text and axes: 7:1 on white; an SVG swaps it for DARK_INK on a dark page
DARK_INK = "#b1bac4"  # 9:1 on the theme's dark page
# the showcase theme's dark page (theme/static/css), behind the dark ink
DARK_BACKGROUND = "#0d1117"
HATCH_INK = "#333333"
PNG_BACKGROUND = "#ffffff"
AXIS_LINE_WIDTH = TICK_WIDTH = 0.8  # points, as matplotlib draws axes
BASE_FONT = "DejaVu Sans"  # ships with matplotlib
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "Noto Sans CJK JP",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
)
# The fonts an SVG's text asks the reader's browser for: the ones it was measured with first, then
# the Chinese fonts of common systems, then whatever sans-serif the system has.
FONT_STACK = (
    BASE_FONT,
    "Verdana",
    *CJK_FONTS[:4],
    "PingFang SC",
    "Hiragino Sans GB",
    "Microsoft YaHei",
    *CJK_FONTS[5:],
)
# In an SVG shown by <img>, prefers-color-scheme follows the reader's system, not the page: a theme
# that stays light in a dark system (Pelican's simple) would show the dark ink on white, so in the
# dark scheme the chart paints the dark page behind its own ink (the showcase's page colour, so it
# does not show there).
SVG_STYLE = (
    f"svg{{--ink:{INK}}}@media (prefers-color-scheme: dark){{svg{{--ink:{DARK_INK};background:{DARK_BACKGROUND}}}}}"
    "text{font-family:" + ",".join(f"'{name}'" for name in FONT_STACK) + ",sans-serif}"
)
_ATTRIBUTE = re.compile(r'\s[\w:-]+="[^"<>]*"')
_LONG_DECIMAL = re.compile(r"(\d\.\d)\d+")
_INDENT = re.compile(r"\n[ \t]+")
_LINE_BREAK = re.compile(r"\s*\n\s*")
_FONT_FAMILY = re.compile(r"font-family: [^;\"]*(?:; |(?=\"))")  # per text; SVG_STYLE names it once
_METADATA = re.compile(r"<metadata>.*?</metadata>\n", re.DOTALL)
# what matplotlib writes of a text, with svg.fonttype none
_TEXT_ELEMENT = re.compile(r"<text\b.*?</text>", re.DOTALL)
# matplotlib's rotate(-0 x y): nothing
_NO_ROTATION = re.compile(r' transform="rotate\(-0 [^"]*\)"')
_GLYPH_MISSING = re.compile(r"Glyph (\d+) .*missing from")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # characters XML 1.0 cannot hold
# Pictographs (emoji: Miscellaneous Symbols and Dingbats, the supplementary planes' pictographs,
# emoticons and symbols), which fonts for text do not have and matplotlib draws in no font.
PICTOGRAPH = re.compile("[\u2600-\u27bf\U0001f000-\U0001faff]")
Props = dict[str, Any]  # an artist's properties, passed to it as keywords


@dataclass(frozen=True)
class Drawing:
    files: dict[str, bytes]  # by format
    missing_glyphs: tuple[str, ...] = ()  # characters no installed font could draw


@functools.cache
def cjk_font() -> tuple[str, str] | None:
    """(family, file) of an installed font with Chinese glyphs, or None. The file is the regular
    weight matplotlib draws with: a family has several (Noto Sans CJK's Bold and Regular), and the
    font list's order, which a process lists the system's fonts in by its hash seed, must not pick."""

    def known() -> set[str]:
        return {f.name for f in font_manager.fontManager.ttflist}

    names = known()
    if not any(name in names for name in CJK_FONTS):
        # matplotlib caches its font list; a font installed after that cache was built is added here.
        for path in sorted(font_manager.findSystemFonts()):
            if re.search(r"cjk|sourcehan|wqy|droidsansfallback", Path(path).name, re.IGNORECASE):
                font_manager.fontManager.addfont(path)
        names = known()
    name = next((name for name in CJK_FONTS if name in names), None)
    if name is None:
        return None
    return name, str(
        font_manager.findfont(font_manager.FontProperties(family=name), fallback_to_default=False)
    )


def fonts() -> tuple[str, ...]:
    """Font families in fallback order: Latin from DejaVu Sans, the rest from the CJK font."""
    cjk = cjk_font()
    return (BASE_FONT, cjk[0]) if cjk else (BASE_FONT,)


def renderer_identity() -> dict:
    """Everything besides the chart's data that shapes the files; part of every cache key."""
    cjk = cjk_font()
    font_file = Path(cjk[1]) if cjk else None
    return {
        "renderer": RENDERER_VERSION,
        "matplotlib": mpl.__version__,
        "fonts": fonts(),
        "cjk_file": [str(font_file), font_file.stat().st_size]
        if font_file and font_file.exists()
        else None,
        "size": [WIDTH, HEIGHT, PNG_DPI],
    }


def pixel_size(fmt: str) -> tuple[int, int]:
    dpi = PNG_DPI if fmt == "png" else CSS_DPI
    return round(WIDTH * dpi), round(HEIGHT * dpi)


def draw(chart: Chart, formats: tuple[str, ...] = ("svg", "png")) -> Drawing:
    """The chart in each format, and which characters (if any) no font had."""
    if unknown := set(formats) - {"svg", "png"}:
        raise ValueError(f"unknown chart format {sorted(unknown)[0]!r}")
    files: dict[str, bytes] = {}
    missing: set[str] = set()
    with mpl.rc_context(_rc()), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        place = geometry.layout(chart, _text_size)
        figure, points = _figure(chart, place)
        if "svg" in formats:
            buffer = io.BytesIO()
            figure.savefig(buffer, format="svg", metadata={"Date": None})
            svg, missing = _with_texts(buffer.getvalue().decode("utf-8"), place.texts)
            files["svg"] = _with_description(svg, chart)
        if "png" in formats:
            _add_texts(figure, place.texts, points)
            files["png"] = _png(figure)
    missing |= _missing_glyphs(caught)
    return Drawing({fmt: files[fmt] for fmt in formats}, tuple(sorted(missing)))


def _missing_glyphs(caught: list[warnings.WarningMessage]) -> set[str]:
    """The characters matplotlib warned no font had; other warnings are passed on."""
    missing = set()
    for warning in caught:
        match = _GLYPH_MISSING.search(str(warning.message))
        if match:
            missing.add(chr(int(match[1])))
        else:
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    return missing


def _with_texts(svg: str, texts: Sequence[geometry.Text]) -> tuple[str, set[str]]:
    """The SVG with each text drawn over everything else, as matplotlib draws a figure's texts
    last, and the characters no font had."""
    pieces: list[str] = []
    missing: set[str] = set()
    for text in texts:
        elements, text_missing = _svg_text(
            text.text, text.size, text.ha, text.va, text.bold, text.rotation
        )
        if elements:  # an empty text has none
            pieces.append(f'<g transform="translate({text.x:.1f} {-text.y:.1f})">{elements}</g>\n')
        missing |= text_missing
    end = svg.rindex("</svg>")
    return svg[:end] + "".join(pieces) + svg[end:], missing


@functools.lru_cache(maxsize=16384)
def _svg_text(
    text: str, size: float, ha: str, va: str, bold: bool, rotation: int
) -> tuple[str, frozenset[str]]:
    """The <text> elements matplotlib writes for a text anchored at the figure's lower left
    corner, and the characters no font had. Remembered, since tick labels, titles and names recur
    in chart after chart: laying out each chart's texts anew was two thirds of drawing an SVG."""
    with mpl.rc_context(_rc()), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure = _blank_figure()
        _add_texts(
            figure,
            [geometry.Text(text, 0.0, 0.0, size, ha, va, bold, rotation)],
            figure.transFigure,
        )
        buffer = io.BytesIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    elements = "".join(_TEXT_ELEMENT.findall(buffer.getvalue().decode("utf-8")))
    return _NO_ROTATION.sub("", elements), frozenset(_missing_glyphs(caught))


def _png(figure) -> bytes:
    """The figure on white in 256 colours of its own, not in full colour: a chart has a handful,
    and the shades of their antialiased edges, so it looks the same at a third of the size (a site
    of 2,600 weeks holds 2,600 of them). Drawn straight into Pillow, not through a PNG of
    matplotlib's that Pillow would decode again."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    dpi, background = figure.dpi, figure.patch.get_facecolor()
    figure.set_dpi(PNG_DPI)
    figure.patch.set_facecolor(PNG_BACKGROUND)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    image = Image.frombuffer(
        "RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1
    ).convert("RGB")
    figure.set_dpi(dpi)  # as it was, for a format drawn after this one
    figure.patch.set_facecolor(background)
    buffer = io.BytesIO()
    # Level 6 (zlib's default) rather than Pillow's `optimize`: 10% larger files, in a tenth of the time.
    # Maximum coverage keeps the series' exact colours, as median cut does, in two thirds of the time
    # (the fast octree, faster still, shifts them by a shade).
    image.quantize(256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE).save(
        buffer, format="PNG", compress_level=6
    )
    return buffer.getvalue()


def _rc() -> dict:
    return {
        "svg.hashsalt": "repo-digest",
        "svg.fonttype": "none",
        "font.family": list(fonts()),
        "font.size": FONT_SIZE,
        "text.parse_math": False,  # a label such as "$x$" is text, not a formula
        "text.color": INK,
        "figure.facecolor": "none",
        "savefig.facecolor": "none",
        "savefig.transparent": True,
        "hatch.linewidth": 1.0,
    }


def _figure(chart: Chart, place: Layout):
    """The chart as a matplotlib figure of plain artists, each where `layout` puts it, but for its
    texts (`_add_texts`, `_with_texts`); and the transform from the layout's points to the figure."""
    from matplotlib.transforms import Affine2D

    figure = _blank_figure()
    # layout's points to the figure
    points = Affine2D().scale(1 / geometry.WIDTH, 1 / geometry.HEIGHT) + figure.transFigure
    data = (
        Affine2D()
        .scale(place.bin_width, place.height / place.top_value)
        .translate(place.x(0), place.bottom)
        + points
    )
    _draw_plot(figure, chart, place, data, points)
    _draw_legend(figure, chart, place, points)
    return figure, points


def _add_texts(figure, texts: Sequence[geometry.Text], points) -> None:
    for text in texts:
        figure.text(
            text.x,
            text.y,
            text.text,
            transform=points,
            fontsize=text.size,
            ha=text.ha,
            va=text.va,
            fontweight="bold" if text.bold else "normal",
            rotation=text.rotation,
            rotation_mode="anchor",
            multialignment="center",
        )


def _draw_plot(figure, chart: Chart, place: Layout, data, points) -> None:
    """Grid, the marked bin, the series, then the axes and their ticks over them."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import PathPatch, Rectangle

    add, right = figure.add_artist, place.left + place.width
    grid = [[(place.left, place.y(v)), (right, place.y(v))] for v in place.y_ticks]
    add(LineCollection(grid, colors=INK, alpha=0.3, linewidths=0.6, transform=points, zorder=0.5))
    if chart.marked is not None:
        band: Props = dict(facecolor=INK, alpha=0.15, linewidth=0, transform=data, zorder=0)
        add(Rectangle((chart.marked - 0.5, 0), 1, place.top_value, **band))
    base = [0.0] * chart.bins
    bars_drawn = 0
    for series in chart.series:
        values = [float("nan") if v is None else float(v) for v in series.values]
        style = series.style
        if series.kind == "line":
            line: Props = dict(color=style.color, linewidth=2, marker=_marker(chart), markersize=4)
            add(Line2D(range(chart.bins), values, **line, transform=data, zorder=3))
            continue
        # Overlaid bars (key PRs within merged PRs) narrow so the one behind stays visible.
        width = place.bar_width if chart.stacked or bars_drawn == 0 else place.bar_width * 0.5
        bars = _bars(values, width, base if chart.stacked else [0.0] * chart.bins)
        if bars is not None:  # one path for the series: a <path> in the SVG, not one per bar
            fill: Props = dict(facecolor=style.color, hatch=style.hatch or None)
            add(
                PathPatch(bars, **fill, hatchcolor=HATCH_INK, linewidth=0, transform=data, zorder=2)
            )
        if chart.stacked:
            base = [b + (v if v == v else 0.0) for b, v in zip(base, values)]
        bars_drawn += 1
    top = place.bottom + place.height
    axes = [[(place.left, top), (place.left, place.bottom), (right, place.bottom)]]
    ticks = [
        [(place.x(p), place.bottom), (place.x(p), place.bottom - TICK_LENGTH)]
        for p in place.x_ticks
    ]
    ticks += [
        [(place.left, place.y(v)), (place.left - TICK_LENGTH, place.y(v))] for v in place.y_ticks
    ]
    add(LineCollection(axes, colors=INK, linewidths=AXIS_LINE_WIDTH, transform=points, zorder=2.5))
    add(LineCollection(ticks, colors=INK, linewidths=TICK_WIDTH, transform=points, zorder=2.5))


def _draw_legend(figure, chart: Chart, place: Layout, points) -> None:
    """Each entry's handle: a bar's swatch, or a line with its marker."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    add, mark = figure.add_artist, _marker(chart)
    for entry in place.legend:
        series = chart.series[entry.series]
        color, hatch = series.style.color, series.style.hatch or None
        if series.kind == "line":
            middle = entry.x + entry.length / 2
            ends = [entry.x, entry.x + entry.length]
            add(Line2D(ends, [entry.y, entry.y], color=color, linewidth=2, transform=points))
            if mark:
                dot: Props = dict(color=color, marker=mark, markersize=4, transform=points)
                add(Line2D([middle], [entry.y], **dot))
        else:
            corner = (entry.x, entry.y - entry.height / 2)
            swatch: Props = dict(facecolor=color, hatch=hatch, hatchcolor=HATCH_INK, linewidth=0)
            add(Rectangle(corner, entry.length, entry.height, **swatch, transform=points))


def _marker(chart: Chart) -> str | None:
    return "o" if chart.bins <= 24 else None


def _bars(values: list[float], width: float, bottoms: list[float]):
    """One path of the bars of a series, skipping empty bins."""
    from matplotlib.path import Path as Outline

    vertices, codes = [], []
    for x, (value, bottom) in enumerate(zip(values, bottoms)):
        if value != value or not value:  # NaN or 0
            continue
        x0, x1, top = x - width / 2, x + width / 2, bottom + value
        vertices += [(x0, bottom), (x1, bottom), (x1, top), (x0, top), (x0, bottom)]
        codes += [Outline.MOVETO, Outline.LINETO, Outline.LINETO, Outline.LINETO, Outline.CLOSEPOLY]
    return Outline(vertices, codes) if vertices else None


@functools.lru_cache(maxsize=8192)
def _text_size(text: str, size: float, bold: bool) -> tuple[float, float, float]:
    """(width, height, descent) in points, as matplotlib lays the text out in the chart's fonts;
    remembered, since the same tick labels, titles and names recur in chart after chart."""
    figure, renderer = _measuring()
    with mpl.rc_context(_rc()):
        artist = figure.text(
            0, 0, text, fontsize=size, fontweight="bold" if bold else "normal", va="baseline"
        )
        box = artist.get_window_extent(renderer)
        artist.remove()
    return float(box.width), float(box.height), float(-box.y0)


@functools.cache
def _measuring():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = _blank_figure()
    return figure, FigureCanvasAgg(figure).get_renderer()


def _blank_figure():
    """A figure of the charts' size, at 72 dots an inch, where a pixel is a point."""
    # Imported here: a build whose charts are all cached never draws, and matplotlib takes a third of a second.
    from matplotlib.figure import Figure

    return Figure(figsize=(WIDTH, HEIGHT), dpi=72)


def _with_description(text: str, chart: Chart) -> bytes:
    """Add <title> and <desc> (the alt text) as the SVG's first children, for readers that open it."""
    end = text.index(">", text.index("<svg")) + 1
    opening = text[:end].replace(
        "<svg ", '<svg role="img" aria-labelledby="chart-title chart-desc" ', 1
    )
    description = (
        f'\n <title id="chart-title">{_xml_text(chart.title)}</title>'
        f'\n <desc id="chart-desc">{_xml_text(chart.alt)}</desc>'
        f"\n <style>{SVG_STYLE}</style>"
    )
    return _compact(opening + description + text[end:].replace(INK, "var(--ink)")).encode("utf-8")


def _compact(svg: str) -> str:
    """A third smaller: coordinates in attributes to a tenth of a point (an eighth of a pixel), path
    data on one line, the font named once (SVG_STYLE), no indentation and no metadata. Text (the
    title, the alt text, the words drawn) is left as it is, and so are scale factors, should a
    marker or hatch carry one: rounded, scale(0.015625) would draw at size zero."""

    def attribute(match: re.Match) -> str:
        value = _LINE_BREAK.sub(" ", match[0]).replace(' "', '"')
        return value if "scale(" in value else _LONG_DECIMAL.sub(r"\1", value)

    svg = _METADATA.sub("", _FONT_FAMILY.sub("", svg))
    return _INDENT.sub("\n", _ATTRIBUTE.sub(attribute, svg))


def _xml_text(text: str) -> str:
    return escape(_NOT_XML.sub(" ", text), quote=False)
