"""The language-model writer itself: asks for each complete week in requests that fit the endpoint's
caps (`parts.py`), reads and checks the answers, and keeps the parts whose sentences all pass (see
the package's docstring)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from digest_plugin.analysis.model import WeekAnalysis
from digest_plugin.narrate.builtin import BuiltinWriter
from digest_plugin.narrate.llm.answer import (
    AnswerError,
    BudgetSpent,
    ModelFault,
    parse_answer,
    read_answer,
)
from digest_plugin.narrate.llm.check import WeekFacts
from digest_plugin.narrate.llm.compose import compose
from digest_plugin.narrate.llm.parts import WHOLE_WEEK, Part, plan
from digest_plugin.narrate.llm.prompt import PROMPT_VERSION, week_document
from digest_plugin.narrate.model import Narrative, SentenceCheck
from digest_plugin.narrate.wording import Language

log = logging.getLogger(__name__)


class Endpoint(Protocol):
    def complete(self, messages: list[dict], schema: dict | None = None) -> str:
        """The answer's text, or a ModelFault."""


class AnswerCache(Protocol):
    """Answers kept by the request that got them (build/cache.py keys them): the model, the prompt's
    version, the part and its document. `put` keeps a week's answers to `requests` (its plan) only."""

    def get(self, repo: str, week: str, request: tuple) -> dict | None: ...

    def put(
        self,
        repo: str,
        week: str,
        request: tuple,
        model: str,
        answer: dict,
        requests: Sequence[tuple] = (),
    ) -> None: ...


class LanguageModelWriter:
    """A `Writer`. One per build: its endpoint holds the build's request budget.

    `endpoint` is None when no request may be sent (`unavailable` says why): cached answers are
    still used. `max_input_tokens` and `max_output_tokens` (0: no cap) size the requests (`parts.py`).
    """

    name = "llm"

    def __init__(
        self,
        model: str,
        endpoint: Endpoint | None,
        cache: AnswerCache,
        unavailable: str = "",
        max_input_tokens: int = 0,
        max_output_tokens: int = 0,
    ):
        self.model, self.endpoint, self.cache = model, endpoint, cache
        self.max_input_tokens, self.max_output_tokens = max_input_tokens, max_output_tokens
        # why no request may be sent now, if so
        self.stopped = unavailable if endpoint is None else ""

    def write(
        self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: Language
    ) -> Narrative:
        base = BuiltinWriter().write(week, previous, language)
        if base.quiet:
            return self._unused(base, "no pull request was merged")
        if week.in_progress or not week.complete:
            return self._unused(base, "only complete weeks are written by the language model")
        document = week_document(week, previous, language.code)
        requests = plan(document, self.max_input_tokens, self.max_output_tokens)
        for name in requests.left_out:
            log.warning(
                "%s %s: the %s fits in no request of at most %d tokens; the built-in writer's text is used for it.",
                week.repo,
                week.week,
                name,
                self.max_input_tokens,
            )
        sections: dict[str, list] = {}
        why = "no part of the week fits in a request"
        keys = [self._request(part) for part in requests.parts]
        for part in requests.parts:
            data, why = self._answer(week, part, language.code, keys)
            for section in part.sections if data is not None else ():
                sections.setdefault(section, []).extend(data.get(section, []))
        if not sections:
            return self._unused(base, why)
        answer = read_answer({"language": language.code, **sections})
        narrative = compose(
            base, answer, WeekFacts.of(week, document["figures"]), language, self.model
        )
        assert narrative.check is not None  # compose checks every sentence
        for rejection in narrative.check.rejected:
            log.warning(
                "%s %s: the language model's sentence in the %s was rejected, %s: %r",
                week.repo,
                week.week,
                rejection.part,
                rejection.reason,
                _clipped(rejection.text),
            )
        return narrative

    def _request(self, part: Part) -> tuple:
        return (self.model, PROMPT_VERSION, part.name, part.document)

    def _answer(self, week: WeekAnalysis, part: Part, language: str, requests: Sequence[tuple]):
        """The part's answer (cached, or asked for now) and "", or None and why there is none."""
        request = self._request(part)
        data = self.cache.get(week.repo, week.week, request)
        asked = data is None
        where = f"{week.repo} {week.week}" + ("" if part.name == WHOLE_WEEK else f" ({part.name})")
        try:
            if data is None:  # not cached: ask
                if self.stopped:
                    return None, self.stopped
                assert self.endpoint is not None  # without one, `stopped` says why
                data = parse_answer(self.endpoint.complete(part.messages(), part.schema()))
            answer = read_answer(data)
            if answer.language and answer.language != language:
                raise AnswerError(f"the answer is in {answer.language!r}, not {language!r}")
        except BudgetSpent as fault:
            self.stopped = fault.reason
            log.warning(
                "%s and later weeks: %s; the built-in writer's text is used.", where, fault.reason
            )
            return None, fault.reason
        except (ModelFault, AnswerError) as fault:
            reason = getattr(fault, "reason", str(fault))
            if getattr(fault, "fatal", False):
                self.stopped = reason
            log.warning(
                "%s: the language model gave no usable answer (%s); the built-in writer's text is used.",
                where,
                reason,
            )
            return None, reason
        if asked:
            self.cache.put(week.repo, week.week, request, self.model, data, requests)
        return data, ""

    def _unused(self, base: Narrative, why: str) -> Narrative:
        return replace(base, check=SentenceCheck(self.model, unused=why))


def _clipped(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."
