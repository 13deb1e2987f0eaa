"""The language-model writer: a model phrases the week, the data decides what stays.

    writer = LanguageModelWriter(model, endpoint, cache)   # built by digest_plugin.llm from the settings
    narrative = narrate(week, previous, language, writer)

For each complete week it asks once, or in parts that each fit the endpoint's input cap
(`parts.py`; `prompt.py`: the analysis' figures and the PRs' public text as data), reads the JSON
answers (`answer.py`), checks every sentence against the data (`check.py`) and keeps the parts
whose sentences all pass (`compose.py`); the rest is the built-in writer's text. Pure but for what it is given: the `endpoint` that asks (the network) and the `cache` that
keeps answers in the store (the disk) come from `digest_plugin.llm`. A fault, a malformed answer or
a spent budget ends in the built-in text and a warning, never a failed build.
"""

from __future__ import annotations

from digest_plugin.narrate.llm.language_model import LanguageModelWriter

__all__ = ["LanguageModelWriter"]
