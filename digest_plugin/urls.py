"""Where things live on the site (DESIGN.md, "Output URLs"). Paths are relative to SITEURL."""

from __future__ import annotations


def repo_path(repo: str) -> str:
    return f"{repo}/"


def week_path(repo: str, week: str) -> str:
    return f"{repo}/{week}/"


def absolute(site_url: str, path: str) -> str:
    """An absolute URL when SITEURL is set (publishconf.py), else the site-relative path."""
    return f"{site_url.rstrip('/')}/{path}" if site_url else f"/{path}"
