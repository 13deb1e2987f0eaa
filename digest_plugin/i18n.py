"""Languages: one `Language` per build (the gettext catalogue of DIGEST_LANGUAGE, and numbers, dates
and lists written the local way), made once by the Pelican glue or the command line and passed in.

English is the source language (the msgids), so "en" needs no catalogue; "zh" reads
digest_plugin/locale/zh/LC_MESSAGES/messages.mo, which is compiled from its .po when the package is
built or installed (setup.py), never while it runs. Numbers and dates use Babel's CLDR data.

    from digest_plugin.i18n import Language
    zh = Language.of("zh")
    zh.gettext("{count} PRs").format(count=zh.number(1234))
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import format_date as babel_format_date
from babel.dates import format_interval
from babel.lists import format_list
from babel.numbers import NumberPattern, parse_pattern

from .errors import DigestError

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
LOCALES = {"en": "en", "zh": "zh_Hans_CN"}  # DIGEST_LANGUAGE -> Babel locale
SENTENCE_GAPS = {"en": " ", "zh": ""}


@dataclass(frozen=True)
class Language:
    """A catalogue plus the number, date and list conventions of one language."""

    code: str
    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]

    @classmethod
    def of(cls, code: str) -> Language:
        catalogue = translations(code)
        return cls(code, catalogue.gettext, catalogue.ngettext)

    def number(self, value: int) -> str:
        return format_number(value, self.code)

    def decimal(self, value: float) -> str:
        return format_decimal(value, self.code, 1)

    def points(self, value: float) -> str:
        """Importance points with their sign, as precise as the scorer keeps them: +2.0, −0.35."""
        return ("+" if value >= 0 else "\u2212") + format_pattern(abs(value), "#,##0.0#", self.code)

    def date(self, value: date, form: str = "medium") -> str:
        return format_date(value, self.code, form)

    def dates(self, start, end) -> str:
        return format_date_range(start, end, self.code)

    def join(self, items: Iterable[str]) -> str:
        """Names joined as the language joins a list: "a, b, and c" / "a、b、c"."""
        items = list(items)
        if self.code == "zh":
            return "、".join(items)  # CLDR's "a、b和c" glues 和 to Latin names ("core和io")
        return format_list(items, locale=babel_locale(self.code)) if items else ""

    def sentences(self, sentences: Iterable[str]) -> str:
        """Sentences as one paragraph: a space after English full stops, none after Chinese ones."""
        return SENTENCE_GAPS.get(self.code, " ").join(sentences)

    def pulls(self, numbers: Iterable[int]) -> str:
        """PR references: "#1, #2, #3" / "#1、#2、#3" (a plain enumeration, no "and")."""
        _ = self.gettext
        return _(", ").join(f"#{n}" for n in numbers)

    def some_pulls(self, numbers: Sequence[int], limit: int) -> tuple[str, tuple[int, ...]]:
        """The first `limit` PR references, with "and others" when there are more; and the PRs cited."""
        _ = self.gettext
        shown = tuple(numbers[:limit])
        if len(numbers) > limit:
            return _("{pulls} and others").format(pulls=self.pulls(shown)), shown
        return self.pulls(shown), shown


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
        raise DigestError(f"The {language} translation catalogue {mo} is missing: it is compiled when repo-digest is "
                          "installed, so reinstall it (`make install`, or `pip install -e .` in a checkout).") from None


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

