"""Pages and files around the weeks that Pelican does not write itself: one page per PR author and
their list, the feeds page, the search page, the 404 page, and the sitemap of every page the
build wrote."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from pelican.generators import PelicanTemplateNotFound

from digest_plugin.atomic import write_if_changed
from digest_plugin.publish.site_digest import SiteDigest
from digest_plugin.publish.site_index import author_path, pulls_by_author, site_feeds, sitemap_xml

FEEDS_PAGE = "feeds/index.html"
SEARCH_PAGE = "search/index.html"  # Pagefind's index, beside it at /pagefind/, is built after Pelican (Makefile)
AUTHORS_PAGE = "authors/index.html"
NOT_FOUND_PAGE = "404.html"
SITEMAP = "sitemap.xml"


def write_site_pages(generator, writer, digest: SiteDigest) -> None:
    settings = generator.settings
    relative = settings["RELATIVE_URLS"]

    def write(name: str, template: str, **values) -> None:
        found = _template(generator, template)
        if found is not None:
            writer.write_file(
                name,
                found,
                generator.context,
                relative_urls=relative,
                url=name.removesuffix("index.html"),
                template_name=template,
                **values,
            )

    authors = pulls_by_author(digest.repos)
    articles = {
        id(article.digest_week): article for article in generator.context["digest_articles"]
    }
    for login, across in authors.items():
        # Their weeks' articles, which Pelican pages as it pages a label's (PAGINATED_TEMPLATES["digest_author"]).
        weeks = [articles[id(group.week)] for group in across.weeks]
        page = author_path(login) + "index.html"
        write(page, "digest_author", author=login, across=across, articles=weeks)
    write(AUTHORS_PAGE, "digest_authors", authors=authors)
    write(
        FEEDS_PAGE, "digest_feeds", feed_groups=site_feeds(settings, digest.repos, generator.tags)
    )
    write(SEARCH_PAGE, "search")
    # Served for any missing path at any depth, so its links cannot be relative to where it lies.
    not_found = _template(generator, "404")
    if not_found is not None:
        writer.write_file(
            NOT_FOUND_PAGE, not_found, generator.context, relative_urls=False, url=NOT_FOUND_PAGE
        )


def _template(generator, name: str):
    """The theme's template `name`, or None: these pages come with this repository's theme, and
    another site's theme that has no such template simply goes without them."""
    try:
        return generator.get_template(name)
    except PelicanTemplateNotFound:
        return None


def write_sitemap(output: Path, site_url: str, dates: Mapping[str, datetime]) -> None:
    """Every HTML page in `output` but the 404 page, as its URL (a folder's index.html as the
    folder), with when the weeks' and repositories' pages last changed (`dates`, by path)."""
    pages = (page.relative_to(output).as_posix() for page in output.rglob("*.html"))
    paths = [path.removesuffix("index.html") for path in pages if path != NOT_FOUND_PAGE]
    write_if_changed(output / SITEMAP, sitemap_xml(paths, site_url, dates).encode("utf-8"))


def sitemap_plugin_active(settings: dict) -> bool:
    """Whether Pelican runs a plugin of its own for the sitemap (pelican-sitemap, `pelican.plugins.sitemap`):
    it writes sitemap.xml, and the week pages are among the published pages it lists."""
    return any(str(name).rsplit(".", 1)[-1] == "sitemap" for name in settings.get("PLUGINS") or ())
