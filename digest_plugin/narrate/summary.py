"""The executive summary: figures, movement, themes, the most important changes and the main risks.

One paragraph of whole sentences; every figure is a field of the analysis, every PR a PR of the week.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.model import AnalysedPull, WeekAnalysis
from .model import Cited, RiskLine
from .wording import Language, display_title, ranked, risk_phrases, type_names, unique

SUMMARY_CHANGES = 3  # most important changes named in the summary
SUMMARY_RISKS = 3
SUMMARY_RISK_PULLS = 3  # PRs cited per risk in the summary; the Risks section cites them all
TOP_NAMES = 3  # tied busiest modules named


def quiet_summary(week: WeekAnalysis, lang: Language) -> Cited:
    _ = lang.gettext
    if week.in_progress:
        return Cited(_("No pull requests have been merged so far this week; the week is still in progress."))
    if not week.complete:
        return Cited(_("No pull requests were found for this week, but its data is incomplete, so some may be missing."))
    return Cited(_("A quiet week: no pull requests were merged."))


def summary(week: WeekAnalysis, before: WeekAnalysis | None, risks: Sequence[RiskLine], lang: Language) -> Cited:
    sentences, pulls = _status_sentences(week, lang), []
    people = [p for p in week.pulls if not p.classification.bot]
    if not people:
        sentences.append(_bot_only_sentence(week, lang))
    else:
        sentences.append(_count_sentence(week, lang))
        movement = movement_sentence(week, before, lang)
        if movement:
            sentences.append(movement)
        sentences.extend(_theme_sentences(week, before, lang))
        changes = _most_important(week)
        if changes:
            sentences.append(_changes_sentence(changes, lang))
            pulls.extend(p.pull.number for p in changes)
    if risks:
        sentence, cited = _risks_sentence(risks, lang)
        sentences.append(sentence)
        pulls.extend(cited)
    return Cited(lang.sentences(sentences), unique(pulls))


def _status_sentences(week: WeekAnalysis, lang: Language) -> list[str]:
    _ = lang.gettext
    sentences = []
    if week.in_progress:
        sentences.append(_("This week is still in progress: the figures cover the pull requests merged so far."))
    if not week.complete:
        sentences.append(_("The data for this week is incomplete, so some pull requests may be missing from this digest."))
    return sentences


def _count_sentence(week: WeekAnalysis, lang: Language) -> str:
    ngettext, stats = lang.ngettext, week.stats
    values = {
        "count": lang.number(stats.merged_count),
        "key": lang.number(stats.key_count),
        "average": lang.decimal(stats.average_importance),
    }
    if stats.key_count == 0:
        return ngettext(
            "{count} PR was merged this week; it is not key, with an importance of {average}.",
            "{count} PRs were merged this week, none of them key; the average importance is {average}.",
            stats.merged_count,
        ).format(**values)
    return ngettext(
        "{count} PR was merged this week, and it is key; its importance is {average}.",
        "{count} PRs were merged this week ({key} of them key), with an average importance of {average}.",
        stats.merged_count,
    ).format(**values)


def _bot_only_sentence(week: WeekAnalysis, lang: Language) -> str:
    ngettext = lang.ngettext
    bots = sorted({p.pull.author.login for p in week.pulls})
    return ngettext(
        "Only bots merged pull requests this week: {count} PR, by {bots}.",
        "Only bots merged pull requests this week: {count} PRs, by {bots}.",
        week.stats.merged_count,
    ).format(count=lang.number(week.stats.merged_count), bots=lang.join(bots))


def previous_figure(week: WeekAnalysis, movement, before: float | None) -> float | None:
    """Last week's figure to compare with: the analysis' own, else the week before's; none for a
    week in progress, which is not comparable with whole weeks."""
    if week.in_progress:
        return None
    if movement and movement.previous is not None:
        return movement.previous
    return before


def movement_sentence(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> str | None:
    """How the merged count compares with the week before and, where the analysis has it, the recent average."""
    _, movement = lang.gettext, week.stats.merged_movement
    previous = previous_figure(week, movement, before.stats.merged_count if before else None)
    if previous is None:
        return None
    current = week.stats.merged_count
    average = movement.trailing_average if movement else None
    values = {"previous": lang.number(round(previous)), "average": lang.decimal(average) if average is not None else ""}
    if average is None:
        if current > previous:
            return _("That is up from {previous} the week before.").format(**values)
        if current < previous:
            return _("That is down from {previous} the week before.").format(**values)
        return _("That is as many as the week before.").format(**values)
    if current > previous:
        return _("That is up from {previous} the week before (recent weekly average: {average}).").format(**values)
    if current < previous:
        return _("That is down from {previous} the week before (recent weekly average: {average}).").format(**values)
    return _("That is as many as the week before (recent weekly average: {average}).").format(**values)


def _theme_sentences(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> list[str]:
    """Which modules and change types dominate, against the week before."""
    _, ngettext, stats = lang.gettext, lang.ngettext, week.stats
    sentences = []
    modules = ranked(stats.modules)
    tied = [name for name, count in modules if count == modules[0][1]] if modules else []
    if len(tied) > 1:
        sentences.append(
            ngettext(
                "The busiest modules were {modules}, with {count} PR each.",
                "The busiest modules were {modules}, with {count} PRs each.",
                modules[0][1],
            ).format(modules=lang.join(tied[:TOP_NAMES]), count=lang.number(modules[0][1]))
        )
    elif modules:
        name, count = modules[0]
        earlier = before.stats.modules.get(name, 0) if before else None
        values = {"module": name, "count": lang.number(count), "previous": lang.number(earlier or 0)}
        if earlier is None:
            text = ngettext("The busiest module was {module}, with {count} PR.", "The busiest module was {module}, with {count} PRs.", count)
        elif count > earlier:
            text = ngettext(
                "The busiest module was {module}, with {count} PR (up from {previous} the week before).",
                "The busiest module was {module}, with {count} PRs (up from {previous} the week before).",
                count,
            )
        elif count < earlier:
            text = ngettext(
                "The busiest module was {module}, with {count} PR (down from {previous} the week before).",
                "The busiest module was {module}, with {count} PRs (down from {previous} the week before).",
                count,
            )
        else:
            text = ngettext(
                "The busiest module was {module}, with {count} PR, as many as the week before.",
                "The busiest module was {module}, with {count} PRs, as many as the week before.",
                count,
            )
        sentences.append(text.format(**values))
    types = ranked({k: v for k, v in stats.types.items() if k is not None})
    names = type_names(_)
    if len(types) == 1:
        kind, count = types[0]
        sentences.append(_("By type, all classified PRs are {first} ({count}).").format(first=names.get(kind, kind), count=lang.number(count)))
    elif len(types) > 1 and types[0][1] > types[1][1]:  # on a tie nothing leads
        (kind, count), (second, second_count) = types[:2]
        sentences.append(
            _("By type, {first} lead with {count}, ahead of {second} with {second_count}.").format(
                first=names.get(kind, kind), count=lang.number(count), second=names.get(second, second), second_count=lang.number(second_count)
            )
        )
    return sentences


def _most_important(week: WeekAnalysis) -> list[AnalysedPull]:
    key = [p for p in week.pulls if p.key]
    return (key or [p for p in week.pulls if not p.classification.bot])[:SUMMARY_CHANGES]


def _changes_sentence(changes: Sequence[AnalysedPull], lang: Language) -> str:
    _ = lang.gettext
    items = [_("{title} ({pull})").format(title=display_title(p.pull.title), pull=f"#{p.pull.number}") for p in changes]
    if all(p.key for p in changes):
        return _("The most important changes: {changes}.").format(changes=lang.join(items))
    return _("No PR reached the key threshold; the highest-scoring were: {changes}.").format(changes=lang.join(items))


def _risks_sentence(risks: Sequence[RiskLine], lang: Language) -> tuple[str, list[int]]:
    _ = lang.gettext
    phrases = risk_phrases(_)
    items, cited = [], []
    for risk in risks[:SUMMARY_RISKS]:  # already ordered by impact
        pulls, shown = lang.some_pulls(risk.pulls, SUMMARY_RISK_PULLS)
        cited.extend(shown)
        items.append(_("{risk} ({pulls})").format(risk=phrases.get(risk.kind, risk.name), pulls=pulls))
    return _("Main risks: {risks}.").format(risks=lang.join(items)), cited
