"""Where things live on the site (docs/architecture.md, "Output URLs"). Paths are relative to SITEURL."""

from __future__ import annotations

import urllib.parse


def repo_path(repo: str) -> str:
    return f"{repo}/"


def week_path(repo: str, week: str) -> str:
    return f"{repo}/{week}/"


def absolute(site_url: str, path: str) -> str:
    """An absolute URL when SITEURL is set (publishconf.py), else the site-relative path."""
    return f"{site_url.rstrip('/')}/{path}" if site_url else f"/{path}"


def feed_entry_id(repo_web_url: str, repo: str, week: str, monday) -> str:
    """A week's feed entry id: a tag URI (RFC 4151) from the repository and the week alone, so
    that neither a rebuild, a new SITEURL nor the week's completion makes readers see it twice."""
    host = urllib.parse.urlsplit(repo_web_url).hostname or "github.com"
    return f"tag:{host},{monday:%Y-%m-%d}:{repo}/{week}"
