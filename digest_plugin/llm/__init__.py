"""The language-model writer's IO: the endpoint it asks (`endpoint.py`) and the answers it keeps in
the store, built from the settings here.

    writer = language_model_writer(settings)   # None unless DIGEST_WRITER = "llm" (or a preset, "github-models")
    narrative = narrate(week, previous, language, writer)

The writer itself, and everything it decides, is pure: `digest_plugin.narrate.llm`. Needs
`pip install 'pelican-repo-digest[llm]'` only to ask; cached answers are read without it or the key. When it
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
    caps = {"max_input_tokens": config.max_input_tokens, "max_output_tokens": config.max_output_tokens}  # the requests' plan: the cache's keys
    unavailable = _unavailable(config, environ)
    if unavailable:
        log.warning("The language-model writer sends no request in this build: %s; cached answers are still used.", unavailable)
        return LanguageModelWriter(config.model, None, cache, unavailable, **caps)
    budget = RequestBudget(min(config.max_requests, config.requests_per_day or config.max_requests))
    endpoint = Endpoint(config, _key(config, environ), budget, clock, sleep)
    return LanguageModelWriter(config.model, endpoint, cache, **caps)


def _key(config: LLMConfig, environ: Mapping[str, str]) -> str:
    """The first of the variables `api_key_env` names that holds a key; "" when none does."""
    return next((environ[name].strip() for name in config.api_key_env if environ.get(name, "").strip()), "")


def _unavailable(config: LLMConfig, environ: Mapping[str, str]) -> str:
    if importlib.util.find_spec("openai") is None:
        return "the openai package is not installed (pip install 'pelican-repo-digest[llm]')"
    if not _key(config, environ):
        names = " nor ".join(config.api_key_env)
        return f"the environment variable {names} that DIGEST_LLM names holds no key" if len(config.api_key_env) == 1 else \
            f"neither of the environment variables {names} that DIGEST_LLM names holds a key"
    if config.max_requests == 0:
        return "DIGEST_LLM['max_requests'] is 0"
    return ""
