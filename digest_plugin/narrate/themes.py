"""Themes in words: one sentence each, saying how much of the week a strand took, what its PRs did
(so many features, fixes, ...) and which change led it."""

from __future__ import annotations

import re

from digest_plugin.analysis.claims import themes_speak, type_speaks
from digest_plugin.analysis.model import TYPES, AnalysedPull, Theme, WeekAnalysis
from digest_plugin.analysis.themes import series_title, works_mainly_in
from digest_plugin.narrate.describe import change_said, chinese_mention
from digest_plugin.narrate.model import ThemeLine
from digest_plugin.narrate.titles import display_title
from digest_plugin.narrate.wording import Language, StatedNumbers

THEME_PULLS = 3  # PRs a theme sentence names
TYPES_SAID = 3  # kinds of change a theme sentence counts


def theme_lines(week: WeekAnalysis, lang: Language) -> tuple[ThemeLine, ...]:
    """One line a theme; none while the theme claims are imprecise (analysis/claims.py): the module
    table beside them states the week's modules as facts."""
    if not themes_speak():
        return ()
    by_number = {p.pull.number: p for p in week.pulls}
    return tuple(
        ThemeLine(theme.name, _theme_sentence(theme, week, by_number, lang))
        for theme in week.themes
        if theme.pulls
    )


def _theme_sentence(
    theme: Theme, week: WeekAnalysis, by_number: dict[int, AnalysedPull], lang: Language
):
    _, ngettext, said = lang.gettext, lang.ngettext, StatedNumbers(lang)
    count = len(theme.pulls)
    values = {  # the name stands before the sentence wherever it is shown
        "count": said.number(f"theme:{theme.name}", count),
        "pulls": _of_the_week(week, said, lang, theme),
        "share": said.percent(f"theme:{theme.name}:share", theme.share),
    }
    # Its share alone, not against recent weeks': a subject renamed reads as new by its name (ruff's
    # red-knot, ty from #17820 on: "ty: 82 of the week's 124 PRs, where recent weeks had hardly
    # any", against 51 red-knot PRs the week before), and no corpus measures such a claim.
    share = ngettext("{count} of {pulls} ({share}).", "{count} of {pulls} ({share}).", count)
    sentences = [share.format(**values)]
    kinds = _kinds_of_change(theme, said)
    if kinds:
        sentences.append(_("What its PRs did: {kinds}.").format(kinds=kinds))
    series = theme.series
    lead = None if series else _lead(theme, by_number)
    named = series[:THEME_PULLS] if series else () if lead is None else (lead,)
    if series:
        sentences.append(_series_sentence(theme, by_number, said))
    elif lead is not None:
        sentences.append(_led_by(by_number[lead], lang))
    # the PRs that work mainly in the strand first, each group in importance order; none that
    # outweighs the PR named first is named beside it (verl #6200, a 9.9 removal across the
    # repository, beside trainer's PR of 5.2, which its authors scoped "[trainer]")
    bar = by_number[lead].score.value if lead is not None else float("inf")
    rest = sorted(
        (
            n
            for n in theme.pulls
            if n != lead and n not in series and n in by_number and by_number[n].score.value <= bar
        ),
        key=lambda n: not works_mainly_in(by_number[n], theme.name, theme.source),
    )
    others = rest[: THEME_PULLS - bool(named)]
    if others:
        sentences.append(
            ngettext("See also {pulls}.", "See also {pulls}.", len(others)).format(
                pulls=lang.pulls(others)
            )
        )
    cited = (*named, *others)
    return said.cited(lang.sentences(s for s in sentences if s), cited)


def _lead(theme: Theme, by_number: dict[int, AnalysedPull]) -> int | None:
    """The PR a theme's sentence names first: its most important (key first) that
    works mainly in the strand. A sweep across the repository belongs to no one strand (ruff #27339
    narrowed visibility in 253 files of some 20 crates: 26 of them in the servers it led), nor does
    a PR whose most changed module is another (ruff #15408, a toolchain bump with one-line fixes in
    many crates, is not the linter's main change); a strand its authors scope in titles is led by
    a PR so scoped; a change of docs comes after all others (ruff #19672 reworded a rule's example
    beside #19468's change of its fix). None where no PR of the theme is such."""
    ordered = [n for n in (*theme.key_pulls, *theme.pulls) if n in by_number]
    # below one point of importance the larger change leads (ruff 2025-W12's playground was led
    # by #16833's cursor at 0.2, beside a 51-file extraction and a 74-file conversion at 0.0)
    ordered.sort(key=lambda n: _noise_last(by_number[n]))
    ordered.sort(key=lambda n: by_number[n].classification.type == "docs")
    if theme.source == "scope":  # those its authors scoped to it first (not ruff #19340's "Pylint")
        ordered.sort(key=lambda n: not _scoped(by_number[n].pull.title, theme.name))
    return next(
        (n for n in ordered if works_mainly_in(by_number[n], theme.name, theme.source)), None
    )


def _series_sentence(theme: Theme, by_number, said: StatedNumbers) -> str:
    lang, first = said.lang, by_number[theme.series[0]]
    values = {
        "count": said.number(f"theme:{theme.name}:series", len(theme.series)),
        "pulls": lang.pulls(theme.series[:THEME_PULLS]),
    }
    if lang.code == "zh":  # the English title is shown once, in its key change or the list of PRs
        return lang.gettext(
            "{count} of its PRs, among them {pulls}, make one change: {change}."
        ).format(change=chinese_mention(first, lang, sized=False), **values)
    return lang.gettext("{count} of its PRs, among them {pulls}, are titled “{title}”.").format(
        title=display_title(series_title(first.pull.title)), **values
    )


def _noise_last(analysed: AnalysedPull) -> tuple[bool, int]:
    noise = analysed.score.value < 1
    return noise, -(analysed.pull.additions + analysed.pull.deletions) if noise else 0


def _scoped(title: str, name: str) -> bool:
    """Whether a title's brackets name the strand: "[pylint] …", "[`pylint`] …", "[ty, server] …"."""
    word = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
    return bool(re.search(rf"\[[^\]]*{word}[^\]]*\]", title, re.IGNORECASE))


def _of_the_week(week: WeekAnalysis, said: StatedNumbers, lang: Language, theme: Theme) -> str:
    """What a theme's share is a share of: the week's PRs, or its people's PRs when bots merged
    some, as a theme is made of people's PRs only (bot bumps are no theme), unless it is a module
    counted as the module table counts it, with a bot's PR among them."""
    bot_pulls = sum(bot.count for bot in week.stats.bots)
    bots = {p.pull.number for p in week.pulls if p.classification.bot}
    if not bot_pulls or bots & set(theme.pulls):
        total = week.stats.merged_count
        return lang.ngettext("the week's {total} PR", "the week's {total} PRs", total).format(
            total=said.number("merged", total)
        )
    total = week.stats.merged_count - bot_pulls
    return lang.ngettext(
        "the week's {total} PR by people", "the week's {total} PRs by people", total
    ).format(total=said.number("people_pulls", total))


def _kinds_of_change(theme: Theme, said: StatedNumbers) -> str:
    """ "3 new features, 2 fixes and 1 refactoring": the theme's PRs counted by kind of change, the
    most frequent first, every number recorded as the theme's figure for that type."""
    ngettext = said.lang.ngettext
    phrases = {
        "feat": lambda n: ngettext("{count} new feature", "{count} new features", n),
        "fix": lambda n: ngettext("{count} fix", "{count} fixes", n),
        "refactor": lambda n: ngettext("{count} refactoring", "{count} refactorings", n),
        "perf": lambda n: ngettext("{count} speed-up", "{count} speed-ups", n),
        "docs": lambda n: ngettext("{count} docs change", "{count} docs changes", n),
        "test": lambda n: ngettext("{count} test change", "{count} test changes", n),
        "ci": lambda n: ngettext("{count} CI change", "{count} CI changes", n),
        "build": lambda n: ngettext(
            "{count} build or dependency change", "{count} build or dependency changes", n
        ),
        "chore": lambda n: ngettext("{count} maintenance change", "{count} maintenance changes", n),
        "revert": lambda n: ngettext("{count} revert", "{count} reverts", n),
    }
    counted = [(kind, n) for kind, n in theme.types.items() if kind in TYPES][:TYPES_SAID]
    if not all(type_speaks(kind) for kind, _ in counted):
        # a kind whose claim is imprecise is not said, and a list without it would mislead
        return ""
    return said.lang.join(
        phrases[kind](n).format(count=said.number(f"theme:{theme.name}:type:{kind}", n))
        for kind, n in counted
    )


def _led_by(analysed: AnalysedPull, lang: Language) -> str:
    _, number, title = lang.gettext, analysed.pull.number, analysed.pull.title
    change = change_said(analysed, lang)
    if change:
        return _("Among them, {pull} {change}.").format(pull=f"#{number}", change=change)
    return _("Among them: {pull}, “{title}”.").format(pull=f"#{number}", title=display_title(title))
