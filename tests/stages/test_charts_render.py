"""Chart files: deterministic bytes, a cache that redraws exactly what changed, Chinese glyphs,
accessible SVG, and untrusted names drawn as plain text."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from digest_plugin.build.cache import ChartCache
from digest_plugin.charts import Palette, cjk_font, render_many, week_charts
from digest_plugin.charts import draw as draw_module
from digest_plugin.charts.draw import CJK_FONTS, draw, pixel_size
from tests.stages.test_charts import week

SVG = "{http://www.w3.org/2000/svg}"
SVG_ONLY = ("svg",)  # the cache does not care which formats; one keeps these tests quick


def history(n: int = 6, *, extra: int = 0):
    return [
        week(
            f"2026-W{10 + i:02d}",
            modules={"trainer": i + extra, "rollout": 2, "docs": i % 3},
            authors=[("alice", i + 1), ("bob", 2)],
            bots=[("dependabot[bot]", 1)],
            key=i % 3,
        )
        for i in range(n)
    ]


def charts_of(weeks, _=str):
    return week_charts(weeks[-1], weeks, 12, Palette(), _)


def render_charts(charts, out_dir: Path, cache: ChartCache, formats=None, workers=None):
    """`render_many` for one folder: `{chart.name}.{format}` for every chart and format, in order."""
    return render_many({Path(out_dir): charts}, cache, formats, workers)[Path(out_dir)]


def drawn(files) -> list[str]:
    return sorted(f"{f.name}.{f.format}" for f in files if f.drawn)


def test_two_builds_write_byte_identical_files(tmp_path):
    charts = charts_of(history())
    first = render_charts(charts, tmp_path / "one", ChartCache(tmp_path / "cache-one"), workers=1)
    second = render_charts(
        charts_of(history()), tmp_path / "two", ChartCache(tmp_path / "cache-two"), workers=1
    )
    assert (
        drawn(first)
        == drawn(second)
        == sorted(f"{c.name}.{fmt}" for c in charts for fmt in c.formats)
    )
    for a, b in zip(first, second):
        assert a.path.read_bytes() == b.path.read_bytes(), a.path.name


def test_worker_processes_draw_the_same_bytes_as_the_build_process(tmp_path):
    pages = {
        tmp_path / "out" / f"w{i}": charts_of(history(6, extra=i)) for i in range(3)
    }  # 9 charts: parallel
    parallel = render_many(pages, ChartCache(tmp_path / "cache-parallel"), ("svg",), workers=2)
    for folder, files in parallel.items():
        for chart, file in zip(pages[folder], files):
            assert file.drawn
            assert file.path.read_bytes() == draw(chart, ("svg",)).files["svg"]


def test_warm_build_draws_nothing_and_still_writes_every_file(tmp_path):
    charts = charts_of(history())
    render_charts(charts, tmp_path / "first", ChartCache(tmp_path / "cache"), workers=1)
    again = render_charts(
        charts_of(history()), tmp_path / "second", ChartCache(tmp_path / "cache"), workers=1
    )
    assert drawn(again) == []
    assert sorted(p.name for p in (tmp_path / "second").iterdir()) == sorted(
        f"{c.name}.{f}" for c in charts for f in c.formats
    )
    for file in again:
        assert file.path.read_bytes() == (tmp_path / "first" / file.path.name).read_bytes()


def test_a_data_change_redraws_only_the_charts_it_changes(tmp_path):
    render_charts(
        charts_of(history()), tmp_path / "out", ChartCache(tmp_path / "cache"), SVG_ONLY, workers=1
    )
    weeks = history()
    # One more docs PR in the last week changes the module counts only; authors and activity stay
    # as they were, because the stats say who merged what, not which modules.
    weeks[-1] = replace(
        weeks[-1], stats=replace(weeks[-1].stats, modules={**weeks[-1].stats.modules, "docs": 5})
    )
    files = render_charts(
        charts_of(weeks), tmp_path / "out", ChartCache(tmp_path / "cache"), SVG_ONLY, workers=1
    )
    assert drawn(files) == ["modules-trend.svg"]


def test_a_settings_change_redraws(tmp_path):
    weeks = history(8)
    render_charts(
        charts_of(weeks), tmp_path / "out", ChartCache(tmp_path / "cache"), SVG_ONLY, workers=1
    )
    fewer_weeks = week_charts(weeks[-1], weeks, 4, Palette(), str)  # DIGEST_TREND_WEEKS
    assert (
        len(
            drawn(
                render_charts(
                    fewer_weeks,
                    tmp_path / "out",
                    ChartCache(tmp_path / "cache"),
                    SVG_ONLY,
                    workers=1,
                )
            )
        )
        == 3
    )
    chinese = charts_of(
        weeks, lambda text: {"Pull requests": "拉取请求"}.get(text, text)
    )  # DIGEST_LANGUAGE
    assert (
        len(
            drawn(
                render_charts(
                    chinese, tmp_path / "out", ChartCache(tmp_path / "cache"), SVG_ONLY, workers=1
                )
            )
        )
        == 3
    )


def test_a_renderer_change_redraws_everything(tmp_path, monkeypatch):
    charts = charts_of(history())
    render_charts(charts, tmp_path / "out", ChartCache(tmp_path / "cache"), SVG_ONLY, workers=1)
    monkeypatch.setattr(draw_module, "RENDERER_VERSION", draw_module.RENDERER_VERSION + "-next")
    assert len(
        drawn(
            render_charts(
                charts, tmp_path / "out", ChartCache(tmp_path / "cache"), SVG_ONLY, workers=1
            )
        )
    ) == len(charts)


def test_what_does_not_change_a_picture_does_not_redraw(tmp_path):
    charts = charts_of(history())
    render_charts(charts, tmp_path / "out", ChartCache(tmp_path / "cache"), workers=1)
    # Another folder, another order, fewer formats, another chart beside them: nothing to draw again.
    others = charts_of(history(4))
    files = render_many(
        {tmp_path / "elsewhere": list(reversed(charts)), tmp_path / "new": others},
        ChartCache(tmp_path / "cache"),
        ("svg",),
        workers=1,
    )
    assert drawn(files[tmp_path / "elsewhere"]) == []
    assert drawn(files[tmp_path / "new"]) == sorted(f"{c.name}.svg" for c in others)


def test_only_the_chart_shown_outside_the_page_is_drawn_as_png(tmp_path):
    charts = charts_of(history())
    files = render_charts(charts, tmp_path, ChartCache(tmp_path / "cache"), workers=1)
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["activity-trend.png"]
    assert len([f for f in files if f.format == "svg"]) == len(charts)


def test_svg_carries_the_title_and_alt_text_and_png_its_stated_size(tmp_path):
    chart = charts_of(history())[0]
    files = {
        f.format: f
        for f in render_charts(
            [chart], tmp_path, ChartCache(tmp_path / "cache"), ("svg", "png"), workers=1
        )
    }
    root = ET.parse(files["svg"].path).getroot()
    assert root.find(f"{SVG}title").text == chart.title
    assert root.find(f"{SVG}desc").text == chart.alt
    png = files["png"].path.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        struct.unpack(">II", png[16:24])
        == pixel_size("png")
        == (files["png"].width, files["png"].height)
    )
    assert (
        b"Software" not in png and b"matplotlib" not in png
    )  # no version stamp to differ between machines


def test_a_png_keeps_the_exact_colours_of_its_series_in_a_palette(tmp_path):
    chart = next(c for c in charts_of(history()) if c.raster)
    files = {
        f.format: f
        for f in render_charts(
            [chart], tmp_path, ChartCache(tmp_path / "cache"), ("png",), workers=1
        )
    }
    image = Image.open(files["png"].path)
    assert image.mode == "P"  # 256 colours at most: a third of a full-colour file's size
    colours = {colour for _count, colour in image.convert("RGB").getcolors(256)}
    for series in chart.series:
        assert tuple(int(series.style.color[i : i + 2], 16) for i in (1, 3, 5)) in colours, (
            series.name
        )


def test_svg_words_are_text_at_a_readable_size_in_the_readers_fonts(tmp_path):
    """Words are <text> in the reader's fonts (Chinese ones too), each at its drawn size: none
    shrunk to nothing by a rounded factor, none missing."""
    chart = charts_of(history())[0]
    svg = render_charts([chart], tmp_path, ChartCache(tmp_path / "cache"), SVG_ONLY, workers=1)[
        0
    ].path.read_text()
    root = ET.fromstring(svg)
    texts = root.iter(f"{SVG}text")
    sizes = {t.text: float(re.search(r"font-size: ([\d.]+)px", t.get("style"))[1]) for t in texts}
    assert chart.title in sizes and "Week" in sizes, sorted(sizes)
    assert all(series.name in sizes for series in chart.series)
    assert min(sizes.values()) >= draw_module.FONT_SIZE - 1
    scales = [float(n) for factors in re.findall(r"scale\(([^)]*)\)", svg) for n in factors.split()]
    assert all(abs(n) > 0.001 for n in scales), sorted(set(scales))[:5]
    style = root.find(f"{SVG}style").text
    assert (
        "'DejaVu Sans'" in style
        and "'Noto Sans CJK SC'" in style
        and style.rstrip("}").endswith("sans-serif")
    )


def test_svg_texts_stand_where_matplotlib_itself_puts_them():
    """Each text is laid out once and then placed wherever it recurs: every word must land where
    matplotlib, laying out the whole figure, draws it (to the tenth of a point the files keep)."""
    import io

    import matplotlib as mpl

    for chart in charts_of(history()):
        ours = placed_texts(draw(chart, ("svg",)).files["svg"].decode())
        with mpl.rc_context(draw_module._rc()):
            place = draw_module.geometry.layout(chart, draw_module._text_size)
            figure, points = draw_module._figure(chart, place)
            draw_module._add_texts(figure, place.texts, points)
            buffer = io.BytesIO()
            figure.savefig(buffer, format="svg", metadata={"Date": None})
        theirs = placed_texts(buffer.getvalue().decode())
        assert [words for words, *_ in ours] == [words for words, *_ in theirs], chart.name
        for (words, x, y, turn), (_, their_x, their_y, their_turn) in zip(ours, theirs):
            assert abs(x - their_x) <= 0.15 and abs(y - their_y) <= 0.15 and turn == their_turn, (
                chart.name,
                words,
            )


def placed_texts(svg: str) -> list[tuple[str, float, float, str]]:
    """Each <text>: its words, where its anchor lands in the SVG's points, and its rotation."""
    found = []

    def walk(node, dx: float, dy: float) -> None:
        for child in node:
            x, y = dx, dy
            if shift := re.search(r"translate\(([-\d.]+) ([-\d.]+)\)", child.get("transform", "")):
                x, y = x + float(shift[1]), y + float(shift[2])
            if child.tag == f"{SVG}text":
                turn = re.search(r"rotate\((-?[\d.]+)", child.get("transform", ""))
                found.append(
                    (
                        child.text,
                        x + float(child.get("x", 0)),
                        y + float(child.get("y", 0)),
                        turn[1] if turn and float(turn[1]) else "0",
                    )
                )
            walk(child, x, y)

    walk(ET.fromstring(svg), 0.0, 0.0)
    return found


def test_untrusted_names_are_drawn_as_text_and_escaped_in_the_svg(tmp_path):
    nasty = [
        "$\\frac{1}{0}$",
        "_private",
        "</desc><script>alert(1)</script>",
        "a-->b",
        "tab\there\x07",
    ]
    weeks = [
        week("2026-W21", modules={name: i + 1 for i, name in enumerate(nasty)}, authors=[("a", 5)])
    ]
    chart = week_charts(weeks[0], weeks, 12, Palette(), str)[0]
    drawing = draw(chart, ("svg",))
    root = ET.fromstring(drawing.files["svg"])  # well-formed despite the names
    assert root.find(f"{SVG}desc").text == chart.alt
    assert "<script>" not in drawing.files["svg"].decode()
    assert "tab here" in [s.name for s in chart.series]  # one line of printable text
    # Each name is in the legend as written, not read as a formula or hidden for its underscore.
    words = [t.text for t in root.iter(f"{SVG}text")]
    for name in ("$\\frac{1}{0}$", "_private", "a-->b", "tab here"):
        assert name in words, (name, words)
    assert (
        "</desc><script>alert(1)…" in words
    )  # a long name shortened in the legend, shown whole in the table


def test_chinese_chart_has_every_glyph():
    if cjk_font() is None:
        pytest.skip("no CJK font installed (Debian: apt-get install fonts-noto-cjk)")
    zh = {
        "Pull requests by module": "按模块的拉取请求",
        "Week": "周",
        "Pull requests": "拉取请求",
        "other": "其他",
        "Merged and key pull requests": "合并与关键拉取请求",
        "merged": "已合并",
        "key": "关键",
    }
    weeks = [
        week(f"2026-W{w}", modules={"训练器": 2, "rollout": 1}, authors=[("张三", 2), ("bob", 1)])
        for w in ("20", "21")
    ]
    for chart in week_charts(weeks[-1], weeks, 12, Palette(), lambda text: zh.get(text, text)):
        assert draw(chart).missing_glyphs == (), chart.name


def test_characters_no_font_has_give_one_warning_not_a_failure(tmp_path, caplog):
    hieroglyphs = (
        "\U00013000\U00013001"  # neither DejaVu Sans nor a CJK font draws Egyptian hieroglyphs
    )
    weeks = [week("2026-W21", modules={hieroglyphs: 1, "\U00013002": 1}, authors=[("a", 2)])]
    charts = week_charts(weeks[0], weeks, 12, Palette(), str)
    with caplog.at_level(logging.WARNING, logger="digest_plugin.charts"):
        files = render_charts(charts, tmp_path, ChartCache(tmp_path / "cache"), workers=1)
    assert all(f.path.stat().st_size for f in files)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "\U00013000" in warnings[0].getMessage()


@pytest.mark.parametrize("font_list", ["cached", "cached before the CJK font was installed"])
def test_cache_keys_are_the_same_in_every_process(font_list, tmp_path):
    # Set and dict orders vary with PYTHONHASHSEED; a key that followed them would redraw at random.
    # A font list matplotlib cached before the CJK font was installed makes each process list the
    # system's fonts itself, in its hash seed's order (as on CI's fresh machine: Bold or Regular).
    environment = {**os.environ}
    if font_list != "cached":
        if cjk_font() is None:
            pytest.skip("no CJK font installed (Debian: apt-get install fonts-noto-cjk)")
        environment["MPLCONFIGDIR"] = str(tmp_path)
        subprocess.run(
            [sys.executable, "-c", "import matplotlib.font_manager"], env=environment, check=True
        )
        (cached,) = tmp_path.glob("fontlist-*.json")
        fonts = json.loads(cached.read_text())
        fonts["ttflist"] = [font for font in fonts["ttflist"] if font["name"] not in CJK_FONTS]
        cached.write_text(json.dumps(fonts))
    script = (
        "from tests.stages.test_charts import site\n"
        "from digest_plugin.charts import repo_charts, site_palette, week_charts\n"
        "from digest_plugin.build.cache import ChartCache\n"
        "from digest_plugin.charts.draw import renderer_identity\n"
        "histories = [site('o/one', '2026-W01'), site('o/two', '2026-W05')]\n"
        "palette = site_palette(histories, 12)\n"
        "for h in histories:\n"
        "    for chart in repo_charts(h, palette, str) + week_charts(h[-1], h, 12, palette, str):\n"
        "        print(chart.name, ChartCache.key(chart, 'svg', renderer_identity()))\n"
    )
    root = Path(__file__).resolve().parents[2]
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
            env={**environment, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3", "4")
    }
    # six charts a repository: no chart of types while no kind may be said (analysis/claims.py)
    assert len(outputs) == 1 and outputs.pop().count("\n") == 12


def test_worker_processes_draw_with_the_builds_own_copy_of_the_plugin(tmp_path):
    # A site may load the plugin from a folder of its own while another copy is installed: the
    # workers must draw with the build's copy, or the pictures would not be what the cache keys say.
    plugins, site = tmp_path / "plugins", tmp_path / "site"
    shutil.copytree(
        Path(__file__).resolve().parents[2] / "digest_plugin",
        plugins / "digest_plugin",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    site.mkdir()
    (site / "build.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(plugins)!r})\n"
        "from digest_plugin.charts.render import WORKER_PRELOAD\n"
        "from digest_plugin.build.workers import parallel_stream\n"
        "def drawing_module(_):\n"
        "    from digest_plugin.charts import draw\n"
        "    return draw.__file__\n"
        "if __name__ == '__main__':\n"
        "    drawn = parallel_stream(drawing_module, [(0,)] * 4, 4, preload=WORKER_PRELOAD, parallel_from=2, window=4, workers=2)\n"
        "    print(*sorted(set(drawn)))\n"
    )
    shown = subprocess.run(
        [sys.executable, "build.py"], cwd=site, capture_output=True, text=True, check=True
    ).stdout
    assert shown.split() == [str(plugins / "digest_plugin/charts/draw.py")]
