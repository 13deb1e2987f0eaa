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

from jinja2 import ChoiceLoader, FileSystemLoader
from pelican import signals
from pelican.contents import Article
from pelican.readers import METADATA_PROCESSORS
from pelican.utils import order_content
from pelican.writers import Writer

from ..analysis.rules import load_rules
from ..charts.draw import pixel_size
from ..errors import DigestError
from ..i18n import format_date, format_number, translations
from ..narrate import cite
from ..owners import by_owner
from ..settings import DigestSettings
from ..store import Store
from .notes import exclude_notes, read_notes
from .files import PACKAGE_TEMPLATES, copy_static, write_week_files
from .sections import SECTION_FEEDS, repo_category, repo_feeds, write_section
from .site_digest import SiteDigest, WeekPage, build_site_digest

logger = logging.getLogger(__name__)


def connect() -> None:
    logging.getLogger("pelican").addFilter(without_traceback_for_user_errors)
    signals.initialized.connect(check_settings)
    signals.generator_init.connect(prepare_templates)
    signals.article_generator_pretaxonomy.connect(add_week_articles)
    signals.article_writer_finalized.connect(write_files)
    signals.get_writer.connect(feed_writer)


def without_traceback_for_user_errors(record: logging.LogRecord) -> bool:
    """Pelican logs every build failure with its traceback; ours are sentences for the user."""
    if record.exc_info and isinstance(record.exc_info[1], DigestError):
        record.exc_info = record.exc_text = None
    return True


def check_settings(pelican) -> None:
    """Fail on bad DIGEST_* settings, DIGEST_RULES included, before Pelican touches the output folder."""
    settings = DigestSettings.from_pelican(pelican.settings)
    load_rules(settings.rules, settings.base_path, bots=settings.bots)
    exclude_notes(pelican.settings)


def prepare_templates(generator) -> None:
    """Give every template `_()`/`ngettext()` in DIGEST_LANGUAGE, the filters the theme uses, and
    the plugin's own templates after the theme's (so a theme may override any of them)."""
    settings = DigestSettings.from_pelican(generator.settings)
    generator.env.loader = ChoiceLoader([generator.env.loader, FileSystemLoader(str(PACKAGE_TEMPLATES))])
    generator.env.autoescape = _escaping_ours(generator.env.autoescape)
    generator.env.add_extension("jinja2.ext.i18n")
    generator.env.install_gettext_translations(translations(settings.language), newstyle=True)
    generator.env.filters.update(
        cite=cite,
        number=partial(format_number, language=settings.language),
        digest_date=partial(format_date, language=settings.language),
    )
    generator.env.globals.setdefault("digest_repos", {})
    generator.env.globals.setdefault("digest_owners", {})
    generator.env.globals["digest_chart_size"] = pixel_size("png")
    generator.env.globals["digest_html_lang"] = {"zh": "zh-CN"}.get(settings.language, settings.language)


def _escaping_ours(site_autoescape):
    """Autoescape for the plugin's templates (they show untrusted text from GitHub) whatever the
    site's JINJA_ENVIRONMENT says; the site's own templates keep the site's choice, since themes
    such as notmyidea print article content without `|safe`."""
    ours = {p.relative_to(PACKAGE_TEMPLATES).as_posix() for p in PACKAGE_TEMPLATES.rglob("*.html")}

    def autoescape(name: str | None) -> bool:
        if name in ours:
            return True
        return site_autoescape(name) if callable(site_autoescape) else bool(site_autoescape)

    return autoescape


def add_week_articles(generator) -> None:
    """One Article per (repository, week), added before Pelican builds categories, tags and feeds."""
    from ..fetch import fetch_before_build

    settings = DigestSettings.from_pelican(generator.settings)
    warnings = fetch_before_build(Store(settings.data_path), settings)
    notes = read_notes(Path(generator.path), generator.settings)
    digest = build_site_digest(settings, generator.settings, now=build_time(), warnings=warnings, notes=notes)
    generator.context["digest"] = digest
    generator.context["digest_repos"] = repos = {repo.name: repo for repo in digest.repos}
    generator.context["digest_owners"] = {owner: [repos[n] for n in names] for owner, names in by_owner(repos).items()}
    generator.context["digest_warnings"] = digest.warnings
    generator.context["digest_feeds"] = {name: repo_feeds(name, generator.settings, settings.in_blog) for name in repos}
    generator.context["digest_section_feeds"] = {} if settings.in_blog else SECTION_FEEDS

    entry = generator.get_template("digest_feed_entry")  # an article's content is what its feed entry carries
    articles = [
        _article(generator, week, entry.render(week=week, **generator.context), settings.in_blog)
        for repo in digest.repos
        for week in repo.weeks
    ]
    for article in articles:
        generator.add_source_path(article)
    generator.context["digest_articles"] = articles
    # A week not yet final gets its page but stays out of the index, tags and feeds ("hidden"), as
    # every week does when the weeks have a section of their own (DIGEST_IN_BLOG = False).
    order = generator.settings["ARTICLE_ORDER_BY"]
    generator.articles = order_content(generator.articles + [a for a in articles if a.status == "published"], order)
    generator.hidden_articles = order_content(generator.hidden_articles + [a for a in articles if a.status == "hidden"], order)
    logger.info("repo-digest: %d week pages for %d repositories", len(articles), len(digest.repos))


def _article(generator, week: WeekPage, content: str, in_blog: bool) -> Article:
    settings = generator.settings
    raw = {"tags": list(week.tags), "authors": ["repo-digest"], "slug": week.slug}
    processed = {name: METADATA_PROCESSORS[name](value, settings) for name, value in raw.items() if value}
    processed["category"] = repo_category(week.repo, settings)
    for tag in processed.get("tags", ()):
        if not tag.slug:  # a label of emoji or punctuation only would overwrite the labels index
            tag.slug = "label-" + hashlib.sha1(tag.name.encode()).hexdigest()[:8]
    metadata = {
        **processed,
        "title": week.title,
        "date": week.date,
        "summary": str(cite(week.view.summary, week.repo_url)),
        "url": week.url,
        "save_as": week.url + "index.html",
        "template": "digest_week",
        "status": "published" if week.final and in_blog else "hidden",
        "lang": settings["DEFAULT_LANG"],
        "digest_week": week,
    }
    source = os.path.join(generator.path, week.repo, f"{week.week}.digest")
    return Article(content, metadata=metadata, settings=settings, source_path=source, context=generator.context)


def build_time() -> datetime:
    """The build's clock: now, or SOURCE_DATE_EPOCH for a reproducible build of a past moment."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return datetime.now(UTC)
    try:
        return datetime.fromtimestamp(int(epoch), UTC)
    except (ValueError, OverflowError):
        raise DigestError(f"SOURCE_DATE_EPOCH must be a number of seconds since 1970, not {epoch!r}.") from None


def feed_writer(pelican) -> type[Writer]:
    return DigestWriter


class DigestWriter(Writer):
    """Pelican's writer, with a week's feed entry id taken from its repository and week alone."""

    def _add_item_to_the_feed(self, feed, item):
        super()._add_item_to_the_feed(feed, item)
        week = getattr(item, "digest_week", None)
        if week is not None:
            feed.items[-1].update(unique_id=week.feed_id, unique_id_is_permalink=False)


def write_files(generator, writer) -> None:
    digest: SiteDigest | None = generator.context.get("digest")
    if digest is not None and not digest.settings.in_blog:
        write_section(digest, generator.context["digest_articles"], generator, writer)
    if digest is not None:
        copy_static(Path(generator.output_path) / generator.settings["THEME_STATIC_DIR"])
        write_week_files(digest, Path(generator.output_path), Path(generator.settings["CACHE_PATH"]))
