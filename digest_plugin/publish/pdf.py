"""The PDF download (`digest.pdf`): each week's report set on A4 by WeasyPrint.

The HTML comes from the week's view through the `digest_week_pdf.html` template, with the plugin's
stylesheets inlined and the week's SVG charts beside it. A PDF is kept in the build cache under a
hash of everything it is made of, so a warm build redraws only the weeks that changed: drawing a
PDF takes a second or more. The key (build/cache.py's PdfCache) hashes a fingerprint the caller
gives (the week's web page, which shows all the PDF shows, with the key of the templates and
settings), the charts beside it and WeasyPrint's version: rendering the PDF's own HTML to hash it
would cost a warm build a tenth of its time.
"""

from __future__ import annotations

import base64
import ctypes
import ctypes.util
import logging
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from digest_plugin.atomic import atomic_write
from digest_plugin.build.cache import PDFS, PdfCache
from digest_plugin.build.workers import parallel_stream
from digest_plugin.charts.draw import PICTOGRAPH
from digest_plugin.errors import DigestError

log = logging.getLogger(__name__)
PDF_NAME = "digest.pdf"
# PDFs to draw before worker processes pay for their start-up (a PDF takes about a second)
PARALLEL_FROM = 4
# PDFs whose HTML is held at once: with its charts inline a busy week's is half a megabyte, and a
# cold build of 260 weeks that held them all took 581 MiB, where it takes 315.
WINDOW = 16
PRINTABLE = "; charts inline, isolates"  # how printable() prepares the HTML: a change here redraws every PDF
_CHART_SOURCE = re.compile(r'<img src="([\w.-]+\.(?:svg|png))"')


@dataclass(frozen=True)
class PdfJob:
    fingerprint: bytes  # changes whenever the HTML would, charts aside
    html: Callable[[], str]  # the page to draw; its relative links point into `folder`
    folder: Path  # where digest.pdf goes, beside the charts it shows


def write_pdfs(jobs: Sequence[PdfJob], cache: PdfCache) -> int:
    """`folder`/digest.pdf for each job; the PDFs not in the cache are drawn on every core.
    Returns how many were drawn."""
    engine = _weasyprint_version() + PRINTABLE
    cached = [cache.path(job.fingerprint, _charts(job.folder), engine) for job in jobs]
    missing = [(path, job) for path, job in zip(cached, jobs, strict=True) if not path.is_file()]
    glyphs = EmojiFonts(cache.cache / PDFS)
    pages = ((printable(glyphs.check(job.html()), job.folder),) for _, job in missing)
    drawn = parallel_stream(
        _draw, pages, len(missing), preload="weasyprint", parallel_from=PARALLEL_FROM, window=WINDOW
    )
    for (path, _), pdf in zip(missing, drawn, strict=True):
        atomic_write(path, pdf)
    for path, job in zip(cached, jobs, strict=True):
        shutil.copyfile(path, job.folder / PDF_NAME)
    return len(missing)


class EmojiFonts:
    """Says once, for the PDFs of a build, when they show emoji (a label such as "🚀") that no font
    on this machine has: WeasyPrint then draws empty boxes, and says nothing."""

    def __init__(self, pdfs: Path):
        self._pdfs = pdfs  # where the PDFs drawn without them are kept
        self._checked: set[str] = set()
        self._said = False

    def check(self, html: str) -> str:
        if self._said:
            return html
        for char in sorted(set(PICTOGRAPH.findall(html)) - self._checked):
            self._checked.add(char)
            if font_has(char) is False:
                log.warning(
                    "The PDFs show emoji such as %s, which no font here has: they are drawn as empty boxes. Install an "
                    "emoji font where the site is built (Debian: fonts-noto-color-emoji), then delete %s to draw them again.",
                    char,
                    self._pdfs,
                )
                self._said = True
                break
        return html


def font_has(char: str) -> bool | None:
    """Whether a font that fontconfig (which WeasyPrint's Pango uses) knows has `char`; None where
    fontconfig cannot be asked."""
    name = ctypes.util.find_library("fontconfig")
    if name is None:
        return None
    try:
        fc = ctypes.CDLL(name)
    except OSError:
        return None
    for function, result, arguments in _FONTCONFIG:
        getattr(fc, function).restype, getattr(fc, function).argtypes = result, arguments
    pattern, charset = fc.FcPatternCreate(), fc.FcCharSetCreate()
    properties = fc.FcObjectSetCreate()
    try:
        fc.FcCharSetAddChar(charset, ord(char))
        fc.FcPatternAddCharSet(pattern, b"charset", charset)
        fc.FcObjectSetAdd(properties, b"family")
        fonts = fc.FcFontList(None, pattern, properties)
        found = bool(fonts) and fonts.contents.nfont > 0
        if fonts:
            fc.FcFontSetDestroy(fonts)
        return found
    finally:
        fc.FcObjectSetDestroy(properties)
        fc.FcCharSetDestroy(charset)
        fc.FcPatternDestroy(pattern)


class _FontSet(ctypes.Structure):
    _fields_ = (("nfont", ctypes.c_int), ("sfont", ctypes.c_int), ("fonts", ctypes.c_void_p))


_POINTER = ctypes.c_void_p
# (function, result type, argument types): the few of fontconfig's that font_has calls
_FONTCONFIG: tuple[tuple[str, type | None, list[type]], ...] = (
    ("FcPatternCreate", _POINTER, []),
    ("FcCharSetCreate", _POINTER, []),
    ("FcObjectSetCreate", _POINTER, []),
    ("FcCharSetAddChar", ctypes.c_int, [_POINTER, ctypes.c_uint32]),
    ("FcPatternAddCharSet", ctypes.c_int, [_POINTER, ctypes.c_char_p, _POINTER]),
    ("FcObjectSetAdd", ctypes.c_int, [_POINTER, ctypes.c_char_p]),
    ("FcFontList", ctypes.POINTER(_FontSet), [_POINTER, _POINTER, _POINTER]),
    ("FcFontSetDestroy", None, [ctypes.POINTER(_FontSet)]),
    ("FcObjectSetDestroy", None, [_POINTER]),
    ("FcCharSetDestroy", None, [_POINTER]),
    ("FcPatternDestroy", None, [_POINTER]),
)


def _charts(folder: Path) -> list[Path]:
    """The charts beside a page (a page's folder holds its charts only)."""
    return [path for path in folder.iterdir() if path.suffix in (".svg", ".png")]


def printable(html: str, folder: Path) -> str:
    """The HTML WeasyPrint draws for a page whose charts are in `folder`: self-contained, its
    isolated texts isolated on paper too."""
    return _isolated(_inline_charts(html, folder))


def _inline_charts(html: str, folder: Path) -> str:
    """`html` with its charts, read from `folder`, put inline: WeasyPrint names an image in the file
    after its address, and the same week built in another folder must give the same bytes."""

    def inline(match: re.Match) -> str:
        path = folder / match[1]
        kind = "image/svg+xml" if path.suffix == ".svg" else "image/png"
        return f'<img src="data:{kind};base64,{base64.b64encode(path.read_bytes()).decode()}"'

    return _CHART_SOURCE.sub(inline, html)


def _isolated(html: str) -> str:
    """`html` with each `<bdi>` (an isolated title, label, login) written as Unicode's first-strong
    isolate and its pop instead: WeasyPrint has no `unicode-bidi`, so a `<bdi>` isolates nothing
    there and costs an inline box to lay out (a sixth of a busy week's PDF), where the isolates
    are kept apart by the bidi algorithm Pango runs over the line. Our templates write the tag
    bare, and text from GitHub has its "<" escaped."""
    return html.replace("<bdi>", "\u2068").replace("</bdi>", "\u2069")


def _draw(html: str) -> bytes:
    """The PDF of a self-contained `html`. With no base address, nothing else is fetched."""
    return _weasyprint().HTML(string=html).write_pdf()


def _weasyprint_version() -> str:
    """Without importing WeasyPrint, which takes seconds: a warm build draws no PDF."""
    try:
        return metadata.version("weasyprint")
    except metadata.PackageNotFoundError:
        return _weasyprint().__version__  # says what to install


def _weasyprint():
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: the Pango libraries it loads are missing
        raise DigestError(
            "DIGEST_PDF needs WeasyPrint and its system libraries (Debian: apt-get install libpango-1.0-0 "
            f"libpangoft2-1.0-0 libharfbuzz-subset0); install them, or set DIGEST_PDF = False ({error})."
        ) from None
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    return weasyprint
