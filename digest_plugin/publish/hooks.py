"""Pelican signal handlers: where the plugin meets Pelican's build (through Pelican's documented
signals and settings; what it needs of Pelican's private API is in pelican_internals.py).

Everything one build computes lives in `context["digest"]` (a SiteDigest), which Pelican creates
afresh for every run, so `pelican --autoreload` never sees a previous run's state.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from itertools import compress
from pathlib import Path

from jinja2 import ChoiceLoader, FileSystemLoader, meta
from pelican.contents import Article, Static
from pelican.readers import METADATA_PROCESSORS
from pelican.utils import order_content

from digest_plugin.build import cache, gc_pause
from digest_plugin.build.installed import version
from digest_plugin.charts.draw import pixel_size
from digest_plugin.errors import DigestError
from digest_plugin.i18n import format_date
from digest_plugin.narrate import cite
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.feeds import shape_feed
from digest_plugin.publish.files import (
    PACKAGE_TEMPLATES,
    copy_static,
    start_drawing,
    stylesheets,
    write_week_files,
    write_week_pdfs,
)
from digest_plugin.publish.history import analysis_options, diff_targets
from digest_plugin.publish.host_theme import host_theme
from digest_plugin.publish.notes import exclude_notes, read_notes
from digest_plugin.publish.pelican_internals import WeekArticle, check_pelican
from digest_plugin.publish.report_text import REPORT_TEMPLATE, report_renderer
from digest_plugin.publish.sections import repo_category, repo_feeds, section_feeds, write_section
from digest_plugin.publish.site_digest import SiteDigest, WeekPage, build_site_digest
from digest_plugin.publish.site_files import sitemap_plugin_active, write_site_pages, write_sitemap
from digest_plugin.publish.site_index import (
    across_weeks,
    author_path,
    page_dates,
    repo_summary,
    week_pulls_by_tag,
)
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store
from digest_plugin.store.owner_index import by_owner
from pelican import DEFAULT_CONFIG_NAME, parse_arguments, signals

logger = logging.getLogger(__name__)
SETUP_KEY = "DIGEST"  # the BuildSetup, in Pelican's settings dict
PAGE_DATES_KEY = "digest_page_dates"  # this build's pages' last changes, by path, in the same dict, for the sitemap

PDF_TEMPLATE = "digest_week_pdf.html"  # a week's PDF, as HTML
TAG_SLUG_LIMIT = 100  # characters of a label's slug: its feeds' file names stay under 255 bytes


def connect() -> None:
    """Connect every hook. Installed, the namespace plugin is loaded by every Pelican site of the
    environment whose PLUGINS is unset: each hook does nothing in a site that is not `configured`."""
    signals.initialized.connect(check_settings)
    signals.generator_init.connect(prepare_templates)
    signals.article_generator_pretaxonomy.connect(add_week_articles)
    signals.article_writer_finalized.connect(write_files)
    signals.article_writer_finalized.connect(write_pages_around_weeks)
    signals.finalized.connect(write_site_map)
    signals.feed_generated.connect(shape_feed)  # the weeks' entries in the feeds Pelican writes
    signals.get_generators.connect(start_collecting)  # sent as every build starts, autoreload too
    signals.finalized.connect(stop_collecting)


def without_traceback_for_user_errors(record: logging.LogRecord) -> bool:
    """Pelican logs every build failure with its traceback; ours are sentences for the user, and so
    is a full (or read-only) disk, which no traceback helps with."""
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, DigestError):
        record.exc_info = record.exc_text = None
    elif isinstance(error, OSError) and error.errno in DISK_ERRORS:
        record.msg, record.args = "%s", (disk_error_sentence(error),)
        record.exc_info = record.exc_text = None
    return True


DISK_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the disk is read-only",
}


def disk_error_sentence(error: OSError) -> str:
    """One sentence for a write that the disk refused, naming the file where the error does."""
    where = f"{error.filename or 'a file'} could not be written"
    assert error.errno is not None  # a disk error: its errno is one of DISK_ERRORS
    return (
        f"The build stopped: {where} because {DISK_ERRORS[error.errno]}; make room and build again."
    )


@dataclass(frozen=True)
class BuildSetup:
    """What every hook of a build needs, made once: the checked settings, the site's language, and
    the clock that says which week is still in progress (tests pass a fixed one). Without a clock,
    SOURCE_DATE_EPOCH where set, else the store's own time (Store.data_time), so that two builds of
    one store are identical."""

    settings: DigestSettings
    language: Language
    clock: Callable[[], datetime] | None = None


def configured(pelican_settings: Mapping) -> bool:
    """Whether the site asks for the digest: it has at least one DIGEST_* setting. (Pelican replaces
    PLUGINS with the plugins it loaded, so a site that names the plugin cannot be told from one
    that merely has it installed.)"""
    return any(isinstance(key, str) and key.startswith("DIGEST_") for key in pelican_settings)


def check_settings(pelican) -> None:
    """Check the DIGEST_* settings, DIGEST_RULES included, before Pelican touches the output folder,
    and keep them with the language in the settings dict every generator shares. Pelican reads the
    settings file afresh (a new dict, a new signal) whenever it changes under --autoreload."""
    if not configured(pelican.settings):
        logger.debug(
            "repo-digest: installed, but this site has no DIGEST_* setting, so it publishes nothing (DIGEST_REPOS names "
            "the repositories to publish)"
        )
        return
    logging.getLogger("pelican").addFilter(without_traceback_for_user_errors)
    check_pelican()
    pelican.settings[SETUP_KEY] = _set_up(pelican.settings)
    exclude_notes(pelican.settings)


def build_setup(pelican_settings: dict) -> BuildSetup | None:
    """The setup made at `initialized`; made now if the caller skipped that signal. None in a site
    that is not `configured`: every hook then does nothing."""
    setup = pelican_settings.get(SETUP_KEY)
    if not isinstance(setup, BuildSetup) and configured(pelican_settings):
        setup = pelican_settings[SETUP_KEY] = _set_up(pelican_settings)
    return setup if isinstance(setup, BuildSetup) else None


def _set_up(pelican_settings: dict) -> BuildSetup:
    settings = DigestSettings.from_pelican(pelican_settings, settings_folder())
    analysis_options(settings)  # DIGEST_RULES merged and checked now, before any output is touched
    return BuildSetup(settings, Language.of(settings.language))


def settings_folder() -> Path:
    """The folder of the settings file Pelican read, where a relative DIGEST_DATA_PATH starts, as
    in the command line. Pelican tells a plugin its settings, not the file they came from, so this
    reads Pelican's own command line (`-s FILE`, else pelicanconf.py in the current folder, as
    Pelican does) with Pelican's `parse_arguments`; a build started another way (from Python, or
    invoke's tasks.py) starts from the current folder."""
    program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path()
    if program.name != "pelican" and program.parts[-2:] != ("pelican", "__main__.py"):
        return Path.cwd()
    settings_file = parse_arguments(sys.argv[1:]).settings or DEFAULT_CONFIG_NAME
    return Path(settings_file).resolve().parent


def prepare_templates(generator) -> None:
    """Give every template `_()`/`ngettext()` in DIGEST_LANGUAGE, the filters the theme uses, and
    the plugin's own templates after the theme's (so a theme may override any of them)."""
    setup = build_setup(generator.settings)
    if setup is None:
        return
    language, env = setup.language, generator.env
    env.loader = ChoiceLoader([env.loader, FileSystemLoader(str(PACKAGE_TEMPLATES))])
    env.autoescape = _escaping_ours(env.autoescape)
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(language.gettext, language.ngettext, newstyle=True)
    env.filters.update(
        cite=cite,
        number=language.number,
        digest_date=partial(format_date, language=language.code),
        author_url=author_path,
    )
    for name in ("digest_repos", "digest_owners", "digest_feeds"):
        env.globals.setdefault(name, {})
    env.globals["digest_chart_size"] = pixel_size("svg")
    env.globals["digest_theme"] = host_theme(env)
    env.globals["digest_html_lang"] = {"zh": "zh-CN"}.get(language.code, language.code)


def _escaping_ours(site_autoescape):
    """Autoescape for the plugin's templates (they show untrusted text from GitHub) whatever the
    site's JINJA_ENVIRONMENT says; the site's own templates keep the site's choice, since themes
    such as notmyidea print article content without `|safe`."""
    ours = set(_package_templates())

    def autoescape(name: str | None) -> bool:
        if name in ours:
            return True
        return site_autoescape(name) if callable(site_autoescape) else bool(site_autoescape)

    return autoescape


def add_week_articles(generator) -> None:
    """One Article per (repository, week), added before Pelican builds categories, tags and feeds."""
    setup = build_setup(generator.settings)
    if setup is None:
        return
    store = Store(setup.settings.data_path)
    warnings = _fetch_first(store, setup.settings)
    now = (
        setup.clock()
        if setup.clock
        else source_date() or _data_time(store, setup.settings) or datetime.now(UTC)
    )
    notes = read_notes(Path(generator.path), generator.settings)
    cache_path = Path(generator.settings["CACHE_PATH"])
    digest = build_site_digest(
        setup.settings,
        setup.language,
        generator.settings,
        now=now,
        warnings=warnings,
        notes=notes,
        start_drawing=partial(start_drawing, cache_path),
    )
    generator.context["digest"] = digest
    in_blog = setup.settings.in_blog
    generator.context["digest_repos"] = repos = {repo.name: repo for repo in digest.repos}
    generator.context["digest_owners"] = {
        owner: [repos[n] for n in names] for owner, names in by_owner(repos).items()
    }
    generator.context["digest_warnings"] = digest.warnings
    generator.context["digest_cards"] = {
        repo.name: repo_summary(repo, setup.language.gettext) for repo in digest.repos
    }
    tag_rows = [(week, week_pulls_by_tag(week)) for repo in digest.repos for week in repo.weeks]
    generator.context["digest_pulls_by_tag"] = across_weeks(tag_rows)
    generator.context["digest_feeds"] = {
        name: repo_feeds(name, generator.settings, in_blog) for name in repos
    }
    generator.context["digest_section_feeds"] = {} if in_blog else section_feeds(generator.settings)
    salt = cache.code_salt()
    texts = generator.context["digest_texts"] = cache.TextCache(cache_path, salt)
    names = cache.TextCache(cache_path, salt, cache.TEMPLATE_NAMES)
    report = cache.key("report", _what_it_shows(generator, names, REPORT_TEMPLATE))
    pdf_key = cache.key("pdf", _what_it_shows(generator, names, PDF_TEMPLATE, stylesheets()))
    names.prune()
    generator.context["digest_pdf_key"] = pdf_key
    generator.env.globals["digest_report"] = report_renderer(generator.env, texts, report)

    # an article's content is what its feed entry carries
    entry = generator.get_template("digest_feed_entry")
    label_entry = generator.get_template("digest_label_feed_entry")
    context = dict(generator.context)  # as it stands now, one copy for every entry rendered later
    # The entry links its page and chart in Pelican's own {filename} and {static} forms, which
    # Pelican resolves wherever it shows the entry: a feed (absolute, under SITEURL) or a listing
    # page of a RELATIVE_URLS build (relative to that page). Its text depends on nothing else: rendered once.
    articles = [
        _article(
            generator,
            week,
            functools.cache(partial(entry.render, context, week=week, week_source=_source(week))),
            LabelEntries(partial(label_entry.render, context, week=week), rows),
            setup.settings.author,
        )
        for week, rows in tag_rows
    ]
    for article in articles:
        generator.add_source_path(article)
        chart = article.digest_week.view.feed_chart
        if chart is not None:
            picture = _chart_file(generator, article.digest_week, chart)
            generator.add_source_path(picture, static=True)
    generator.context["digest_articles"] = articles
    if not generator.env.globals["digest_theme"].head_block:
        logger.warning(
            "repo-digest: the theme's base.html has no `head` block, so the week and repository pages link the plugin's "
            "stylesheet, and offer their feeds, from inside their content block."
        )
    _list_or_hide(generator, articles, in_blog)
    logger.info(
        "repo-digest %s: %d week pages for %d repositories, from %s",
        version(),
        len(articles),
        len(digest.repos),
        setup.settings.data_path,
    )


def _list_or_hide(generator, articles: list[Article], in_blog: bool) -> None:
    """A week not yet final gets its page but stays out of the index, tags and feeds (Pelican's
    hidden articles), as every week does when the weeks have a section of their own (DIGEST_IN_BLOG = False)."""
    order = generator.settings["ARTICLE_ORDER_BY"]
    listed = [in_blog and a.status == "published" for a in articles]
    generator.articles = order_content(generator.articles + list(compress(articles, listed)), order)
    generator.hidden_articles = order_content(
        generator.hidden_articles + [a for a, shown in zip(articles, listed) if not shown], order
    )


@dataclass
class LabelEntries:
    """A week's entry in each of its labels' (and modules') feeds, rendered when a feed asks for it:
    a feed carries only the newest weeks of its label."""

    render: Callable[..., str]
    rows: dict[str, list]
    rendered: dict[str, str] = field(default_factory=dict)

    def get(self, label: str | None) -> str | None:
        if label not in self.rows:
            return None
        if label not in self.rendered:
            self.rendered[label] = self.render(label=label, rows=self.rows[label])
        return self.rendered[label]


def _data_time(store: Store, settings: DigestSettings) -> datetime | None:
    try:
        return store.data_time(settings.repos or None)
    except DigestError:
        return None  # build_site_digest names what is wrong with the store


def _article(
    generator, week: WeekPage, entry: Callable[[], str], labels: LabelEntries, author: str | None
) -> Article:
    settings = generator.settings
    # DIGEST_AUTHOR, else none of the plugin's: Pelican gives the article the site's AUTHOR, if any.
    raw = {"tags": list(week.tags), "authors": [author] if author else [], "slug": week.slug}
    processed = {
        name: METADATA_PROCESSORS[name](value, settings) for name, value in raw.items() if value
    }
    processed["category"] = repo_category(week.repo, settings)
    for tag in processed.get("tags", ()):
        digest = hashlib.sha1(tag.name.encode()).hexdigest()[:8]
        if not tag.slug:  # a label of emoji or punctuation only would overwrite the labels index
            tag.slug = "label-" + digest
        elif len(tag.slug) > TAG_SLUG_LIMIT:  # a transliterated label can outgrow a file name
            tag.slug = f"{tag.slug[: TAG_SLUG_LIMIT - 9].rstrip('-')}-{digest}"
    metadata = {
        **processed,
        "title": week.narrative.title,
        "date": week.date,
        "summary": str(cite(week.view.summary, week.repo_url)),
        "url": week.url,
        "save_as": week.url + "index.html",
        "template": "digest_week",
        # A finished week is published (pelican-sitemap lists it), in the blog or in a section of its own.
        "status": "published" if week.final else "hidden",
        "lang": settings["DEFAULT_LANG"],
        "digest_week": week,
        "digest_label_entries": labels,  # by label or module: the entry in that label's feed
    }
    source = os.path.join(generator.path, _source(week))
    return WeekArticle(
        entry, metadata=metadata, settings=settings, source_path=source, context=generator.context
    )


def _source(week: WeekPage) -> str:
    """A week article's source path, relative to PATH, as {filename} links name it: no such file exists."""
    return f"{week.repo}/{week.week}.digest"


def _chart_file(generator, week: WeekPage, chart) -> Static:
    """The week's feed chart (a PNG the plugin writes) as a static file of the site, so that a
    {static} link to it resolves as any other."""
    path = f"{week.url}{chart.name}.png"
    return Static(
        content=None,
        metadata={"title": chart.title, "url": path, "save_as": path},
        settings=generator.settings,
        source_path=os.path.join(generator.path, path),
        context=generator.context,
    )


def _fetch_first(store: Store, settings: DigestSettings) -> list[str]:
    """DIGEST_FETCH before the build; the warnings for the site."""
    if settings.fetch == "never":  # nor imported: PyGithub takes 0.2 s of every build to import
        return []
    from digest_plugin.fetch import FetchReport, diffs_before_build, fetch_before_build

    fetched = FetchReport()
    warnings = fetch_before_build(store, settings, fetched=fetched)
    targets = diff_targets(store, settings, fetched.fetched)  # the analysis picks the key PRs
    return warnings + diffs_before_build(store, fetched, targets)


def source_date() -> datetime | None:
    """SOURCE_DATE_EPOCH, where set: a build of a past moment, for a reproducible rebuild or a test."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return None
    try:
        return datetime.fromtimestamp(int(epoch), UTC)
    except (ValueError, OverflowError):
        raise DigestError(
            f"SOURCE_DATE_EPOCH must be a number of seconds since 1970, not {epoch!r}."
        ) from None


def write_files(generator, writer) -> None:
    digest: SiteDigest | None = generator.context.get("digest")
    if digest is None:
        return
    if not digest.settings.in_blog:
        write_section(digest, generator.context["digest_articles"], generator, writer)
    output, cache_folder = Path(generator.output_path), Path(generator.settings["CACHE_PATH"])
    copy_static(output / generator.settings["THEME_STATIC_DIR"])
    if digest.charts_drawn is not None:
        digest.charts_drawn.result()
    texts = generator.context["digest_texts"]
    write_week_files(digest, output, cache_folder, texts)
    if digest.settings.pdf:
        site = generator.context["digest_pdf_key"]
        drawn = write_week_pdfs(digest, pdf_html(generator), output, cache_folder, site)
        logger.debug("repo-digest: %d PDFs drawn, the others unchanged", drawn)
    texts.prune()


def pdf_html(generator) -> Callable[[WeekPage], str]:
    """A week's PDF as HTML: the `digest_week_pdf` template, with the plugin's stylesheets inline."""
    template, css = generator.get_template(PDF_TEMPLATE.removesuffix(".html")), stylesheets()
    return lambda week: template.render(
        **generator.context, **css, week=week, view=week.view, digest_pdf=True
    )


# Where the site's files are: what they hold is hashed already (templates) or shows in the page
# (data, notes), and a site built in another folder, or by `make publish`, keeps its PDFs.
_FOLDERS = frozenset(
    """PATH OUTPUT_PATH CACHE_PATH THEME THEME_TEMPLATES_OVERRIDES PLUGIN_PATHS
    DIGEST_DATA_PATH""".split()
)


def _what_it_shows(
    generator, names: cache.TextCache, template: str, css: dict[str, str] | None = None
) -> bytes:
    """What an output rendered from `template` (a week's report, its PDF) depends on besides the
    week: the source of every template it renders, the settings those templates read and the
    DIGEST_* settings (as the theme resolves them: a theme may override any of the plugin's), and
    the stylesheets it inlines. A change to anything else of the host site (its LINKS, its other
    plugins, its own templates) leaves the output as it was, and so its cache."""
    sources, read = templates_rendered(generator.env, template, names)
    settings = {
        key: value
        for key, value in generator.context.items()
        if isinstance(key, str)
        and key.isupper()
        and (key in read or key.startswith("DIGEST_"))
        and key not in _FOLDERS
        and _plain(value)
    }
    return json.dumps([sources, settings, css or {}], sort_keys=True).encode("utf-8")


def templates_rendered(env, root: str, names: cache.TextCache) -> tuple[dict[str, str], set[str]]:
    """The source of `root` and of every template it includes, imports or extends, by name, and
    the variables they read from their context. An include whose name is computed
    (`"partials/week_" ~ section ~ ".html"`) may be any of the plugin's templates."""
    sources: dict[str, str] = {}
    read: set[str] = set()
    waiting = [root]
    while waiting:
        name = waiting.pop()
        if name in sources:
            continue
        sources[name] = env.loader.get_source(env, name)[0]
        variables, referenced = _names_in(env, sources[name], names)
        read.update(variables)
        for template in referenced:
            waiting += [template] if template is not None else _package_templates()
    return sources, read


def _names_in(env, source: str, names: cache.TextCache) -> tuple[list[str], list[str | None]]:
    """The variables a template's source reads and the templates it names (None where the name is
    computed), kept by the source and the syntax it is parsed with: parsing the templates of a
    report and a PDF took a sixteenth of a build that changed nothing."""

    def parse() -> str:
        parsed = env.parse(source)
        variables = sorted(meta.find_undeclared_variables(parsed))
        return json.dumps([variables, list(meta.find_referenced_templates(parsed))])

    syntax = [getattr(env, name) for name in _SYNTAX] + sorted(env.extensions)
    variables, referenced = json.loads(names.text(("template names", source, syntax), parse))
    return variables, referenced


# What, besides its source, decides how Jinja parses a template (the lexer's settings).
_SYNTAX = """block_start_string block_end_string variable_start_string variable_end_string
comment_start_string comment_end_string line_statement_prefix line_comment_prefix trim_blocks
lstrip_blocks newline_sequence keep_trailing_newline""".split()


@functools.cache
def _package_templates() -> list[str]:
    return sorted(
        p.relative_to(PACKAGE_TEMPLATES).as_posix() for p in PACKAGE_TEMPLATES.rglob("*.html")
    )


def _plain(value) -> bool:
    try:
        json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return False
    return True


def write_pages_around_weeks(generator, writer) -> None:
    digest: SiteDigest | None = generator.context.get("digest")
    if digest is not None:
        write_site_pages(generator, writer, digest)
        # for the sitemap, written when every page is
        generator.settings[PAGE_DATES_KEY] = page_dates(digest.repos)


def write_site_map(pelican) -> None:
    """The sitemap where DIGEST_SITEMAP asks for it and SITEURL makes its addresses absolute, as the
    protocol wants them; not where pelican-sitemap writes it (the finished weeks are published pages there)."""
    setup = build_setup(pelican.settings)
    site_url = pelican.settings.get("SITEURL", "")
    if (
        setup is not None
        and setup.settings.sitemap
        and site_url.startswith(("https://", "http://"))
        and not sitemap_plugin_active(pelican.settings)
    ):
        write_sitemap(Path(pelican.output_path), site_url, pelican.settings.get(PAGE_DATES_KEY, {}))


def start_collecting(pelican) -> None:
    """Full garbage collections wait for the end of the build (build/gc_pause.py); no generator to add."""
    if build_setup(pelican.settings) is not None:
        gc_pause.start_build()


def stop_collecting(pelican) -> None:
    if build_setup(pelican.settings) is not None:
        gc_pause.end_build()
