"""Pelican signal handlers: the only place the plugin meets Pelican's build.

Everything one build computes lives in `context["digest"]` (a SiteDigest), which Pelican creates
afresh for every run, so `pelican --autoreload` never sees a previous run's state.
"""

from __future__ import annotations

import hashlib
import logging
import os
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from pelican import signals
from pelican.contents import Article
from pelican.readers import METADATA_PROCESSORS
from pelican.utils import order_content

from ..analysis.rules import load_rules
from ..charts.draw import pixel_size
from ..errors import DigestError
from ..i18n import format_date, format_number, translations
from ..narrate import cite
from ..settings import DigestSettings
from ..store import Store
from .files import write_week_files
from .site_files import write_site_pages, write_sitemap
from .site_index import author_path, pulls_by_tag, repo_summaries
from .site_digest import SiteDigest, WeekPage, build_site_digest

logger = logging.getLogger(__name__)


def connect() -> None:
    logging.getLogger("pelican").addFilter(without_traceback_for_user_errors)
    signals.initialized.connect(check_settings)
    signals.generator_init.connect(prepare_templates)
    signals.article_generator_pretaxonomy.connect(add_week_articles)
    signals.article_writer_finalized.connect(write_files)
    signals.finalized.connect(write_site_map)


def without_traceback_for_user_errors(record: logging.LogRecord) -> bool:
    """Pelican logs every build failure with its traceback; ours are sentences for the user."""
    if record.exc_info and isinstance(record.exc_info[1], DigestError):
        record.exc_info = record.exc_text = None
    return True


def check_settings(pelican) -> None:
    """Fail on bad DIGEST_* settings, DIGEST_RULES included, before Pelican touches the output folder."""
    settings = DigestSettings.from_pelican(pelican.settings)
    load_rules(settings.rules, settings.base_path, bots=settings.bots)


def prepare_templates(generator) -> None:
    """Give every template `_()`/`ngettext()` in DIGEST_LANGUAGE, and the filters the theme uses."""
    settings = DigestSettings.from_pelican(generator.settings)
    generator.env.add_extension("jinja2.ext.i18n")
    generator.env.install_gettext_translations(translations(settings.language), newstyle=True)
    generator.env.filters.update(
        cite=cite,
        number=partial(format_number, language=settings.language),
        digest_date=partial(format_date, language=settings.language),
        author_url=author_path,
    )
    generator.env.globals.setdefault("digest_repos", {})
    generator.env.globals["digest_chart_size"] = pixel_size("svg")
    generator.env.globals["digest_html_lang"] = {"zh": "zh-CN"}.get(settings.language, settings.language)


def add_week_articles(generator) -> None:
    """One Article per (repository, week), added before Pelican builds categories, tags and feeds."""
    from ..fetch import fetch_before_build

    settings = DigestSettings.from_pelican(generator.settings)
    warnings = fetch_before_build(Store(settings.data_path), settings)
    digest = build_site_digest(settings, generator.settings, now=datetime.now(UTC), warnings=warnings)
    generator.context["digest"] = digest
    generator.context["digest_repos"] = {repo.name: repo for repo in digest.repos}
    generator.context["digest_warnings"] = digest.warnings
    cards = repo_summaries(digest.repos, translations(settings.language).gettext)
    generator.context["digest_cards"] = {card.repo.name: card for card in cards}
    generator.context["digest_pulls_by_tag"] = pulls_by_tag(digest.repos)

    body = generator.get_template("digest_week_body")
    articles = [
        _article(generator, week, body.render(week=week, **generator.context))
        for repo in digest.repos
        for week in repo.weeks
    ]
    for article in articles:
        generator.add_source_path(article)
    generator.articles = order_content(generator.articles + articles, generator.settings["ARTICLE_ORDER_BY"])
    logger.info("repo-digest: %d week pages for %d repositories", len(articles), len(digest.repos))


def _article(generator, week: WeekPage, content: str) -> Article:
    settings = generator.settings
    raw = {"category": week.repo, "tags": list(week.tags), "authors": ["repo-digest"], "slug": week.slug}
    processed = {name: METADATA_PROCESSORS[name](value, settings) for name, value in raw.items() if value}
    processed["category"].slug = week.repo  # keeps the slash: the repository page is /{owner}/{name}/
    for tag in processed.get("tags", ()):
        if not tag.slug:  # a label of emoji or punctuation only would overwrite the labels index
            tag.slug = "label-" + hashlib.sha1(tag.name.encode()).hexdigest()[:8]
    metadata = {
        **processed,
        "title": week.title,
        "date": week.date,
        "summary": str(cite(week.narrative.summary, week.repo_url)),
        "url": week.url,
        "save_as": week.url + "index.html",
        "template": "digest_week",
        "lang": settings["DEFAULT_LANG"],
        "digest_week": week,
    }
    source = os.path.join(generator.path, week.repo, f"{week.week}.digest")
    return Article(content, metadata=metadata, settings=settings, source_path=source, context=generator.context)


def write_files(generator, writer) -> None:
    digest: SiteDigest | None = generator.context.get("digest")
    if digest is not None:
        write_week_files(digest, Path(generator.output_path), Path(generator.settings["CACHE_PATH"]))
        write_site_pages(generator, writer, digest)


def write_site_map(pelican) -> None:
    write_sitemap(Path(pelican.output_path), pelican.settings.get("SITEURL", ""))
