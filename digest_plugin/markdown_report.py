"""The week's report as Markdown (`digest.md`, `repo-digest show --format markdown`).

The same report as the week page, in CommonMark plus GitHub's tables, with absolute links only, so
it can be pasted into a newsletter or a GitHub Discussion. Everything that comes from GitHub
(titles, summaries, names, paths) is escaped, so a title with `*`, `<`, `[` or backticks reads as
written instead of turning into markup, HTML or a link. Pure: text in, text out.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from .analysis.model import AnalysedPull, WeekAnalysis
from .i18n import format_decimal
from .narrate.model import CITATION, Cited, Narrative
from .narrate.wording import Language, ranked, type_names, week_status

# Characters that can start Markdown inline syntax (or an @mention, or maths on GitHub) anywhere.
_INLINE_SYNTAX = re.compile(r"([\\`*_\[\]<>#|!&~$@])")
# Line starts that would open a list, quote or heading when a cell or item begins with them.
_BLOCK_START = re.compile(r"^(\d{1,9})([.)])(?=\s|$)|^([-+=])")
TABLE_ROWS = 10  # names per statistics table, as on the page


def render_markdown(week: WeekAnalysis, narrative: Narrative, page_url: str, language: Language) -> str:
    """The report of `week` as CommonMark; `page_url` is the week page's absolute URL."""
    lang = language
    _ = lang.gettext
    links = {p.pull.number: p.pull.url for p in week.pulls if p.pull.url}
    blocks = [heading(1, narrative.title), _page_link(page_url, lang)]
    status = _status(week, lang)
    if status:
        blocks.append(f"> {escape(status)}")
    blocks += _summary(week, narrative, links, lang)
    if not narrative.quiet:
        blocks += _highlights(narrative, links, lang)
        blocks += _key_changes(week, narrative, links, lang)
        blocks += _risks(narrative, links, lang)
        blocks += _listed(_("Recommendations"), narrative.recommendations, links)
        blocks += _listed(_("Trends"), narrative.trends, links)
        blocks += _statistics(week, lang)
        blocks += _all_pulls(week, links, lang)
    return "\n\n".join(block for block in blocks if block) + "\n"


def escape(text: str) -> str:
    """Untrusted text as literal Markdown inline text: one line, no markup, no HTML, no mentions."""
    return escape_block_start(escape_inline(text))


def linked(cited: Cited, links: dict[int, str]) -> str:
    """A narrative text with each `#N` it cites as a link to the PR, the rest escaped."""
    parts, last = [], 0
    for match in CITATION.finditer(cited.text):
        number = int(match[1])
        parts.append(escape_inline(cited.text[last:match.start()]))
        if number in cited.pulls and number in links:
            parts.append(f"[#{number}]({_destination(links[number])})")
        else:
            parts.append(escape_inline(match[0]))
        last = match.end()
    parts.append(escape_inline(cited.text[last:]))
    return escape_block_start("".join(parts))


def heading(level: int, text: str) -> str:
    return "#" * level + " " + escape(text)


def escape_inline(text: str) -> str:
    """Like `escape`, for a piece in the middle of a line (keeps its edge spaces)."""
    return _INLINE_SYNTAX.sub(r"\\\1", re.sub(r"\s+", " ", text))


def escape_block_start(line: str) -> str:
    return _BLOCK_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", line.strip(), count=1)


# --- sections ---------------------------------------------------------------------------------------


def _page_link(page_url: str, lang: Language) -> str:
    if not page_url.startswith(("https://", "http://")):
        return ""  # a build without SITEURL has no absolute address to give
    _ = lang.gettext
    label = escape(_("Read this digest on the site"))
    return f"[{label}]({_destination(page_url)})"


def _status(week: WeekAnalysis, lang: Language) -> str:
    """The status sentence of a week that is not complete; nothing for a complete one."""
    key, sentence, _short = week_status(week, lang.gettext)
    return "" if key == "complete" else sentence


def _summary(week: WeekAnalysis, narrative: Narrative, links, lang: Language) -> list[str]:
    _, stats = lang.gettext, week.stats
    blocks = [heading(2, _("Summary")), linked(narrative.summary, links)]
    if stats.merged_count:
        heads = [_("Merged PRs"), _("Key PRs"), _("Average importance"), _("Lines added"), _("Lines removed"), _("Authors")]
        values = [
            lang.number(stats.merged_count),
            lang.number(stats.key_count),
            lang.decimal(stats.average_importance),
            "+" + lang.number(stats.additions),
            "\u2212" + lang.number(stats.deletions),
            lang.number(len(stats.authors)),
        ]
        blocks.append(_table(heads, [values], align="right"))
    return blocks


def _highlights(narrative: Narrative, links, lang: Language) -> list[str]:
    if not narrative.highlights:
        return []
    _ = lang.gettext
    blocks = [heading(2, _("Highlights"))]
    for group in narrative.highlights:
        blocks.append(heading(3, group.heading))
        blocks.append("\n".join(f"- {linked(item, links)}" for item in group.items))
    return blocks


def _key_changes(week: WeekAnalysis, narrative: Narrative, links, lang: Language) -> list[str]:
    if not narrative.key_changes:
        return []
    _ = lang.gettext
    by_number = {p.pull.number: p for p in week.pulls}
    types = type_names(_)
    items = []
    for index, change in enumerate(narrative.key_changes, 1):
        analysed = by_number.get(change.number)
        reference = f"[#{change.number}]({_destination(links[change.number])})" if change.number in links else f"\\#{change.number}"
        meta = [_("importance {score}").format(score=format_decimal(change.importance, lang.code))]
        if analysed is not None:
            kind = analysed.classification.type
            meta.append(types.get(kind, kind) if kind else types[None])
            meta.append(_("by {author}").format(author=analysed.pull.author.login))
        lines = [f"{index}. **{reference} {escape(change.title)}**", "   " + escape(" · ".join(meta))]
        if change.summary:
            lines.append("   " + escape(change.summary))
        lines.append("   " + linked(change.details, links))
        items.append("\n\n".join(lines))
    return [heading(2, _("Key changes")), "\n\n".join(items)]


def _risks(narrative: Narrative, links, lang: Language) -> list[str]:
    if not narrative.risks:
        return []
    _ = lang.gettext
    rows = [
        [escape(r.name), escape(r.impact), _(", ").join(linked(Cited(f"#{n}", (n,)), links) for n in r.pulls)]
        for r in narrative.risks
    ]
    return [
        heading(2, _("Risks")),
        _table([_("Risk"), _("Impact"), _("PRs")], rows, escaped=True),
        "\n".join(f"- {linked(r.sentence, links)}" for r in narrative.risks),
    ]


def _listed(title: str, items, links) -> list[str]:
    if not items:
        return []
    return [heading(2, title), "\n".join(f"- {linked(item, links)}" for item in items)]


def _statistics(week: WeekAnalysis, lang: Language) -> list[str]:
    _, stats = lang.gettext, week.stats
    types = type_names(_)
    tables = [
        (_("Types"), {types.get(k, k): v for k, v in stats.types.items()}),
        (_("Modules"), stats.modules),
        (_("Labels"), stats.labels),
    ]
    blocks = []
    for title, counts in tables:
        rows = ranked(counts)[:TABLE_ROWS]
        if rows:
            blocks.append(heading(3, title))
            blocks.append(_table([title, _("PRs")], [[str(name), lang.number(count)] for name, count in rows]))
    if stats.hot_files:
        blocks.append(heading(3, _("Hot files (touched by several PRs)")))
        rows = [[f.path, lang.number(f.count)] for f in stats.hot_files[:TABLE_ROWS]]
        blocks.append(_table([_("Path"), _("PRs")], rows))
    return [heading(2, _("Statistics")), *blocks] if blocks else []


def _all_pulls(week: WeekAnalysis, links, lang: Language) -> list[str]:
    _ = lang.gettext
    types = type_names(_)
    rows = [_pull_row(p, links, types, lang) for p in week.pulls]
    heads = [_("PR"), _("Title"), _("Author"), _("Type"), _("Importance")]
    return [heading(2, _("All merged PRs")), _table(heads, rows, escaped=True)]


def _pull_row(analysed: AnalysedPull, links, types, lang: Language) -> list[str]:
    pull, kind = analysed.pull, analysed.classification.type
    reference = linked(Cited(f"#{pull.number}", (pull.number,)), links)
    title = escape(pull.title)
    return [
        f"**{reference}**" if analysed.key else reference,
        title,
        escape(pull.author.login),
        escape(types.get(kind, kind) if kind else ""),
        format_decimal(analysed.score.value, lang.code),
    ]


# --- Markdown pieces ---------------------------------------------------------------------------------


def _table(heads: list[str], rows: list[list[str]], align: str = "left", escaped: bool = False) -> str:
    """A GitHub table; cells are escaped here unless `escaped` says the caller did it (links)."""

    def cell(text: str) -> str:
        return (text if escaped else escape_inline(text).strip()) or " "  # a cell holds no blocks

    rule = "---:" if align == "right" else "---"
    lines = ["| " + " | ".join(escape_inline(h).strip() for h in heads) + " |", "|" + "|".join(f" {rule} " for _ in heads) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _destination(url: str) -> str:
    """A link destination that stays one link whatever the URL holds (parentheses, angle brackets)."""
    return "<" + quote(url, safe=":/?#[]@!$&'()*+,;=%~-._") + ">"
