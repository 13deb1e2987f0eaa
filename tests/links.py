"""Every internal link of a built site, resolved the way a browser would under its SITEURL."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import feedparser
from bs4 import BeautifulSoup

_ATTRIBUTES = {
    "a": "href",
    "link": "href",
    "img": "src",
    "script": "src",
    "source": "srcset",
    "iframe": "src",
}


def page_address(output: Path, file: Path, site_url: str) -> str:
    relative = file.relative_to(output).as_posix()
    if relative.endswith("index.html"):
        relative = relative[: -len("index.html")]
    return f"{site_url}/{relative}"


def references(html: str) -> list[str]:
    soup = BeautifulSoup(html, "html.parser")
    found = []
    for tag, attribute in _ATTRIBUTES.items():
        for element in soup.find_all(tag):
            value = element.get(attribute)
            if value:
                found.extend(
                    part.split()[0] for part in value.split(",")
                ) if attribute == "srcset" else found.append(value)
    return found


def target(output: Path, site_url: str, address: str) -> Path | None:
    """The file an absolute address of the site names, or None when it is outside the site."""
    path = urllib.parse.urlsplit(address).path
    prefix = urllib.parse.urlsplit(site_url).path.rstrip("/")
    if not (path + "/").startswith(prefix + "/"):
        return None
    inside = urllib.parse.unquote(path[len(prefix) :]).lstrip("/")
    file = output / inside
    return file / "index.html" if inside == "" or inside.endswith("/") or file.is_dir() else file


def check_links(output: Path, site_url: str) -> tuple[int, list[str]]:
    """(internal links checked, the broken ones as 'page -> link') over every HTML page and feed.

    A link is internal when it points at the site's host; one that leaves the site's sub-path
    (an absolute '/path' on https://USER.github.io/SITE/) is broken too.
    """
    host = urllib.parse.urlsplit(site_url).netloc
    checked, broken = 0, []
    pages = [(f, references(f.read_text(encoding="utf-8"))) for f in sorted(output.rglob("*.html"))]
    for feed_file in sorted(output.rglob("*.xml")):
        feed = feedparser.parse(feed_file.read_bytes())
        if feed.get("entries") is None or not feed.get("version"):
            continue  # a sitemap, not a feed
        links = [feed.feed.get("link", "")]
        for entry in feed.entries:
            links.append(entry.link)
            for content in [*entry.get("content", []), {"value": entry.get("description", "")}]:
                links.extend(references(content["value"]))
        pages.append((feed_file, [link for link in links if link]))
    for file, links in pages:
        base = page_address(output, file, site_url)
        for link in links:
            address = urllib.parse.urljoin(base, link)
            parts = urllib.parse.urlsplit(address)
            if parts.scheme not in ("http", "https") or parts.netloc != host:
                continue
            checked += 1
            found = target(output, site_url, address)
            if found is None or not found.is_file():
                broken.append(f"{file.relative_to(output)} -> {link}")
    return checked, broken
