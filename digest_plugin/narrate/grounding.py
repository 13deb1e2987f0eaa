"""The grounding check: every PR a narrative cites is a PR of its week, every number it states is in the analysis.

It reads only the texts, so it holds any writer to the same standard. Quoted untrusted text (titles,
summaries, module, label and file names, logins) is taken out before looking, since a title may
say "#99" or "v2.1" without the narrative claiming anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..analysis.model import WeekAnalysis
from .model import CITATION, Narrative
from .wording import display_title

# A number as the writers format it: 1,234 or 5.2 or 31 (ASCII-bounded, so 2026年5月 still splits).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![A-Za-z0-9_])")
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_]+\)s")


def check_grounding(week: WeekAnalysis, narrative: Narrative, previous: Sequence[WeekAnalysis] = ()) -> list[str]:
    """Problems found, one sentence each; empty when every citation and number checks out.

    `previous` are the earlier weeks the narrative was written with; their figures may be stated too.
    """
    in_week = {p.pull.number for p in week.pulls}
    quotes = _quotes(week, previous)
    figures = _figures(week, previous)
    problems = []
    for where, cited in narrative.texts():
        for number in cited.pulls:
            if number not in in_week:
                problems.append(f"{where} cites #{number}, which is not a pull request of {week.repo} {week.week}.")
        text = _without(cited.text, quotes)
        for match in CITATION.finditer(text):
            number = int(match[1])
            if number not in in_week:
                problems.append(f"{where} mentions #{number}, which is not a pull request of {week.repo} {week.week}.")
            elif number not in cited.pulls:
                problems.append(f"{where} mentions #{number} but does not list it among the PRs it cites.")
        text = CITATION.sub(" ", text)
        for match in _PLACEHOLDER.finditer(text):
            problems.append(f"{where} still contains the template placeholder {match[0]}.")
        for match in _NUMBER.finditer(text):
            if not _grounded(match[1], match[2], figures):
                problems.append(f"{where} states {match[0]}, which is not a figure of the analysis.")
    return problems


def _grounded(whole: str, fraction: str | None, figures: set[float]) -> bool:
    stated = float(whole.replace(",", "") + (fraction or ""))
    if not fraction:
        return stated in figures
    # a figure shown to `digits` decimals may have been rounded either way at a half
    tolerance = 0.5 * 10 ** -(len(fraction) - 1) + 1e-9
    return any(abs(value - stated) <= tolerance for value in figures)


def _without(text: str, quotes: Sequence[str]) -> str:
    """`text` with each quoted name taken out where it stands as a whole word, so that a label "1"
    leaves "+819" alone."""
    for quote in quotes:
        if quote in text:
            text = re.sub(rf"(?<![\w.,]){re.escape(quote)}(?![\w])", " ", text)
    return text


def _quotes(week: WeekAnalysis, previous: Iterable[WeekAnalysis]) -> list[str]:
    """Untrusted or name-like strings a text may contain verbatim, longest first."""
    quotes = {week.repo, week.week, week.timezone}
    for analysis in (week, *previous):
        stats = analysis.stats
        quotes.update(stats.modules)
        quotes.update(stats.labels)
        quotes.update(a.login for a in (*stats.authors, *stats.bots))
        quotes.update(f.path for f in (*stats.hot_files, *stats.hot_dirs))
    for analysed in week.pulls:
        pull = analysed.pull
        quotes.update((pull.title, display_title(pull.title), analysed.summary, pull.author.login))
        quotes.update(analysed.classification.modules)
        quotes.update(analysed.classification.labels)
        quotes.update(name for name, _ in analysed.score.factors)
    return sorted((q for q in quotes if q and q.strip()), key=len, reverse=True)


def _figures(week: WeekAnalysis, previous: Iterable[WeekAnalysis]) -> set[float]:
    """Every number the analysis holds, and the counts of its lists."""
    figures: set[float] = set()
    for day in (week.start, week.end):
        figures.update((day.year, day.month, day.day))
    for analysis in (week, *previous):
        stats = analysis.stats
        figures.update((stats.merged_count, stats.key_count, stats.average_importance, stats.additions, stats.deletions))
        for table in (stats.types, stats.modules, stats.labels, stats.reviewers):
            figures.update(table.values())
        for people in (stats.authors, stats.bots):
            figures.add(len(people))
            figures.add(sum(a.count for a in people))
            figures.update(a.count for a in people)
        figures.update(f.count for f in (*stats.hot_files, *stats.hot_dirs))
        for movement in (stats.merged_movement, stats.key_movement):
            if movement is not None:
                figures.update(v for v in (movement.current, movement.previous, movement.trailing_average) if v is not None)
        for value in (stats.merge_hours_median, stats.merge_hours_p90):
            if value is not None:
                figures.add(value)
    for analysed in week.pulls:
        pull = analysed.pull
        figures.update((pull.additions, pull.deletions, pull.changed_files, analysed.score.value))
        figures.update(abs(points) for _, points in analysed.score.factors)
    figures.update(len(risk.pulls) for risk in week.risks)
    return {float(v) for v in figures}
