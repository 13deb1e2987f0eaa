"""Two writers' narratives of one week combined part by part: a plugged-in writer's text where it is
grounded, the built-in writer's text where it is not.

Pure. A part is the summary, one theme, one key change, one risk, the recommendations, the highlights or the
trends. Used by `narrate` after `check_grounding` found a problem in a plugged-in writer's text, so
that one bad sentence costs its part, not the whole page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from digest_plugin.analysis.model import WeekAnalysis
from digest_plugin.narrate.grounding import check_grounding
from digest_plugin.narrate.model import Cited, Narrative, Rejection


def keep_grounded(
    week: WeekAnalysis, previous: Sequence[WeekAnalysis], narrative: Narrative, fallback: Narrative
) -> tuple[Narrative, list[str]]:
    """`narrative` with each ungrounded part replaced by `fallback`'s, and the problems found."""
    if _shape(narrative) != _shape(fallback):
        return fallback, check_grounding(week, narrative, previous)

    problems: list[str] = []
    failed: list[tuple[str, str, Sequence[Cited]]] = []  # (place in texts(), part, its texts)

    def grounded(where: str, part: str, texts: Sequence[Cited]) -> bool:
        found = [
            p
            for cited in texts
            for p in check_grounding(week, Narrative(narrative.language, "", cited), previous)
        ]
        if found:
            problems.extend(found)
            failed.append((where, part, texts))
        return not found

    summary = (
        narrative.summary
        if grounded("summary", "summary", [narrative.summary])
        else fallback.summary
    )
    themes = tuple(
        ours if grounded(f"themes[{i}]", f"theme {ours.name}", [ours.sentence]) else theirs
        for i, (ours, theirs) in enumerate(zip(narrative.themes, fallback.themes))
    )
    key_changes = tuple(
        ours
        if grounded(f"key_changes[{i}]", f"key change #{ours.number}", [ours.details])
        else theirs
        for i, (ours, theirs) in enumerate(zip(narrative.key_changes, fallback.key_changes))
    )
    risks = tuple(
        ours if grounded(f"risks[{i}]", f"risk {ours.kind}", [ours.sentence]) else theirs
        for i, (ours, theirs) in enumerate(zip(narrative.risks, fallback.risks))
    )
    lists = {
        name: getattr(narrative, name)
        if grounded(name, name, _items(getattr(narrative, name)))
        else getattr(fallback, name)
        for name in ("recommendations", "highlights", "trends")
    }
    combined = replace(
        narrative, summary=summary, themes=themes, key_changes=key_changes, risks=risks, **lists
    )
    check = _recounted(combined, failed)
    writer = combined.writer if check is None or check.kept else fallback.writer
    return replace(combined, check=check, writer=writer), problems


def _shape(narrative: Narrative) -> tuple[int, int, int]:
    """The parts that are matched one by one between the two narratives."""
    return len(narrative.themes), len(narrative.key_changes), len(narrative.risks)


def _items(value) -> list[Cited]:
    return [
        item for entry in value for item in (entry.items if hasattr(entry, "items") else [entry])
    ]


def _recounted(narrative: Narrative, failed: list[tuple[str, str, Sequence[Cited]]]):
    """The writer's sentence count without the parts taken back here."""
    check = narrative.check
    if check is None or not failed:
        return check
    counts = dict(check.parts)
    dropped = {where for where, _, _ in failed if where in counts}
    rejected = [
        Rejection(part, cited.text, "it failed the narrative's grounding check")
        for where, part, texts in failed
        if where in dropped
        for cited in texts
    ]
    return replace(
        check,
        kept=check.kept - sum(counts[where] for where in dropped),
        rejected=check.rejected + tuple(rejected),
        parts=tuple((where, n) for where, n in check.parts if where not in dropped),
    )
