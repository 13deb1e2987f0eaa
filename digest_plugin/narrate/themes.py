"""Themes in words: one sentence each, saying how much of the week a theme took and what led it."""

from __future__ import annotations

from digest_plugin.analysis.model import Theme, WeekAnalysis
from digest_plugin.narrate.model import ThemeLine
from digest_plugin.narrate.titles import chinese_title, display_title, english_predicate
from digest_plugin.narrate.wording import Language, Stated

THEME_PULLS = 3  # PRs a theme sentence names
LINES_SAID_FROM = 1.5  # times its share of PRs from which a theme's share of the week's lines is said


def theme_lines(week: WeekAnalysis, lang: Language) -> tuple[ThemeLine, ...]:
    titles = {p.pull.number: p.pull.title for p in week.pulls}
    return tuple(ThemeLine(theme.name, _theme_sentence(theme, week, titles, lang)) for theme in week.themes if theme.pulls)


def _theme_sentence(theme: Theme, week: WeekAnalysis, titles: dict[int, str], lang: Language):
    _, ngettext, said = lang.gettext, lang.ngettext, Stated(lang)
    count = len(theme.pulls)
    values = {  # the name stands before the sentence wherever it is shown
        "count": said.number(f"theme:{theme.name}", count),
        "total": said.number("merged", week.stats.merged_count),
        "share": said.percent(f"theme:{theme.name}:share", theme.share),
    }
    if theme.baseline_weeks and round(theme.baseline_share * 100):
        values["baseline"] = said.percent(f"theme:{theme.name}:baseline", theme.baseline_share)
        share = ngettext("{count} of the week's {total} PRs ({share}, against {baseline} in recent weeks).",
                         "{count} of the week's {total} PRs ({share}, against {baseline} in recent weeks).", count)
    elif theme.baseline_weeks and theme.baseline_share:
        share = ngettext("{count} of the week's {total} PRs ({share}), where recent weeks had hardly any.",
                         "{count} of the week's {total} PRs ({share}), where recent weeks had hardly any.", count)
    elif theme.baseline_weeks:
        share = ngettext("{count} of the week's {total} PRs ({share}), where recent weeks had none.",
                         "{count} of the week's {total} PRs ({share}), where recent weeks had none.", count)
    else:
        share = ngettext("{count} of the week's {total} PRs ({share}).", "{count} of the week's {total} PRs ({share}).", count)
    sentences = [share.format(**values)]
    if theme.line_share >= LINES_SAID_FROM * theme.share and round(theme.line_share * 100):
        # a theme of few PRs that took much of the work: say what makes it one
        lines = said.percent(f"theme:{theme.name}:line_share", theme.line_share)
        sentences.append(_("Its PRs changed {lines} of the week's lines of core code.").format(lines=lines))
    lead = (theme.key_pulls or theme.pulls)[0]
    sentences.append(_led_by(lead, titles[lead], lang) if lead in titles else "")
    others = [n for n in theme.pulls if n != lead][: THEME_PULLS - 1]
    if others:
        sentences.append(ngettext("See also {pulls}.", "See also {pulls}.", len(others)).format(pulls=lang.pulls(others)))
    return said.cited(lang.sentences(s for s in sentences if s), (lead, *others))


def _led_by(number: int, title: str, lang: Language) -> str:
    _ = lang.gettext
    if lang.code == "zh":
        return _("Its main change: {pull} {change}.").format(pull=f"#{number}", change=chinese_title(title))
    predicate = english_predicate(title)
    if predicate:
        return _("Its main change: {pull} {change}.").format(pull=f"#{number}", change=predicate)
    return _("Its main change: {pull}, “{title}”.").format(pull=f"#{number}", title=display_title(title))
