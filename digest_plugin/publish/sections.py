"""Where the weeks live in the site: in the blog (its index, tags, archives and feeds) or in a
section of their own (DIGEST_IN_BLOG = False), and the repository pages at /{owner}/{name}/
either way, whatever the site's own CATEGORY_URL.
"""

from __future__ import annotations

from pathlib import Path

from pelican.urlwrappers import Category

from digest_plugin.publish.feeds import write_week_feed
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
    return {
        kind: path
        for kind, path in SECTION_FEEDS.items()
        if any(settings.get(name) for name in SITE_FEED_SETTINGS[kind])
    }


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
    # keeps the slash, for the per-repository feeds: feeds/{owner}/{name}.atom.xml
    category.slug = repo
    return category


def repo_feeds(repo: str, settings: dict, in_blog: bool) -> dict[str, str]:
    """A repository's feeds by kind ("atom", "rss"), as site-relative paths."""
    if not in_blog:
        return {
            kind: path.format(repo=repo)
            for kind, path in REPO_FEEDS.items()
            if settings.get(CATEGORY_FEED_SETTINGS[kind])
        }
    found = {"atom": settings.get("CATEGORY_FEED_ATOM"), "rss": settings.get("CATEGORY_FEED_RSS")}
    return {kind: str(path).format(slug=repo) for kind, path in found.items() if path}


def write_section(digest: SiteDigest, articles: list, generator, writer) -> None:
    """With DIGEST_IN_BLOG = False, Pelican lists none of the weeks: write the repository pages
    and the section's feeds (the digest's own files) here: finished weeks only, newest first."""
    context, output = generator.context, Path(generator.output_path)
    template = generator.get_template("digest_repo")
    final = sorted((a for a in articles if a.digest_week.final), key=lambda a: a.date, reverse=True)
    limit = generator.settings.get("FEED_MAX_ITEMS") or None
    for kind, path in section_feeds(generator.settings).items():
        write_week_feed(output, path, kind, final[:limit], context)
    for repo in digest.repos:
        writer.write_file(
            repo.url + "index.html",
            template,
            context,
            repo=repo,
            relative_urls=generator.settings["RELATIVE_URLS"],
            url=repo.url,
            template_name="digest_repo",
        )
        weeks = [a for a in final if a.digest_week.repo == repo.name]
        for kind, path in repo_feeds(repo.name, generator.settings, in_blog=False).items():
            write_week_feed(output, path, kind, weeks[:limit], context, title=repo.name)
