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
from dataclasses import dataclass
from html import escape
from pathlib import Path

import matplotlib as mpl
from matplotlib import font_manager

from .model import Chart, printable

RENDERER_VERSION = "7"  # bump when a change here changes the pictures: it invalidates the cache
WIDTH, HEIGHT = 4.4, 3.4  # inches: about a phone's column, so a phone barely scales the text down
PNG_DPI = 150
LAYOUT_PAD = 3 / 72  # inches between the figure's edge and what is drawn, as constrained layout leaves
CSS_DPI = 96  # what an SVG's size in points comes to in CSS pixels
INK = "#595959"  # text and axes: 7:1 on white; an SVG swaps it for DARK_INK on a dark page
DARK_INK = "#b1bac4"  # 9:1 on the theme's dark page
PNG_BACKGROUND = "#ffffff"
FONT_SIZE = 11  # titles; ticks and legends one point smaller
LEGEND_NAME_LIMIT = 24  # characters of a label or login shown in a legend; tables show it whole
BASE_FONT = "DejaVu Sans"  # ships with matplotlib
CJK_FONTS = (
    "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN", "Noto Sans CJK JP",
    "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Droid Sans Fallback",
)
# The fonts an SVG's text asks the reader's browser for: the ones it was measured with first, then
# the Chinese fonts of common systems, then whatever sans-serif the system has.
FONT_STACK = (
    BASE_FONT, "Verdana", *CJK_FONTS[:4], "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", *CJK_FONTS[5:],
)
# In an SVG shown by <img>, prefers-color-scheme follows the page, so one file serves both schemes.
SVG_STYLE = (
    f"svg{{--ink:{INK}}}@media (prefers-color-scheme: dark){{svg{{--ink:{DARK_INK}}}}}"
    "text{font-family:" + ",".join(f"'{name}'" for name in FONT_STACK) + ",sans-serif}"
)
_ATTRIBUTE = re.compile(r'\s[\w:-]+="[^"<>]*"')
_LONG_DECIMAL = re.compile(r"(\d\.\d)\d+")
_INDENT = re.compile(r"\n[ \t]+")
_LINE_BREAK = re.compile(r"\s*\n\s*")
_FONT_FAMILY = re.compile(r"font-family: [^;\"]*(?:; |(?=\"))")  # per text; SVG_STYLE names it once
_METADATA = re.compile(r"<metadata>.*?</metadata>\n", re.DOTALL)
_GLYPH_MISSING = re.compile(r"Glyph (\d+) .*missing from")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # characters XML 1.0 cannot hold


@dataclass(frozen=True)
class Drawing:
    files: dict[str, bytes]  # by format
    missing_glyphs: tuple[str, ...] = ()  # characters no installed font could draw


@functools.cache
def cjk_font() -> tuple[str, str] | None:
    """(family, file) of an installed font with Chinese glyphs, or None."""
    def known() -> dict[str, str]:
        return {f.name: f.fname for f in font_manager.fontManager.ttflist}

    fonts = known()
    if not any(name in fonts for name in CJK_FONTS):
        # matplotlib caches its font list; a font installed after that cache was built is added here.
        for path in font_manager.findSystemFonts():
            if re.search(r"cjk|sourcehan|wqy|droidsansfallback", Path(path).name, re.IGNORECASE):
                font_manager.fontManager.addfont(path)
        fonts = known()
    return next(((name, fonts[name]) for name in CJK_FONTS if name in fonts), None)


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
        "cjk_file": [str(font_file), font_file.stat().st_size] if font_file and font_file.exists() else None,
        "size": [WIDTH, HEIGHT, PNG_DPI],
    }


def pixel_size(fmt: str) -> tuple[int, int]:
    dpi = PNG_DPI if fmt == "png" else CSS_DPI
    return round(WIDTH * dpi), round(HEIGHT * dpi)


def draw(chart: Chart, formats: tuple[str, ...] = ("svg", "png")) -> Drawing:
    """The chart in each format, and which characters (if any) no font had."""
    files, missing = {}, set()
    with mpl.rc_context(_rc()), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure = _figure(chart)
        for fmt in formats:
            buffer = io.BytesIO()
            if fmt == "svg":
                figure.savefig(buffer, format="svg", metadata={"Date": None})
                files[fmt] = _with_description(buffer.getvalue(), chart)
            elif fmt == "png":
                figure.savefig(buffer, format="png", dpi=PNG_DPI, metadata={"Software": None},
                               transparent=False, facecolor=PNG_BACKGROUND)
                files[fmt] = _with_palette(buffer.getvalue())
            else:
                raise ValueError(f"unknown chart format {fmt!r}")
    for warning in caught:
        match = _GLYPH_MISSING.search(str(warning.message))
        if match:
            missing.add(chr(int(match[1])))
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return Drawing(files, tuple(sorted(missing)))


def _with_palette(png: bytes) -> bytes:
    """The PNG in 256 colours of its own, not in full colour: a chart has a handful, and the
    shades of their antialiased edges, so it looks the same at a third of the size (a site of
    2,600 weeks holds 2,600 of them)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    buffer = io.BytesIO()
    image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _rc() -> dict:
    return {
        "svg.hashsalt": "repo-digest",
        "svg.fonttype": "none",
        "font.family": list(fonts()),
        "font.size": FONT_SIZE,
        "text.parse_math": False,  # a label such as "$x$" is text, not a formula
        "text.color": INK,
        "axes.labelcolor": INK,
        "axes.edgecolor": INK,
        "xtick.color": INK,
        "ytick.color": INK,
        "grid.color": INK,
        "grid.alpha": 0.3,
        "figure.facecolor": "none",
        "axes.facecolor": "none",
        "savefig.facecolor": "none",
        "savefig.transparent": True,
        "hatch.linewidth": 1.0,
    }


def _figure(chart: Chart):
    # Imported here: a build whose charts are all cached never draws, and these take a third of a second.
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(WIDTH, HEIGHT))
    axes = figure.add_subplot()
    positions = range(chart.bins)
    crowded = chart.bins > 40
    width = 0.9 if crowded else 0.8
    bottom = [0.0] * chart.bins
    handles, names = [], []
    bars_drawn = 0
    for series in chart.series:
        values = [float("nan") if v is None else float(v) for v in series.values]
        style = series.style
        if series.kind == "line":
            (handle,) = axes.plot(positions, values, color=style.color, linewidth=2,
                                  marker="o" if chart.bins <= 24 else None, markersize=4, zorder=3)
        else:
            # Overlaid bars (key PRs within merged PRs) narrow so the one behind stays visible.
            bar_width = width if chart.stacked or bars_drawn == 0 else width * 0.5
            handle = axes.bar(positions, values, bar_width, bottom=bottom if chart.stacked else None,
                              color=style.color, hatch=style.hatch or None, hatchcolor="#333333",
                              linewidth=0, zorder=2)
            if chart.stacked:
                bottom = [b + (v if v == v else 0) for b, v in zip(bottom, values)]
            bars_drawn += 1
        handles.append(handle)
        names.append(_legend_name(series.name))
    if chart.marked is not None:
        axes.axvspan(chart.marked - 0.5, chart.marked + 0.5, color=INK, alpha=0.15, linewidth=0, zorder=0)
    shown = _tick_positions(chart.ticks)
    axes.set_xticks(shown, _tick_labels(chart.ticks, shown))
    for position, label in zip(shown, axes.get_xticklabels()):
        if position == chart.marked:
            label.set_fontweight("bold")
    axes.set_xlim(-0.6, chart.bins - 0.4)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(bottom=0)
    axes.grid(axis="y", linewidth=0.6)
    axes.set_axisbelow(True)
    axes.spines[["top", "right"]].set_visible(False)
    axes.tick_params(labelsize=FONT_SIZE - 1)
    axes.set_title(chart.title, loc="left", fontsize=FONT_SIZE + 1)
    axes.set_xlabel(chart.x_label)
    axes.set_ylabel(chart.y_label)
    # Explicit handles and names: matplotlib would drop a name that starts with "_".
    legend = figure.legend(handles, names, loc="lower center", ncols=_legend_columns(names), frameon=False,
                           fontsize=FONT_SIZE - 1, handlelength=1.2, columnspacing=1.2) if handles else None
    _fit(figure, axes, legend)
    return figure


def _fit(figure, axes, legend) -> None:
    """Margins that just hold the title, the ticks, the axis labels and the legend below them,
    measured once. matplotlib's constrained layout finds the same in two passes and a dry drawing
    of the whole figure: a third of a chart's time."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(figure).get_renderer()
    width, height = figure.bbox.width, figure.bbox.height
    pad = LAYOUT_PAD * figure.dpi
    legend_height = legend.get_window_extent(renderer).height + pad if legend else 0
    box, tight = axes.get_window_extent(renderer), axes.get_tightbbox(renderer)
    left = box.x0 - tight.x0
    figure.subplots_adjust(left=(left + pad) / width, right=1 - (max(tight.x1 - box.x1, 0) + pad) / width,
                           bottom=(box.y0 - tight.y0 + legend_height + pad) / height, top=1 - (tight.y1 - box.y1 + pad) / height)
    # The shorter axis may have other ticks, and wider labels ("10" where "8" was the highest).
    box, y_axis = axes.get_window_extent(renderer), axes.yaxis.get_tightbbox(renderer)
    if box.x0 - y_axis.x0 > left:
        figure.subplots_adjust(left=(box.x0 - y_axis.x0 + pad) / width)
    if legend:
        legend.set_bbox_to_anchor((0.5, pad / height), transform=figure.transFigure)


def _tick_positions(ticks: tuple[str, ...]) -> list[int]:
    """Every k-th tick, k chosen so the labels do not overlap; the last bin always labelled."""
    if not ticks:
        return []
    axes_points = WIDTH * 72 * 0.85
    label_points = max(len(line) for t in ticks for line in t.split("\n")) * (FONT_SIZE - 1) * 0.62 + 6
    step = max(1, -(-len(ticks) * label_points // axes_points))
    step = int(step)
    last = len(ticks) - 1
    return sorted({*range(last, -1, -step)})


def _tick_labels(ticks: tuple[str, ...], shown: list[int]) -> list[str]:
    """The shown ticks, each carrying the year of a skipped tick that named a new year."""
    labels, previous = [], -1
    for position in shown:
        label = ticks[position]
        years = [ticks[i].partition("\n")[2] for i in range(previous + 1, position + 1) if "\n" in ticks[i]]
        if years and "\n" not in label:
            label = f"{label}\n{years[-1]}"
        labels.append(label)
        previous = position
    return labels


def _legend_columns(names: list[str]) -> int:
    """As many columns (up to three) as the longest name leaves room for across the figure."""
    longest = max(len(name) for name in names)
    room = int(WIDTH * 72 / ((longest + 4) * (FONT_SIZE - 1) * 0.62))
    return max(1, min(3, len(names), room))


def _legend_name(name: str) -> str:
    name = printable(name)
    return name if len(name) <= LEGEND_NAME_LIMIT else name[: LEGEND_NAME_LIMIT - 1] + "…"


def _with_description(svg: bytes, chart: Chart) -> bytes:
    """Add <title> and <desc> (the alt text) as the SVG's first children, for readers that open it."""
    text = svg.decode("utf-8")
    end = text.index(">", text.index("<svg")) + 1
    opening = text[:end].replace("<svg ", '<svg role="img" aria-labelledby="chart-title chart-desc" ', 1)
    description = (
        f'\n <title id="chart-title">{_xml_text(chart.title)}</title>'
        f'\n <desc id="chart-desc">{_xml_text(chart.alt)}</desc>'
        f'\n <style>{SVG_STYLE}</style>'
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
