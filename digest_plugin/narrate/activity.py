"""Trends: how busy the week was by module, label, type, file and author, against the week before."""

from __future__ import annotations

from collections.abc import Callable

from digest_plugin.analysis.claims import type_speaks
from digest_plugin.analysis.model import WeekAnalysis, WeekStats
from digest_plugin.analysis.stats import ranked
from digest_plugin.narrate.model import Cited
from digest_plugin.narrate.overview import previous_figure
from digest_plugin.narrate.wording import Language, StatedNumbers, type_names, unique

TREND_NAMES = 3  # modules, labels, types, hot files and authors named per sentence
TREND_PULLS = 5  # PRs cited per hot file


def trends(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> tuple[Cited, ...]:
    _, stats = lang.gettext, week.stats
    lines = [
        line
        for line in (_merged_movement(week, before, lang), _key_movement(week, before, lang))
        if line
    ]
    earlier = before.stats if before else None
    # (kind, sentence, its counts in a week's statistics, the names it shows them by)
    tables: tuple[tuple[str, str, Callable[[WeekStats], dict], dict], ...] = (
        ("module", _("Busiest modules: {items}."), lambda s: s.modules, {}),
        ("label", _("Most used labels: {items}."), lambda s: s.labels, {}),
        (
            "type",
            _("By type: {items}."),
            lambda s: _said_types(s.types),
            {str(k): v for k, v in type_names(_).items()},
        ),
    )
    for kind, template, counts, shown in tables:
        if counts(stats):
            said = StatedNumbers(lang)
            previous = counts(earlier) if earlier else None
            items = _counted_items(kind, counts(stats), previous, shown, said)
            lines.append(said.cited(template.format(items=lang.join(items))))
    if stats.hot_files:
        lines.append(_hot_files(week, lang))
    lines.extend(_author_trends(week, before, lang))
    return tuple(lines)


def _said_types(types: dict) -> dict[str, int]:
    """The types whose claim is precise (analysis/claims.py): no "fixes" if "fix" is silent."""
    return {str(k): v for k, v in types.items() if type_speaks(k)}


def _merged_movement(
    week: WeekAnalysis, before: WeekAnalysis | None, lang: Language
) -> Cited | None:
    _, stats, said = lang.gettext, week.stats, StatedNumbers(lang)
    previous = previous_figure(
        week, stats.merged_movement, before.stats.merged_count if before else None
    )
    if previous is None:
        return None
    values = {
        "count": said.number("merged", stats.merged_count),
        "previous": said.number("previous:merged", round(previous)),
    }
    average = stats.merged_movement.trailing_average if stats.merged_movement else None
    text = lang.ngettext(
        "{count} PR merged, against {previous} the week before.",
        "{count} PRs merged, against {previous} the week before.",
        stats.merged_count,
    )
    if average is not None:
        values["average"] = said.decimal("trailing:merged", average)
        text = lang.ngettext(
            "{count} PR merged, against {previous} the week before and {average} a week recently.",
            "{count} PRs merged, against {previous} the week before and {average} a week recently.",
            stats.merged_count,
        )
    return said.cited(text.format(**values))


def _key_movement(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> Cited | None:
    said, movement = StatedNumbers(lang), week.stats.key_movement
    previous = previous_figure(week, movement, before.stats.key_count if before else None)
    if previous is None:
        return None
    count = week.stats.key_count
    return said.cited(
        lang.ngettext(
            "{count} key PR, against {previous} the week before.",
            "{count} key PRs, against {previous} the week before.",
            count,
        ).format(
            count=said.number("key", count), previous=said.number("previous:key", round(previous))
        )
    )


def _counted_items(
    kind: str, current: dict, previous: dict | None, shown: dict, said: StatedNumbers
) -> list[str]:
    """ "trainer (9, up from 5)" for the top names of a count table, against the week before."""
    _ = said.lang.gettext
    items = []
    for name, count in ranked(current)[:TREND_NAMES]:
        values = {"name": shown.get(name, name), "count": said.number(f"{kind}:{name}", count)}
        if previous is None:
            items.append(_("{name} ({count})").format(**values))
            continue
        earlier = previous.get(name, 0)
        if earlier == 0:
            items.append(_("{name} ({count}, none the week before)").format(**values))
            continue
        values["previous"] = said.number(f"previous:{kind}:{name}", earlier)
        if count > earlier:
            items.append(_("{name} ({count}, up from {previous})").format(**values))
        elif count < earlier:
            items.append(_("{name} ({count}, down from {previous})").format(**values))
        else:
            items.append(_("{name} ({count}, as the week before)").format(**values))
    return items


def _hot_files(week: WeekAnalysis, lang: Language) -> Cited:
    said = StatedNumbers(lang)
    items: list[str] = []
    cited: list[int] = []
    for hot in week.stats.hot_files[:TREND_NAMES]:
        pulls, shown = lang.some_pulls(hot.pulls, TREND_PULLS)
        cited.extend(shown)
        template = lang.ngettext(
            "{path} ({count} PR: {pulls})", "{path} ({count} PRs: {pulls})", hot.count
        )
        items.append(
            template.format(
                path=hot.path, count=said.number(f"hot:{hot.path}", hot.count), pulls=pulls
            )
        )
    return said.cited(
        lang.gettext("Most-touched files: {items}.").format(items=lang.join(items)), unique(cited)
    )


def _author_trends(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> list[Cited]:
    _, ngettext, stats = lang.gettext, lang.ngettext, week.stats
    lines = []
    if stats.authors:
        said = StatedNumbers(lang)
        people = len(stats.authors)
        # one PR each is no "most active"
        busy = [a for a in stats.authors if a.count > 1][:TREND_NAMES]
        values = {
            "count": said.number("authors", people),
            "top": lang.join(
                _("{name} ({count})").format(
                    name=a.login, count=said.number(f"author:{a.login}", a.count)
                )
                for a in busy
            ),
        }
        if before is not None:
            values["previous"] = said.number("previous:authors", len(before.stats.authors))
        if before is not None and busy:
            text = ngettext(
                "{count} person merged PRs (against {previous} the week before); the most active: {top}.",
                "{count} people merged PRs (against {previous} the week before); the most active: {top}.",
                people,
            )
        elif before is not None:
            text = ngettext(
                "{count} person merged PRs (against {previous} the week before).",
                "{count} people merged PRs (against {previous} the week before).",
                people,
            )
        elif busy:
            text = ngettext(
                "{count} person merged PRs; the most active: {top}.",
                "{count} people merged PRs; the most active: {top}.",
                people,
            )
        else:
            text = ngettext("{count} person merged PRs.", "{count} people merged PRs.", people)
        lines.append(said.cited(text.format(**values)))
    newcomers: dict[str, list[int]] = {}
    for analysed in week.pulls:
        if analysed.first_time and not analysed.classification.bot:
            newcomers.setdefault(analysed.pull.author.login, []).append(analysed.pull.number)
    if newcomers:
        items = [
            _("{name} ({pulls})").format(name=name, pulls=lang.pulls(numbers))
            for name, numbers in sorted(newcomers.items())
        ]
        text = ngettext(
            "First-time contributor: {names}.", "First-time contributors: {names}.", len(newcomers)
        ).format(names=lang.join(items))
        lines.append(Cited(text, unique(n for name in sorted(newcomers) for n in newcomers[name])))
    if stats.bots:
        said = StatedNumbers(lang)
        bot_pulls = sum(b.count for b in stats.bots)
        text = ngettext(
            "Bots merged {count} PR ({bots}).", "Bots merged {count} PRs ({bots}).", bot_pulls
        )
        lines.append(
            said.cited(
                text.format(
                    count=said.number("bot_pulls", bot_pulls),
                    bots=lang.join(b.login for b in stats.bots),
                )
            )
        )
    return lines
