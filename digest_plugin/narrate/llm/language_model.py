"""The language-model writer itself: asks once per complete week, reads and checks the answer, and
keeps the parts whose sentences all pass (see the package's docstring)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from digest_plugin.analysis.model import WeekAnalysis
from digest_plugin.narrate.builtin import BuiltinWriter
from digest_plugin.narrate.llm.answer import AnswerError, BudgetSpent, ModelFault, parse_answer, read_answer
from digest_plugin.narrate.llm.check import WeekFacts
from digest_plugin.narrate.llm.compose import compose
from digest_plugin.narrate.llm.prompt import PROMPT_VERSION, messages, week_document
from digest_plugin.narrate.model import Narrative, SentenceCheck
from digest_plugin.narrate.wording import Language

log = logging.getLogger(__name__)


class Endpoint(Protocol):
    def complete(self, messages: list[dict]) -> str:
        """The answer's text, or a ModelFault."""


class AnswerCache(Protocol):
    """Answers kept by the request that got them (build/cache.py keys them): the model, the prompt's
    version and the week's document."""

    def get(self, repo: str, week: str, request: tuple) -> dict | None: ...

    def put(self, repo: str, week: str, request: tuple, model: str, answer: dict) -> None: ...


class LanguageModelWriter:
    """A `Writer`. One per build: its endpoint holds the build's request budget.

    `endpoint` is None when no request may be sent (`unavailable` says why): cached answers are
    still used.
    """

    name = "llm"

    def __init__(self, model: str, endpoint: Endpoint | None, cache: AnswerCache, unavailable: str = ""):
        self.model, self.endpoint, self.cache = model, endpoint, cache
        self.stopped = unavailable if endpoint is None else ""  # why no request may be sent now, if so

    def write(self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: Language) -> Narrative:
        base = BuiltinWriter().write(week, previous, language)
        if base.quiet:
            return self._unused(base, "no pull request was merged")
        if week.in_progress or not week.complete:
            return self._unused(base, "only complete weeks are written by the language model")
        document = week_document(week, previous, language.code)
        answer, why = self._answer(week, document, language.code)
        if answer is None:
            return self._unused(base, why)
        narrative = compose(base, answer, WeekFacts.of(week, document["figures"]), language, self.model)
        for rejection in narrative.check.rejected:
            log.warning("%s %s: the language model's sentence in the %s was rejected, %s: %r",
                        week.repo, week.week, rejection.part, rejection.reason, _clipped(rejection.text))
        return narrative

    def _answer(self, week: WeekAnalysis, document: dict, language: str):
        """The week's answer (cached, or asked for now) and "", or None and why there is none."""
        request = (self.model, PROMPT_VERSION, document)
        data = self.cache.get(week.repo, week.week, request)
        asked = data is None
        try:
            if asked:
                if self.stopped:
                    return None, self.stopped
                data = parse_answer(self.endpoint.complete(messages(document)))
            answer = read_answer(data)
            if answer.language and answer.language != language:
                raise AnswerError(f"the answer is in {answer.language!r}, not {language!r}")
        except BudgetSpent as fault:
            self.stopped = fault.reason
            log.warning("%s %s and later weeks: %s; the built-in writer's text is used.", week.repo, week.week, fault.reason)
            return None, fault.reason
        except (ModelFault, AnswerError) as fault:
            reason = getattr(fault, "reason", str(fault))
            if getattr(fault, "fatal", False):
                self.stopped = reason
            log.warning("%s %s: the language model gave no usable answer (%s); the built-in writer's text is used.", week.repo, week.week, reason)
            return None, reason
        if asked:
            self.cache.put(week.repo, week.week, request, self.model, data)
        return answer, ""

    def _unused(self, base: Narrative, why: str) -> Narrative:
        return replace(base, check=SentenceCheck(self.model, unused=why))


def _clipped(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."
