"""The writers of a week's words: the `Writer` interface, and `narrate`, which checks whatever a
writer returns and falls back to the deterministic built-in writer, part by part, where the check
finds a problem."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from digest_plugin.analysis.model import WeekAnalysis
from digest_plugin.narrate.builtin import BuiltinWriter
from digest_plugin.narrate.combine import keep_grounded
from digest_plugin.narrate.grounding import check_grounding
from digest_plugin.narrate.model import Narrative
from digest_plugin.narrate.wording import Language

log = logging.getLogger(__name__)
RECENT_WEEKS = 4  # earlier weeks a writer sees: enough for week-over-week movement


class Writer(Protocol):
    """Writes a week's narrative. `previous`: earlier weeks of the repository, oldest first."""

    name: str

    def write(
        self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: Language
    ) -> Narrative: ...


def narrate(
    week: WeekAnalysis,
    previous: Sequence[WeekAnalysis],
    language: Language,
    writer: Writer | None = None,
) -> Narrative:
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
        log.warning(
            "The %s writer's narrative of %s %s is not grounded (%s); that part is the built-in writer's.",
            writer.name,
            week.repo,
            week.week,
            problem,
        )
    return narrative
