"""The language-model writer's IO: the endpoint it asks (`endpoint.py`) and the answers it keeps in
the store, built from the settings here.

    writer = language_model_writer(settings)   # None unless DIGEST_WRITER = "llm"
    narrative = narrate(week, previous, language, writer)

The writer itself, and everything it decides, is pure: `digest_plugin.narrate.llm`. Needs
`pip install 'repo-digest[llm]'` only to ask; cached answers are read without it or the key. When it
cannot ask, the writer says why in one sentence and uses the answers it has.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import time
from collections.abc import Callable, Mapping

from digest_plugin.build.cache import AnswerCache
from digest_plugin.llm.endpoint import Endpoint, RequestBudget
from digest_plugin.narrate.llm import LanguageModelWriter
from digest_plugin.settings import DigestSettings, LLMConfig

log = logging.getLogger(__name__)


def language_model_writer(settings: DigestSettings, *, environ: Mapping[str, str] = os.environ,
                          clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> LanguageModelWriter | None:
    """The build's language-model writer when DIGEST_WRITER = "llm", else None (the built-in writer).

    Make one per build: it holds the build's request budget. `clock` and `sleep` are injectable so
    that waiting out a `Retry-After` never waits on the wall clock in tests.
    """
    if settings.writer != "llm":
        return None
    config = settings.llm
    cache = AnswerCache(settings.data_path)
    unavailable = _unavailable(config, environ)
    if unavailable:
        log.warning("The language-model writer sends no request in this build: %s; cached answers are still used.", unavailable)
        return LanguageModelWriter(config.model, None, cache, unavailable)
    endpoint = Endpoint(config, environ[config.api_key_env], RequestBudget(config.max_requests), clock, sleep)
    return LanguageModelWriter(config.model, endpoint, cache)


def _unavailable(config: LLMConfig, environ: Mapping[str, str]) -> str:
    if importlib.util.find_spec("openai") is None:
        return "the openai package is not installed (pip install 'repo-digest[llm]')"
    if not environ.get(config.api_key_env, "").strip():
        return f"the environment variable {config.api_key_env} that DIGEST_LLM names holds no key"
    if config.max_requests == 0:
        return "DIGEST_LLM['max_requests'] is 0"
    return ""
