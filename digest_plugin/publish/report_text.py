"""The week's report body (the HTML its page and its PDF show), rendered from its view, or read
back from the report texts an earlier build kept (build/cache.py's TextCache).

Rendering them again was the largest part of a warm build: on 2,600 weeks the report bodies
alone took 34 of 82 s. The body is rendered from the week's view, the charts' folder and the
page's SITEURL alone, so that those, with the source of the templates it renders and the settings
they read (publish/hooks.py, `_what_it_shows`), are all its key needs to hash.
"""

from __future__ import annotations

from collections.abc import Callable

from jinja2 import pass_context
from markupsafe import Markup

from digest_plugin.build.cache import TextCache

REPORT_TEMPLATE = "digest_week_body.html"


def report_renderer(env, texts: TextCache, site: str) -> Callable:
    """The templates' `digest_report(week, base)`: the week's report body (REPORT_TEMPLATE),
    rendered from its view, `base` (the charts' folder, relative to the page) and the page's
    SITEURL, or read back when a build before rendered the same. `site` is the key of the
    templates it renders and the settings they read."""
    template, chart_size = env.get_template(REPORT_TEMPLATE), repr(env.globals["digest_chart_size"])

    @pass_context
    def digest_report(context, week, base: str = "") -> Markup:
        site_url = context.get("SITEURL", "")
        parts = ("report", site, week.view_key, site_url, base, chart_size)
        return Markup(
            texts.text(parts, lambda: template.render(view=week.view, base=base, SITEURL=site_url))
        )

    return digest_report
