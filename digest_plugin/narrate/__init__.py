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

from digest_plugin.narrate.builtin import BuiltinWriter
from digest_plugin.narrate.credit import writer_credit
from digest_plugin.narrate.grounding import check_grounding
from digest_plugin.narrate.markup import cite, cited_html
from digest_plugin.narrate.model import Cited, Figure, Narrative
from digest_plugin.narrate.wording import Language
from digest_plugin.narrate.writers import Writer, narrate

__all__ = [
    "BuiltinWriter",
    "Cited",
    "Figure",
    "Language",
    "Narrative",
    "Writer",
    "check_grounding",
    "cite",
    "cited_html",
    "narrate",
    "writer_credit",
]
