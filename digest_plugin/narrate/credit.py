"""Who wrote a week's words, in one sentence of the site's language.

The page, the Markdown report and `show --format json` all take it from here, so they say the same.
"""

from __future__ import annotations

from collections import Counter

from digest_plugin.narrate.model import Narrative
from digest_plugin.narrate.wording import Language


def writer_credit(narrative: Narrative, lang: Language) -> str:
    """Which writer wrote the week and, for a language model, how many of its sentences were kept;
    "" when no language model was asked (the built-in writer alone says nothing about itself)."""
    check, _ = narrative.check, lang.gettext
    if check is None:
        return ""
    if check.kept:
        written = _(
            "Written with the language model {model}: of the {checked} sentences it wrote, {kept} passed the check against the "
            "data and are shown, and {set_aside} were set aside; the rest is the built-in writer’s text."
        ).format(
            model=check.model,
            kept=lang.number(check.kept),
            checked=lang.number(check.checked),
            set_aside=lang.number(check.checked - check.kept),
        )
        return lang.sentences(
            [
                written,
                _("The model’s words are in: {parts}.").format(
                    parts=lang.join(_parts(narrative, lang))
                ),
            ]
        )
    return _(
        "Written by the built-in writer: no sentence of the language model was used for this week."
    )


def _parts(narrative: Narrative, lang: Language) -> list[str]:
    """The parts the model's words fill, as "the summary", "2 of 3 key changes", ..."""
    _ = lang.gettext
    assert narrative.check is not None  # asked for a model's writing only
    filled = Counter(where.split("[")[0] for where, _sentences in narrative.check.parts)
    parts = [_("the summary")] if filled["summary"] else []
    for section, total, words in (
        ("themes", len(narrative.themes), _("{count} of {total} themes")),
        ("key_changes", len(narrative.key_changes), _("{count} of {total} key changes")),
        ("risks", len(narrative.risks), _("{count} of {total} risks")),
    ):
        if filled[section]:
            parts.append(words.format(count=lang.number(filled[section]), total=lang.number(total)))
    return parts + ([_("the recommendations")] if filled["recommendations"] else [])
