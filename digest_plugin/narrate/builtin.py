"""The built-in writer: the week's narrative from the analysis alone, deterministic, no network.

Every figure it states is recorded with what it is, every PR it cites is a PR of the week, and
every sentence is one whole template of the catalogue with named placeholders, so that the Chinese
reads as Chinese rather than English word order. The summary (overview), themes, risks, advice and
trends (activity) have a module each; highlights and key changes are here.
"""

from __future__ import annotations

from collections.abc import Sequence

from digest_plugin.analysis.claims import speaks, type_speaks
from digest_plugin.analysis.model import AnalysedPull, WeekAnalysis
from digest_plugin.narrate.activity import trends
from digest_plugin.narrate.advice import recommendations
from digest_plugin.narrate.consequences import breaking_changes, key_line_consequences
from digest_plugin.narrate.describe import chinese_mention, what_it_does
from digest_plugin.narrate.grounding import week_before
from digest_plugin.narrate.model import Cited, HighlightGroup, KeyChange, Narrative
from digest_plugin.narrate.overview import quiet_summary, summary
from digest_plugin.narrate.reviews import review_sentence
from digest_plugin.narrate.risks import risk_lines
from digest_plugin.narrate.themes import theme_lines
from digest_plugin.narrate.titles import display_title
from digest_plugin.narrate.wording import Language, StatedNumbers, highlight_headings

HIGHLIGHTS_PER_GROUP = 5
# The change types that feed highlight groups (wording.highlight_headings, in reading order).
HIGHLIGHT_TYPES = {
    "features": "feat",
    "fixes": "fix",
    "refactors": "refactor",
    "performance": "perf",
    "docs": "docs",
}


class BuiltinWriter:
    """The deterministic writer; the default of `narrate`."""

    name = "builtin"

    def write(
        self, week: WeekAnalysis, previous: Sequence[WeekAnalysis], language: Language
    ) -> Narrative:
        lang = language
        before = _week_before(week, previous)
        title = _title(week, lang)
        if not week.pulls:
            return Narrative(
                lang.code, title, quiet_summary(week, lang), quiet=True, writer=self.name
            )
        return Narrative(
            language=lang.code,
            title=title,
            summary=summary(week, before, lang),
            themes=theme_lines(week, lang),
            highlights=_highlights(week, lang),
            key_changes=_key_changes(week, lang),
            trends=trends(week, before, lang),
            risks=risk_lines(week, lang),
            breaking=breaking_changes(week, lang),
            recommendations=recommendations(week, lang),
            writer=self.name,
        )


def _title(week: WeekAnalysis, lang: Language) -> str:
    _ = lang.gettext
    return _("{repo}, week {week} ({dates})").format(
        repo=week.repo, week=lang.week(week.week), dates=lang.dates(week.start, week.end)
    )


def _week_before(week: WeekAnalysis, previous: Sequence[WeekAnalysis]) -> WeekAnalysis | None:
    """The analysis of the calendar week just before, if given (a gap means it is unknown, not quiet).

    None for a week in progress: half a week against a whole one would read as a fall.
    """
    return None if week.in_progress else week_before(week, previous)


def _highlights(week: WeekAnalysis, lang: Language) -> tuple[HighlightGroup, ...]:
    _ = lang.gettext
    headings = highlight_headings(_)
    groups: dict[str, list[AnalysedPull]] = {kind: [] for kind in headings}
    for analysed in week.pulls:  # highest importance first, so each group is too
        kind = _highlight_kind(analysed)
        if kind and len(groups[kind]) < HIGHLIGHTS_PER_GROUP:
            groups[kind].append(analysed)
    separator, joiner = (_(": "), _("; "))
    return tuple(
        HighlightGroup(
            kind=kind,
            heading=headings[kind],
            items=tuple(_highlight(p, lang) for p in members),
            separator=separator,
            joiner=joiner,
        )
        for kind, members in groups.items()
        if members
    )


def _highlight(analysed: AnalysedPull, lang: Language) -> Cited:
    """ "Add async weight sync (#12)"; in Chinese what `chinese_mention` says ("新增「async weight
    sync」（#12）"): the English title whole is shown once, in its key change or the list of every PR."""
    number, said = analysed.pull.number, StatedNumbers(lang)
    if lang.code == "zh":
        title = chinese_mention(analysed, lang, said=said)
    else:
        title = display_title(analysed.pull.title)
    text = lang.gettext("{title} ({pull})").format(title=title, pull=f"#{number}")
    return said.cited(text, (number,))


# highlight group -> the claim rule it makes of its PRs (analysis/claims.py), beside the kinds of
# HIGHLIGHT_TYPES; an imprecise one's PRs are "notable"
HIGHLIGHT_CLAIMS = {"deprecations": "consequence.deprecates", "upgrades": "version.package"}


def _highlight_kind(analysed: AnalysedPull) -> str | None:
    """The one highlight group a PR is told under: its bucket, or "notable" (no kind said) where it
    has none (pelican #2476) or the bucket's claim is imprecise."""
    kind = highlight_bucket(analysed)
    if (
        kind is None
        or (kind in HIGHLIGHT_CLAIMS and not speaks(HIGHLIGHT_CLAIMS[kind]))
        or (kind in HIGHLIGHT_TYPES and not type_speaks(HIGHLIGHT_TYPES[kind]))
    ):
        return None if analysed.classification.bot else "notable"
    return kind


def highlight_bucket(analysed: AnalysedPull) -> str | None:
    """The one highlight group a PR belongs to by its kind; bots' PRs only ever as upgrades."""
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
    changes = []
    for p in week.pulls:
        if not p.key:
            continue
        what = what_it_does(p, lang)
        # what it breaks or changes for users, as it says
        consequences = key_line_consequences(p, lang, what.text.text)
        details = _key_details(p, lang, sized=not what.text.figures)
        # the summary leads into the author's words: the consequences follow them
        if consequences and what.quote:
            details = Cited(
                lang.sentences((consequences, details.text)), details.pulls, details.figures
            )
        changes.append(
            KeyChange(
                number=p.pull.number,
                title=p.pull.title,
                url=p.pull.url,
                summary=lang.sentences((what.text.text, consequences))
                if consequences and not what.quote
                else what.text.text,
                modules=p.classification.modules,
                importance=p.score.value,
                details=details,
                summary_figures=what.text.figures,
                quote=what.quote,
            )
        )
    return tuple(changes)


def _key_details(analysed: AnalysedPull, lang: Language, sized: bool) -> Cited:
    """The modules a key PR changes and its size (unless its summary already gave figures from its
    files), then what its reviewers decided: each number said once. The score is shown beside the
    title, not repeated here."""
    changes = _changes(analysed, lang, sized)
    reviewed = review_sentence(analysed.review, lang)
    if not reviewed:
        return changes
    return Cited(
        lang.sentences(t for t in (changes.text, reviewed) if t), changes.pulls, changes.figures
    )


def _changes(analysed: AnalysedPull, lang: Language, sized: bool) -> Cited:
    """The modules a key PR changes and its size, when `sized`."""
    ngettext, pull, said = lang.ngettext, analysed.pull, StatedNumbers(lang)
    modules = analysed.classification.modules
    size = (
        ngettext(
            "+{additions} −{deletions} lines in {files} file",
            "+{additions} −{deletions} lines in {files} files",
            pull.changed_files,
        ).format(
            additions=said.number(f"pull:{pull.number}:additions", pull.additions),
            deletions=said.number(f"pull:{pull.number}:deletions", pull.deletions),
            files=said.number(f"pull:{pull.number}:files", pull.changed_files),
        )
        if sized
        else ""
    )
    values = {"modules": lang.join(modules), "size": size}
    if modules and size:
        text = ngettext(
            "Changes the module {modules}: {size}.",
            "Changes the modules {modules}: {size}.",
            len(modules),
        )
    elif modules:
        text = ngettext(
            "Changes the module {modules}.", "Changes the modules {modules}.", len(modules)
        )
    elif size:
        text = lang.gettext("Size: {size}.")
    else:
        return Cited("", (pull.number,))
    return said.cited(text.format(**values), (pull.number,))
