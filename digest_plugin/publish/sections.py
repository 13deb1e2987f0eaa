"""Where the weeks live in the site: in the blog (its index, tags, archives and feeds) or in a
section of their own (DIGEST_IN_BLOG = False), and the repository pages at /{owner}/{name}/
either way, whatever the site's own CATEGORY_URL.
"""

from __future__ import annotations

from typing import Any

from pelican.urlwrappers import Category

from digest_plugin.publish.site_digest import SiteDigest
from digest_plugin.urls import repo_path

# The section's own feeds when the weeks stay out of the blog, each of a kind only where the site
# has feeds of that kind (a site's development settings, as pelican-quickstart writes them, turn
# every feed off): the section's as the blog's (FEED_ALL_*), a repository's as a category's.
SECTION_FEEDS = {"atom": "feeds/digest.atom.xml", "rss": "feeds/digest.rss.xml"}
REPO_FEEDS = {"atom": "feeds/{repo}.atom.xml", "rss": "feeds/{repo}.rss.xml"}
SITE_FEED_SETTINGS = {"atom": ("FEED_ALL_ATOM", "FEED_ATOM"), "rss": ("FEED_ALL_RSS", "FEED_RSS")}
CATEGORY_FEED_SETTINGS = {"atom": "CATEGORY_FEED_ATOM", "rss": "CATEGORY_FEED_RSS"}


def section_feeds(settings: dict) -> dict[str, str]:
    """The section's feeds by kind, of the kinds the site's own feeds are."""
    return {kind: path for kind, path in SECTION_FEEDS.items() if any(settings.get(name) for name in SITE_FEED_SETTINGS[kind])}


class RepoCategory(Category):
    """A repository as Pelican's category: its page is /{owner}/{name}/ whatever CATEGORY_URL says."""

    @property
    def url(self) -> str:
        return repo_path(self.name)

    @property
    def save_as(self) -> str:
        return repo_path(self.name) + "index.html"

    @property
    def page_name(self) -> str:
        return repo_path(self.name).rstrip("/")


def repo_category(repo: str, settings: dict) -> RepoCategory:
    category = RepoCategory(repo, settings)
    category.slug = repo  # keeps the slash, for the per-repository feeds: feeds/{owner}/{name}.atom.xml
    return category


def repo_feeds(repo: str, settings: dict, in_blog: bool) -> dict[str, str]:
    """A repository's feeds by kind ("atom", "rss"), as site-relative paths."""
    if not in_blog:
        return {kind: path.format(repo=repo) for kind, path in REPO_FEEDS.items() if settings.get(CATEGORY_FEED_SETTINGS[kind])}
    found = {"atom": settings.get("CATEGORY_FEED_ATOM"), "rss": settings.get("CATEGORY_FEED_RSS")}
    return {kind: str(path).format(slug=repo) for kind, path in found.items() if path}


def newest_weeks_only(elements: list, path: str | None, settings: dict) -> list:
    """The items of the feed Pelican writes at `path`; in the blog's own feeds (FEED_ALL_*, FEED_*,
    TRANSLATION_FEED_*), each repository's newest finished week stands for the digest: a subscriber
    to the blog gets one entry a week per repository, never the digest's history. The repository's
    and the labels' feeds keep every week, and so does a blog of weeks alone (a site that is the
    digest, as this repository's showcase): there is no post of its own for the weeks to drown."""
    patterns = [settings.get(name) for name in ("FEED_ALL_ATOM", "FEED_ALL_RSS", "FEED_ATOM", "FEED_RSS",
                                                "TRANSLATION_FEED_ATOM", "TRANSLATION_FEED_RSS")]
    blog_feeds = {str(pattern).format(lang=getattr(item, "lang", "")) for pattern in patterns if pattern for item in elements}
    if path not in blog_feeds or all(getattr(item, "digest_week", None) is not None for item in elements):
        return elements
    newest: dict[str, Any] = {}  # Pelican's contents
    for item in elements:
        week = getattr(item, "digest_week", None)
        if week is not None and week.final and (week.repo not in newest or week.date > newest[week.repo].digest_week.date):
            newest[week.repo] = item
    kept = {id(item) for item in newest.values()}
    return [item for item in elements if getattr(item, "digest_week", None) is None or id(item) in kept]


def write_section(digest: SiteDigest, articles: list, generator, writer) -> None:
    """With DIGEST_IN_BLOG = False, Pelican lists none of the weeks: write the repository pages
    and the section's feeds here (finished weeks only, newest first)."""
    context = generator.context
    template = generator.get_template("digest_repo")
    final = [a for a in articles if a.digest_week.final]
    final.sort(key=lambda a: a.date, reverse=True)
    limit = generator.settings.get("FEED_MAX_ITEMS") or None
    for kind, path in section_feeds(generator.settings).items():
        writer.write_feed(final[:limit], context, path, feed_type=kind)
    for repo in digest.repos:
        writer.write_file(repo.url + "index.html", template, context, repo=repo, relative_urls=generator.settings["RELATIVE_URLS"],
                          url=repo.url, template_name="digest_repo")
        weeks = [a for a in final if a.digest_week.repo == repo.name]
        for kind, path in repo_feeds(repo.name, generator.settings, in_blog=False).items():
            writer.write_feed(weeks[:limit], context, path, feed_type=kind, feed_title=repo.name)
