"""Languages: the gettext catalogue of DIGEST_LANGUAGE, and numbers and dates written the local way.

English is the source language (the msgids), so "en" needs no catalogue; "zh" reads
digest_plugin/locale/zh/LC_MESSAGES/messages.mo, which is compiled from its .po when the package is
built or installed (setup.py), never while it runs. Numbers and dates use Babel's CLDR data.
`narrate.wording.Language` bundles both for one language; the Pelican glue and the command line
make it once and pass it in.

    from digest_plugin.i18n import translations, format_number
    _ = translations("zh").gettext
    _("{count} PRs").format(count=format_number(1234, "zh"))
"""

from __future__ import annotations

import gettext
from datetime import date
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import format_date as babel_format_date
from babel.dates import format_interval
from babel.numbers import parse_pattern

from digest_plugin.errors import DigestError

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
LOCALES = {"en": "en", "zh": "zh_Hans_CN"}  # DIGEST_LANGUAGE -> Babel locale


def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of `language` ("en" or "zh"), read from the installed package."""
    babel_locale(language)  # one clear error for an unknown language
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    mo = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with mo.open("rb") as compiled:
            return gettext.GNUTranslations(compiled)
    except FileNotFoundError:
        raise DigestError(
            f"The {language} translation catalogue {mo} is missing: it is compiled when repo-digest is "
            "installed, so reinstall it (`make install`, or `pip install -e .` in a checkout)."
        ) from None


def babel_locale(language: str) -> str:
    try:
        return LOCALES[language]
    except KeyError:
        raise DigestError(
            f"Language {language!r} is not available; choose one of {', '.join(LOCALES)}."
        ) from None


def format_number(value: int, language: str) -> str:
    """A whole number with the language's digit grouping: 1,234."""
    return format_pattern(value, "#,##0", language)


def format_decimal(value: float, language: str, digits: int = 1) -> str:
    """A number with exactly `digits` decimals (importance scores, averages): 5.2."""
    return format_pattern(value, "#,##0." + "0" * digits if digits > 0 else "#,##0", language)


# a site formats the same few thousand numbers hundreds of thousands of times
@lru_cache(maxsize=65536, typed=True)
def format_pattern(value: float, pattern: str, language: str) -> str:
    """A number in a CLDR pattern ("#,##0.0#"), with the language's symbols (Babel's format_decimal, cached)."""
    return _number_pattern(pattern).apply(value, _locale(language))


# parsing a pattern costs more than applying it, and narratives format thousands
_number_pattern = lru_cache(maxsize=64)(parse_pattern)


@lru_cache(maxsize=8)
def _locale(language: str) -> Locale:
    return Locale.parse(babel_locale(language))


def format_date(value: date, language: str, form: str = "medium") -> str:
    """A date the local way: "May 18, 2026" / "2026年5月18日" ("medium"), or Babel's other forms."""
    return babel_format_date(value, form, locale=babel_locale(language))


@lru_cache(maxsize=4096)  # every page of a week, and the label and author pages, name its span
def format_date_range(start: date, end: date, language: str) -> str:
    """A week's span: "May 18 – 24, 2026" / "2026年5月18日至24日"-style, as CLDR writes it."""
    return format_interval(start, end, "yMMMd", locale=babel_locale(language))
