"""The language-model writer's IO: the endpoint it asks (`endpoint.py`) and the answers it keeps in the store (`cache.py`).

    writer = language_model_writer(settings)   # None unless DIGEST_WRITER = "llm"
    narrative = narrate(week, previous, language, writer)

The writer itself, and everything it decides, is pure: `digest_plugin.narrate.llm`. Needs
`pip install 'repo-digest[llm]'` only to ask; cached answers are read without it or the key.
"""

from __future__ import annotations

from digest_plugin.llm.writer import language_model_writer

__all__ = ["language_model_writer"]
