"""The built-in writer: the week's narrative from the analysis alone, deterministic, no network.

Every figure it states is a field of the analysis (or a count of a list in it), every PR it cites
is a PR of the week, and every sentence is one whole template of the catalogue with named
placeholders, so that the Chinese reads as Chinese rather than English word order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ..analysis.model import RISK_KINDS, AnalysedPull, WeekAnalysis
from .model import Cited, HighlightGroup, KeyChange, Narrative, RiskLine
from .wording import (
    Language,
    display_title,
    factor_names,
    highlight_headings,
    impact_names,
    risk_names,
    risk_phrases,
    type_names,
)

SUMMARY_CHANGES = 3  # most important changes named in the summary
SUMMARY_RISKS = 3
SUMMARY_RISK_PULLS = 3  # PRs cited per risk in the summary; the Risks section cites them all
TREND_PULLS = 5  # PRs cited per hot file
RECOMMENDATION_PULLS = 10
HIGHLIGHTS_PER_GROUP = 5
TREND_NAMES = 3  # modules, labels, types, hot files named per trend sentence
IMPACT_ORDER = {"high": 0, "medium": 1, "low": 2}
# Highlight groups in reading order, and the change types that feed each one.
HIGHLIGHT_TYPES = {"features": "feat", "fixes": "fix", "refactors": "refactor", "performance": "perf", "docs": "docs"}
HIGHLIGHT_ORDER = ("features", "upgrades", "fixes", "refactors", "performance", "docs", "deprecations")


class BuiltinWriter:
    """The deterministic writer; the default of `narrate`."""

    name = "builtin"

    def write(self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: str) -> Narrative:
        lang = Language.of(language)
        before = _week_before(week, previous)
        title = _title(week, lang)
        if not week.pulls:
            return Narrative(language, title, _quiet_summary(week, lang), quiet=True, writer=self.name)
        risks = _risk_lines(week, lang)
        return Narrative(
            language=language,
            title=title,
            summary=_summary(week, before, risks, lang),
            highlights=_highlights(week, lang),
            key_changes=_key_changes(week, lang),
            trends=_trends(week, before, lang),
            risks=risks,
            recommendations=_recommendations(week, lang),
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


# --- summary -----------------------------------------------------------------------------------


def _quiet_summary(week: WeekAnalysis, lang: Language) -> Cited:
    _ = lang.gettext
    if week.in_progress:
        return Cited(_("No pull requests have been merged so far this week; the week is still in progress."))
    if not week.complete:
        return Cited(_("No pull requests were found for this week, but its data is incomplete, so some may be missing."))
    return Cited(_("A quiet week: no pull requests were merged."))


def _summary(week: WeekAnalysis, before: WeekAnalysis | None, risks: Sequence[RiskLine], lang: Language) -> Cited:
    sentences, pulls = _status_sentences(week, lang), []
    people = [p for p in week.pulls if not p.classification.bot]
    if not people:
        sentences.append(_bot_only_sentence(week, lang))
    else:
        sentences.append(_count_sentence(week, lang))
        movement = _movement_sentence(week, before, lang)
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
    return Cited(lang.sentences(sentences), _unique(pulls))


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


def _movement_sentence(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> str | None:
    """How the merged count compares with the week before and, where the analysis has it, the recent average."""
    _, movement = lang.gettext, week.stats.merged_movement
    if week.in_progress:
        return None
    previous = movement.previous if movement and movement.previous is not None else None
    if previous is None and before is not None:
        previous = before.stats.merged_count
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
    modules = _ranked(stats.modules)
    tied = [name for name, count in modules if count == modules[0][1]] if modules else []
    if len(tied) > 1:
        sentences.append(
            ngettext(
                "The busiest modules were {modules}, with {count} PR each.",
                "The busiest modules were {modules}, with {count} PRs each.",
                modules[0][1],
            ).format(modules=lang.join(tied[:TREND_NAMES]), count=lang.number(modules[0][1]))
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
    types = _ranked({k: v for k, v in stats.types.items() if k is not None})
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
        pulls, shown = _some_pulls(risk.pulls, SUMMARY_RISK_PULLS, lang)
        cited.extend(shown)
        items.append(_("{risk} ({pulls})").format(risk=phrases.get(risk.kind, risk.name), pulls=pulls))
    return _("Main risks: {risks}.").format(risks=lang.join(items)), cited


# --- highlights, key changes --------------------------------------------------------------------


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


# --- trends --------------------------------------------------------------------------------------


def _trends(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> tuple[Cited, ...]:
    _, ngettext, stats = lang.gettext, lang.ngettext, week.stats
    trends = []
    merged = _movement_sentence(week, before, lang)
    if merged:
        counted = ngettext("{count} PR merged.", "{count} PRs merged.", stats.merged_count).format(count=lang.number(stats.merged_count))
        trends.append(Cited(lang.sentences((counted, merged))))
    key = _key_movement(week, before, lang)
    if key:
        trends.append(Cited(key))
    earlier = before.stats if before else None
    if stats.modules:
        items = _counted_items(stats.modules, earlier.modules if earlier else None, lang)
        trends.append(Cited(_("Busiest modules: {items}.").format(items=lang.join(items))))
    if stats.labels:
        items = _counted_items(stats.labels, earlier.labels if earlier else None, lang)
        trends.append(Cited(_("Most used labels: {items}.").format(items=lang.join(items))))
    named_types = {type_names(_).get(k, k): v for k, v in stats.types.items()}
    if named_types:
        previous_types = {type_names(_).get(k, k): v for k, v in earlier.types.items()} if earlier else None
        items = _counted_items(named_types, previous_types, lang)
        trends.append(Cited(_("By type: {items}.").format(items=lang.join(items))))
    if stats.hot_files:
        items, cited = [], []
        for hot in stats.hot_files[:TREND_NAMES]:
            pulls, shown = _some_pulls(hot.pulls, TREND_PULLS, lang)
            cited.extend(shown)
            template = ngettext("{path} ({count} PR: {pulls})", "{path} ({count} PRs: {pulls})", hot.count)
            items.append(template.format(path=hot.path, count=lang.number(hot.count), pulls=pulls))
        trends.append(Cited(_("Most-touched files: {items}.").format(items=lang.join(items)), _unique(cited)))
    trends.extend(_author_trends(week, before, lang))
    return tuple(trends)


def _key_movement(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> str | None:
    ngettext, movement = lang.ngettext, week.stats.key_movement
    if week.in_progress:
        return None
    previous = movement.previous if movement and movement.previous is not None else None
    if previous is None and before is not None:
        previous = before.stats.key_count
    if previous is None:
        return None
    count = week.stats.key_count
    return ngettext(
        "{count} key PR, against {previous} the week before.",
        "{count} key PRs, against {previous} the week before.",
        count,
    ).format(count=lang.number(count), previous=lang.number(round(previous)))


def _counted_items(current: dict, previous: dict | None, lang: Language) -> list[str]:
    """ "trainer (9, up from 5)" for the top names of a count table, against the week before."""
    _ = lang.gettext
    items = []
    for name, count in _ranked(current)[:TREND_NAMES]:
        values = {"name": name, "count": lang.number(count)}
        if previous is None:
            items.append(_("{name} ({count})").format(**values))
            continue
        earlier = previous.get(name, 0)
        values["previous"] = lang.number(earlier)
        if earlier == 0:
            items.append(_("{name} ({count}, none the week before)").format(**values))
        elif count > earlier:
            items.append(_("{name} ({count}, up from {previous})").format(**values))
        elif count < earlier:
            items.append(_("{name} ({count}, down from {previous})").format(**values))
        else:
            items.append(_("{name} ({count}, as the week before)").format(**values))
    return items


def _author_trends(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> list[Cited]:
    _, ngettext, stats = lang.gettext, lang.ngettext, week.stats
    trends = []
    if stats.authors:
        people = len(stats.authors)
        previous = len(before.stats.authors) if before else None
        busy = [a for a in stats.authors if a.count > 1][:TREND_NAMES]  # one PR each is no "most active"
        top = lang.join(_("{name} ({count})").format(name=a.login, count=lang.number(a.count)) for a in busy)
        values = {"count": lang.number(people), "previous": lang.number(previous or 0), "top": top}
        if previous is not None and busy:
            text = ngettext(
                "{count} person merged PRs (against {previous} the week before); the most active: {top}.",
                "{count} people merged PRs (against {previous} the week before); the most active: {top}.",
                people,
            )
        elif previous is not None:
            text = ngettext("{count} person merged PRs (against {previous} the week before).", "{count} people merged PRs (against {previous} the week before).", people)
        elif busy:
            text = ngettext("{count} person merged PRs; the most active: {top}.", "{count} people merged PRs; the most active: {top}.", people)
        else:
            text = ngettext("{count} person merged PRs.", "{count} people merged PRs.", people)
        trends.append(Cited(text.format(**values)))
    newcomers: dict[str, list[int]] = {}
    for analysed in week.pulls:
        if analysed.first_time and not analysed.classification.bot:
            newcomers.setdefault(analysed.pull.author.login, []).append(analysed.pull.number)
    if newcomers:
        items = [_("{name} ({pulls})").format(name=name, pulls=lang.pulls(numbers)) for name, numbers in sorted(newcomers.items())]
        trends.append(
            Cited(
                ngettext("First-time contributor: {names}.", "First-time contributors: {names}.", len(newcomers)).format(names=lang.join(items)),
                _unique(n for name in sorted(newcomers) for n in newcomers[name]),
            )
        )
    if stats.bots:
        bot_pulls = sum(b.count for b in stats.bots)
        trends.append(
            Cited(
                ngettext("Bots merged {count} PR ({bots}).", "Bots merged {count} PRs ({bots}).", bot_pulls).format(
                    count=lang.number(bot_pulls), bots=lang.join(b.login for b in stats.bots)
                )
            )
        )
    return trends


# --- risks, recommendations ----------------------------------------------------------------------


def _risk_lines(week: WeekAnalysis, lang: Language) -> tuple[RiskLine, ...]:
    _ = lang.gettext
    names, impacts = risk_names(_), impact_names(_)
    ordered = sorted(week.risks, key=lambda r: (IMPACT_ORDER.get(r.impact, 1), _kind_order(r.kind)))
    return tuple(
        RiskLine(
            kind=risk.kind,
            name=names.get(risk.kind, risk.kind),
            impact=impacts.get(risk.impact, risk.impact),
            level=risk.impact,
            pulls=risk.pulls,
            sentence=Cited(_risk_sentence(risk.kind, risk.pulls, lang), risk.pulls),
        )
        for risk in ordered
        if risk.pulls
    )


def _kind_order(kind: str) -> int:
    return RISK_KINDS.index(kind) if kind in RISK_KINDS else len(RISK_KINDS)


def _risk_sentence(kind: str, pulls: Sequence[int], lang: Language) -> str:
    ngettext, n = lang.ngettext, len(pulls)
    templates = {
        "missing-tests": ngettext("{count} PR changed code without changing any test: {pulls}.", "{count} PRs changed code without changing any test: {pulls}.", n),
        "breaking-change": ngettext("{count} PR is a breaking change: {pulls}.", "{count} PRs are breaking changes: {pulls}.", n),
        "dependency-upgrade": ngettext("{count} PR upgrades dependencies: {pulls}.", "{count} PRs upgrade dependencies: {pulls}.", n),
        "security": ngettext("{count} PR touches security: {pulls}.", "{count} PRs touch security: {pulls}.", n),
        "revert": ngettext("{count} PR reverts earlier work: {pulls}.", "{count} PRs revert earlier work: {pulls}.", n),
        "deprecation": ngettext("{count} PR deprecates existing behaviour: {pulls}.", "{count} PRs deprecate existing behaviour: {pulls}.", n),
        "large-change": ngettext("{count} PR is a large change, hard to review in full: {pulls}.", "{count} PRs are large changes, hard to review in full: {pulls}.", n),
        "config-change": ngettext("{count} PR changes configuration: {pulls}.", "{count} PRs change configuration: {pulls}.", n),
        "ci-change": ngettext("{count} PR changes CI: {pulls}.", "{count} PRs change CI: {pulls}.", n),
        "hotspot": ngettext("{count} PR changed files that many PRs touched this week: {pulls}.", "{count} PRs changed files that many PRs touched this week: {pulls}.", n),
    }
    template = templates.get(kind) or ngettext("{count} PR shows the risk “{kind}”: {pulls}.", "{count} PRs show the risk “{kind}”: {pulls}.", n)
    return template.format(count=lang.number(n), pulls=lang.pulls(pulls), kind=kind)


def _recommendations(week: WeekAnalysis, lang: Language) -> tuple[Cited, ...]:
    _ = lang.gettext
    by_kind = {risk.kind: risk.pulls for risk in week.risks if risk.pulls}
    refactors = {p.pull.number for p in week.pulls if p.classification.type == "refactor"}
    templates = {
        "breaking-change": _("Call out the breaking changes {pulls} in the release notes, with migration steps."),
        "security": _("Have someone who knows the security model review {pulls} again."),
        "revert": _("Find out why {pulls} had to revert earlier work, and track the proper fix."),
        "missing-tests": _("Add tests for {pulls}, which shipped without them."),
        "dependency-upgrade": _("Review the upgrades {pulls} against their upstream changelogs."),
        "deprecation": _("Announce the deprecations in {pulls} and plan when the old paths will be removed."),
        "config-change": _("Check deployed configurations against the changes in {pulls}."),
        "ci-change": _("Watch CI stability after {pulls}."),
        "hotspot": _("Files that many PRs changed this week may need an owner or a refactor: {pulls}."),
    }
    recommendations = []

    def recommend(template: str, numbers: Sequence[int]) -> None:
        pulls, shown = _some_pulls(numbers, RECOMMENDATION_PULLS, lang)
        recommendations.append(Cited(template.format(pulls=pulls), shown))

    large = by_kind.get("large-change", ())
    large_refactors = tuple(n for n in large if n in refactors)
    if large_refactors:
        recommend(_("Regression-test the large refactors {pulls} before the next release."), large_refactors)
    other_large = tuple(n for n in large if n not in refactors)
    if other_large:
        recommend(_("Give the large changes {pulls} a second review and regression tests."), other_large)
    for kind, template in templates.items():
        if kind in by_kind:
            recommend(template, by_kind[kind])
    return tuple(recommendations)


# --- small pure pieces -------------------------------------------------------------------------------


def _some_pulls(numbers: Sequence[int], limit: int, lang: Language) -> tuple[str, tuple[int, ...]]:
    """The first `limit` PR references, with "and others" when there are more; and the PRs cited."""
    _ = lang.gettext
    shown = tuple(numbers[:limit])
    if len(numbers) > limit:
        return _("{pulls} and others").format(pulls=lang.pulls(shown)), shown
    return lang.pulls(shown), shown


def _ranked(counts: dict) -> list[tuple]:
    """Name and count, most first, then by name so that ties read the same every build."""
    return sorted(((k, v) for k, v in counts.items() if v), key=lambda item: (-item[1], str(item[0])))


def _unique(numbers) -> tuple[int, ...]:
    return tuple(dict.fromkeys(numbers))
