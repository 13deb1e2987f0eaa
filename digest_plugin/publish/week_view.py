"""One week, prepared for reading: the sections of its report in order, every cell already written.

The HTML page, its feed entry, the PDF and the Markdown download are all rendered from a
`WeekView`, so they show the same sections in the same order with the same numbers. Nothing here
is markup: texts are plain (narrative texts stay `Cited`, so each renderer links the PRs they cite
its own way), numbers and dates are formatted for the site's language, types are words. Pure.

    view = week_view(analysis, narrative, charts, language, note=note)
    for section in view.sections: ...   # "note", "summary", "highlights", ..., "pulls"
"""

from __future__ import annotations

import functools
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from digest_plugin.analysis.claims import speaks, type_speaks
from digest_plugin.analysis.footprint import mostly_generated
from digest_plugin.analysis.importance import SOFT_CAP
from digest_plugin.analysis.model import AnalysedPull, PathCount, WeekAnalysis
from digest_plugin.analysis.stats import ranked
from digest_plugin.charts import Chart
from digest_plugin.narrate import Narrative, writer_credit
from digest_plugin.narrate.chinese import HAN
from digest_plugin.narrate.describe import brief, type_words
from digest_plugin.narrate.model import Cited, HighlightGroup
from digest_plugin.narrate.wording import Language, factor_names, week_status
from digest_plugin.records.frozen import frozen_record

# The sections a feed entry shows, then the page's others, in reading order.
FEED_SECTIONS = tuple("note summary highlights key_changes breaking risks recommendations".split())
SECTION_ORDER = (*FEED_SECTIONS, "trends", "newcomers", "updates", "statistics", "pulls")
# The PDF: the report a reader prints, the feed's sections but the highlights (on paper, their
# titles come again in the key changes and the list of every PR), the charts, and the PRs as a
# short list ("pull_list"); not the page's tables (statistics, the bot updates, every PR's row).
PRINT_SECTIONS = tuple(
    "note summary key_changes breaking risks recommendations trends pull_list".split()
)
# Key changes told in full, most important first, on the page, on paper and in the Markdown; the
# others follow in brief (number, a few words, importance). Thirty in full were seven printed pages.
KEY_CHANGES_IN_FULL = 10
_DEPENDENCY_WORDS = re.compile(
    r"\b(?:bump\w*|upgrad\w*|dependen\w*|requirements?|pin(?:s|ned)?)\b", re.IGNORECASE
)
# a dependency bot's branch merged by a person (not a code assistant's co-authorship: verl's 114)
_BUMP_BOT_CO_AUTHOR = re.compile(
    r"^co-authored-by:\s*(?:renovate|dependabot)\[bot\]", re.IGNORECASE | re.MULTILINE
)
TABLE_ROWS = 10  # names per statistics table
# An author's words with Chinese characters are marked lang="zh".


@frozen_record
class Figure:
    label: str
    value: str


@frozen_record
class PullRef:
    number: int
    url: str  # the PR's web address; "" when the record's address is not http(s)

    @property
    def text(self) -> str:
        return f"#{self.number}"


@frozen_record
class Factor:
    name: str
    points: str  # signed, with a true minus: "+2.0", "−0.35"


@frozen_record
class Importance:
    text: str  # "6.8"
    percent: int  # of the 0-10 scale, for the bar
    factors: tuple[Factor, ...]
    total: str = ""  # what the factors add up to, signed as they are: "+14.2"
    # how that total became the score, where it is not the score: "Totals above 9 bend ..."
    reading: str = ""


@frozen_record
class KeyChangeView:
    ref: PullRef
    title: str  # verbatim from GitHub
    kind: str  # the type in words, "" when unclassified
    modules: tuple[str, ...]
    author: str
    branch: str  # the head branch, verbatim from GitHub; "" where unknown
    size: str  # "+198 −41 lines in 3 files"
    summary: str  # untrusted, may be empty
    importance: Importance
    quote: str = ""  # the author's words, shown apart after `summary` (untrusted, may be empty)
    quote_lang: str = "en"  # the language the author wrote `quote` in, for its lang attribute
    # a writer's own sentence about it; None where it would only repeat modules and size
    details: Cited | None = None
    brief: str = ""  # the PR in a few words (narrate.describe.brief), where it is told in brief


@frozen_record
class BriefKeyView:
    """A key PR after the first KEY_CHANGES_IN_FULL: its number, a few words and its importance."""

    ref: PullRef
    text: str  # the title as a list shows it; in Chinese the title translated, or the PR's facts
    importance: str  # "6.8"


@frozen_record
class RiskView:
    name: str
    impact: str
    level: str  # "high", "medium", "low", for styling
    pulls: tuple[PullRef, ...]
    sentence: Cited
    # what a maintainer can do about it, as its PRs say; None when they say nothing
    mitigation: Cited | None = None


@frozen_record
class ThemeView:
    name: str
    sentence: Cited


@frozen_record
class PullRow:
    ref: PullRef
    title: str
    author: str
    badge: str  # "bot", "first PR" or ""
    kind: str
    tags: str  # modules and labels, joined
    importance: str
    key: bool
    reverted_by: PullRef | None = None  # the PR of the same week that reverts it


@frozen_record
class CountTable:
    title: str
    head: str  # what the first column holds
    rows: tuple[tuple[str, str], ...]  # (name, formatted count)
    paths: bool = False  # names are file paths (shown as code, broken only at "/")
    value_head: str = ""  # what the second column holds; "" for the number of PRs


@frozen_record
class Contributor:
    login: str
    pulls: tuple[PullRef, ...]


@dataclass(frozen=True)
class EditorNote:
    """A maintainer's own words for the week (content/notes/OWNER/NAME/YYYY-Www.md)."""

    html: str  # rendered by Pelican's Markdown reader from the site's own content: trusted
    markdown: str  # the note's body as written, for digest.md
    title: str = ""
    author: str = ""
    source: str = ""  # the file, for error messages


@dataclass(frozen=True)
class WeekView:
    repo: str
    week: str
    title: str
    dates: str
    status: str  # "complete", "in-progress", "incomplete"
    status_text: str
    status_short: str
    provenance: str
    figures: tuple[Figure, ...]
    summary: Cited
    quiet: bool
    repo_url: str  # the repository on GitHub, for PR links in narrative texts
    note: EditorNote | None = None
    themes: tuple[ThemeView, ...] = ()
    highlights: tuple[HighlightGroup, ...] = ()
    key_changes: tuple[KeyChangeView, ...] = ()  # the first KEY_CHANGES_IN_FULL, told in full
    brief_key_changes: tuple[BriefKeyView, ...] = ()  # the others, in brief
    risks: tuple[RiskView, ...] = ()
    # what PRs say they remove, rename, flip or break, each citing its PR
    breaking: tuple[Cited, ...] = ()
    recommendations: tuple[Cited, ...] = ()
    trends: tuple[Cited, ...] = ()
    charts: tuple[Chart, ...] = ()
    newcomers: tuple[Contributor, ...] = ()
    updates: tuple[PullRow, ...] = ()
    statistics: tuple[CountTable, ...] = ()
    pulls: tuple[PullRow, ...] = ()
    headings: dict[str, str] = field(default_factory=dict)  # section -> its heading, translated
    # the heading of `brief_key_changes`: how many more key PRs are told in brief
    more_key_changes: str = ""
    # which writer wrote the words, and how many of a language model's sentences were kept
    credit: str = ""

    @property
    def sections(self) -> tuple[str, ...]:
        """The sections this week has, in reading order."""
        # A section is there when its field holds anything; these three are not one field's.
        present = {"summary": True, "trends": bool(self.trends or self.charts)}
        return tuple(name for name in SECTION_ORDER if present.get(name, bool(getattr(self, name))))

    @property
    def links(self) -> dict[int, str]:
        """PR number -> web address, for the Markdown; made when asked rather than kept for every week."""
        return {row.ref.number: row.ref.url for row in self.pulls if row.ref.url}

    @property
    def feed_sections(self) -> tuple[str, ...]:
        return tuple(name for name in self.sections if name in FEED_SECTIONS)

    @property
    def print_sections(self) -> tuple[str, ...]:
        """The PDF's sections, in reading order."""
        present = {*self.sections, *(("pull_list",) if self.pulls else ())}
        return tuple(name for name in PRINT_SECTIONS if name in present)

    @property
    def feed_chart(self) -> Chart | None:
        """The one chart a feed entry and the link preview show: the one drawn as PNG too."""
        return next((chart for chart in self.charts if chart.raster), None)


def week_view(
    week: WeekAnalysis,
    narrative: Narrative,
    charts: Sequence[Chart],
    lang: Language,
    repo_url: str,
    provenance: str,
    note: EditorNote | None = None,
) -> WeekView:
    _ = lang.gettext
    refs = {p.pull.number: pull_ref(p) for p in week.pulls}
    status, status_text, status_short = week_status(week, _)
    busy = not narrative.quiet
    key_changes = _key_changes(week, narrative, refs, lang) if busy else ()
    told = {change.ref.number for change in key_changes[:KEY_CHANGES_IN_FULL]}
    brief_changes = tuple(
        BriefKeyView(c.ref, c.brief, c.importance.text) for c in key_changes[KEY_CHANGES_IN_FULL:]
    )
    # In Chinese an English title is shown once: a PR told in full in the key changes is said by its
    # facts in the tables below it.
    shown_above = told if lang.code == "zh" else set()
    return WeekView(
        repo=week.repo,
        week=week.week,
        title=narrative.title,
        dates=lang.dates(week.start, week.end),
        status=status,
        status_text=status_text,
        status_short=status_short,
        provenance=provenance,
        figures=_figures(week, lang) if week.stats.merged_count else (),
        summary=narrative.summary,
        quiet=narrative.quiet,
        repo_url=repo_url,
        note=note,
        themes=tuple(ThemeView(t.name, t.sentence) for t in narrative.themes) if busy else (),
        highlights=narrative.highlights if busy else (),
        key_changes=key_changes[:KEY_CHANGES_IN_FULL],
        brief_key_changes=brief_changes,
        risks=_risks(narrative, refs) if busy else (),
        breaking=narrative.breaking if busy else (),
        recommendations=narrative.recommendations if busy else (),
        trends=narrative.trends if busy else (),
        charts=tuple(charts),
        newcomers=_newcomers(week, refs),
        updates=_updates(week, refs, lang),
        statistics=_statistics(week, lang) if week.stats.merged_count else (),
        pulls=tuple(
            _pull_row(p, refs, lang, titled=p.pull.number not in shown_above) for p in week.pulls
        ),
        headings=section_headings(_),
        credit=writer_credit(narrative, lang),
        more_key_changes=_more_key_changes(len(brief_changes), lang),
    )


def _more_key_changes(count: int, lang: Language) -> str:
    if count <= 0:
        return ""
    return lang.ngettext(
        "{count} more key PR, in brief", "{count} more key PRs, in brief", count
    ).format(count=lang.number(count))


def section_headings(_) -> dict[str, str]:
    return {
        "note": _("Editor's note"),
        "summary": _("Summary"),
        "themes": _("Themes"),
        "highlights": _("Highlights"),
        "key_changes": _("Key changes"),
        "breaking": _("Breaking and user-facing changes"),
        "risks": _("Risks"),
        "recommendations": _("Recommendations"),
        "trends": _("Trends"),
        "newcomers": _("First-time contributors"),
        "updates": _("Dependency and bot updates"),
        "statistics": _("Statistics"),
        "pulls": _("All merged PRs"),
        "downloads": _("Downloads"),
    }


def pull_ref(analysed: AnalysedPull) -> PullRef:
    url = analysed.pull.url
    return PullRef(analysed.pull.number, url if url.startswith(("https://", "http://")) else "")


def importance(analysed: AnalysedPull, lang: Language) -> Importance:
    names = factor_names(lang.gettext)
    score = analysed.score
    total = round(sum(points for _name, points in score.factors), 2)
    return Importance(
        text=lang.decimal(score.value),
        percent=max(0, min(100, round(score.value * 10))),
        factors=tuple(
            Factor(names.get(name, name), lang.points(points)) for name, points in score.factors
        ),
        total=lang.points(total),
        reading=_score_reading(total, score.value, lang),
    )


def _score_reading(total: float, score: float, lang: Language) -> str:
    """Why a score is not the total of its factors, where it is not (importance.scaled)."""
    _ = lang.gettext
    if total > SOFT_CAP:
        return _("Totals above {cap} bend towards 10: a total of {total} scores {score}.").format(
            cap=lang.number(int(SOFT_CAP)),
            total=lang.points(total).removeprefix("+"),
            score=lang.decimal(score),
        )
    if total < 0:
        return _("A total below 0 scores 0.")
    return ""


def kind_name(analysed: AnalysedPull, _) -> str:
    """The PR's type as one word ("feature", "fix"); "" when unclassified. A type whose claim is
    imprecise (analysis/claims.py) is not said: the author's own word for it is, as theirs
    ("titled fix:", "labelled bug"), or nothing when the type was read from the files or words."""
    kind = analysed.classification
    return _kind_word(kind.type, kind.type_mark, _)


@functools.lru_cache(maxsize=1024)  # a site's every PR row asks it of a handful of values
def _kind_word(type_: str | None, mark: tuple[str, str] | None, _) -> str:
    if type_speaks(type_):
        return type_words(_).get(type_, "")
    return author_type_mark(mark, _)


def author_type_mark(mark: tuple[str, str] | None, _) -> str:
    """Where the author said the kind: ("title", "fix:") -> "titled fix:"; "" if nowhere."""
    if mark is None:
        return ""
    source, written = mark
    return (_("labelled {label}") if source == "label" else _("titled {prefix}")).format(
        label=written, prefix=written
    )


# --- sections ---------------------------------------------------------------------------------------


def _figures(week: WeekAnalysis, lang: Language) -> tuple[Figure, ...]:
    _, stats = lang.gettext, week.stats
    return (
        Figure(_("Merged PRs"), lang.number(stats.merged_count)),
        Figure(_("Key PRs"), lang.number(stats.key_count)),
        Figure(_("Average importance"), lang.decimal(stats.average_importance)),
        Figure(_("Lines added"), "+" + lang.number(stats.additions)),
        Figure(_("Lines removed"), "\u2212" + lang.number(stats.deletions)),
        Figure(_("Authors"), lang.number(len(stats.authors))),
    )


def _key_changes(
    week: WeekAnalysis, narrative: Narrative, refs, lang: Language
) -> tuple[KeyChangeView, ...]:
    _ = lang.gettext
    by_number = {p.pull.number: p for p in week.pulls}
    changes = []
    for change in narrative.key_changes:
        analysed = by_number.get(change.number)
        if analysed is None:
            continue  # the narrative only names PRs of the week; grounding reports any other
        pull = analysed.pull
        changes.append(
            KeyChangeView(
                ref=refs[change.number],
                title=change.title,
                kind=kind_name(analysed, _),
                modules=tuple(change.modules),
                author=pull.author.login,
                branch=pull.branch,
                size=_size(analysed, lang),
                summary=change.summary,
                quote=change.quote,
                quote_lang="zh" if HAN.search(change.quote) else "en",
                importance=importance(analysed, lang),
                # the built-in writer's sentence restates the modules and size shown beside it
                details=change.details if narrative.writer != "builtin" else None,
                brief=brief(analysed, lang),
            )
        )
    return tuple(changes)


def _size(analysed: AnalysedPull, lang: Language) -> str:
    """ "+198 −41 lines in 3 files", said to be mostly generated or vendored files when it is: such
    a size is not what a person changed, and the importance does not count it as core code."""
    pull = analysed.pull
    size = lang.ngettext(
        "+{added} \u2212{removed} lines in {files} file",
        "+{added} \u2212{removed} lines in {files} files",
        pull.changed_files,
    ).format(
        added=lang.number(pull.additions),
        removed=lang.number(pull.deletions),
        files=lang.number(pull.changed_files),
    )
    if mostly_generated(pull, analysed.footprint):
        return lang.gettext("{size}, mostly generated or vendored files").format(size=size)
    return size


def _risks(narrative: Narrative, refs) -> tuple[RiskView, ...]:
    views = []
    for r in narrative.risks:
        pulls = tuple(refs.get(n, PullRef(n, "")) for n in r.pulls)
        views.append(RiskView(r.name, r.impact, r.level, pulls, r.sentence, r.mitigation))
    return tuple(views)


def _newcomers(week: WeekAnalysis, refs) -> tuple[Contributor, ...]:
    firsts: dict[str, list[PullRef]] = {}
    for analysed in sorted(week.pulls, key=lambda p: p.pull.number):
        if analysed.first_time and not analysed.classification.bot:
            firsts.setdefault(analysed.pull.author.login, []).append(refs[analysed.pull.number])
    return tuple(Contributor(login, tuple(pulls)) for login, pulls in sorted(firsts.items()))


def _updates(week: WeekAnalysis, refs, lang: Language) -> tuple[PullRow, ...]:
    """The PRs of the dependency row and those made by bots (or by a person from a dependency
    bot's branch: ruff #21254), each with the PR of the week that reverts it, if any: a bump undone
    the same day is no version the project runs (ruff #21234)."""
    undone = (
        {p.classification.reverts: p.pull.number for p in week.pulls if p.classification.reverts}
        if speaks("revert.undoes")
        else {}
    )
    return tuple(
        replace(
            _pull_row(p, refs, lang, titled=False), reverted_by=refs.get(undone.get(p.pull.number))
        )
        for p in week.pulls
        if p.classification.bot or _BUMP_BOT_CO_AUTHOR.search(p.pull.body) or _updates_files(p)
    )


def _updates_files(analysed: AnalysedPull) -> bool:
    """A PR of the dependency row that is about its dependencies: it changes nothing else, or its
    title says so (verl #1439 "add pip dependances", #6374 "ascend bump into megatron 016") and its
    dependency files are a third of its core lines or more; not a feature that added a crate to
    Cargo.lock (ruff #25410), nor tests "with external dependencies" (ruff #20904)."""
    if "dependency-upgrade" not in analysed.risks:
        return False
    if not analysed.footprint.core_lines or analysed.upgrades:
        return True
    pinned = sum(e.lines for e in analysed.evidence if e.fact == "version")
    return bool(_DEPENDENCY_WORDS.search(analysed.pull.title)) and (
        pinned * 3 >= analysed.footprint.core_lines
    )


def _statistics(week: WeekAnalysis, lang: Language) -> tuple[CountTable, ...]:
    _, stats = lang.gettext, week.stats
    authors = [(a.login, a.count) for a in stats.authors]
    authors += [(_bot_name(b.login, _), b.count) for b in stats.bots]
    tables = [
        CountTable(_("Types"), _("Type"), _counted(ranked(_kinds_said(week.pulls, _)), lang)),
        CountTable(_("Modules"), _("Module"), _counted(ranked(stats.modules), lang)),
        CountTable(_("Labels"), _("Label"), _counted(ranked(stats.labels), lang)),
        CountTable(_("Authors"), _("Author"), _counted(authors, lang)),
        CountTable(
            _("Hot files (touched by several PRs)"),
            _("Path"),
            _paths(stats.hot_files, lang),
            paths=True,
        ),
        CountTable(_("Hot directories"), _("Path"), _paths(stats.hot_dirs, lang), paths=True),
    ]
    if stats.merge_hours_median is not None:
        assert stats.merge_hours_p90 is not None  # measured with the median
        rows = (
            (_("Median"), lang.decimal(stats.merge_hours_median)),
            (_("90th percentile"), lang.decimal(stats.merge_hours_p90)),
        )
        tables.append(CountTable(_("Time to merge"), _("Measure"), rows, value_head=_("Hours")))
    return tuple(
        replace(table, value_head=table.value_head or _("PRs")) for table in tables if table.rows
    )


def _kinds_said(pulls: Sequence[AnalysedPull], _) -> dict[str, int]:
    """PRs by their type as the table of every PR says it (kind_name); unsaid ones left out."""
    return Counter(name for analysed in pulls if (name := kind_name(analysed, _)))


def _bot_name(login: str, _) -> str:
    """A bot's login, marked as a bot unless GitHub's own "[bot]" suffix already says so."""
    return login if login.endswith("[bot]") else _("{login} (bot)").format(login=login)


def _counted(rows, lang: Language) -> tuple[tuple[str, str], ...]:
    return tuple((str(name), lang.number(count)) for name, count in list(rows)[:TABLE_ROWS])


def _paths(paths: Sequence[PathCount], lang: Language) -> tuple[tuple[str, str], ...]:
    return _counted([(p.path, p.count) for p in paths], lang)


def _pull_row(analysed: AnalysedPull, refs, lang: Language, titled: bool = True) -> PullRow:
    """A PR's row of a table; where not `titled` (in Chinese, its title already shown on the page),
    said by its facts instead (narrate.describe.brief)."""
    _, kind = lang.gettext, analysed.classification
    badge = _("bot") if kind.bot else _("first PR") if analysed.first_time else ""
    return PullRow(
        ref=refs[analysed.pull.number],
        title=analysed.pull.title if titled or lang.code != "zh" else brief(analysed, lang),
        author=analysed.pull.author.login,
        badge=badge,
        kind=kind_name(analysed, _),
        # One string for each of the few values (a site holds a row for each of 200,000 PRs).
        tags=sys.intern(_(", ").join((*kind.modules, *kind.labels))),
        importance=sys.intern(lang.decimal(analysed.score.value)),
        key=analysed.key,
    )
