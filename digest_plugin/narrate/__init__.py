"""Narrative stage: the week in words (en / zh), from the analysis alone, every claim citing its PRs.

    from digest_plugin.narrate import narrate, check_grounding, cited_html
    narrative = narrate(week, previous_weeks, Language.of("zh"))   # Narrative: summary, highlights, key changes, ...
    problems = check_grounding(week, narrative, previous_weeks)

The narrative goes through one interface, `Writer`, so that another writer (a language model, say)
can be plugged in (`narrate.llm`, a language model): `narrate` checks whatever a writer returns and
falls back to the deterministic built-in writer, part by part, where the check finds a problem. The
built-in writer needs no network.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from ..analysis.model import WeekAnalysis
from .builtin import BuiltinWriter
from .combine import keep_grounded
from .credit import writer_credit
from .grounding import check_grounding
from .markup import cite, cited_html
from .model import Cited, Figure, HighlightGroup, KeyChange, Narrative, Rejection, RiskLine, SentenceCheck, ThemeLine
from .wording import Language

__all__ = [
    "BuiltinWriter",
    "Cited",
    "Figure",
    "HighlightGroup",
    "KeyChange",
    "Narrative",
    "Rejection",
    "RiskLine",
    "SentenceCheck",
    "ThemeLine",
    "Writer",
    "check_grounding",
    "cite",
    "cited_html",
    "narrate",
    "writer_credit",
]

log = logging.getLogger(__name__)
RECENT_WEEKS = 4  # earlier weeks a writer sees: enough for week-over-week movement


class Writer(Protocol):
    """Writes a week's narrative. `previous`: earlier weeks of the repository, oldest first."""

    name: str

    def write(self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: Language) -> Narrative: ...


def narrate(week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: Language, writer: Writer | None = None) -> Narrative:
    """The narrative of `week` in `language` (made once per build: wording.Language), grounded in the analysis.

    A plugged-in `writer`'s part (summary, a key change, a risk, ...) that fails `check_grounding`
    is replaced by the built-in writer's, with a warning; the built-in writer's own problems are
    logged as errors (they are bugs).
    """
    recent = tuple(previous[-RECENT_WEEKS:])
    builtin = BuiltinWriter()
    fallback = builtin.write(week, recent, language)
    for problem in check_grounding(week, fallback, recent):
        log.error("Narrative of %s %s: %s", week.repo, week.week, problem)
    if writer is None or writer.name == builtin.name:
        return fallback
    narrative = writer.write(week, recent, language)
    if not check_grounding(week, narrative, recent):
        return narrative
    narrative, problems = keep_grounded(week, recent, narrative, fallback)
    for problem in problems:
        log.warning("The %s writer's narrative of %s %s is not grounded (%s); that part is the built-in writer's.", writer.name, week.repo, week.week, problem)
    return narrative
