"""The week's report as Markdown (`digest.md`, `repo-digest show --format markdown`).

The same report as the week page, in CommonMark plus GitHub's tables, with absolute links only, so
it can be pasted into a newsletter or a GitHub Discussion. Everything that comes from GitHub
(titles, summaries, names, paths) is escaped, so a title with `*`, `<`, `[` or backticks reads as
written instead of turning into markup, HTML or a link. Pure: text in, text out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from urllib.parse import quote

from digest_plugin.narrate.model import CITATION, Cited
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.week_view import CountTable, PullRef, PullRow, WeekView

# Characters that can start Markdown inline syntax (or an @mention, or maths on GitHub) anywhere,
# each escaped with a backslash.
_INLINE_SYNTAX = str.maketrans({character: "\\" + character for character in "\\`*_[]<>#|!&~$@"})
_SPACES = re.compile(r"\s+")
# Line starts that would open a list, quote or heading when a cell or item begins with them.
_BLOCK_START = re.compile(r"^(\d{1,9})([.)])(?=\s|$)|^([-+=])")


def render_markdown(view: WeekView, page_url: str, lang: Language) -> str:
    """The report of one week as CommonMark; `page_url` is the week page's absolute URL."""
    blocks = [heading(1, view.title), _page_link(page_url, lang)]
    if view.status != "complete":
        blocks.append(f"> {escape(view.status_text)}")
    for section in view.sections:
        blocks += _SECTIONS[section](view, lang)
    if view.credit:
        blocks.append(f"*{escape(view.credit)}*")  # as the page ends with it
    return "\n\n".join(block for block in blocks if block) + "\n"


def escape(text: str) -> str:
    """Untrusted text as literal Markdown inline text: one line, no markup, no HTML, no mentions."""
    return escape_block_start(escape_inline(text))


def linked(cited: Cited, links: dict[int, str]) -> str:
    """A narrative text with each `#N` it cites as a link to the PR, the rest escaped."""
    parts, last = [], 0
    for match in CITATION.finditer(cited.text):
        number = int(match[1])
        parts.append(escape_inline(cited.text[last : match.start()]))
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
    return _SPACES.sub(" ", text).translate(_INLINE_SYNTAX)


def escape_block_start(line: str) -> str:
    return _BLOCK_START.sub(
        lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", line.strip(), count=1
    )


# --- sections, in the order WeekView.sections gives them ----------------------------------------------


def _page_link(page_url: str, lang: Language) -> str:
    if not page_url.startswith(("https://", "http://")):
        return ""  # a build without SITEURL has no absolute address to give
    label = escape(lang.gettext("Read this digest on the site"))
    return f"[{label}]({_destination(page_url)})"


def _note(view: WeekView, lang: Language) -> list[str]:
    """The editor's words, as they wrote them (their own Markdown), marked as theirs."""
    note = view.note
    assert note is not None  # asked for a week with a note
    by = escape(
        lang.gettext("The editor's words ({author})").format(author=note.author)
        if note.author
        else lang.gettext("The editor's words")
    )
    body = (f"**{escape(note.title)}**\n\n" if note.title else "") + note.markdown.strip()
    quoted = "\n".join(f"> {line}" if line.strip() else ">" for line in body.splitlines())
    return [heading(2, view.headings["note"]), f"*{by}*", quoted]


def _summary(view: WeekView, lang: Language) -> list[str]:
    blocks = [heading(2, view.headings["summary"]), linked(view.summary, view.links)]
    if view.figures:
        labels, values = [f.label for f in view.figures], [f.value for f in view.figures]
        blocks.append(_table(labels, [values], align="right"))
    if view.themes:
        colon = escape_inline(lang.gettext(": "))
        themes = (
            f"**{escape(t.name)}**{colon}{linked(t.sentence, view.links)}" for t in view.themes
        )
        blocks += [heading(3, view.headings["themes"]), _list(themes)]
    return blocks


def _highlights(view: WeekView, lang: Language) -> list[str]:
    blocks = [heading(2, view.headings["highlights"])]
    for group in view.highlights:
        blocks += [heading(3, group.heading), _cited_list(group.items, view.links)]
    return blocks


def _key_changes(view: WeekView, lang: Language) -> list[str]:
    _ = lang.gettext
    items = []
    for index, change in enumerate(view.key_changes, 1):
        meta = [
            _("importance {score}").format(score=change.importance.text),
            change.kind,
            *change.modules,
            _("by {author}").format(author=change.author),
            _("from branch {branch}").format(branch=change.branch) if change.branch else "",
            change.size,
        ]
        lines = [
            f"{index}. **{_ref(change.ref)} {escape(change.title)}**",
            "   " + escape(" · ".join(m for m in meta if m)),
        ]
        if change.summary:
            lines.append("   " + escape(change.summary))
        if change.quote:
            lines.append("   > " + escape(change.quote))
        if change.details:
            lines.append("   " + linked(change.details, view.links))
        factors = _(", ").join(f"{f.name} {f.points}" for f in change.importance.factors)
        if factors:
            adds_up = _("How the score adds up: {factors}").format(factors=factors)
            lines.append("   " + escape(adds_up))
        if change.importance.reading:
            lines.append("   " + escape(change.importance.reading))
        items.append("\n\n".join(lines))
    blocks = [heading(2, view.headings["key_changes"]), "\n\n".join(items)]
    if view.brief_key_changes:
        score = _("importance {score}")
        briefs = (
            f"{_ref(b.ref)} {escape(b.text)} · {escape(score.format(score=b.importance))}"
            for b in view.brief_key_changes
        )
        blocks += [heading(3, view.more_key_changes), _list(briefs)]
    return blocks


def _risks(view: WeekView, lang: Language) -> list[str]:
    _ = lang.gettext
    rows = [
        [escape(r.name), escape(r.impact), _(", ").join(_ref(p) for p in r.pulls)]
        for r in view.risks
    ]
    heads = [_("Risk"), _("Impact"), _("PRs")]
    # a column only where a PR says what to do
    if any(r.mitigation is not None for r in view.risks):
        heads.append(_("What to do"))
        rows = [
            [*row, linked(r.mitigation, view.links) if r.mitigation is not None else "—"]
            for row, r in zip(rows, view.risks, strict=True)
        ]
    return [
        heading(2, view.headings["risks"]),
        _table(heads, rows, escaped=True),
        _cited_list((r.sentence for r in view.risks), view.links),
    ]


def _cited_section(name: str) -> Callable[[WeekView, Language], list[str]]:
    """A section that is a list of the narrative's texts (`breaking`, `recommendations`)."""
    return lambda view, lang: [
        heading(2, view.headings[name]),
        _cited_list(getattr(view, name), view.links),
    ]


def _trends(view: WeekView, lang: Language) -> list[str]:
    blocks = [heading(2, view.headings["trends"])]
    if view.trends:
        blocks.append(_cited_list(view.trends, view.links))
    for chart in view.charts:
        table = _table(list(chart.table.headers), [list(row) for row in chart.table.rows])
        blocks += [heading(3, chart.title), table]
    return blocks


def _newcomers(view: WeekView, lang: Language) -> list[str]:
    _ = lang.gettext
    line, comma = _("{login}: {pulls}"), _(", ")
    lines = (
        line.format(login=escape(c.login), pulls=comma.join(map(_ref, c.pulls)))
        for c in view.newcomers
    )
    welcome = escape(_("Thank you, and welcome!"))
    return [heading(2, view.headings["newcomers"]), welcome, _list(lines)]


def _updates(view: WeekView, lang: Language) -> list[str]:
    by, reverted = lang.gettext("by {author}"), lang.gettext("reverted by")
    lines = (
        f"{_ref(row.ref)} {escape(row.title)} · {escape(by.format(author=row.author))}"
        + (f" · {escape(reverted)} {_ref(row.reverted_by)}" if row.reverted_by else "")
        for row in view.updates
    )
    return [heading(2, view.headings["updates"]), _list(lines)]


def _statistics(view: WeekView, lang: Language) -> list[str]:
    blocks = [heading(2, view.headings["statistics"])]
    for table in view.statistics:
        blocks += [heading(3, table.title), _count_table(table, lang)]
    return blocks


def _pulls(view: WeekView, lang: Language) -> list[str]:
    _ = lang.gettext
    heads = [_("PR"), _("Title"), _("Author"), _("Type"), _("Importance")]
    return [
        heading(2, view.headings["pulls"]),
        _table(heads, [_pull_row(row, lang) for row in view.pulls], escaped=True),
    ]


_SECTIONS = {
    "note": _note,
    "summary": _summary,
    "highlights": _highlights,
    "key_changes": _key_changes,
    "breaking": _cited_section("breaking"),
    "risks": _risks,
    "recommendations": _cited_section("recommendations"),
    "trends": _trends,
    "newcomers": _newcomers,
    "updates": _updates,
    "statistics": _statistics,
    "pulls": _pulls,
}


def _pull_row(row: PullRow, lang: Language) -> list[str]:
    reference = _ref(row.ref)
    author = escape(
        lang.gettext("{author} ({badge})").format(author=row.author, badge=row.badge)
        if row.badge
        else row.author
    )
    return [
        f"**{reference}**" if row.key else reference,
        escape(row.title),
        author,
        escape(row.kind),
        row.importance,
    ]


def _count_table(table: CountTable, lang: Language) -> str:
    rows = [[escape_inline(name).strip(), count] for name, count in table.rows]
    return _table([table.head, table.value_head], rows, escaped=True)


def _ref(ref: PullRef) -> str:
    return f"[#{ref.number}]({_destination(ref.url)})" if ref.url else f"\\#{ref.number}"


# --- Markdown pieces ---------------------------------------------------------------------------------


def _list(items: Iterable[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def _cited_list(texts: Iterable[Cited], links: dict[int, str]) -> str:
    return _list(linked(text, links) for text in texts)


def _table(
    heads: list[str], rows: list[list[str]], align: str = "left", escaped: bool = False
) -> str:
    """A GitHub table; cells are escaped here unless `escaped` says the caller did it (links)."""

    def cell(text: str) -> str:
        return (text if escaped else escape_inline(text).strip()) or " "  # a cell holds no blocks

    rule = "---:" if align == "right" else "---"
    lines = [
        "| " + " | ".join(escape_inline(h).strip() for h in heads) + " |",
        "|" + "|".join(f" {rule} " for _ in heads) + "|",
    ]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _destination(url: str) -> str:
    """A link destination that stays one link whatever the URL holds (parentheses, angle brackets)."""
    return "<" + quote(url, safe=":/?#[]@!$&'()*+,;=%~-._") + ">"
