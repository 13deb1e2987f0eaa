"""Who wrote a week's words, in one sentence of the site's language.

The page, the Markdown report and `show --format json` all take it from here, so they say the same.
"""

from __future__ import annotations

from digest_plugin.narrate.model import Narrative
from digest_plugin.narrate.wording import Language


def writer_credit(narrative: Narrative, lang: Language) -> str:
    """Which writer wrote the week and, for a language model, how many of its sentences were kept;
    "" when no language model was asked (the built-in writer alone says nothing about itself)."""
    check, _ = narrative.check, lang.gettext
    if check is None:
        return ""
    if check.kept:
        return _("Written with the language model {model}: {kept} of the {checked} sentences it wrote passed the check against the data "
                 "and are shown; the rest is the built-in writer’s text.").format(
            model=check.model, kept=lang.number(check.kept), checked=lang.number(check.checked))
    return _("Written by the built-in writer: no sentence of the language model was used for this week.")
