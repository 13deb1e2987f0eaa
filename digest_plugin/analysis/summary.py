"""Summaries: one or two plain-text sentences per PR, taken from its description.

A repository's PR template is found once per repository (`template_lines`: the lines that recur
across many of its PR bodies) and left out, with HTML comments, checklists, images, code blocks and
tables. The section under a heading such as "What does this PR do", "Summary", "Motivation" or
"Description" is preferred; with nothing left, the title is the summary. The result is plain
text (no HTML, no Markdown), capped in length; pages escape it like any other untrusted text.
"""

from __future__ import annotations

import functools
import html
import re
from collections import Counter
from collections.abc import Iterable

SUMMARY_CHARS = 280

_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~).*?(?:^\s*\1[^\n]*$|\Z)", re.DOTALL | re.MULTILINE)
_DETAILS = re.compile(r"<(details|script|style)\b.*?(?:</\1\s*>|\Z)", re.DOTALL | re.IGNORECASE)
_IMAGE = re.compile(r"!\[[^\[\]]*\]\([^()]*\)|<img\b[^<>]*>?", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_HEADING = re.compile(r"^\s{0,3}(?:#{1,6}\s*(.*?)\s*#*\s*$|\*\*([^*]{2,60})\*\*:?\s*$|([A-Z][\w &/?'-]{1,40}):?\s*$)")
_SETEXT = re.compile(r"^\s{0,3}(-{2,}|={2,})\s*$")
_CHECKLIST = re.compile(r"^\s*(?:[-*+]|\d+\.)?\s*\[[ xX✓✔]?\]")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
# control characters and the invisible formatting ones (bidi overrides, zero-width) GitHub text may hide
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
_REFERENCE_LINK = re.compile(r"(?<=\s)\[([^\[\]\n]{1,80})\](?![(:\[])")
_LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+")
_MARKUP_STARTS = frozenset("-*+•>#[0123456789")
_LINK = re.compile(r"\[([^\[\]]*)\]\((?:[^()]|\([^()]*\))*\)")
_BARE_URL = re.compile(r"<?https?://\S+>?")
_REFERENCE_LEAD = re.compile(
    r"^(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|part of|ref(?:s|erences?)?|related(?: to)?|see(?: also)?|"
    r"follow[- ]?up (?:to|of)|cc|reverts?|supersedes|depends on|this reverts commit)\b:?",
    re.IGNORECASE,
)
_REFERENCE_TOKEN = re.compile(r"(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+|@[\w-]+(?:/[\w-]+)?|[0-9a-f]{7,40}|and|&|issues?|prs?|pull|requests?|also|\(?see\)?", re.IGNORECASE)
_SIGNATURE = re.compile(r"^(?:signed-off-by|co-authored-by|reviewed-by|change-id):", re.IGNORECASE)
_LEADING_REFERENCE = re.compile(r"^(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+(?:[\w.-]+/[\w.-]+)?#\d+[.,;]?\s*)+", re.IGNORECASE)
_PREFERRED = re.compile(r"what does this pr do|what does this do|what is this|summary|motivation|description|overview|what\b|why\b|purpose|changes|context|background|problem|this pr", re.IGNORECASE)
_SKIPPED = re.compile(r"checklist|test|screenshot|api and usage|usage example|design|code changes|reviewer|release note|breaking|related issue|how to|todo|note for|additional|acknowledg", re.IGNORECASE)
# a full stop then a capital (or CJK); Chinese full stops end a sentence without a space
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[\u4e00-\u9fff])|(?<=[。！？])\s*(?=\S)")


@functools.lru_cache(maxsize=1 << 16)  # a pure function; template lines recur thousands of times
def normalise_line(line: str) -> str:
    """A body line as template detection compares it: without markup, case or spacing."""
    line = line.strip()
    if line and line[0] in _MARKUP_STARTS:
        line = _CHECKLIST.sub("", line)
        line = _BULLET.sub("", line)
        line = line.lstrip("># \t")
    return " ".join(line.lower().split())


def template_lines(bodies: Iterable[str], share: float = 0.03, minimum: int = 4) -> frozenset[str]:
    """The normalised lines that recur in at least `share` of the bodies (and `minimum` of them):
    a repository's PR template, as its contributors leave it in their descriptions."""
    counts: Counter[str] = Counter()
    total = 0
    for body in bodies:
        if not body:
            continue
        total += 1
        counts.update({n for n in map(normalise_line, body.splitlines()) if len(n) > 3})
    needed = max(minimum, share * total)
    return frozenset(line for line, count in counts.items() if count >= needed)


def summarise(body: str, title: str, template: frozenset[str] = frozenset(), limit: int = SUMMARY_CHARS) -> str:
    """One or two sentences from the description, else the title; plain text, at most `limit` chars."""
    return summary_of(description_text(body, template), title, limit)


def summary_of(description: str, title: str, limit: int = SUMMARY_CHARS) -> str:
    """The summary from an already extracted `description_text` (so it is extracted once)."""
    if not description:
        return cap(plain(title), limit)
    sentences = _SENTENCE_END.split(description, maxsplit=2)
    summary = sentences[0]
    if len(sentences) > 1 and len(summary) + len(sentences[1]) < limit * 0.8:
        joiner = "" if summary.endswith(("。", "！", "？")) else " "
        summary = f"{summary}{joiner}{sentences[1]}"
    return cap(summary, limit)


def description_text(body: str, template: frozenset[str] = frozenset()) -> str:
    """The meaningful prose of a PR body, as plain text: the preferred section if there is one,
    else the first section with any. Empty when the body holds only template and markup."""
    if not body or not body.strip():
        return ""
    sections = _sections(clean_body(body, template))
    for heading, lines in sections:
        if heading and _PREFERRED.search(heading) and not _SKIPPED.search(heading) and (text := _paragraph_text(lines)):
            return text
    for heading, lines in sections:
        if not (heading and _SKIPPED.search(heading)) and (text := _paragraph_text(lines)):
            return text
    return ""


def clean_body(body: str, template: frozenset[str] = frozenset()) -> str:
    """The body without HTML comments, code blocks, details, images, checklists, template lines,
    tables and bare references; headings kept (as Markdown headings) to find sections."""
    if not body:
        return ""
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    text = _COMMENT.sub("", text)
    text = _DETAILS.sub("", text)
    text = _FENCE.sub("", text)
    text = _IMAGE.sub("", text)
    text = re.sub(r"\(\s*<?https?://[^()\s]*>?\s*\)", "", text)  # "(https://...)" after a name
    text = _LINK.sub(lambda m: " ".join(m[1].split()), text)  # links wrapped over lines too
    lines = []
    for line in text.split("\n"):
        if _CHECKLIST.match(line) or line.lstrip().startswith("|") or line.count("|") >= 2 or _LINK_DEFINITION.match(line):
            continue  # checklists, tables (and logs drawn as tables), link definitions
        normal = normalise_line(line)
        if normal in template and not line.lstrip().startswith(("#", "**")):
            continue
        if _is_reference_only(normal):
            continue
        lines.append(line)
    # "an old [review comment]" whose URL is defined elsewhere; after checklists ("- [x]") are gone
    return _REFERENCE_LINK.sub(r"\1", "\n".join(lines))


def _is_reference_only(line: str) -> bool:
    """"Closes #12", "cc @someone", "See https://…", "#3, #4", a bare URL, a sign-off: no prose."""
    if _SIGNATURE.match(line):
        return True
    lead = _REFERENCE_LEAD.match(line)
    rest = line[lead.end():] if lead else line
    tokens = [t for t in re.split(r"[\s,;()]+", rest.strip(" .")) if t]
    return bool(tokens) and all(_REFERENCE_TOKEN.fullmatch(t.rstrip(".")) for t in tokens)


def _sections(text: str) -> list[tuple[str | None, list[str]]]:
    """(heading, its lines) in order; the text before any heading has heading None."""
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.strip()
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _SETEXT.match(stripped) and sections[-1][1] and sections[-1][1][-1].strip():
            heading = sections[-1][1].pop()  # "Summary\n--" headings, as ruff writes them
            sections.append((heading.strip(), []))
            continue
        match = _HEADING.match(line)
        is_heading = match and (stripped.startswith(("#", "**")) or ((not following.strip() or _SETEXT.match(following.strip())) and len(stripped) < 40 and _looks_like_heading(stripped)))
        if is_heading:
            sections.append((next(g for g in match.groups() if g is not None) or "", []))
        else:
            sections[-1][1].append(line)
    return [(heading, body) for heading, body in sections if any(line.strip() for line in body)]


def _looks_like_heading(line: str) -> bool:
    # a short line such as "Summary" or "Motivation:" alone before a blank line
    return bool(_PREFERRED.search(line) or _SKIPPED.search(line)) and len(line.split()) <= 5


def _paragraph_text(lines: list[str]) -> str:
    """The first paragraph (or list) of a section as one line of plain text."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if not line.strip():
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        paragraphs[-1].append(line)
    fallback = lead_in = ""
    for paragraph in paragraphs:
        text = _LEADING_REFERENCE.sub("", _join(paragraph))
        words = len(re.findall(r"\w+", text))
        if words < 3:
            continue
        if paragraph[-1].rstrip().endswith(":") and not lead_in:
            if words < 8:  # "This PR contains the following updates:" before a removed table
                fallback = fallback or text
            else:  # "Make the dump asynchronous, resolving:" reads on into its list
                lead_in = text + ":"
            continue
        return f"{lead_in} {text}" if lead_in else text
    return lead_in.rstrip(":") or fallback


def _join(lines: list[str]) -> str:
    """Lines of one paragraph as plain text; list items become sentences."""
    parts: list[str] = []
    for line in lines:
        item = _BULLET.match(line)
        text = (line[item.end():] if item else line).strip()
        if not text:
            continue
        if item:
            if parts and not parts[-1].endswith((".", "!", "?", ":", ";")):
                parts[-1] += ";" if len(parts[-1]) < 200 else "."
            text = text[:1].upper() + text[1:]
        parts.append(text.lstrip("> #") if text[0] in "> #" else text)
    return plain(" ".join(parts))


def plain(text: str) -> str:
    """Markdown and HTML reduced to plain text on one line."""
    text = _LINK.sub(r"\1", text)
    text = _BARE_URL.sub("", text)
    text = _TAG.sub("", text)
    text = re.sub(r"^\s*>+\s?", "", text)
    text = re.sub(r"^\s*#{1,6}\s*", "", text)
    text = text.replace("**`", "`").replace("`**", "`")  # **`bold code`**
    # emphasis marks go, but not inside `code` (a `__all__` keeps its underscores)
    text = "".join(part if index % 2 else _unemphasise(part) for index, part in enumerate(re.split(r"`+([^`]*)`+", text)))
    text = text.replace("`", "")
    text = html.unescape(text)
    text = _TAG.sub("", text)  # tags written as entities, now unescaped
    text = _INVISIBLE.sub(" ", text)
    return " ".join(text.split()).strip(" -:")


def _unemphasise(text: str) -> str:
    # spans are bounded so that a body of unclosed markers cannot make this quadratic
    text = re.sub(r"(\*\*|__|~~)(\S(?:.{0,300}?\S)?)\1", r"\2", text)
    return re.sub(r"(?<!\w)[*_](\S(?:.{0,300}?\S)?)[*_](?!\w)", r"\1", text)


def cap(text: str, limit: int = SUMMARY_CHARS) -> str:
    """At most `limit` characters, cut at a word boundary with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.-") + "…"
