"""The built-in writer: the week's narrative from the analysis alone, deterministic, no network.

Every figure it states is a field of the analysis (or a count of a list in it), every PR it cites
is a PR of the week, and every sentence is one whole template of the catalogue with named
placeholders, so that the Chinese reads as Chinese rather than English word order. The summary,
trends and risks have a module each; highlights and key changes are here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ..analysis.model import AnalysedPull, WeekAnalysis
from .model import Cited, HighlightGroup, KeyChange, Narrative
from .risks import recommendations, risk_lines
from .summary import quiet_summary, summary
from .trends import trends
from .wording import Language, display_title, factor_names, highlight_headings

HIGHLIGHTS_PER_GROUP = 5
# Highlight groups in reading order, and the change types that feed each one.
HIGHLIGHT_TYPES = {"features": "feat", "fixes": "fix", "refactors": "refactor", "performance": "perf", "docs": "docs"}
HIGHLIGHT_ORDER = ("features", "upgrades", "fixes", "refactors", "performance", "docs", "deprecations")


class BuiltinWriter:
    """The deterministic writer; the default of `narrate`."""

    name = "builtin"

    def write(self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: Language) -> Narrative:
        lang = language
        before = _week_before(week, previous)
        title = _title(week, lang)
        if not week.pulls:
            return Narrative(lang.code, title, quiet_summary(week, lang), quiet=True, writer=self.name)
        risks = risk_lines(week, lang)
        return Narrative(
            language=lang.code,
            title=title,
            summary=summary(week, before, risks, lang),
            highlights=_highlights(week, lang),
            key_changes=_key_changes(week, lang),
            trends=trends(week, before, lang),
            risks=risks,
            recommendations=recommendations(week, lang),
            writer=self.name,
        )


def _title(week: WeekAnalysis, lang: Language) -> str:
    _ = lang.gettext
    return _("{repo}, week {week} ({dates})").format(repo=week.repo, week=week.week, dates=lang.dates(week.start, week.end))


def _week_before(week: WeekAnalysis, previous: Sequence[WeekAnalysis]) -> WeekAnalysis | None:
    """The analysis of the calendar week just before, if given (a gap means it is unknown, not quiet).

    None for a week in progress: half a week against a whole one would read as a fall.
    """
    if week.in_progress:
        return None
    if previous and previous[-1].start == week.start - timedelta(days=7):
        return previous[-1]
    return None


def _highlights(week: WeekAnalysis, lang: Language) -> tuple[HighlightGroup, ...]:
    _ = lang.gettext
    headings = highlight_headings(_)
    groups: dict[str, list[AnalysedPull]] = {kind: [] for kind in HIGHLIGHT_ORDER}
    for analysed in week.pulls:  # highest importance first, so each group is too
        kind = _highlight_kind(analysed)
        if kind and len(groups[kind]) < HIGHLIGHTS_PER_GROUP:
            groups[kind].append(analysed)
    separator, joiner = (_(": "), _("; "))
    return tuple(
        HighlightGroup(
            kind=kind,
            heading=headings[kind],
            items=tuple(
                Cited(_("{title} ({pull})").format(title=display_title(p.pull.title), pull=f"#{p.pull.number}"), (p.pull.number,))
                for p in members
            ),
            separator=separator,
            joiner=joiner,
        )
        for kind, members in groups.items()
        if members
    )


def _highlight_kind(analysed: AnalysedPull) -> str | None:
    """The one highlight group a PR belongs to; bots' PRs only ever as upgrades."""
    if "deprecation" in analysed.risks and not analysed.classification.bot:
        return "deprecations"
    if "dependency-upgrade" in analysed.risks:
        return "upgrades"
    if analysed.classification.bot:
        return None
    for kind, change_type in HIGHLIGHT_TYPES.items():
        if analysed.classification.type == change_type:
            return kind
    return None


def _key_changes(week: WeekAnalysis, lang: Language) -> tuple[KeyChange, ...]:
    return tuple(
        KeyChange(
            number=p.pull.number,
            title=p.pull.title,
            url=p.pull.url,
            summary=p.summary,
            modules=p.classification.modules,
            importance=p.score.value,
            details=Cited(_key_details(p, lang), (p.pull.number,)),
        )
        for p in week.pulls
        if p.key
    )


def _key_details(analysed: AnalysedPull, lang: Language) -> str:
    _, ngettext, pull = lang.gettext, lang.ngettext, analysed.pull
    sentences = []
    modules = analysed.classification.modules
    if modules:
        sentences.append(ngettext("#{number} changes the module {modules}.", "#{number} changes the modules {modules}.", len(modules)).format(
            number=pull.number, modules=lang.join(modules)))
    sentences.append(
        ngettext(
            "Size: +{additions} −{deletions} lines in {files} file.",
            "Size: +{additions} −{deletions} lines in {files} files.",
            pull.changed_files,
        ).format(additions=lang.number(pull.additions), deletions=lang.number(pull.deletions), files=lang.number(pull.changed_files))
    )
    names = factor_names(_)
    factors = [
        _("{factor} {points}").format(factor=names.get(name, name), points=lang.points(points))
        for name, points in analysed.score.factors
        if points
    ]
    if factors:
        sentences.append(_("Importance {score}: {factors}.").format(score=lang.decimal(analysed.score.value), factors=lang.join(factors)))
    else:
        sentences.append(_("Importance {score}.").format(score=lang.decimal(analysed.score.value)))
    return lang.sentences(sentences)
