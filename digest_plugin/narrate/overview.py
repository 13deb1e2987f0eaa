"""The summary paragraph: the week's main moves, then the main risk, then the figures.

A colleague's weekly note starts with what happened (the themes, the two or three changes that
matter and what each does), then what to watch, then how busy the week was. Every figure is
recorded with what it is (`StatedNumbers`), every PR is a PR of the week.
"""

from __future__ import annotations

from digest_plugin.analysis.claims import speaks, themes_speak
from digest_plugin.analysis.model import AnalysedPull, WeekAnalysis
from digest_plugin.narrate.chinese import HAN
from digest_plugin.narrate.describe import body_sentences, change_said
from digest_plugin.narrate.model import Cited
from digest_plugin.narrate.risks import summary_risks
from digest_plugin.narrate.titles import display_title
from digest_plugin.narrate.wording import Language, StatedNumbers

SUMMARY_CHANGES = 3  # main changes named in the summary
SUMMARY_THEME_ONE_IN = 10  # a theme named beside the first takes at least one in this many PRs
SUMMARY_THEMES = 2
MIN_CHANGES = 2  # changes named even when fewer PRs are key
SUMMARY_BODY_WORDS = 30  # a change's own sentence is quoted in the summary only when this short


def quiet_summary(week: WeekAnalysis, lang: Language) -> Cited:
    _ = lang.gettext
    if week.in_progress:
        return Cited(
            _("No pull requests have been merged so far this week; the week is still in progress.")
        )
    if not week.complete:
        return Cited(
            _(
                "No pull requests were found for this week, but its data is incomplete, so some may be missing."
            )
        )
    return Cited(_("A quiet week: no pull requests were merged."))


def summary(week: WeekAnalysis, before: WeekAnalysis | None, lang: Language) -> Cited:
    said = StatedNumbers(lang)
    sentences, pulls = _status_sentences(week, lang), []
    people = [p for p in week.pulls if not p.classification.bot]
    if not people:
        sentences.append(_bot_only_sentence(week, said))
    else:
        theme_sentence = _themes_sentence(week, said)
        if theme_sentence:
            sentences.append(theme_sentence)
        for position, change in enumerate(main_changes(week)):
            sentences.append(change_sentence(change, position, lang))
            pulls.append(change.pull.number)
    if week.releases and speaks("version.own-release"):
        sentences.append(_releases_sentence(week, lang))
        pulls.extend(r.pull for r in week.releases)
    for told in summary_risks(week, lang):
        sentences.append(told.text)
        pulls.extend(told.pulls)
        said.figures.extend(told.figures)
    if people:
        sentences.append(_figures_sentence(week, before, said))
    return said.cited(lang.sentences(sentences), pulls)


def _status_sentences(week: WeekAnalysis, lang: Language) -> list[str]:
    _ = lang.gettext
    sentences = []
    if week.in_progress:
        sentences.append(
            _("This week is still in progress: the figures cover the pull requests merged so far.")
        )
    if not week.complete:
        sentences.append(
            _(
                "The data for this week is incomplete, so some pull requests may be missing from this digest."
            )
        )
    return sentences


def _releases_sentence(week: WeekAnalysis, lang: Language) -> str:
    """The project's own releases, as in "Released this week: 0.15.19 (#26291) and 0.15.20 (#26376).";
    a version is one release, whatever PRs it took (ruff 0.13.1: #20473, and #20475 fixing its bump)."""
    by_version: dict[str, list[int]] = {}
    for release in week.releases:
        by_version.setdefault(release.version, []).append(release.pull)
    releases = lang.join(
        lang.gettext("{name} ({pulls})").format(name=version, pulls=lang.pulls(numbers))
        for version, numbers in by_version.items()
    )
    return lang.gettext("Released this week: {releases}.").format(releases=releases)


def _bot_only_sentence(week: WeekAnalysis, said: StatedNumbers) -> str:
    lang = said.lang
    bots = sorted({p.pull.author.login for p in week.pulls})
    return lang.ngettext(
        "Only bots merged pull requests this week: {count} PR, by {bots}.",
        "Only bots merged pull requests this week: {count} PRs, by {bots}.",
        week.stats.merged_count,
    ).format(count=said.number("merged", week.stats.merged_count), bots=lang.join(bots))


def _themes_sentence(week: WeekAnalysis, said: StatedNumbers) -> str | None:
    lang = said.lang
    themes = week.themes[:SUMMARY_THEMES] if themes_speak() else ()
    if not themes:
        return None
    # beside the first, those of a tenth of the week or its size (ruff 2026-W05's protocol: 4 of 84)
    themes = themes[:1] + tuple(
        t
        for t in themes[1:]
        if len(t.pulls) * SUMMARY_THEME_ONE_IN >= week.stats.merged_count
        or len(t.pulls) >= len(themes[0].pulls)
    )
    items = [
        lang.ngettext("{name} ({count} PR)", "{name} ({count} PRs)", len(t.pulls)).format(
            name=t.name, count=said.number(f"theme:{t.name}", len(t.pulls))
        )
        for t in themes
    ]
    covered = len({n for t in themes for n in t.pulls})
    if covered * 2 >= week.stats.merged_count:
        sentence = (
            lang.ngettext(  # ruff's ty takes every week: that it continues is what is new to say
                "As in recent weeks, the week was about {themes}.",
                "As in recent weeks, the week was mostly about {themes}.",
                len(items),
            )
            if all(t.trend == "continued" for t in themes)
            else lang.ngettext(
                "The week was about {themes}.", "The week was mostly about {themes}.", len(items)
            )
        )
        return sentence.format(themes=lang.join(items))
    # "the week was about" would claim more than they took; what made them themes is then their
    # rise against recent weeks (analysis/themes.py), said as such, where their PRs changed code
    # users run (four one-line fixes of recipes are no lead: verl 2025-W17)
    rising = [
        item
        for theme, item in zip(themes, items, strict=True)
        if theme.trend != "continued" and theme.line_share
    ]
    if not rising:
        return None
    return lang.ngettext(
        "A larger share of the week's PRs than in recent weeks went to {themes}.",
        "A larger share of the week's PRs than in recent weeks went to {themes}.",
        len(rising),
    ).format(themes=lang.join(rising))


def main_changes(week: WeekAnalysis) -> list[AnalysedPull]:
    """The two or three changes the summary names: key PRs by people, highest importance first, at
    most one per theme so that the summary covers the week rather than one corner of it."""
    chosen: list[AnalysedPull] = []
    seen_themes: set[str] = set()
    people = [p for p in week.pulls if not p.classification.bot]
    key = [p for p in people if p.key]
    # a week with one key PR still had other moves: the next by importance, up to two in all
    candidates = (
        key if len(key) >= MIN_CHANGES else (key + [p for p in people if not p.key])[:MIN_CHANGES]
    )
    for analysed in candidates:
        if (
            analysed.themes
            and seen_themes.issuperset(analysed.themes)
            and len(candidates) > SUMMARY_CHANGES
        ):
            continue
        chosen.append(analysed)
        seen_themes.update(analysed.themes)
        if len(chosen) == SUMMARY_CHANGES:
            break
    return chosen


def change_sentence(analysed: AnalysedPull, position: int, lang: Language) -> str:
    """ "The main change: #12 adds X. <the author's short explanation>" and, for the others, "#13 fixes Y."."""
    _, number, title = lang.gettext, f"#{analysed.pull.number}", analysed.pull.title
    change = change_said(analysed, lang)
    what = (
        _("{pull} {change}").format(pull=number, change=change)
        if change
        else _("{pull}, “{title}”").format(pull=number, title=display_title(title))
    )
    openers = (_("The main change: {what}."), _("Also, {what}."), _("And {what}."))
    if not analysed.key:  # a week without key PRs: its first change is no main one (pelican #3054)
        openers = (_("Among the week's changes: {what}."), *openers[1:])
    sentence = openers[min(position, len(openers) - 1)].format(what=what)
    explained = body_sentences(analysed)
    # a Chinese summary quotes only Chinese words: the author's English ones are shown apart, under the key change
    if (
        position == 0
        and explained
        and len(explained.split()) <= SUMMARY_BODY_WORDS
        and (lang.code != "zh" or HAN.search(explained))
    ):
        sentence = lang.sentences(
            (
                sentence,
                _("In the author's words: “{words}”").format(
                    words=explained.rstrip("。") if lang.code == "zh" else explained
                ),
            )
        )
    return sentence


def _figures_sentence(week: WeekAnalysis, before: WeekAnalysis | None, said: StatedNumbers) -> str:
    """How busy the week was, against the week before where that is known."""
    lang, stats = said.lang, week.stats
    _, ngettext = lang.gettext, lang.ngettext
    values = {
        "merged": said.number("merged", stats.merged_count),
        "key": said.number("key", stats.key_count),
        "people": ngettext("{count} person", "{count} people", len(stats.authors)).format(
            count=said.number("authors", len(stats.authors))
        ),
    }
    if stats.key_count:
        text = ngettext(
            "In all, {people} merged {merged} PR ({key} of them key)",
            "In all, {people} merged {merged} PRs ({key} of them key)",
            stats.merged_count,
        )
    else:
        text = ngettext(
            "In all, {people} merged {merged} PR, none of them key",
            "In all, {people} merged {merged} PRs, none of them key",
            stats.merged_count,
        )
    text = text.format(**values)
    previous = previous_figure(
        week, stats.merged_movement, before.stats.merged_count if before else None
    )
    if previous is None:
        return _("{figures}.").format(figures=text)
    earlier = round(previous)
    values = {"figures": text, "previous": said.number("previous:merged", earlier)}
    if stats.merged_count > earlier:
        return ngettext(
            "{figures}, up from {previous} PR the week before.",
            "{figures}, up from {previous} PRs the week before.",
            earlier,
        ).format(**values)
    if stats.merged_count < earlier:
        return ngettext(
            "{figures}, down from {previous} PR the week before.",
            "{figures}, down from {previous} PRs the week before.",
            earlier,
        ).format(**values)
    return _("{figures}, as many as the week before.").format(**values)


def previous_figure(week: WeekAnalysis, movement, before: float | None) -> float | None:
    """Last week's figure to compare with: the analysis' own, else the week before's; none for a
    week in progress, which is not comparable with whole weeks."""
    if week.in_progress:
        return None
    if movement and movement.previous is not None:
        return movement.previous
    return before
