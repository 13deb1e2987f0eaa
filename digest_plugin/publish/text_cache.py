"""Report texts kept between builds: each week's report body (the HTML its page and its PDF show)
and its Markdown, in `{CACHE_PATH}/digest-text/`, each under a hash of everything it is made of.

Rendering them again was the largest part of a warm build: on 2,600 weeks the report bodies
alone took 34 of 82 s. A text's key hashes the week's view, pickled whole (a view holds records,
strings, numbers, and tuples and dicts built in a fixed order, so its bytes are the same in every
process, whatever the hash seed), with the package's code and catalogues (the memos' salt) and
whatever else the text is made from: for the body, every template's source, the settings, the
page's SITEURL and the charts' folder; nothing else reaches the body, which is rendered from those
alone. A file that cannot be read is made again; the texts a build did not ask for are removed at
its end.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

from jinja2 import pass_context
from markupsafe import Markup

from digest_plugin.store.atomic import atomic_write

FOLDER = "digest-text"
REPORT_TEMPLATE = "digest_week_body.html"


class TextCache:
    """The texts of one build: each made once, kept compressed (a quarter of their size), read back
    by the next build that asks for the same key."""

    def __init__(self, cache: Path, salt: str):
        self.folder = cache / FOLDER
        self._salt = salt.encode()
        self._used: set[str] = set()
        self._views: dict[int, tuple[object, bytes]] = {}  # id -> the view, held so that its id stays its own, and its hash

    def text(self, parts: Iterable[bytes | str], make: Callable[[], str]) -> str:
        """The text `make()` returns, which depends on `parts` alone."""
        digest = hashlib.sha256(self._salt)
        for part in parts:
            data = part.encode() if isinstance(part, str) else part
            digest.update(len(data).to_bytes(8, "big") + data)
        key = digest.hexdigest()
        self._used.add(key)
        path = self.folder / key[:2] / key
        try:
            return zlib.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, zlib.error, UnicodeDecodeError):
            pass  # not made yet, or damaged: made again
        text = make()
        atomic_write(path, zlib.compress(text.encode("utf-8"), 1), durable=False)
        return text

    def view_hash(self, view: object) -> bytes:
        """The hash of a week's view, taken once a build (the page, the Markdown and the PDF ask)."""
        held = self._views.get(id(view))
        if held is None or held[0] is not view:
            held = self._views[id(view)] = (view, hashlib.sha256(_pickled_whole(view)).digest())
        return held[1]

    def prune(self) -> None:
        """Remove the texts this build did not ask for: a site's cache keeps one text a week and kind."""
        for path in self.folder.glob("*/*"):
            if path.name not in self._used:
                path.unlink(missing_ok=True)


def _pickled_whole(value: object) -> bytes:
    """`value` pickled without the memo, which writes an object met twice as a reference: equal
    views whose parts are shared differently (a week analysed anew, a week read from the memos)
    give the same bytes. A view holds no cycles, which the memo is for."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True
    pickler.dump(value)
    return buffer.getvalue()


def report_renderer(env, texts: TextCache, site: bytes) -> Callable:
    """The templates' `digest_report(week, base)`: the week's report body (REPORT_TEMPLATE),
    rendered from its view, `base` (the charts' folder, relative to the page) and the page's
    SITEURL, or read back when a build before rendered the same. `site` hashes the templates and
    the settings."""
    template, chart_size = env.get_template(REPORT_TEMPLATE), repr(env.globals["digest_chart_size"])

    @pass_context
    def digest_report(context, week, base: str = "") -> Markup:
        site_url = context.get("SITEURL", "")
        parts = (b"report", site, texts.view_hash(week.view), site_url, base, chart_size)
        return Markup(texts.text(parts, lambda: template.render(view=week.view, base=base, SITEURL=site_url)))

    return digest_report
