"""Every use of Pelican's private API, in one place: what the plugin overrides or reads of Pelican
that Pelican does not document for plugins.

- `WeekArticle` gives `_get_content`, which Pelican's `Content.get_content` asks for an article's
  text where it exists, so that a week's feed entry is rendered only when a feed asks for it.
- `DigestWriter` overrides `Writer._open_w` (pages reach the disk only when their text changed; it
  keeps `Writer._written_files` and `Writer._overridden_files` as Pelican does) and
  `Writer._add_item_to_the_feed` (a week's entry id, and a label's feed carrying that label's PRs).

`PRIVATE_API` names each of them; `check_pelican()` runs when a build starts and stops it with one
sentence when the installed Pelican lacks one (pyproject.toml allows Pelican up to its next major
version, and the tests check the same list).
"""

from __future__ import annotations

import inspect
import io
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from feedgenerator import Rss201rev2Feed
from pelican.contents import Article, Content
from pelican.writers import Writer

from digest_plugin.errors import DigestError
from digest_plugin.publish.sections import newest_weeks_only
from digest_plugin.store.atomic import write_if_changed


def _calls_lazy_content() -> bool:
    """Pelican's `Content.get_content` asks `self._get_content()` for the text when an article has one."""
    try:
        return "_get_content" in inspect.getsource(Content.get_content)
    except (OSError, TypeError):  # no source to read (a frozen install): taken as present
        return True


def _writer_keeps(name: str) -> Callable[[], bool]:
    """Whether a new Writer has the attribute `name` (set in its __init__)."""
    def check() -> bool:
        return hasattr(Writer("", settings={}), name)
    return check


PRIVATE_API: dict[str, Callable[[], bool]] = {
    "Content._get_content": _calls_lazy_content,
    "Writer._open_w": lambda: hasattr(Writer, "_open_w"),
    "Writer._add_item_to_the_feed": lambda: hasattr(Writer, "_add_item_to_the_feed"),
    "Writer._written_files": _writer_keeps("_written_files"),
    "Writer._overridden_files": _writer_keeps("_overridden_files"),
}


def missing_private_api() -> list[str]:
    """The names of PRIVATE_API that the installed Pelican lacks."""
    return [name for name, present in PRIVATE_API.items() if not present()]


def check_pelican() -> None:
    """Stop with one sentence when the installed Pelican lacks a part of its private API the plugin uses."""
    missing = missing_private_api()
    if missing:
        from pelican import __version__

        raise DigestError(f"repo-digest needs Pelican's {', '.join(missing)}, which Pelican {__version__} does not have; "
                          "install a Pelican that pyproject.toml allows (pip install 'pelican>=4.12,<5').")


class WeekArticle(Article):
    """A week's Article, whose content (the week's feed entry) is rendered when first asked for,
    through Pelican's `_get_content`: feeds carry only their newest weeks, so the entries of most
    weeks are never rendered (a site of 2,600 weeks rendered every one, for some 20 s and 50 MB)."""

    def __init__(self, entry: Callable[[], str], *args, **kwargs):
        self._entry = entry
        super().__init__("", *args, **kwargs)

    def _get_content(self) -> str:
        return self._entry()


class DigestWriter(Writer):
    """Pelican's writer, with a week's feed entry id taken from its repository and week alone, and
    a label's (or module's) feed carrying that label's PRs of each week rather than the week's
    whole report, which the site's and the repository's feeds carry."""

    _label: str | None = None  # the label of the feed being written, if it is a label's

    def _open_w(self, filename, encoding, override=False):
        """Pelican's `Writer._open_w`, with the page put on disk at the end of its `with`, and only
        if the file holds other text: an unchanged page keeps its time (for rsync, browsers and
        `--autoreload`), and a rebuild of 2,600 weeks writes the few pages that changed rather
        than every one. A file written before in this build goes to Pelican's own checks, which
        skip it, overwrite it or refuse, as the writes' `override` says."""
        if filename in self._written_files:
            return super()._open_w(filename, encoding, override)
        if override:
            self._overridden_files.add(filename)
        self._written_files.add(filename)
        return PageText(Path(filename), encoding)

    def write_feed(self, elements, context, path=None, url=None, feed_type="atom", override_output=False, feed_title=None):
        self._label = label_of_feed(path, dict(context.get("tags", ())), self.settings)  # (tag, articles) pairs
        elements = newest_weeks_only(elements, path, self.settings)
        try:
            return super().write_feed(elements, context, path, url, feed_type, override_output, feed_title)
        finally:
            self._label = None

    def _add_item_to_the_feed(self, feed, item):
        super()._add_item_to_the_feed(feed, item)
        week = getattr(item, "digest_week", None)
        if week is None:
            return
        added = feed.items[-1]
        added.update(unique_id=week.feed_id, unique_id_is_permalink=False)
        light = getattr(item, "digest_label_entries", {}).get(self._label)
        if light is None:
            return
        # Its own id: the entry differs from the week's entry in the site's feed, which a reader may also follow.
        added.update(unique_id=f"{week.feed_id}#{quote(self._label, safe='')}")
        if isinstance(feed, Rss201rev2Feed):  # RSS has one body, the description
            added.update(description=light)
        else:
            added.update(content=light, description=None)


class PageText(io.StringIO):
    """A page as Pelican writes it (`with writer._open_w(...) as f`), which reaches `path` at the
    end of the `with`, whole, unless `path` holds it already or the writing failed."""

    def __init__(self, path: Path, encoding: str):
        super().__init__()
        self._path, self._encoding = path, encoding

    def __exit__(self, kind, error, trace):
        if kind is None:
            text = self.getvalue()
            if os.linesep != "\n":  # as a file opened in text mode writes it
                text = text.replace("\n", os.linesep)
            write_if_changed(self._path, text.encode(self._encoding), durable=False)
        return super().__exit__(kind, error, trace)


def label_of_feed(path: str | None, tags, settings: dict) -> str | None:
    """The label (or module) whose feed Pelican writes at `path`, or None for any other feed."""
    patterns = [str(p) for p in (settings.get("TAG_FEED_ATOM"), settings.get("TAG_FEED_RSS")) if p]
    return next((tag.name for tag in tags if any(p.format(slug=tag.slug) == path for p in patterns)), None)
