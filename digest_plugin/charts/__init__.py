"""Chart stage: trend charts of labels, modules, authors, types and activity for week and repository pages.

    palette = site_palette(histories, settings.trend_weeks)           # once per build
    charts = week_charts(week, history, settings.trend_weeks, palette, _)
    files = render_charts(charts, week_folder, cache_dir)             # or render_many for a whole site

trends.py decides what is charted (pure), describe.py words the alt text and tables, palette.py
keeps one colour per name across the site, draw.py draws with matplotlib, cache.py writes files.
"""

from .cache import render_charts, render_many
from .draw import cjk_font
from .model import Chart, ChartFile, Series, Style, Table
from .palette import Palette
from .trends import repo_charts, site_palette, week_charts

__all__ = [
    "Chart", "ChartFile", "Palette", "Series", "Style", "Table",
    "cjk_font", "render_charts", "render_many", "repo_charts", "site_palette", "week_charts",
]
