"""How Chinese a Chinese report reads: the measure the tests and bench/measure_chinese.py hold
the narrative to (at least 38%, the share of hand-written Chinese weekly reports of such projects)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from digest_plugin.narrate.chinese import HAN
from digest_plugin.publish.week_view import WeekView

_CODE_SPAN = re.compile(r"`[^`]*`|“[^”]*”|[\w-]*[_./]\w[\w./-]*", re.ASCII)


def chinese_share(texts: Iterable[str], digits: bool = False) -> float | None:
    """The share of Chinese characters among the letters of `texts` (what `str.isalpha` holds:
    Chinese characters and the letters of other scripts, Latin above all; not digits, which read
    the same in both languages, nor spaces, punctuation or symbols such as #, + or backticks), over
    all the texts together; with `digits`, among letters and digits. None when they hold none. How
    Chinese a Chinese report reads: its narrative (narrative_texts) is held to at least 38%. Code in backticks,
    names written as code (a path, a dotted or snake_case name: pelican/settings.py,
    SUMMARY_END_MARKER) and an author's words quoted in “…” are left out: an identifier reads the
    same in both languages, as a digit does, and a quotation is in its author's language."""
    han = counted = 0
    for text in texts:
        text = _CODE_SPAN.sub(" ", text)
        han += len(HAN.findall(text))
        counted += (
            sum(1 for char in text if char.isalnum())
            if digits
            else sum(1 for char in text if char.isalpha())
        )
    return han / counted if counted else None


def narrative_texts(view: WeekView) -> list[str]:
    """The week's narrative as a reader sees it, each text plain: the summary, the themes, the
    highlights, the key changes' own lines (the author's words quoted apart left out: they are in
    the author's language) and those told in brief, the risks and the recommendations. Not the
    titles, tables, figures or trends. What `chinese_share` is measured over."""
    return [
        view.summary.text,
        *(theme.sentence.text for theme in view.themes),
        *(item.text for group in view.highlights for item in group.items),
        *(
            text
            for change in view.key_changes
            for text in (change.summary, change.details.text if change.details else "")
            if text
        ),
        *(brief.text for brief in view.brief_key_changes),
        *(risk.sentence.text for risk in view.risks),
        *(recommendation.text for recommendation in view.recommendations),
    ]
