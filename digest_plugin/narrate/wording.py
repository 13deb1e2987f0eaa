"""The words the narrative is made of, per language: names of types, risks, factors, and lists.

Each name table is a function of the catalogue's `_`, so that Babel's extractor sees every msgid and
the same code serves English and Chinese. Lists of names and PRs are joined the way the language
joins them (CLDR list patterns: "a, b, and c" / "a、b和c").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from babel.lists import format_list

from digest_plugin.i18n import (
    babel_locale,
    format_date_range,
    format_decimal,
    format_number,
    format_pattern,
    translations,
)
from digest_plugin.narrate.model import Cited, Figure
from digest_plugin.narrate.titles import display_title  # noqa: F401  (the one title parser, re-exported for the report)

SENTENCE_GAPS = {"en": " ", "zh": ""}
_CJK = "\u4e00-\u9fff"
_FULL_WIDTH = "\u3000-\u303f\uff00-\uffef"
_CJK_GAP = re.compile(
    f"(?<=[{_CJK}{_FULL_WIDTH}])[ ]+(?=[{_CJK}])|(?<=[{_CJK}])[ ]+(?=[{_FULL_WIDTH}])|[ ]+(?=「)"
)


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

    def week(self, week_id: str) -> str:
        """A week as the language names it: "2026-W17" / "2026 年第 17 周"."""
        if self.code != "zh":
            return week_id
        year, number = week_id.split("-W")
        return f"{year} 年第 {int(number)} 周"

    def dates(self, start, end) -> str:
        return format_date_range(start, end, self.code)

    def percent(self, share: float) -> str:
        """A share of 0..1 as a whole percentage: 33%."""
        return format_pattern(share, "#,##0%", self.code)

    def join(self, items: Iterable[str]) -> str:
        """Names joined as the language joins a list: "a, b, and c" / "a、b、c".

        In Chinese 、 separates list items only; an item that holds its own list or a comma uses
        "；" between items instead, so the reader can tell the items apart."""
        items = list(items)
        if self.code == "zh":
            if len(items) == 2 and not any("和" in item for item in items):
                return f"{items[0]} 和 {items[1]}"
            inner = any("、" in item or "，" in item for item in items)
            # CLDR's "a、b和c" glues 和 to Latin names ("core和io")
            return ("；" if inner else "、").join(items)
        return format_list(items, locale=babel_locale(self.code)) if items else ""

    def term(self, words: str) -> str:
        """A name the data gives in English words ("content status"): quoted in Chinese, where
        English words outside a quotation would splice two languages; an identifier
        (`max_num_seqs`, `pull-diagnostics`) is code, and stays as it is."""
        return f"「{words}」" if self.code == "zh" and " " in words.strip() else words

    def sentences(self, sentences: Iterable[str]) -> str:
        """Sentences as one paragraph: a space after English full stops, none after Chinese ones."""
        return self.tidy(SENTENCE_GAPS.get(self.code, " ").join(sentences))

    def tidy(self, text: str) -> str:
        """Chinese text without the spaces templates leave between two Chinese characters
        ("#1、#2 等 修改了" -> "#1、#2 等修改了") or before a quotation ("#12 「…」" -> "#12「…」"); Chinese
        keeps its space beside Latin letters and numbers."""
        return _CJK_GAP.sub("", text) if self.code == "zh" else text

    def some(self, names: Sequence[str], limit: int) -> str:
        """Names joined as a list, or the first `limit` of them then "and others": a plain
        enumeration then, so that the list is not read as whole."""
        if len(names) <= limit:
            return self.join(names)
        _ = self.gettext
        return _("{names} and others").format(names=_(", ").join(names[:limit]))

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


class StatedNumbers:
    """The numbers one text states, formatted for the language and recorded with what they are,
    so that `check_grounding` can hold each to its figure:

        said = StatedNumbers(lang)
        text = _("{count} PRs").format(count=said.number("merged", week.stats.merged_count))
        return said.cited(text, pulls)
    """

    def __init__(self, lang: Language):
        self.lang = lang
        self.figures: list[Figure] = []

    def number(self, what: str, value: int) -> str:
        self.figures.append(Figure(what, value))
        return self.lang.number(value)

    def decimal(self, what: str, value: float) -> str:
        self.figures.append(Figure(what, round(value, 1)))
        return self.lang.decimal(value)

    def percent(self, what: str, share: float) -> str:
        shown = self.lang.percent(share)
        # the whole percentage as shown
        self.figures.append(Figure(what, int(re.sub(r"\D", "", shown))))
        return shown

    def cited(self, text: str, pulls: Iterable[int] = ()) -> Cited:
        return Cited(self.lang.tidy(text), unique(pulls), tuple(dict.fromkeys(self.figures)))


def unique(numbers: Iterable[int]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(numbers))


def type_names(_) -> dict[str | None, str]:
    """Change types as plural nouns ("fixes lead with …")."""
    return {
        "feat": _("features"),
        "fix": _("fixes"),
        "refactor": _("refactors"),
        "perf": _("performance work"),
        "docs": _("documentation"),
        "test": _("tests"),
        "ci": _("CI changes"),
        "build": _("build changes"),
        "chore": _("chores"),
        "revert": _("reverts"),
        None: _("unclassified changes"),
    }


def highlight_headings(_) -> dict[str, str]:
    """The highlight groups, in reading order."""
    return {
        "notable": _("Notable changes"),
        "features": _("New capabilities"),
        "upgrades": _("Upgrades"),
        "fixes": _("Key fixes"),
        "refactors": _("Refactors"),
        "performance": _("Performance"),
        "docs": _("Docs and ecosystem"),
        "deprecations": _("Deprecations"),
    }


def risk_names(_) -> dict[str, str]:
    return {
        "missing-tests": _("No tests"),
        "breaking-change": _("Breaking or user-facing change"),
        "dependency-upgrade": _("Dependency upgrade"),
        "security": _("Security"),
        "security-fix": _("Security fix"),
        "revert": _("Revert"),
        "deprecation": _("Deprecation"),
        "large-change": _("Large change"),
        "config-change": _("Configuration change"),
        "ci-change": _("CI change"),
        "hotspot": _("Hotspot"),
        "unresolved-review": _("Unresolved review"),
    }


def impact_names(_) -> dict[str, str]:
    return {"high": _("High"), "medium": _("Medium"), "low": _("Low")}


@functools.lru_cache(maxsize=4)  # a site's language: asked for each key PR, every build
def factor_names(_) -> dict[str, str]:
    """Importance factors by the names analysis/importance.py gives them; unknown names are shown
    as they are (shared: not to be changed)."""
    return {
        "type": _("kind of change"),
        "type_read": _("kind of change, guessed from its title and files"),
        "size": _("lines changed"),
        "files": _("files changed"),
        "large": _("large change"),
        "breadth": _("modules touched"),
        "peripheral": _("share of docs, examples, CI and generated files"),
        "moved": _("code moved rather than rewritten"),
        "breaking": _("breaking change"),
        "security": _("security"),
        "crash": _("fixes a crash, hang or leak"),
        "deprecation": _("deprecation"),
        # which way a version moved is not said (version.direction is silent): a revert moves back
        "upgrade": _("dependency version change"),
        "core_upgrade": _("core runtime version change"),
        "workflows": _("CI workflows changed together"),
        "default": _("changes a default value"),
        "revert": _("reverts an earlier PR"),
        "discussion": _("discussion"),
        "issues": _("closes reported issues"),
        "described": _("a description that explains it"),
        "bot": _("made by a bot"),
    }


def week_status(week, _) -> tuple[str, str, str]:
    """(key for styling, the sentence a page opens with, a one-word form for tables)."""
    if week.in_progress:
        return (
            "in-progress",
            _("This week is still in progress: the figures cover the pull requests merged so far."),
            _("in progress"),
        )
    if not week.complete:
        return (
            "incomplete",
            _(
                "This week's data is incomplete: some merged pull requests could not be fetched, so figures may be too low."
            ),
            _("incomplete"),
        )
    if week.fetch.skipped:
        pulls = _(", ").join(f"#{n}" for n in week.fetch.skipped)
        text = (
            _(
                "Complete but for {pulls}: GitHub failed to serve it in two fetches in a row, so it is left out of every figure."
            )
            if len(week.fetch.skipped) == 1
            else _(
                "Complete but for {pulls}: GitHub failed to serve them in two fetches in a row, so they are left out of every figure."
            )
        )
        return "partial", text.format(pulls=pulls), _("without {pulls}").format(pulls=pulls)
    return (
        "complete",
        _("Complete: every pull request merged this week is included."),
        _("complete"),
    )
