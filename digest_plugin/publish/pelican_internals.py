"""Every use of Pelican's private API, in one place: what the plugin overrides or reads of Pelican
that Pelican does not document for plugins.

- `WeekArticle` gives `_get_content`, which Pelican's `Content.get_content` asks for an article's
  text where it exists, so that a week's feed entry is rendered only when a feed asks for it.

`PRIVATE_API` names each of them; `check_pelican()` runs when a build starts and stops it with one
sentence when the installed Pelican lacks one (pyproject.toml allows Pelican up to its next major
version, and the tests check the same list).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from pelican.contents import Article, Content

from digest_plugin.errors import DigestError


def _calls_lazy_content() -> bool:
    """Pelican's `Content.get_content` asks `self._get_content()` for the text when an article has one."""
    try:
        return "_get_content" in inspect.getsource(Content.get_content)
    except (OSError, TypeError):  # no source to read (a frozen install): taken as present
        return True


PRIVATE_API: dict[str, Callable[[], bool]] = {"Content._get_content": _calls_lazy_content}


def missing_private_api() -> list[str]:
    """The names of PRIVATE_API that the installed Pelican lacks."""
    return [name for name, present in PRIVATE_API.items() if not present()]


def check_pelican() -> None:
    """Stop with one sentence when the installed Pelican lacks a part of its private API the plugin uses."""
    missing = missing_private_api()
    if missing:
        from pelican import __version__

        raise DigestError(
            f"repo-digest needs Pelican's {', '.join(missing)}, which Pelican {__version__} does not have; "
            "install a Pelican that pyproject.toml allows (pip install 'pelican>=4.9,<5')."
        )


class WeekArticle(Article):
    """A week's Article, whose content (the week's feed entry) is rendered when first asked for,
    through Pelican's `_get_content`: feeds carry only their newest weeks, so the entries of most
    weeks are never rendered (a site of 2,600 weeks rendered every one, for some 20 s and 50 MB)."""

    def __init__(self, entry: Callable[[], str], *args, **kwargs):
        self._entry = entry
        super().__init__("", *args, **kwargs)

    def _get_content(self) -> str:
        return self._entry()
