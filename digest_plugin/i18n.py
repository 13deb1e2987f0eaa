"""Languages: the gettext catalogue for DIGEST_LANGUAGE, and numbers and dates written the local way.

Every visible string goes through `translations(language)`: English is the source language (the
msgids), so "en" needs no catalogue; "zh" reads digest_plugin/locale/zh/LC_MESSAGES/messages.po.
The .mo files are build products (git-ignored): `translations` compiles a .po with Babel whenever
its .mo is missing or older, next to the .po when the package folder is writable, otherwise into a
per-user cache folder. Numbers and dates are written with Babel's CLDR data for the language's locale.

    from digest_plugin.i18n import translations, format_number
    _ = translations("zh").gettext
    _("{count} PRs").format(count=format_number(1234, "zh"))
"""

from __future__ import annotations

import gettext
import io
import os
from datetime import date
from functools import lru_cache
from pathlib import Path

from babel.dates import format_date as babel_format_date
from babel.dates import format_interval
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel import Locale
from babel.numbers import NumberPattern, parse_pattern

from .atomic import atomic_write
from .errors import DigestError

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
LOCALES = {"en": "en", "zh": "zh_Hans_CN"}  # DIGEST_LANGUAGE -> Babel locale


def translations(language: str) -> gettext.NullTranslations:
    """The catalogue for `language` ("en" or "zh"); its gettext/ngettext are the `_`/`ngettext` of the theme and charts."""
    babel_locale(language)  # one clear error for an unknown language
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    po = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not po.exists():
        raise DigestError(f"The {language} translation catalogue {po} is missing from the installation.")
    with compiled_catalogue(po, language).open("rb") as mo:
        return gettext.GNUTranslations(mo)


def compiled_catalogue(po: Path, language: str) -> Path:
    """The .mo for `po`, compiled now if it is missing or older than the .po."""
    beside = po.with_suffix(".mo")
    cached = _cache_dir() / language / f"{DOMAIN}.mo"
    for mo in (beside, cached):
        if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
            return mo
    with po.open("rb") as source:
        catalogue = read_po(source, locale=babel_locale(language))
    data = _mo_bytes(catalogue)
    for mo in (beside, cached):
        try:
            mo.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(mo, data)
            return mo
        except OSError:
            continue  # an installed package folder may be read-only; the cache is the fallback
    raise DigestError(f"Could not write the compiled catalogue for {language} to {beside} or {cached}.")


def babel_locale(language: str) -> str:
    try:
        return LOCALES[language]
    except KeyError:
        raise DigestError(f"Language {language!r} is not available; choose one of {', '.join(LOCALES)}.") from None


def format_number(value: int, language: str) -> str:
    """A whole number with the language's digit grouping: 1,234."""
    return format_pattern(value, "#,##0", language)


def format_decimal(value: float, language: str, digits: int = 1) -> str:
    """A number with exactly `digits` decimals (importance scores, averages): 5.2."""
    return format_pattern(value, "#,##0." + "0" * digits if digits > 0 else "#,##0", language)


def format_pattern(value: float, pattern: str, language: str) -> str:
    """A number in a CLDR pattern ("#,##0.0#"), with the language's symbols (Babel's format_decimal, cached)."""
    return _number_pattern(pattern).apply(value, _locale(language))


@lru_cache(maxsize=64)
def _number_pattern(pattern: str) -> NumberPattern:
    return parse_pattern(pattern)  # parsing a pattern costs more than applying it, and narratives format thousands


@lru_cache(maxsize=8)
def _locale(language: str) -> Locale:
    return Locale.parse(babel_locale(language))


def format_date(value: date, language: str, form: str = "medium") -> str:
    """A date the local way: "May 18, 2026" / "2026年5月18日" ("medium"), or Babel's other forms."""
    return babel_format_date(value, form, locale=babel_locale(language))


def format_date_range(start: date, end: date, language: str) -> str:
    """A week's span: "May 18 – 24, 2026" / "2026年5月18日至24日"-style, as CLDR writes it."""
    return format_interval(start, end, "yMMMd", locale=babel_locale(language))


def _mo_bytes(catalogue) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    return buffer.getvalue()


def _cache_dir() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "repo-digest" / "locale"
