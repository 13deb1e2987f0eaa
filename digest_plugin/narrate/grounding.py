"""The grounding check: every PR a narrative cites is a PR of its week, every number it states is
the figure it says it is.

Each text carries the figures it states (`Cited.figures`: what, value). The check looks each one up
in the analysis by what it is and requires exactly that value there, and requires every number left
in the text to be one of them, so a sentence cannot say "12 PRs changed CI" when 12 is the count of
something else. Quoted untrusted text (titles, the author's sentences, module, label, file and
package names, versions, logins) is taken out before looking, since a title may say "#99" or
"v2.1" without the narrative claiming anything.

What a figure can be (`Figure.what`), with NAME a module, type, label, login, path or theme name:

    merged  key  average  authors  bot_pulls  people_pulls  additions  deletions  newcomers
    previous:merged  previous:key  previous:authors  trailing:merged      (the week before)
    module:NAME  type:NAME  label:NAME  author:NAME  hot:PATH   (and previous:module:NAME, ...)
    pull:N:additions|deletions|files|added_files|removed_files|removed_lines|workflows|core_lines
    theme:NAME  theme:NAME:share  theme:NAME:authors   (shares in percent)
    theme:NAME:series   (its PRs of one title)
    theme:NAME:type:KIND   (its PRs of that kind of change)
    risk:KIND  good:KIND   evidence:KIND:I:lines|files|modules|pulls|paths|authors  (the Ith evidence)
    recommendation:I:count
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from datetime import timedelta

from digest_plugin.analysis.model import Risk, WeekAnalysis
from digest_plugin.narrate.describe import quoted_forms
from digest_plugin.narrate.model import CITATION, Figure, Narrative
from digest_plugin.narrate.reviews import review_logins

# A number as the writers format it: 1,234 or 5.2 or 31 (ASCII-bounded, so 2026年5月 still splits).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![A-Za-z0-9_])")
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_]+\)s")
PERCENT_TOLERANCE = 0.5  # a share shown as a whole percentage
PERCENTAGES = (":share",)  # the figures that are shares, in percent


def check_grounding(
    week: WeekAnalysis, narrative: Narrative, previous: Sequence[WeekAnalysis] = ()
) -> list[str]:
    """Problems found, one sentence each; empty when every citation and number checks out.

    `previous` are the earlier weeks the narrative was written with (the last, if it is the week
    just before, answers the `previous:` figures).
    """
    in_week = {p.pull.number for p in week.pulls}
    quotes = _quotes(week, previous, chinese=narrative.language == "zh")
    before = week_before(week, previous)
    problems = []

    @functools.cache  # gathered once a week, for the first text that needs them
    def loose() -> set[float]:
        """For a text that names none of its figures: each number must be one of the week's figures."""
        return _any_figures(week, previous)

    for where, cited in narrative.texts():
        for number in cited.pulls:
            if number not in in_week:
                problems.append(
                    f"{where} cites #{number}, which is not a pull request of {week.repo} {week.week}."
                )
        for figure in cited.figures:
            actual = figure_value(week, before, figure.what)
            if actual is None:
                problems.append(
                    f"{where} states a figure “{figure.what}” that the analysis does not have."
                )
            elif not _close(figure, actual):
                problems.append(
                    f"{where} states {figure.what} = {figure.value:g}, but the analysis has {actual:g}."
                )
        text = _without(cited.text, quotes)
        for match in CITATION.finditer(text):
            number = int(match[1])
            if number not in in_week:
                problems.append(
                    f"{where} mentions #{number}, which is not a pull request of {week.repo} {week.week}."
                )
            elif number not in cited.pulls:
                problems.append(
                    f"{where} mentions #{number} but does not list it among the PRs it cites."
                )
        text = CITATION.sub(" ", text)
        for match in _PLACEHOLDER.finditer(text):
            problems.append(f"{where} still contains the template placeholder {match[0]}.")
        stated = {figure.value for figure in cited.figures} if cited.figures else loose()
        for match in _NUMBER.finditer(text):
            if not _stated(match[1], match[2], stated):
                problems.append(
                    f"{where} states {match[0]} without saying which figure of the analysis it is."
                )
    return problems


def week_before(week: WeekAnalysis, previous: Sequence[WeekAnalysis]) -> WeekAnalysis | None:
    """The week just before `week`, when `previous` ends with it (it answers the `previous:` figures)."""
    return (
        previous[-1] if previous and previous[-1].start == week.start - timedelta(days=7) else None
    )


def _close(figure: Figure, actual: float) -> bool:
    tolerance = 1e-6 + (
        PERCENT_TOLERANCE
        if figure.what.endswith(PERCENTAGES)
        else 0.05
        if figure.what == "average"
        else 0
    )
    return abs(figure.value - actual) <= tolerance


def _stated(whole: str, fraction: str | None, values: set[float]) -> bool:
    number = float(whole.replace(",", "") + (fraction or ""))
    return any(abs(value - number) < 1e-9 for value in values)


def figure_value(week: WeekAnalysis, before: WeekAnalysis | None, what: str) -> float | None:
    """The figure `what` names (see the module docstring), or None when there is no such figure."""
    head, _, rest = what.partition(":")
    if head == "previous":
        if before is None:
            movement = (
                week.stats.merged_movement
                if rest == "merged"
                else week.stats.key_movement
                if rest == "key"
                else None
            )
            return movement.previous if movement is not None else None
        return _week_figure(before, rest)
    if head == "trailing":
        movement = week.stats.merged_movement
        return movement.trailing_average if movement is not None and rest == "merged" else None
    if head in _DETAILED:
        return _DETAILED[head](week, rest)
    return _week_figure(week, what)


def _week_figure(week: WeekAnalysis, what: str) -> float | None:
    stats = week.stats
    totals = {
        "merged": stats.merged_count,
        "key": stats.key_count,
        "average": stats.average_importance,
        "authors": len(stats.authors),
        "bot_pulls": sum(b.count for b in stats.bots),
        "people_pulls": stats.merged_count - sum(b.count for b in stats.bots),
        "additions": stats.additions,
        "deletions": stats.deletions,
        "newcomers": len(
            {p.pull.author.login for p in week.pulls if p.first_time and not p.classification.bot}
        ),
    }
    if what in totals:
        return totals[what]
    kind, _, name = what.partition(":")
    tables = {
        "module": stats.modules,
        "type": {str(k): v for k, v in stats.types.items()},
        "label": stats.labels,
        "author": {a.login: a.count for a in (*stats.authors, *stats.bots)},
        "hot": {f.path: f.count for f in stats.hot_files},
    }
    if kind in tables:
        return tables[kind].get(name, 0)
    return None


def _pull_figure(week: WeekAnalysis, rest: str) -> float | None:
    number, _, field = rest.partition(":")
    analysed = next((p for p in week.pulls if str(p.pull.number) == number), None)
    if analysed is None:
        return None
    pull, footprint = analysed.pull, analysed.footprint
    fields = {
        "additions": pull.additions,
        "deletions": pull.deletions,
        "files": pull.changed_files,
        "added_files": footprint.added_count,
        "removed_files": footprint.removed_count,
        "removed_lines": footprint.removed_lines,
        "workflows": len(footprint.workflows),
        "core_lines": footprint.core_lines,
    }
    return fields.get(field)


def _theme_figure(week: WeekAnalysis, rest: str) -> float | None:
    if ":type:" in rest:  # theme:NAME:type:KIND, how many of its PRs are of that kind of change
        name, kind = rest.rsplit(":type:", 1)
        theme = next((t for t in week.themes if t.name == name), None)
        return theme.types.get(kind) if theme is not None else None
    name, _, field = (
        rest.rpartition(":")
        if rest.endswith((*PERCENTAGES, ":authors", ":series"))
        else (rest, "", "")
    )
    theme = next((t for t in week.themes if t.name == name), None)
    if theme is None:
        return None
    return {
        "": len(theme.pulls),
        "share": theme.share * 100,
        "authors": theme.authors,
        "series": len(theme.series),
    }.get(field)


def _pulls_of(risks: Iterable[Risk], kind: str) -> float | None:
    """risk:KIND, good:KIND: how many PRs show the week's risk (or good news) of KIND."""
    return next((len(r.pulls) for r in risks if r.kind == kind), None)


def _evidence_figure(week: WeekAnalysis, rest: str) -> float | None:
    """evidence:KIND:INDEX:FIELD, the INDEXth evidence of the week's risk (or good news) of KIND."""
    kind, index, field = [*rest.split(":"), "", "", ""][:3]
    risk = next((r for r in (*week.risks, *week.good_news) if r.kind == kind), None)
    if (
        risk is None
        or not index.isdigit()
        or int(index) >= len(risk.evidence)
        or field not in _EVIDENCE_FIELDS
    ):
        return None
    value = getattr(risk.evidence[int(index)], field)
    return len(value) if isinstance(value, tuple) else value


_EVIDENCE_FIELDS = ("lines", "files", "modules", "pulls", "paths", "authors")


def _recommendation_figure(week: WeekAnalysis, rest: str) -> float | None:
    index, _, field = rest.partition(":")
    if not index.isdigit() or int(index) >= len(week.recommendations) or field != "count":
        return None
    return week.recommendations[int(index)].count


_DETAILED = {
    "pull": _pull_figure,
    "theme": _theme_figure,
    "risk": lambda week, kind: _pulls_of(week.risks, kind),
    "good": lambda week, kind: _pulls_of(week.good_news, kind),
    "evidence": _evidence_figure,
    "recommendation": _recommendation_figure,
}


def _without(text: str, quotes: Sequence[str]) -> str:
    """`text` with each quoted name taken out where it stands as a whole word, so that a label "1"
    leaves "+819" alone: not after a word character, "." or ",", nor before a word character."""
    for quote in quotes:
        if quote in text:
            text = _cut(text, quote)
    return text


def _cut(text: str, quote: str) -> str:
    r"""`re.sub(r"(?<![\w.,])QUOTE(?!\w)", " ", text)` without a pattern for each quote: a week has
    hundreds of quotes, and compiling them took most of the check's time."""
    parts, start, at = [], 0, text.find(quote)
    while at >= 0:
        end = at + len(quote)
        before, after = text[at - 1 : at], text[end : end + 1]
        if not (before and (_word(before) or before in ".,")) and not (after and _word(after)):
            parts += [text[start:at], " "]
            start = end
            at = text.find(quote, end)
        else:
            at = text.find(quote, at + 1)
    return "".join(parts) + text[start:] if parts else text


def _word(character: str) -> bool:
    r"""What `\w` matches in a str pattern."""
    return character.isalnum() or character == "_"


def _quotes(week: WeekAnalysis, previous: Iterable[WeekAnalysis], chinese: bool) -> list[str]:
    """Untrusted or name-like strings a text may contain verbatim, longest first; with `chinese`,
    the Chinese forms of titles and authors' words too, which only a Chinese narrative has."""
    quotes = {week.repo, week.week, week.timezone}
    for analysis in (week, *previous):
        stats = analysis.stats
        quotes.update(stats.modules)
        quotes.update(stats.labels)
        quotes.update(a.login for a in (*stats.authors, *stats.bots))
        quotes.update(f.path for f in (*stats.hot_files, *stats.hot_dirs))
    for analysed in week.pulls:
        quotes.update(quoted_forms(analysed, chinese))
        quotes.update(review_logins(analysed.review))
        quotes.update(analysed.classification.modules)
        quotes.update(analysed.classification.labels)
        quotes.update(
            (
                *analysed.footprint.added_files,
                *analysed.footprint.removed_files,
                *analysed.footprint.workflows,
                *analysed.footprint.config_files,
            )
        )
        for upgrade in analysed.upgrades:
            quotes.update(
                v for v in (upgrade.package, upgrade.old, upgrade.new, upgrade.reason) if v
            )
    for theme in week.themes:
        quotes.add(theme.name)
    quotes.update(release.version for release in week.releases)
    quotes.update(_finding_quotes(week))
    return sorted((q for q in quotes if q and q.strip()), key=len, reverse=True)


def _finding_quotes(week: WeekAnalysis) -> set[str]:
    """What the week's risks, good news and recommendations name: paths, people, packages, versions, reasons."""
    quotes: set[str] = set()
    for risk in (*week.risks, *week.good_news):
        quotes.update(risk.paths)
        for evidence in risk.evidence:
            quotes.update((*evidence.paths, *evidence.authors, *evidence.packages))
            quotes.update(
                v
                for v in (
                    evidence.package,
                    evidence.old,
                    evidence.new,
                    evidence.detail,
                    evidence.reason,
                )
                if v
            )
            if evidence.reason:  # quoted without its full stop
                quotes.add(evidence.reason.rstrip("."))
    for recommendation in week.recommendations:
        quotes.update(
            v
            for v in (
                recommendation.path,
                recommendation.package,
                recommendation.old,
                recommendation.new,
                recommendation.detail,
            )
            if v
        )
    return quotes


def _any_figures(week: WeekAnalysis, previous: Iterable[WeekAnalysis]) -> set[float]:
    """Every number the analysis holds, and the counts of its lists: what a text that declares no
    figures (another writer's) is held to."""
    figures: set[float] = set()
    for day in (week.start, week.end):
        figures.update((day.year, day.month, day.day))
    for analysis in (week, *previous):
        stats = analysis.stats
        figures.update(
            (
                stats.merged_count,
                stats.key_count,
                stats.average_importance,
                stats.additions,
                stats.deletions,
            )
        )
        for table in (stats.types, stats.modules, stats.labels, stats.reviewers):
            figures.update(table.values())
        for people in (stats.authors, stats.bots):
            figures.add(len(people))
            figures.add(sum(a.count for a in people))
            figures.update(a.count for a in people)
        figures.update(f.count for f in (*stats.hot_files, *stats.hot_dirs))
        for movement in (stats.merged_movement, stats.key_movement):
            if movement is not None:
                figures.update(
                    v
                    for v in (movement.current, movement.previous, movement.trailing_average)
                    if v is not None
                )
        for value in (stats.merge_hours_median, stats.merge_hours_p90):
            if value is not None:
                figures.add(value)
    for analysed in week.pulls:
        pull = analysed.pull
        figures.update((pull.additions, pull.deletions, pull.changed_files, analysed.score.value))
        figures.update(abs(points) for _, points in analysed.score.factors)
    figures.update(len(risk.pulls) for risk in week.risks)
    return {float(v) for v in figures}
