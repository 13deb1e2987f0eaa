"""Chart geometry (pure): every part of a chart inside the figure, none over another, the highest
bar inside the plot area, and the y axis at the steps matplotlib would choose."""

from __future__ import annotations

import pytest
from matplotlib.ticker import MaxNLocator

from digest_plugin.charts import Palette, week_charts
from digest_plugin.charts.chart import Chart
from digest_plugin.charts.draw import _text_size
from digest_plugin.charts.layout import HEIGHT, WIDTH, Layout, Text, layout, nice_ticks
from tests.stages.test_charts import week


def rough_size(text: str, size: float, bold: bool) -> tuple[float, float, float]:
    """A stand-in for a font a little wider than DejaVu Sans: 0.6 em a character (0.65 bold), 1.2 em
    a line, 0.25 em below the baseline."""
    lines = text.split("\n")
    return (
        max(len(line) for line in lines) * size * (0.65 if bold else 0.6),
        1.2 * size * len(lines),
        0.25 * size,
    )


def charts() -> list[Chart]:
    weeks = [
        week(
            f"2026-W{10 + i:02d}",
            modules={"trainer": 40 + i, "rollout": 2 * i, "a-rather-long-module-name": 3},
            authors=[("alice", 30 + i), ("bob", 2)],
            bots=[("dependabot[bot]", 1)],
            key=i % 3,
        )
        for i in range(12)
    ]
    return week_charts(weeks[-1], weeks, 12, Palette(), str)


def box(text: Text, measure) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a placed text, by its alignment."""
    width, height, descent = measure(text.text, text.size, text.bold)
    if text.rotation:
        width, height = height, width
    x0 = {"left": text.x, "center": text.x - width / 2, "right": text.x - width}[text.ha]
    y0 = {
        "bottom": text.y,
        "top": text.y - height,
        "baseline": text.y - descent,
        "center_baseline": text.y - height / 2,
    }[text.va]
    if text.rotation:  # rotated by its anchor: what was its bottom faces right
        x0, y0 = text.x - width, text.y - height / 2
    return x0, y0, x0 + width, y0 + height


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01 and b[1] < a[3] - 0.01


@pytest.mark.parametrize("measure", [rough_size, _text_size], ids=["rough", "fonts"])
def test_every_text_is_inside_the_figure_and_none_overlaps_another_or_the_plot(measure):
    for chart in charts():
        place = layout(chart, measure)
        plot = (place.left, place.bottom, place.left + place.width, place.bottom + place.height)
        boxes = [box(text, measure) for text in place.texts]
        for text, (x0, y0, x1, y1) in zip(place.texts, boxes):
            assert x0 >= 0 and x1 <= WIDTH and y0 >= 0 and y1 <= HEIGHT, (chart.name, text)
            assert not overlap((x0, y0, x1, y1), plot), (chart.name, text)
        # Line boxes of neighbouring y tick labels may touch: digits are three quarters of an em high.
        y_labels = [t for t in place.texts if t.ha == "right"]
        assert all(a.y - b.y >= 0.8 * a.size for a, b in zip(y_labels[1:], y_labels)), chart.name
        others = [b for t, b in zip(place.texts, boxes) if t not in y_labels]
        for i, a in enumerate(others):
            for b in others[i + 1 :]:
                assert not overlap(a, b), (chart.name, a, b)


def test_the_legend_is_below_the_axis_label_and_its_handles_beside_their_names():
    for chart in charts():
        place = layout(chart, rough_size)
        x_label = next(t for t in place.texts if t.text == chart.x_label)
        x_label_bottom = box(x_label, rough_size)[1]
        assert (
            [e.series for e in place.legend]
            == sorted(e.series for e in place.legend)
            == list(range(len(chart.series)))
        )
        for entry in place.legend:
            assert entry.y + entry.height / 2 < x_label_bottom
            name = next(t for t in place.texts if t.y == entry.y and t.x > entry.x + entry.length)
            assert name.x - (entry.x + entry.length) == pytest.approx(0.8 * name.size)


def test_the_highest_stack_stays_inside_the_plot_area():
    """matplotlib's autoscaling stopped at the top of a stacked bar's last segment, cutting the
    tallest bar flat at the frame; the plot area now has room above it."""
    for chart in charts():
        place = layout(chart, rough_size)
        stacks = (
            [
                sum(s.values[i] or 0 for s in chart.series if s.kind == "bar")
                for i in range(chart.bins)
            ]
            if chart.stacked
            else [max((s.values[i] or 0) for s in chart.series) for i in range(chart.bins)]
        )
        assert place.y(max(stacks)) < place.bottom + place.height, chart.name
        assert place.y_ticks[-1] <= place.top_value


def test_a_chart_of_zeros_reads_zero_to_one():
    chart = charts()[0]
    zeros = Chart(
        chart.name,
        chart.title,
        chart.alt,
        chart.x_label,
        chart.y_label,
        chart.ticks,
        tuple(
            type(s)(s.key, s.name, tuple(0 for _ in s.values), s.style, s.kind)
            for s in chart.series
        ),
        chart.stacked,
        chart.table,
    )
    place: Layout = layout(zeros, rough_size)
    assert place.top_value == 1 and place.y_ticks == (0, 1)


def test_y_ticks_are_the_ones_matplotlib_would_choose():
    for tenths in range(10, 60_000, 7):
        top = tenths / 10
        expected = [
            int(v)
            for v in MaxNLocator(integer=True).tick_values(0, top)
            if 0 <= v <= top * (1 + 1e-9)
        ]
        assert nice_ticks(top) == expected, top
