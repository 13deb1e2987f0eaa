"""Trends: labels, modules, types, hot files and authors, with movement against the week before."""

from __future__ import annotations

from ..analysis.model import WeekAnalysis
from .model import Cited
from .summary import movement_sentence, previous_figure
from .wording import Language, ranked, type_names, unique

TREND_NAMES = 3  # modules, labels, types, hot files and authors named per sentence
TREND_PULLS = 5  # PRs cited per hot file


def trends(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> tuple[Cited, ...]:
    _, ngettext, stats = lang.gettext, lang.ngettext, week.stats
    trends = []
    merged = movement_sentence(week, before, lang)
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
            pulls, shown = lang.some_pulls(hot.pulls, TREND_PULLS)
            cited.extend(shown)
            template = ngettext("{path} ({count} PR: {pulls})", "{path} ({count} PRs: {pulls})", hot.count)
            items.append(template.format(path=hot.path, count=lang.number(hot.count), pulls=pulls))
        trends.append(Cited(_("Most-touched files: {items}.").format(items=lang.join(items)), unique(cited)))
    trends.extend(_author_trends(week, before, lang))
    return tuple(trends)


def _key_movement(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> str | None:
    ngettext, movement = lang.ngettext, week.stats.key_movement
    previous = previous_figure(week, movement, before.stats.key_count if before else None)
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
    for name, count in ranked(current)[:TREND_NAMES]:
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
                unique(n for name in sorted(newcomers) for n in newcomers[name]),
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
