"""Chart stage: trend charts of labels, modules, authors, types and activity for week and repository pages.

    palette = site_palette(histories, settings.trend_weeks)               # once per build
    charts = unstyled_charts(history, settings.trend_weeks, _)             # or every chart of a repository,
    styled = in_site_palette({name: charts, ...})                         # then all a site's, in its palette
    charts = week_charts(week, history, settings.trend_weeks, palette, _)  # a week page
    charts = repo_charts(history, palette, _)                             # a repository page
    cache = ChartCache.under(CACHE_PATH)                                  # build/cache.py
    files = render_many({folder: charts, ...}, cache, used=keys)         # every chart of a build at once
    draw_into_cache([(chart, formats), ...], cache)                       # or just into the cache, ahead
    cache.prune(keys)                                                     # and none it no longer shows

trends.py decides what is charted (pure), bins.py counts weeks and months, alt_text.py words the
alt text and tables, palette.py keeps one style per name across the site, draw.py draws with
matplotlib, render.py draws the files into the chart cache and copies them out.
"""

from digest_plugin.charts.chart import Chart
from digest_plugin.charts.draw import cjk_font, pixel_size
from digest_plugin.charts.palette import Palette
from digest_plugin.charts.render import draw_into_cache, render_many
from digest_plugin.charts.trends import (
    RepoCharts,
    in_site_palette,
    repo_charts,
    site_palette,
    unstyled_charts,
    week_charts,
)

__all__ = [
    "Chart",
    "Palette",
    "RepoCharts",
    "cjk_font",
    "draw_into_cache",
    "in_site_palette",
    "pixel_size",
    "render_many",
    "repo_charts",
    "site_palette",
    "unstyled_charts",
    "week_charts",
]
