"""Chart stage, geometry: where each part of a chart goes, from the sizes of its texts.

Pure: `layout(chart, measure)` takes a `Chart` and a function that gives a text's size, and returns
positions in points on the figure (origin at the bottom left, y upwards), which draw.py hands to
matplotlib as they are. Margins just hold what is around the plot area: the title above it, the
tick labels and axis labels beside it, the legend below. Computing them from the texts' sizes, each
measured once, spares matplotlib's axes, ticks, legend and layout engine, which measure every text
several times a drawing: five sixths of a chart's time went there.

The sizes and gaps are matplotlib's own defaults (ticks 3.5 points long at 3.5 points from their
labels, axis labels 4 points out, the title 6 points up, the legend's spacings), so a chart looks as
one drawn through matplotlib's axes does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from digest_plugin.charts.chart import Chart, printable

# points: about a phone's column, so a phone barely scales the text down
WIDTH, HEIGHT = 4.4 * 72, 3.4 * 72
FONT_SIZE = 11  # titles; axis labels the same, ticks and legends one point smaller
TITLE_SIZE = FONT_SIZE + 1
SMALL_SIZE = FONT_SIZE - 1
PAD = 3.0  # between the figure's edge and what is drawn
TICK_LENGTH = 3.5
TICK_PAD = 3.5  # from a tick's end to its label
LABEL_PAD = 4.0  # from the tick labels to the axis label
TITLE_PAD = 6.0  # from the top of the plot area to the title's baseline
HEADROOM = 0.05  # the plot area reaches this share above the highest value
Y_TICKS = 10  # at most, at round integer steps
# The legend, in units of its font size.
HANDLE_LENGTH, HANDLE_HEIGHT, HANDLE_TEXT_PAD = 1.2, 0.7, 0.8
COLUMN_SPACING, ROW_SPACING, BORDER_PAD, BORDER_AXES_PAD = 1.2, 0.5, 0.4, 0.5
LEGEND_COLUMNS = 3
LEGEND_NAME_LIMIT = 24  # characters of a label or login shown in a legend; tables show it whole
# bins a bar fills; wider bars past CROWDED bins
BAR_WIDTH, CROWDED_BAR_WIDTH, CROWDED = 0.8, 0.9, 40
# bins of room before the first bin's centre and after the last (less the last's half bar)
X_MARGIN = 0.6

# text, font size, bold -> (width, height, descent) in points; height counts every line
Measure = Callable[[str, float, bool], tuple[float, float, float]]


@dataclass(frozen=True)
class Text:
    text: str
    x: float
    y: float
    size: float
    ha: str  # matplotlib's horizontal and vertical alignment of (x, y)
    va: str
    bold: bool = False
    rotation: int = 0


@dataclass(frozen=True)
class LegendEntry:
    series: int  # index into the chart's series
    x: float  # the handle's left edge
    y: float  # the middle of its row
    length: float  # the handle's length
    height: float  # a bar handle's height


@dataclass(frozen=True)
class Layout:
    left: float  # the plot area
    bottom: float
    width: float
    height: float
    bins: int
    top_value: float  # the value at the top of the plot area (the bottom is 0)
    x_ticks: tuple[int, ...]  # the bins that get a tick and a label
    y_ticks: tuple[int, ...]
    bar_width: float  # in bins
    texts: tuple[Text, ...]
    legend: tuple[LegendEntry, ...]

    @property
    def bin_width(self) -> float:
        return _bin_width(self.width, self.bins)

    def x(self, position: float) -> float:
        """Where a bin's centre is (a fraction of a bin for a bar's edge)."""
        return self.left + (position + X_MARGIN) * self.bin_width

    def y(self, value: float) -> float:
        return self.bottom + value / self.top_value * self.height


def layout(chart: Chart, measure: Measure) -> Layout:
    """Where the plot area, every text and every legend entry of `chart` go."""
    top_value = _top_value(chart)
    y_ticks = nice_ticks(top_value)
    x_ticks = tick_positions(chart.ticks)
    sizes = _Sizes.of(chart, x_ticks, y_ticks, measure)
    box = _plot_area(chart, x_ticks, sizes)  # left, bottom, width, height
    bar_width = CROWDED_BAR_WIDTH if chart.bins > CROWDED else BAR_WIDTH
    area = Layout(*box, chart.bins, top_value, tuple(x_ticks), tuple(y_ticks), bar_width, (), ())
    texts, entries = _legend(sizes)
    return replace(area, texts=(*_axis_texts(chart, area, sizes), *texts), legend=entries)


@dataclass(frozen=True)
class _Sizes:
    """The texts around the plot area and what they measure, in points."""

    x_labels: tuple[tuple[str, bool], ...]  # (label, bold) of each x tick
    y_labels_width: float
    x_labels_height: float
    last_label_width: float
    title_width: float
    title_ascent: float
    y_label_room: float  # the y axis label and its gap, or 0
    x_label_room: float
    names: tuple[str, ...]  # the legend's
    columns: tuple[tuple[int, ...], ...]
    column_widths: tuple[float, ...]
    row_height: float

    @classmethod
    def of(cls, chart: Chart, x_ticks: list[int], y_ticks: list[int], measure: Measure) -> _Sizes:
        x_labels = tuple(
            zip(tick_labels(chart.ticks, x_ticks), (p == chart.marked for p in x_ticks))
        )
        title_width, title_height, title_descent = measure(chart.title, TITLE_SIZE, False)
        names = tuple(legend_name(series.name) for series in chart.series)
        columns = legend_columns(list(names))
        handle = (HANDLE_LENGTH + HANDLE_TEXT_PAD) * SMALL_SIZE
        return cls(
            x_labels=x_labels,
            y_labels_width=max(
                (measure(str(value), SMALL_SIZE, False)[0] for value in y_ticks), default=0.0
            ),
            x_labels_height=max(
                (measure(label, SMALL_SIZE, bold)[1] for label, bold in x_labels), default=0.0
            ),
            last_label_width=measure(x_labels[-1][0], SMALL_SIZE, x_labels[-1][1])[0]
            if x_labels
            else 0.0,
            title_width=title_width,
            title_ascent=title_height - title_descent,
            y_label_room=measure(chart.y_label, FONT_SIZE, False)[1] + LABEL_PAD
            if chart.y_label
            else 0.0,
            x_label_room=measure(chart.x_label, FONT_SIZE, False)[1] + LABEL_PAD
            if chart.x_label
            else 0.0,
            names=names,
            columns=tuple(tuple(column) for column in columns),
            column_widths=tuple(
                handle + max(measure(names[i], SMALL_SIZE, False)[0] for i in column)
                for column in columns
            ),
            row_height=max(
                [
                    HANDLE_HEIGHT * SMALL_SIZE,
                    *(measure(name, SMALL_SIZE, False)[1] for name in names),
                ]
            ),
        )

    @property
    def rows(self) -> int:
        return max((len(column) for column in self.columns), default=0)

    @property
    def legend_block(self) -> float:
        """The height of the legend's rows."""
        return (
            self.rows * self.row_height + (self.rows - 1) * ROW_SPACING * SMALL_SIZE
            if self.rows
            else 0.0
        )


def _plot_area(
    chart: Chart, x_ticks: list[int], sizes: _Sizes
) -> tuple[float, float, float, float]:
    """(left, bottom, width, height) of the plot area: the figure less what goes around it."""
    legend_room = (
        sizes.legend_block + (2 * BORDER_PAD + BORDER_AXES_PAD) * SMALL_SIZE + PAD
        if sizes.rows
        else 0.0
    )
    ticks_room = TICK_LENGTH + TICK_PAD
    left = PAD + sizes.y_label_room + sizes.y_labels_width + ticks_room
    bottom = PAD + legend_room + sizes.x_label_room + sizes.x_labels_height + ticks_room
    top = PAD + sizes.title_ascent + TITLE_PAD
    # On the right, room for half the last tick label where it reaches past the plot area.
    right = PAD
    for _ in range(2):  # the overhang depends on the width it leaves; twice is as good as solved
        width = WIDTH - left - right
        after_last = (
            (chart.bins - 1 - x_ticks[-1] + X_MARGIN) * _bin_width(width, chart.bins)
            if x_ticks
            else 0.0
        )
        right = PAD + max(sizes.last_label_width / 2 - after_last, 0.0)
    return left, bottom, WIDTH - left - right, HEIGHT - bottom - top


def _axis_texts(chart: Chart, area: Layout, sizes: _Sizes) -> list[Text]:
    """The tick labels, the axis labels and the title."""
    below, beside = area.bottom - TICK_LENGTH - TICK_PAD, area.left - TICK_LENGTH - TICK_PAD
    texts = [
        Text(label, area.x(position), below, SMALL_SIZE, "center", "top", bold)
        for position, (label, bold) in zip(area.x_ticks, sizes.x_labels)
    ]
    texts += [
        Text(str(value), beside, area.y(value), SMALL_SIZE, "right", "center_baseline")
        for value in area.y_ticks
    ]
    if chart.x_label:
        x, y = area.left + area.width / 2, below - sizes.x_labels_height - LABEL_PAD
        texts.append(Text(chart.x_label, x, y, FONT_SIZE, "center", "top"))
    if chart.y_label:
        x, y = beside - sizes.y_labels_width - LABEL_PAD, area.bottom + area.height / 2
        texts.append(Text(chart.y_label, x, y, FONT_SIZE, "center", "bottom", rotation=90))
    # The title starts over the plot area, or further left where it would not fit that way.
    x = max(PAD, min(area.left, WIDTH - PAD - sizes.title_width))
    y = area.bottom + area.height + TITLE_PAD
    texts.append(Text(chart.title, x, y, TITLE_SIZE, "left", "baseline"))
    return texts


def _legend(sizes: _Sizes) -> tuple[tuple[Text, ...], tuple[LegendEntry, ...]]:
    """The legend's names and entries, centred under everything else."""
    texts, entries = [], []
    spacing = COLUMN_SPACING * SMALL_SIZE
    x = WIDTH / 2 - (sum(sizes.column_widths) + spacing * (len(sizes.columns) - 1)) / 2
    first_row = (
        PAD
        + (BORDER_AXES_PAD + BORDER_PAD) * SMALL_SIZE
        + sizes.legend_block
        - sizes.row_height / 2
    )
    for column, column_width in zip(sizes.columns, sizes.column_widths):
        for row, index in enumerate(column):
            y = first_row - row * (sizes.row_height + ROW_SPACING * SMALL_SIZE)
            entries.append(
                LegendEntry(index, x, y, HANDLE_LENGTH * SMALL_SIZE, HANDLE_HEIGHT * SMALL_SIZE)
            )
            name_x = x + (HANDLE_LENGTH + HANDLE_TEXT_PAD) * SMALL_SIZE
            texts.append(Text(sizes.names[index], name_x, y, SMALL_SIZE, "left", "center_baseline"))
        x += column_width + spacing
    return tuple(texts), tuple(entries)


def nice_ticks(top_value: float) -> list[int]:
    """Integer ticks from 0 up to `top_value` at a round step, at most Y_TICKS intervals (the
    steps matplotlib's MaxNLocator takes: 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten)."""
    step = 1
    for magnitude in (10**power for power in range(12)):
        candidates = [
            int(m * magnitude)
            for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8)
            if m * magnitude == int(m * magnitude)
        ]
        found = next((s for s in candidates if top_value / s <= Y_TICKS), None)
        if found:
            step = found
            break
    return list(range(0, int(top_value / step + 1e-9) * step + 1, step))


def tick_positions(ticks: tuple[str, ...]) -> list[int]:
    """Every k-th tick, k chosen so the labels do not overlap; the last bin always labelled."""
    if not ticks:
        return []
    axes_points = WIDTH * 0.85
    label_points = max(len(line) for t in ticks for line in t.split("\n")) * SMALL_SIZE * 0.62 + 6
    step = int(max(1, -(-len(ticks) * label_points // axes_points)))
    last = len(ticks) - 1
    return sorted({*range(last, -1, -step)})


def tick_labels(ticks: tuple[str, ...], shown: list[int]) -> list[str]:
    """The shown ticks, each carrying the year of a skipped tick that named a new year."""
    labels, previous = [], -1
    for position in shown:
        label = ticks[position]
        years = [
            ticks[i].partition("\n")[2]
            for i in range(previous + 1, position + 1)
            if "\n" in ticks[i]
        ]
        if years and "\n" not in label:
            label = f"{label}\n{years[-1]}"
        labels.append(label)
        previous = position
    return labels


def legend_columns(names: list[str]) -> list[list[int]]:
    """The legend's entries by column, filled down each column first, the first columns taking
    one more where they do not divide evenly; as many columns (up to three) as the longest name
    leaves room for across the figure."""
    if not names:
        return []
    longest = max(len(name) for name in names)
    room = int(WIDTH / ((longest + 4) * SMALL_SIZE * 0.62))
    count = max(1, min(LEGEND_COLUMNS, len(names), room))
    per_column, extra = divmod(len(names), count)
    columns, start = [], 0
    for column in range(count):
        size = per_column + (1 if column < extra else 0)
        columns.append(list(range(start, start + size)))
        start += size
    return [column for column in columns if column]


def legend_name(name: str) -> str:
    name = printable(name)
    return name if len(name) <= LEGEND_NAME_LIMIT else name[: LEGEND_NAME_LIMIT - 1] + "…"


def _top_value(chart: Chart) -> float:
    """The highest value drawn (a stack's total where bars stack), with some headroom; 1 for a
    chart of zeros, so that its axis still reads 0 to 1."""
    stacked = [0.0] * chart.bins
    highest = 0.0
    for series in chart.series:
        values = [v or 0.0 for v in series.values]
        if series.kind == "bar" and chart.stacked:
            stacked = [a + b for a, b in zip(stacked, values)]
            values = stacked
        highest = max(highest, *values) if values else highest
    return highest * (1 + HEADROOM) if highest > 0 else 1.0


def _bin_width(width: float, bins: int) -> float:
    return width / (max(bins, 1) - 1 + 2 * X_MARGIN)
