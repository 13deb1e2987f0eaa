"""The language-model writer: an OpenAI-compatible model phrases the week, the data decides what stays.

    DIGEST_WRITER = "llm"
    DIGEST_LLM = {"base_url": "https://api.openai.com/v1", "model": "gpt-4o-mini"}   # key in $OPENAI_API_KEY

    writer = language_model_writer(settings)        # None unless DIGEST_WRITER = "llm"
    narrative = narrate(week, previous, "en", writer)

For each complete week it sends one request (`prompt.py`: the analysis' figures and the PRs' public
text as data), reads the JSON answer (`answer.py`), checks every sentence against the data
(`check.py`) and keeps the parts whose sentences all pass (`compose.py`); the rest is the built-in
writer's text. Answers are cached in the store (`cache.py`), so a rebuild sends nothing. Timeouts,
rate limits, errors, refusals and malformed answers end in the built-in text and a warning
(`endpoint.py`), never a failed build. Needs `pip install 'repo-digest[llm]'` only to ask: cached
answers are read without it.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from ...analysis.model import WeekAnalysis
from ...settings import DigestSettings, LLMConfig
from ..builtin import BuiltinWriter
from ..model import Narrative, SentenceCheck
from .answer import AnswerError, parse_answer, read_answer
from .cache import AnswerCache
from .check import WeekFacts
from .compose import compose
from .endpoint import BudgetSpent, Endpoint, EndpointFault, RequestBudget
from .prompt import answer_key, messages, week_document

__all__ = ["LanguageModelWriter", "language_model_writer"]

log = logging.getLogger(__name__)


def language_model_writer(settings: DigestSettings, **options) -> LanguageModelWriter | None:
    """The build's language-model writer when DIGEST_WRITER = "llm", else None (the built-in writer)."""
    if settings.writer != "llm" or settings.llm is None:
        return None
    return LanguageModelWriter(settings.llm, settings.data_path, **options)


class LanguageModelWriter:
    """A `Writer`. One per build: it holds the build's request budget."""

    name = "llm"

    def __init__(self, config: LLMConfig, data_path: Path, *, environ: Mapping[str, str] = os.environ,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep):
        self.config = config
        self.cache = AnswerCache(data_path)
        self.budget = RequestBudget(config.max_requests)
        self.endpoint: Endpoint | None = None
        self.stopped = _unavailable(config, environ)  # why no request may be sent in this build, if so
        if self.stopped:
            log.warning("The language-model writer sends no request in this build: %s; cached answers are still used.", self.stopped)
        else:
            self.endpoint = Endpoint(config, environ[config.api_key_env], self.budget, clock, sleep)

    def write(self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: str) -> Narrative:
        base = BuiltinWriter().write(week, previous, language)
        if base.quiet:
            return self._unused(base, "no pull request was merged")
        if week.in_progress or not week.complete:
            return self._unused(base, "only complete weeks are written by the language model")
        document = week_document(week, previous, language)
        answer, why = self._answer(week, document, language)
        if answer is None:
            return self._unused(base, why)
        narrative = compose(week, base, answer, WeekFacts.of(week, document["figures"]), self.config.model)
        for rejection in narrative.check.rejected:
            log.warning("%s %s: the language model's sentence in the %s was rejected, %s: %r",
                        week.repo, week.week, rejection.part, rejection.reason, _clipped(rejection.text))
        return narrative

    def _answer(self, week: WeekAnalysis, document: dict, language: str):
        """The week's answer (cached, or asked for now) and None, or None and why there is none."""
        key = answer_key(self.config.model, document)
        data = self.cache.get(week.repo, week.week, key)
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
        except (EndpointFault, AnswerError) as fault:
            reason = getattr(fault, "reason", str(fault))
            if getattr(fault, "fatal", False):
                self.stopped = reason
            log.warning("%s %s: the language model gave no usable answer (%s); the built-in writer's text is used.", week.repo, week.week, reason)
            return None, reason
        if asked:
            self.cache.put(week.repo, week.week, key, self.config.model, data)
        return answer, ""

    def _unused(self, base: Narrative, why: str) -> Narrative:
        return replace(base, check=SentenceCheck(self.config.model, unused=why))


def _unavailable(config: LLMConfig, environ: Mapping[str, str]) -> str:
    try:
        import openai  # noqa: F401
    except ImportError:
        return "the openai package is not installed (pip install 'repo-digest[llm]')"
    if not environ.get(config.api_key_env, "").strip():
        return f"the environment variable {config.api_key_env} that DIGEST_LLM names holds no key"
    if config.max_requests == 0:
        return "DIGEST_LLM['max_requests'] is 0"
    return ""


def _clipped(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."
