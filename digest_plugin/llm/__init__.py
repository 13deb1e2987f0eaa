"""The language-model writer's IO: the endpoint it asks (`endpoint.py`) and the answers it keeps in
the store, built from the settings here.

    writer = language_model_writer(settings)   # None unless DIGEST_WRITER = "llm" or "copilot"
    narrative = narrate(week, previous, language, writer)

The writer itself, and everything it decides, is pure: `digest_plugin.narrate.llm`. "llm" asks an
OpenAI-compatible endpoint (`endpoint.py`, `pip install 'pelican-repo-digest[llm]'`); "copilot" asks
through the Copilot CLI (`copilot.py`, `pip install 'pelican-repo-digest[copilot]'` and the CLI). Either
is needed only to ask; cached answers are read without it or the key. When it
cannot ask, the writer says why in one sentence and uses the answers it has.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from digest_plugin.build.cache import AnswerCache
from digest_plugin.llm.endpoint import Endpoint, RequestBudget
from digest_plugin.narrate.llm import LanguageModelWriter
from digest_plugin.settings import DigestSettings, LLMConfig

log = logging.getLogger(__name__)


def language_model_writer(
    settings: DigestSettings,
    *,
    environ: Mapping[str, str] = os.environ,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> LanguageModelWriter | None:
    """The build's language-model writer when DIGEST_WRITER = "llm" or "copilot", else None (the built-in writer).

    Make one per build: it holds the build's request budget. `clock` and `sleep` are injectable so
    that waiting out a `Retry-After` never waits on the wall clock in tests.
    """
    if settings.writer not in ("llm", "copilot"):
        return None
    config = settings.llm
    assert config is not None  # DigestSettings refuses these writers without DIGEST_LLM
    cache = AnswerCache(settings.data_path)
    # the requests' plan: the cache's keys
    caps: dict[str, Any] = {
        "max_input_tokens": config.max_input_tokens,
        "max_output_tokens": config.max_output_tokens,
    }
    copilot = settings.writer == "copilot"
    unavailable = (
        _copilot_unavailable(config, environ) if copilot else _unavailable(config, environ)
    ) or ("DIGEST_LLM['max_requests'] is 0" if config.max_requests == 0 else "")
    if unavailable:
        log.warning(
            "The language-model writer sends no request in this build: %s; cached answers are still used.",
            unavailable,
        )
        return LanguageModelWriter(config.model, None, cache, unavailable, **caps)
    budget = RequestBudget(min(config.max_requests, config.requests_per_day or config.max_requests))
    if copilot:
        from digest_plugin.llm.copilot import CopilotEndpoint, cli_path

        cli = cli_path(environ)
        assert cli is not None  # else _copilot_unavailable said so
        endpoint: CopilotEndpoint | Endpoint = CopilotEndpoint(
            config, _key(config, environ), budget, cli
        )
    else:
        endpoint = Endpoint(config, _key(config, environ), budget, clock, sleep)
    return LanguageModelWriter(config.model, endpoint, cache, **caps)


def requests_made(
    writer: LanguageModelWriter | None, environ: Mapping[str, str] = os.environ
) -> str:
    """One line on the requests the build's writer sent, logged and, in a GitHub Actions job, added to its
    summary (each one may be billed); "" for the built-in writer."""
    if writer is None:
        return ""
    budget = getattr(writer.endpoint, "budget", None)
    sent = "sent no request"
    if budget is not None:
        sent = f"sent {budget.used} of at most {budget.limit} requests"
    line = f"The language-model writer ({writer.model}) {sent} in this build"
    line += f"; {writer.stopped}." if writer.stopped else "."
    log.info("%s", line)
    if environ.get("GITHUB_STEP_SUMMARY"):
        from digest_plugin.build.actions_outputs import append_to

        append_to(environ["GITHUB_STEP_SUMMARY"], f"\n{line}\n")
    return line


def _key(config: LLMConfig, environ: Mapping[str, str]) -> str:
    """The first of the variables `api_key_env` names that holds a key; "" when none does."""
    return next(
        (environ[name].strip() for name in config.api_key_env if environ.get(name, "").strip()), ""
    )


def _copilot_unavailable(config: LLMConfig, environ: Mapping[str, str]) -> str:
    from digest_plugin.llm.copilot import cli_path

    if importlib.util.find_spec("copilot") is None:
        return "the github-copilot-sdk package is not installed (pip install 'pelican-repo-digest[copilot]')"
    if cli_path(environ) is None:
        return "the Copilot CLI is not installed: no `copilot` on PATH (npm install @github/copilot, docs/model-writer.md)"
    if not _key(config, environ):
        what = (
            "the endpoint's key" if config.base_url else "a GitHub token allowed Copilot requests"
        )
        return f"none of the environment variables {', '.join(config.api_key_env)} holds {what}"
    return ""


def _unavailable(config: LLMConfig, environ: Mapping[str, str]) -> str:
    if importlib.util.find_spec("openai") is None:
        return "the openai package is not installed (pip install 'pelican-repo-digest[llm]')"
    if not _key(config, environ):
        names = " nor ".join(config.api_key_env)
        return (
            f"the environment variable {names} that DIGEST_LLM names holds no key"
            if len(config.api_key_env) == 1
            else f"neither of the environment variables {names} that DIGEST_LLM names holds a key"
        )
    return ""


@contextmanager
def quieted(level: int, *logger_names: str) -> Iterator[None]:
    """The loggers `logger_names` say only what is at least `level` within, then as they were."""
    loggers = [logging.getLogger(name) for name in logger_names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(level)
    try:
        yield
    finally:
        for logger, before in zip(loggers, levels):
            logger.setLevel(before)
