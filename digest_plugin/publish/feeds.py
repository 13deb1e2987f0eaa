"""The weeks' feed entries, made with feedgenerator (Pelican's own feed library) and Pelican's
public API only: the host's Writer stays Pelican's.

- The feeds of the weeks' section (DIGEST_IN_BLOG = False), the site's and each repository's, are
  the digest's own files: `write_week_feed` makes them and writes a feed only when its text changed.
- In the blog (DIGEST_IN_BLOG = True) the weeks are Pelican articles, and Pelican writes the feeds
  that carry them (the blog's, a repository's as a category's, a label's as a tag's).
  `shape_feed`, on Pelican's `feed_generated` signal, gives each week's entry its own id (from the
  repository and week alone), a label's feed that label's PRs of the week, and the blog's feed each
  repository's newest finished week only.
"""

from __future__ import annotations

import io
import os
import posixpath
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin

from feedgenerator import Atom1Feed, Rss201rev2Feed, SyndicationFeed
from markupsafe import Markup
from pelican.utils import set_date_tzinfo

from digest_plugin.atomic import write_if_changed

FEED_CLASSES: dict[str, type[SyndicationFeed]] = {"atom": Atom1Feed, "rss": Rss201rev2Feed}
# The blog's own feeds, in which each repository's newest finished week stands for the digest.
BLOG_FEEDS = tuple(
    "FEED_ALL_ATOM FEED_ALL_RSS FEED_ATOM FEED_RSS TRANSLATION_FEED_ATOM TRANSLATION_FEED_RSS".split()
)
TAG_FEEDS = ("TAG_FEED_ATOM", "TAG_FEED_RSS")
REF_SUFFIX = "?ref=feed"  # what FEED_APPEND_REF adds to every link


def joined(settings: Mapping, base: str | None, path: str) -> str:
    """`path` under `base`, as Pelican's writer joins a feed's links (RELATIVE_URLS: as paths)."""
    base = base or ""
    if settings.get("RELATIVE_URLS"):
        return posixpath.join(base, path)
    return urljoin(base if base.endswith("/") else base + "/", str(path))


def write_week_feed(
    output: Path, path: str, kind: str, articles: list, context: Mapping, title: str | None = None
) -> None:
    """The feed of `kind` ("atom", "rss") at `path` under `output`, of these week articles, as
    Pelican would write it but with the weeks' own entries; untouched when its text is the same.
    `context` is the generator's, which holds the site's settings."""
    site_url = context.get("SITEURL", "")
    feed_url = joined(context, context.get("FEED_DOMAIN"), path)
    feed = FEED_CLASSES[kind](**feed_header(context, feed_url, title))
    for article in articles:
        feed.add_item(**week_item(article, site_url, kind, context))
    text = io.StringIO()
    feed.write(text, "utf-8")
    lines = text.getvalue().replace("\n", os.linesep)  # as a file Pelican opens in text mode has it
    write_if_changed(output / path, lines.encode("utf-8"), durable=False)


def feed_header(context: Mapping, feed_url: str, title: str | None) -> dict:
    """A feed's title, links and description, as Pelican gives them."""
    site_name, subtitle = context["SITENAME"], context.get("SITESUBTITLE")
    return {
        "title": Markup(f"{site_name} - {title}" if title else site_name).striptags(),
        "link": context.get("SITEURL", "") + "/",
        "feed_url": feed_url,
        "description": subtitle or "",
        "subtitle": subtitle,
    }


def week_item(article, site_url: str, kind: str, settings: Mapping) -> dict:
    """A week article's entry (feedgenerator's `add_item` arguments): Pelican's, with the week's
    own id."""
    link = joined(settings, site_url, article.url)
    if settings.get("FEED_APPEND_REF"):
        link += REF_SUFFIX
    zone = settings.get("TIMEZONE")
    modified = getattr(article, "modified", None)
    return {
        "title": Markup(article.title).striptags(),
        "link": link,
        "author_name": getattr(article, "author", ""),
        "categories": [article.category, *getattr(article, "tags", ())],
        "pubdate": set_date_tzinfo(article.date, zone),
        "updateddate": set_date_tzinfo(modified, zone) if modified else None,
        **entry_text(kind, article.get_content(site_url), article.summary, settings),
        **week_entry(article, kind, None),
    }


def entry_text(kind: str, body: str, summary: str, settings: Mapping) -> dict:
    """An entry's text as Pelican's writer gives it: RSS has one body, the description; Atom the
    content, and the summary where it differs."""
    if kind == "rss":
        brief = settings.get("RSS_FEED_SUMMARY_ONLY")
        return {"description": summary if brief else body, "content": None}
    return {"content": body, "description": None if summary == body else summary}


def week_entry(article, kind: str, label: str | None) -> dict:
    """A week's entry id, from its repository and week alone; in a label's feed, the label's PRs
    of the week, under an id of its own (the entry differs from the week's, which a reader may
    also follow)."""
    feed_id = article.digest_week.feed_id
    light = article.digest_label_entries.get(label)
    if label is None or light is None:
        return {"unique_id": feed_id, "unique_id_is_permalink": False}
    text = {"description": light} if kind == "rss" else {"content": light, "description": None}
    label_id = f"{feed_id}#{quote(label, safe='')}"
    return {"unique_id": label_id, "unique_id_is_permalink": False, **text}


def shape_feed(context: Mapping, feed: SyndicationFeed) -> None:
    """Pelican's `feed_generated` signal: the week entries of a feed Pelican is about to write,
    with their own ids and texts; in the blog's feed, each repository's newest finished week only.
    (`context` is the generator's, which holds the site's settings.)"""
    articles = context.get("digest_articles")
    if not articles:
        return  # a site the digest does not publish in
    feed_url, site_link = feed.feed["feed_url"], feed.feed["link"]
    by_url = {article.url: article for article in articles}
    weeks = [by_url.get(_site_path(item["link"], site_link)) for item in feed.items]
    if not any(weeks):
        return
    label = label_of_feed(feed_url, context.get("tags", ()), context)
    kind = "rss" if isinstance(feed, Rss201rev2Feed) else "atom"
    for item, article in zip(feed.items, weeks):
        if article is not None:
            item.update(week_entry(article, kind, label))
    if not all(weeks) and feed_url in blog_feed_urls(context):
        kept = newest_weeks_only(weeks)
        feed.items[:] = [
            item
            for item, article in zip(feed.items, weeks)
            if article is None or id(article) in kept
        ]


def _site_path(link: str, site_link: str) -> str:
    link = link.removesuffix(REF_SUFFIX)
    return link[len(site_link) :] if site_link and link.startswith(site_link) else link


def blog_feed_urls(context: Mapping) -> set[str]:
    """The addresses of the blog's own feeds (FEED_ALL_*, FEED_*, TRANSLATION_FEED_*), as the
    feeds name themselves; `context` the generator's, with the site's settings and articles."""
    articles = context.get("articles", ())
    languages = {context.get("DEFAULT_LANG", "")}
    languages |= {each.lang for article in articles for each in [article, *article.translations]}
    paths = {
        path.format(lang=lang) for path in _feed_paths(context, BLOG_FEEDS) for lang in languages
    }
    return {joined(context, context.get("FEED_DOMAIN"), path) for path in paths}


def label_of_feed(feed_url: str, tags, settings: Mapping) -> str | None:
    """The label (or module) whose feed (TAG_FEED_ATOM, TAG_FEED_RSS) is at `feed_url`, or None."""
    patterns = _feed_paths(settings, TAG_FEEDS)
    domain = settings.get("FEED_DOMAIN")
    for tag in dict(tags):  # Pelican's context["tags"]: (tag, articles) pairs
        if any(joined(settings, domain, p.format(slug=tag.slug)) == feed_url for p in patterns):
            return tag.name
    return None


def _feed_paths(settings: Mapping, names: Iterable[str]) -> list[str]:
    """The addresses of the feeds `names` that the settings turn on, as their *_URL settings say."""
    return [
        str(settings.get(f"{name}_URL") or settings[name]) for name in names if settings.get(name)
    ]


def newest_weeks_only(weeks: list) -> set[int]:
    """The ids of the week articles a blog's feed keeps: each repository's newest finished week.
    A subscriber to the blog gets one entry a week per repository, never the digest's history;
    the repository's and the labels' feeds keep every week, and so does a blog of weeks alone."""
    newest: dict[str, Any] = {}  # Pelican's articles
    for article in weeks:
        week = getattr(article, "digest_week", None)
        if week is None or not week.final:
            continue
        if week.repo not in newest or week.date > newest[week.repo].digest_week.date:
            newest[week.repo] = article
    return {id(article) for article in newest.values()}
