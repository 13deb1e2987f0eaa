"""Summaries: one or two plain-text sentences per PR, taken from its description.

A repository's PR template is found once per repository (`template_lines`: the lines that recur
across many of its PR bodies) and left out, with HTML comments, checklists, images, code blocks and
tables. The section under a heading such as "What does this PR do", "Summary", "Motivation" or
"Description" is preferred; with nothing left, the title is the summary. Links become their text
and addresses of GitHub issues and PRs the reference GitHub shows for them (#12, owner/name#12).

The summary is whole sentences only, each as the author wrote it: a sentence that lost its object
with a removed link ("please refer to:"), that introduced a removed code block, that only says it
is a follow-up, or that is a log line is left out; a sentence too long for the summary is cut only
at a clause boundary (before the list its lead-in introduces, between list items), and when it has
none the title stands instead. The result is plain text (no HTML, no Markdown); pages escape it like
any other untrusted text.
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from collections import Counter
from collections.abc import Iterable

SUMMARY_CHARS = 280

_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~).*?(?:^\s*\1[^\n]*$|\Z)", re.DOTALL | re.MULTILINE)
_DETAILS = re.compile(r"<(details|script|style)\b.*?(?:</\1\s*>|\Z)", re.DOTALL | re.IGNORECASE)
_IMAGE = re.compile(r"!\[[^\[\]]*\]\([^()]*\)|<img\b[^<>]*>?", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
# "block[^1] folding ranges": the note itself is not shown
_FOOTNOTE_MARK = re.compile(r"\[\^[\w-]+\](?!:)")
_HEADING = re.compile(
    r"^\s{0,3}(?:#{1,6}(?=\s|$)\s*(.*?)\s*#*\s*$|\*\*([^*]{2,60})\*\*:?\s*$|([A-Z][\w &/?'-]{1,40}):?\s*$)"
)
_SETEXT = re.compile(r"^\s{0,3}(-{2,}|={2,})\s*$")
_CHECKLIST = re.compile(r"^\s*(?:[-*+]|\d+\.)?\s*\[[ xX✓✔]?\]")
_TICKED = re.compile(r"^\s*(?:[-*+]|\d+\.)?\s*\[[xX✓✔]\]\s+(?=\S)")
_CHECKED = "\ue001"  # marks a ticked checklist item in the cleaned body
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
# control characters and the invisible formatting ones (bidi overrides, zero-width) GitHub text may hide
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
_REFERENCE_LINK = re.compile(r"(?<=\s)\[([^\[\]\n]{1,80})\](?![(:\[])")
_LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+")
_MARKUP_STARTS = frozenset("-*+•>#[0123456789")
_LINK = re.compile(r"\[([^\[\]]*)\]\((?:[^()]|\([^()]*\))*\)")
# an address, without the punctuation that ends the sentence or the brackets around it
_BARE_URL = re.compile(r"<?https?://[^\s<>]*[^\s<>.,;:!?'\")\]]>?")
# an issue or PR on GitHub, as GitHub shows its address: #12 in its own repository, owner/name#12 elsewhere
_GITHUB_REFERENCE = re.compile(
    r"<?https?://github\.com/([\w.-]+/[\w.-]+)/(?:pull|issues)/(\d+)(?:[/?#][^\s<>()\[\]]*[^\s<>()\[\].,;:!?'\"])?>?"
)
_QUOTE_OR_HEADING_MARK = re.compile(r"^(?:>\s?|#{1,6}\s+)+")  # not the "#" of "#7144"
_ANSI = re.compile(r"\x1b?\[\d{1,3}(?:;\d{1,3})*m")
_REFERENCE_LEAD = re.compile(
    r"^(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|part of|ref(?:s|erences?)?|related(?: to)?|see(?: also)?|"
    r"follow[- ]?up (?:to|of)|cc|reverts?|supersedes|depends on|this reverts commit)\b:?",
    re.IGNORECASE,
)
_REFERENCE_TOKEN = re.compile(
    r"(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+|@[\w-]+(?:/[\w-]+)?|[0-9a-f]{7,40}|and|&|issues?|prs?|pull|requests?|also|\(?see\)?",
    re.IGNORECASE,
)
_SIGNATURE = re.compile(r"^(?:signed-off-by|co-authored-by|reviewed-by|change-id):", re.IGNORECASE)
_LEADING_REFERENCE = re.compile(
    r"^(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+(?:[\w.-]+/[\w.-]+)?#\d+[.,;]?\s*)+",
    re.IGNORECASE,
)
_PREFERRED = re.compile(
    r"what does this pr do|what does this do|what is this|summary|motivation|description|overview|what\b|why\b|purpose|changes|context|background|problem|this pr",
    re.IGNORECASE,
)
_SKIPPED = re.compile(
    r"checklist|test|screenshot|api and usage|usage example|design|code changes|reviewer|release note|breaking|related issue|how to|todo|note for|additional|acknowledg",
    re.IGNORECASE,
)
# a full stop then a capital (or CJK), not after "e.g." and the like; Chinese full stops end a sentence without a space
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bcf\.)(?<!:\s\d\.)\s+(?=[A-Z0-9`\"'(\[\u4e00-\u9fff])"
    r"|(?<=[。！？])\s*(?=\S)"
)
_FULL_STOP = re.compile(r"[.!?。！？][)\]\"'”’」）]*$")
# where an address was taken out of a sentence, and the words before it that only pointed at it
_HOLE = "\ue000"
_POINTING = re.compile(
    r"(?:[\s,;]*\b(?:at|in|on|from|via|with|by|for|to|of|here|this|the|a|an|pr|prs|pull request|issue|link|commit|following|below|like|"
    r"e\.g\.|i\.e\.|cf\.?))*[\s:]*" + _HOLE,
    re.IGNORECASE,
)
# a sentence left pointing at nothing once its address went: "For details, please <address>."
_POINTS_AT_NOTHING = re.compile(
    r"\b(?:please|refer|see|details?|documentation|docs|more information|info|here)\b[^.]*"
    + _HOLE
    + r"[\s.:;!]*$"
    r"|^\W*(?:please\s+)?(?:see|refer to|check(?: out)?|details?)\W*" + _HOLE,
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
# a clause pointing at a removed address in the middle of a sentence, to the sentence's end
_POINTER_CLAUSE = re.compile(
    r"[\s,;]*\b(?:please\s+)?(?:see|refer to|check(?: out)?)\W*" + _HOLE + r"[^.!?]*",
    re.IGNORECASE,
)
# the end of a sentence that introduced a code block the description no longer holds (", e.g.", "such as:"),
# or that stops on a word that cannot end it (", as"): what is left is whole
_LOST_INTRO = re.compile(
    r"(?:[\s,;]*\b(?:e\.g\.?|i\.e\.?|for example|for instance|such as|like|like this|like so|as follows|the following|below|"
    r"as|to|for|with|by|of|in|on|at|from|via|the|a|an|and|or|than))+[\s:.,]*$",
    re.IGNORECASE,
)
# a sentence whose object was the code block itself: "The code looks like this:", "It does the following:"
_LOST_OBJECT = re.compile(
    r"\b(?:like this|like so|as follows|the following|below|looks like)[\s:.,]*$", re.IGNORECASE
)
# words that only relate a PR to others: a sentence of nothing else says nothing of what it does
_RELATION_WORDS = frozenset(
    """this pr is a an the follow follows following followup follow-up up on from to of for
    and depends depend based stacked part work see also related ref refs cc closes close
    fixes fix resolves addresses partially in with as after before other others prs one
    step""".split()
)
_REFERENCE_WORD = re.compile(r"(?:[\w.-]+/[\w.-]+)?#\d+|@[\w-]+|\w+(?:[-']\w+)*")
# said while it was a draft, not of the merged PR
_DRAFT = re.compile(r"^(?:wip|draft|todo|tbd|do not merge|not ready)\b", re.IGNORECASE)
# said of another PR, which the sentence before named (ruff #26683: "That PR conservatively …")
_ANOTHER_PR = re.compile(
    r"^(?:that|the\s+(?:previous|earlier|original|linked|other))\s+(?:pr|pull\s+request|change|commit)\b",
    re.IGNORECASE,
)
# a log line, not prose
_LOG_LINE = re.compile(r"^(?:\(\w+ pid=\d+\)|Traceback\b|[A-Z]\w*(?:Error|Exception|Warning): )")
# the few words that join a lead-in to its list: "Make X asynchronous, resolving:"
_LEAD_IN_TAIL = re.compile(
    r",?\s+(?:(?:via|by|with|through|using|in|as)\s+)?(?:\w+ing|namely|including|as follows|the following|these|"
    r"the changes below|below|which (?:are|is|include)s?)$",
    re.IGNORECASE,
)
# a lead-in's last clause that only names who does what its list says: "…update_critic In this PR,
# we" (verl #4507), "…comments from #19041, specifically it" (ruff #19177)
_SUBJECT_TAIL = re.compile(
    r"[.,;]?\s+(?:(?:in|with) this (?:pr|change|patch),?\s+|specifically,?\s+)?(?:we|i|it)$",
    re.IGNORECASE,
)
# a lead-in that only names what the PR addresses: "This PR partially addresses #16418"
_ADDRESSES = re.compile(
    r"^(?:this(?: pr| change)?\s+)?(?:partially\s+|partly\s+)?(?:address|fix|close|resolve|implement)(?:es|s)?\s+(?:part of\s+)?"
    r"(?:[\w.-]+/[\w.-]+)?#\d+$",
    re.IGNORECASE,
)
# the middle of a sentence whose start went with a code block: "where each line is a cell."
_CONTINUED = re.compile(
    r"^(?:[)\]}>,;:.]|(?:where|which|whose|and|or|but|so|then|that|because|while|with|without|than|is|are|was|were|"
    r"of|in|on|at|to|from|by)\b)"
)
# a lead-in that only shows what follows it, so says nothing once that is gone
_SHOWN = re.compile(r"^here(?:'s| is| are)\b", re.IGNORECASE)
_NUMBERED = re.compile(r"^\d+[.)]\s")  # an item of a list numbered inline, apart from its lead-in
MIN_SENTENCE_WORDS = 3
# what introduces examples: a sentence that ended in one lost them with the removed block
_EXAMPLES = re.compile(
    r"\b(?:e\.g|for example|for instance|such as|like|the following|as follows|below)\b", re.I
)


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


def summary_of(description: str, title: str, limit: int = SUMMARY_CHARS) -> str:
    """The summary from an already extracted `description_text` (so it is extracted once): its
    first whole sentence, and the one right after it when both are short; the title when it has none."""
    sentences = [
        whole_sentence(sentence)
        for joined in _SENTENCE_END.split(description)
        for sentence in _unjoined(joined)
    ]
    first = next((i for i, sentence in enumerate(sentences) if sentence), None)
    lead = sentences[first] if first is not None else None
    summary = shortened(lead, limit) if lead else None
    if summary is None or first is None:
        return cap(plain(title), limit)
    # never one that skips a sentence left out
    following = sentences[first + 1] if first + 1 < len(sentences) else None
    if following and summary == lead and len(summary) + len(following) < limit * 0.8:
        joiner = "" if summary.endswith(("。", "！", "？")) else " "
        summary = f"{summary}{joiner}{following}"
    return summary


def _unjoined(sentence: str) -> list[str]:
    """A lead-in and what followed the code block it introduced, which the description joins
    ("…wrappers, like: As we walk the arguments…"), as the two sentences they are; a continuation
    of the removed block ("like this: where each line…") left out, and so is a list numbered inline."""
    lead, colon, rest = sentence.partition(": ")
    if colon and _LOST_INTRO.search(lead):
        return [lead, rest] if rest and not _CONTINUED.match(rest) else [lead]
    # "…by adding: 1. X. 2. Y.": the lead-in, its items numbered inline
    if colon and re.match(r"1[.)]\s", rest):
        return [lead]
    return [sentence]


def whole_sentence(sentence: str) -> str | None:
    """`sentence` as a reader can take it alone, or None: without the tail a removed link or code
    block left ("…, please refer to:", "…, e.g."), never one that points at nothing, follows
    nothing, is a log line or starts in the middle of something removed."""
    text = sentence.strip()
    if (
        not text
        or _CONTINUED.match(text)
        or _NUMBERED.match(text)
        or _LOG_LINE.search(text)
        or _DRAFT.match(text)
        or _ANOTHER_PR.match(text)
        or _only_relations(text)
        or text.endswith(":")  # it introduced a code block, table or link that is gone
        or _half_an_aside(text)
    ):
        return None
    core = re.sub(r"[.。]$", "", text)
    if _LOST_OBJECT.search(core):
        return None
    # a sentence its author ended in "..." (Python's Ellipsis, `pass` or `...`) lost no block
    trimmed = core if core.endswith("...") else _LOST_INTRO.sub("", core).rstrip(" ,;:-—")
    words = (
        len(re.findall(r"[^\W\u4e00-\u9fff]+", trimmed))
        + len(re.findall(r"[\u4e00-\u9fff]", trimmed)) // 2
    )
    if words < MIN_SENTENCE_WORDS or _ADDRESSES.match(trimmed):
        return None
    # what its examples showed is gone, and a short rest says nothing ("This PR fixes errors
    # like" before a removed block, ruff #16407)
    if words < 2 * MIN_SENTENCE_WORDS and _EXAMPLES.search(core[len(trimmed) :]):
        return None
    if trimmed != core or not _FULL_STOP.search(text):
        return trimmed + ("。" if _mostly_chinese(trimmed) else ".")
    return text


def _half_an_aside(text: str) -> bool:
    """A bracket opened and not closed ("…(tested up to 0.16" before a removed address, or a
    sentence ended inside the brackets), or closed without being opened (the rest of that aside);
    "1) first, 2) second" numbers items and is whole."""
    unpaired = text
    while (fewer := re.sub(r"\([^()]*\)", "", unpaired)) != unpaired:
        unpaired = fewer
    return "(" in unpaired or ")" in re.sub(r"(?:^|\s)(?:\d+|[a-z])\)", " ", unpaired)


def _only_relations(sentence: str) -> bool:
    """ "Follows on from (and depends on) #18021.", "This is a follow-up to #12.", "Closes #3.":
    besides references, at most one word that does not only relate PRs."""
    tokens = _REFERENCE_WORD.findall(sentence.lower())
    words = [w for w in tokens if "#" not in w and not w.startswith("@")]
    relates = len(words) < len(tokens) or any(
        w.startswith(("follow", "depend", "stacked")) for w in words
    )
    return relates and len([w for w in words if w not in _RELATION_WORDS]) < 2


def shortened(sentence: str, limit: int) -> str | None:
    """`sentence` within `limit` characters, cut only where a clause ends: before the list its
    lead-in introduces ("Make X asynchronous, resolving: A; B; C" -> "Make X asynchronous."), or
    after the list items that fit ("A; B; C" -> "A; B."); None when it has no such boundary."""
    if len(sentence) <= limit:
        return sentence
    lead, colon, items_text = _outside_brackets(sentence, ": ", 1)
    lead = _SUBJECT_TAIL.sub("", _LEAD_IN_TAIL.sub("", lead.rstrip())) if colon else lead
    if colon and _ADDRESSES.match(lead):
        sentence = capitalised(items_text)  # the items say what it does
    elif colon and len(re.findall(r"\w+", lead)) >= MIN_SENTENCE_WORDS and len(lead) < limit:
        return lead.rstrip(" ,;") + "."
    items = _outside_brackets(sentence, "; ")
    items[0] = _SUBJECT_TAIL.sub("", items[0])  # a lead-in its list follows without a colon
    kept = ""
    for item in items:
        joined = f"{kept}; {item}" if kept else item
        if len(joined) >= limit:
            break
        kept = joined
    return kept.rstrip(" ,;.") + "." if len(items) > 1 and kept else None


def _outside_brackets(text: str, separator: str, most: int = -1) -> list[str]:
    """`text` split at `separator` where it stands outside brackets ("(see: #12)" holds no clause
    boundary), at most `most` times; with `most` 1, always [before, separator or "", after]."""
    parts: list[str] = []
    depth = start = 0
    for index, character in enumerate(text):
        depth += (character in "([{") - (character in ")]}")
        if (
            depth <= 0
            and text.startswith(separator, index)
            and index >= start
            and (most < 0 or len(parts) < most)
        ):
            parts.append(text[start:index])
            start = index + len(separator)
    parts.append(text[start:])
    if most == 1:
        return [parts[0], separator, parts[1]] if len(parts) == 2 else [text, "", ""]
    return parts


def capitalised(text: str) -> str:
    """`text` with a capital first letter, unless it starts with a name written in lower case on
    purpose: "volcengine/verl#4280", "ty_extensions", "uv"'s "--fix"."""
    first = text.split(None, 1)[0] if text.split() else ""
    if not first[:1].islower() or re.search(r"[/#_`.\d]|[a-z][A-Z]", first):
        return text
    return text[0].upper() + text[1:]


def _mostly_chinese(text: str) -> bool:
    return sum("\u4e00" <= c <= "\u9fff" for c in text) > len(text) / 4


_SQUASHED_COMMITS = re.compile(r"\* [^\n]+(?:\n\n\* [^\n]+)+")


# a PR's summary, consequences and mitigation each read its body: it is cleaned once (the calls
# for one PR come together, so a few entries are enough)
@functools.lru_cache(maxsize=32)
def description_text(body: str, template: frozenset[str] = frozenset(), repo: str = "") -> str:
    """The meaningful prose of a PR body, as plain text: the preferred section if there is one,
    else the first section with any. Empty when the body holds only template and markup.
    `repo` ("owner/name") is the PR's own repository: its issues and PRs are said as "#12".
    The commit messages GitHub lists in a squashed PR's body say no more than the title: the first
    is often undone by a later one (verl #52: "move … to verl/trainer", then "move workers out of
    trainers")."""
    if body and _SQUASHED_COMMITS.fullmatch(body.replace("\r\n", "\n").strip()):
        return ""
    sections = body_sections(body, template, repo)
    for heading, lines, skipped in sections:
        if (
            heading
            and _PREFERRED.search(heading)
            and not skipped
            and (text := _paragraph_text(lines, checked=True))
        ):
            return text
    for _heading, lines, skipped in sections:
        if not skipped and (text := _paragraph_text(lines)):
            return text
    return ""


@functools.lru_cache(maxsize=32)
def clean_body(body: str, template: frozenset[str] = frozenset(), repo: str = "") -> str:
    """The body without HTML comments, code blocks, details, images, checklists, template lines,
    tables and bare references; headings kept (as Markdown headings) to find sections."""
    if not body:
        return ""
    lines: list[str] = []
    in_checklist = False
    for line in _without_markup(body, repo).split("\n"):
        normal = normalise_line(line)
        if normal in template and not line.lstrip().startswith(("#", "**")):
            in_checklist = False
            continue
        # what the author ticked may say what the PR does: kept, marked, for a "what" section only
        if ticked := _TICKED.match(line):
            lines.append(f"{_CHECKED}- {line[ticked.end() :].strip()}")
            in_checklist = False
            continue
        # an unticked item wrapped over lines goes whole: its next lines are neither blank nor a new item or heading
        in_checklist = bool(_CHECKLIST.match(line)) or (
            in_checklist
            and bool(line.strip())
            and not _BULLET.match(line)
            and not _HEADING.match(line)
        )
        if (
            in_checklist
            or line.lstrip().startswith("|")
            or _CODE_SPAN.sub("", line).count("|") >= 2  # not `|` the operator (ruff #16044)
            or _LINK_DEFINITION.match(line)
        ):
            continue  # checklists, tables (and logs drawn as tables), link definitions
        lines.extend(
            _kept_of_reference(line, normal, lines[-1].rstrip() if lines else "")
            if _is_reference_only(normal)
            else (line,)
        )
    # "an old [review comment]" whose URL is defined elsewhere; after checklists ("- [x]") are gone
    return _REFERENCE_LINK.sub(r"\1", "\n".join(lines))


def _without_markup(body: str, repo: str) -> str:
    """The body without comments, details, code blocks, images and colours; links as their text, and
    addresses of GitHub issues and PRs as references ("#12" in `repo`, "owner/name#12" elsewhere)."""
    # the marks are ours alone
    text = body.replace("\r\n", "\n").replace("\r", "\n").replace(_HOLE, "").replace(_CHECKED, "")
    text = _COMMENT.sub("", text)
    text = _DETAILS.sub("", text)
    text = _FENCE.sub("", text)
    text = _IMAGE.sub("", text)
    text = _ANSI.sub("", text)
    text = _GITHUB_REFERENCE.sub(
        lambda m: f"#{m[2]}" if m[1].lower() == repo.lower() else f"{m[1]}#{m[2]}", text
    )
    text = _LINK.sub(lambda m: " ".join(m[1].split()), text)  # links wrapped over lines too
    return re.sub(r"\(\s*<?https?://[^()\s]*>?\s*\)", "", text)  # "(https://...)" after a name


def _kept_of_reference(line: str, normal: str, before: str) -> tuple[str, ...]:
    """What stays of a line that is only a reference, after the line `before` it."""
    if before.endswith(":"):
        return (_HOLE,)  # "use mbridge with pr:" lost what it pointed at
    if (
        before
        and not before.endswith((".", "!", "?"))
        and not _REFERENCE_LEAD.match(normal)
        and not _BULLET.match(line)
    ):
        return (line,)  # "a regression test for\nastral-sh/ty#627." ends the sentence above
    return ()


def _is_reference_only(line: str) -> bool:
    """ "Closes #12", "cc @someone", "See https://…", "#3, #4", a bare URL, a sign-off: no prose."""
    if _SIGNATURE.match(line):
        return True
    lead = _REFERENCE_LEAD.match(line)
    rest = line[lead.end() :] if lead else line
    tokens = [t for t in re.split(r"[\s,;()]+", rest.strip(" .")) if t]
    return bool(tokens) and all(_REFERENCE_TOKEN.fullmatch(t.rstrip(".")) for t in tokens)


def body_sections(
    body: str, template: frozenset[str] = frozenset(), repo: str = ""
) -> list[tuple[str | None, list[str], bool]]:
    """(heading, its lines, skipped) of a body cleaned as for a summary (clean_body), Markdown kept."""
    return _sections(clean_body(body, template, repo)) if body and body.strip() else []


def _sections(text: str) -> list[tuple[str | None, list[str], bool]]:
    """(heading, its lines, skipped) in order; the text before any heading has heading None. A
    section is skipped when its heading or a heading above it is (_SKIPPED): "#### rollout" under
    "### Test" is test output."""
    sections: list[tuple[str | None, list[str], bool]] = [(None, [], False)]
    # (level, skipped) of the headings the current line is under
    open_headings: list[tuple[int, bool]] = []
    lines = text.split("\n")
    for index, line in enumerate(lines):
        heading, level = _heading_of(
            line, lines[index + 1] if index + 1 < len(lines) else "", sections[-1][1]
        )
        if heading is None:
            sections[-1][1].append(line)
            continue
        open_headings = [(lvl, skip) for lvl, skip in open_headings if lvl < level]
        skipped = bool(_SKIPPED.search(heading)) or any(skip for _, skip in open_headings)
        open_headings.append((level, skipped))
        sections.append((heading, [], skipped))
    return [
        (heading, body, skipped)
        for heading, body, skipped in sections
        if any(line.strip() for line in body)
    ]


def _heading_of(line: str, following: str, above: list[str]) -> tuple[str | None, int]:
    """(heading, level) when `line` is a heading, else (None, 0). A setext underline ("Summary\n--",
    as ruff writes them) takes its heading from `above`, the lines of the section so far."""
    stripped = line.strip()
    if _SETEXT.match(stripped) and above and above[-1].strip():
        return above.pop().strip(), 1 if stripped.startswith("=") else 2
    match = _HEADING.match(line)
    if not match:
        return None, 0
    alone = not following.strip() or _SETEXT.match(following.strip())
    if stripped.startswith(("#", "**")) or (
        alone and len(stripped) < 40 and _looks_like_heading(stripped)
    ):
        heading = next(g for g in match.groups() if g is not None) or ""
        # bold and plain-text headings: below any "#"
        return heading, len(stripped) - len(stripped.lstrip("#")) or 7
    return None, 0


def _looks_like_heading(line: str) -> bool:
    # a short line such as "Summary" or "Motivation:" alone before a blank line
    return bool(_PREFERRED.search(line) or _SKIPPED.search(line)) and len(line.split()) <= 5


def _paragraph_text(lines: list[str], checked: bool = False) -> str:
    """The first paragraph (or list) of a section as one line of plain text; with `checked`, the
    items the author ticked count as the list they are ("- [x] Migrate RolloutSkip")."""
    lines = [
        line.removeprefix(_CHECKED) for line in lines if checked or not line.startswith(_CHECKED)
    ]
    paragraphs = [
        list(group)
        for blank, group in itertools.groupby(lines, key=lambda line: not line.strip())
        if not blank
    ]
    fallback = lead_in = ""
    for paragraph in paragraphs:
        text = _LEADING_REFERENCE.sub("", _join(paragraph))
        words = len(re.findall(r"\w+", text))
        if words < 3:
            continue
        if paragraph[-1].rstrip().endswith(":") and not lead_in:
            if words < 8:  # "This PR contains the following updates:" before a removed table
                fallback = fallback or text
            elif _SHOWN.match(text):  # "Here's an example diagnostic …:" before a removed image
                continue
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
        text = (line[item.end() :] if item else line).strip()
        if not text:
            continue
        if item:
            if parts and not parts[-1].endswith((".", "!", "?", ":", ";")):
                parts[-1] = parts[-1].rstrip(",") + (";" if len(parts[-1]) < 200 else ".")
            text = capitalised(text)
        parts.append(_QUOTE_OR_HEADING_MARK.sub("", text))
    return plain(" ".join(parts))


def plain(text: str) -> str:
    """Markdown and HTML reduced to plain text on one line."""
    text = _without_addresses(_LINK.sub(r"\1", text))
    text = _TAG.sub("", _FOOTNOTE_MARK.sub("", text))
    text = re.sub(r"^\s*>+\s?", "", text)
    text = re.sub(r"^\s*#{1,6}(?=\s)\s*", "", text)
    text = text.replace("**`", "`").replace("`**", "`")  # **`bold code`**
    # emphasis marks go, but not inside `code` (a `__all__` keeps its underscores)
    text = "".join(
        part if index % 2 else _unemphasise(part)
        for index, part in enumerate(re.split(r"`+([^`]*)`+", text))
    )
    text = text.replace("`", "")
    text = html.unescape(text)
    text = _TAG.sub("", text)  # tags written as entities, now unescaped
    text = _INVISIBLE.sub(" ", text)
    return " ".join(text.split()).strip(" -:")


def _without_addresses(text: str) -> str:
    """Text without its bare addresses: with the words that only pointed at one ("see", "please
    refer to:", "with pr"), and without a sentence that then points at nothing."""
    if "://" not in text and _HOLE not in text:
        return text
    text = _POINTING.sub(_HOLE, _BARE_URL.sub(_HOLE, text))
    text = re.sub(
        r"\s*[(\[]\s*(?:see|cf\.?|ref\.?|refer to|details)?\W*" + _HOLE + r"\s*[)\]]",
        "",
        text,
        flags=re.IGNORECASE,
    )  # "(see https://…)"
    # what is left of "…, see <address> for the official docs": the pointer and all it said of it
    sentences = [
        _POINTER_CLAUSE.sub("", sentence)
        for sentence in _SENTENCE_END.split(text)
        if not _POINTS_AT_NOTHING.search(sentence)
    ]
    return re.sub(
        r"\s*" + _HOLE + r"\s*",
        lambda m: "" if m.end() == m.endpos or m.string[m.end()] in ".,;:!?)" else " ",
        " ".join(sentences),
    )


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


def section_sentences(
    body: str, heading: re.Pattern, template: frozenset[str] = frozenset(), repo: str = ""
) -> str:
    """The first whole sentences of the first section whose heading matches `heading` ("Breaking
    changes", "Migration guide"), as plain text; "" when no such section says anything."""
    for name, lines, _skipped in body_sections(body, template, repo):
        if name and heading.search(name) and (text := _paragraph_text(lines, checked=True)):
            return summary_of(text, "")
    return ""
