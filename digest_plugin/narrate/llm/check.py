"""The sentence check: a model's sentence survives only if the data says what it says.

Pure. A sentence is kept when
- every `#N` it writes and every number it lists is a pull request of the week (of the risk, for a risk);
- every figure it lists is a figure of the analysis, by name and exact value, and every number it
  writes, in digits of any kind or in words (`numbers.py`), is exactly one of the figures it lists
  (so "32 PRs merged" fails when the analysis says 31, and so do "thirty-two PRs", "㉜ PRs" and
  "31 key PRs" listed as the key count when 31 is the merged count); a number it writes that cannot
  be read with certainty fails too;
- every file, version, identifier or acronym it names appears in the data of the pull requests it
  cites (the week's module and label names may be used anywhere);
- a sentence about a review (a verdict's words, or a reviewer of the week named as @login) writes
  as #N a pull request that has reviews, and every reviewer it names reviewed one it writes;
- it is plain text (no links, no markup) in the site's language.

What it cannot see: a claim without a name or a number ("a careful refactor") is taken on trust.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from digest_plugin.analysis.model import WeekAnalysis
from digest_plugin.narrate.llm.answer import Sentence
from digest_plugin.narrate.llm.numbers import DECIMAL, stated_numbers

MAX_CHARACTERS = 600
# as model.CITATION, but "修复#12的" cites #12 too
WRITTEN_CITATION = re.compile(r"(?<![A-Za-z0-9_&])#(\d+)(?!\d)")
_URL = re.compile(
    r"https?://|www\.|\b[\w-]+\.(?:com|org|net|io|dev|ai|xyz)\b", re.IGNORECASE | re.ASCII
)
_MARKUP = re.compile(r"<\s*/?\s*[A-Za-z][^>]*>|\]\(|\*\*|^#+\s|\{[A-Za-z_]\w*\}")
_BACKTICKED = re.compile(r"`([^`]+)`")
_PATH = re.compile(
    r"(?<![\w./-])(?:[\w.-]+/)+[\w.-]*\w"  # with a folder: src/core.py, .github/workflows/
    r"|(?<![\w./-])[\w-]+\.(?:py|pyi|rs|toml|ya?ml|json|md|rst|txt|cfg|ini|lock|js|ts|tsx|go|c|h|cc|cpp|hpp|sh|java|kt|sql|html|css|proto)\b",
    re.ASCII,
)
_VERSION = re.compile(r"(?<![\w.])v\d+(?:\.\d+)*[\w.+-]*|(?<![\w.])\d+\.\d+\.\d+[\w.+-]*", re.ASCII)
_MENTION = re.compile(r"(?<![\w@])@[\w-]+", re.ASCII)
# Names a reader takes as specific: snake_case, dotted.names, CamelCase, letters with digits, ACRONYMS.
_IDENTIFIER = re.compile(
    r"\b[A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]+\b"
    r"|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b"
    r"|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z0-9]+[A-Z]\w*\b"
    r"|\b(?=\w*[A-Za-z])(?=\w*\d)\w+\b"
    r"|\b[A-Z]{2,}[0-9]*s?\b",
    re.ASCII,
)
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$")
# Words that say what a reviewer decided ("approved by", "changes were requested", "批准", "要求修改"); not
# "review" itself, which a sentence on a risk uses for the review a change still deserves
_VERDICT = re.compile(
    r"\b(?:approv\w*|requested changes|changes (?:were |was )?requested|change requests?|lgtm)\b"
    r"|批准|通过评审|要求修改|修改请求",
    re.IGNORECASE,
)
# Words of that shape that name nothing in particular.
GENERIC = {
    w.lower()
    for w in """
    PR PRs CI CD API APIs CLI UI CPU CPUs GPU GPUs URL URLs HTTP HTTPS JSON YAML TOML SDK OS IO ID IDs
    GitHub README e.g i.e etc OK TODO
    """.split()
}
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class WeekFacts:
    """What a sentence is checked against, taken once per week from the analysis."""

    pulls: frozenset[int]
    figures: Mapping[str, float]
    # each PR's data as one text: title, body, files, labels, modules, author, reviews, diff
    texts: Mapping[int, str]
    names: str  # names any sentence may use: repository, week, modules, labels, theme names, risk kinds
    week: str
    themes: Mapping[str, tuple[int, ...]]  # each theme's PRs, by its name
    # each reviewed PR's reviewers, lower-case
    reviewers: Mapping[int, frozenset[str]] = field(default_factory=dict)
    authors: Mapping[int, str] = field(default_factory=dict)  # each PR's author, lower-case

    @classmethod
    def of(cls, week: WeekAnalysis, figures: Mapping[str, float]) -> WeekFacts:
        texts, reviewers, authors = {}, {}, {}
        for analysed in week.pulls:
            pull, kind = analysed.pull, analysed.classification
            texts[pull.number] = "\n".join(
                [
                    pull.title,
                    pull.body,
                    pull.author.login,
                    kind.type or "",
                    *pull.labels,
                    *kind.labels,
                    *kind.modules,
                    *kind.topics,
                    *(f.path for f in pull.files),
                    *(text for r in pull.verdicts for text in (r.author, r.body)),
                    *(text for c in pull.threads for text in (c.author, c.body)),
                    pull.diff or "",
                ]
            )
            authors[pull.number] = pull.author.login.lower()
            if pull.verdicts or pull.threads:
                reviewers[pull.number] = frozenset(
                    login.lower()
                    for login in (
                        *(r.author for r in pull.verdicts),
                        *(c.author for c in pull.threads),
                    )
                )
        names = "\n".join(
            [
                week.repo,
                week.week,
                *week.stats.modules,
                *week.stats.labels,
                *(t.name for t in week.themes),
                *(r.kind for r in week.risks),
            ]
        )
        return cls(
            frozenset(texts),
            dict(figures),
            texts,
            names,
            week.week,
            {t.name: t.pulls for t in week.themes},
            reviewers,
            authors,
        )


def check_sentence(
    sentence: Sentence,
    facts: WeekFacts,
    language: str,
    allowed: Collection[int] | None = None,
    implied: Collection[int] = (),
    scope: str = "risk",
) -> str | None:
    """Why `sentence` must be rejected, in a few words; None when it checks out.

    `allowed`: the only PRs it may cite (those of the `scope`, a risk or a theme); `implied`: PRs it
    speaks of without citing (the key PR a key-change sentence is about), whose data its names may come from.
    """
    text = sentence.text
    if not text:
        return "it is empty"
    if len(text) > MAX_CHARACTERS:
        return f"it is longer than {MAX_CHARACTERS} characters"
    if _URL.search(text):
        return "it contains a web address"
    if _MARKUP.search(text):
        return "it contains markup"
    written = [int(m[1]) for m in WRITTEN_CITATION.finditer(text)]
    for number in (*written, *sentence.pulls):
        if number not in facts.pulls:
            return f"it cites #{number}, which is not a pull request of this week"
        if allowed is not None and number not in allowed:
            return f"it cites #{number}, which is not one of this {scope}'s pull requests"
    problem = _review_problem(text, written, facts)
    if problem:
        return problem
    rest = WRITTEN_CITATION.sub(" ", text.replace(facts.week, " "))
    cited = {*written, *sentence.pulls, *implied}
    rest, problem = _without_names(rest, cited, facts)
    if problem:
        return problem
    return _figures_problem(rest, sentence, facts) or _language_problem(rest, language)


def _review_problem(text: str, written: Collection[int], facts: WeekFacts) -> str | None:
    """Why a sentence about a review does not stand: it writes no reviewed PR, or names a reviewer
    of the week who reviewed none of those it writes (a PR's own author may be named as ever)."""
    everyone = set().union(*facts.reviewers.values()) if facts.reviewers else set()
    named = [m[0][1:] for m in _MENTION.finditer(text) if m[0][1:].lower() in everyone]
    if not named and not _VERDICT.search(text):
        return None
    reviewed = [n for n in written if n in facts.reviewers]
    if not reviewed:
        return "it speaks of a review without writing, as #N, a pull request that has reviews"
    allowed = set().union(*(facts.reviewers[n] for n in reviewed)) | {
        facts.authors.get(n, "") for n in written
    }
    for login in named:
        if login.lower() not in allowed:
            return f"it names @{login}, who reviewed none of the pull requests it writes"
    return None


def _without_names(text: str, cited: Collection[int], facts: WeekFacts) -> tuple[str, str | None]:
    """`text` with the names it mentions taken out, or why one of them is not in the data."""
    sources = "\n".join([facts.names, *(facts.texts[n] for n in cited if n in facts.texts)])
    lowered = sources.lower()
    for pattern, exact in (
        (_BACKTICKED, True),
        (_PATH, True),
        (_VERSION, True),
        (_MENTION, False),
        (_IDENTIFIER, False),
    ):
        for match in pattern.finditer(text):
            name = match[1] if pattern is _BACKTICKED else match[0]
            name = name.strip().rstrip(".")
            if pattern is _MENTION:
                name = name[1:]
            if not name or name.lower() in GENERIC or _ORDINAL.match(name):
                continue
            if pattern is _PATH and "/" in name and not re.search(r"[._]|/.*/", name):
                continue  # "and/or", "CPU/GPU": words, each checked on its own below
            found = name in sources if exact else name.lower() in lowered
            if not found:
                where = (
                    "the pull requests it cites"
                    if cited
                    else "this week's data (it cites no pull request)"
                )
                return text, f"it names {name!r}, which is not in {where}"
            text = text.replace(match[0], " ", 1)
    # a decimal such as 2.32 may be a version the cited PRs name rather than a figure
    for match in DECIMAL.finditer(text):
        if match[2] and match[0].strip() in sources:
            text = text.replace(match[0], " ", 1)
    return text, None


def _figures_problem(text: str, sentence: Sentence, facts: WeekFacts) -> str | None:
    """Why the numbers of `text` are not the figures `sentence` lists for them, exactly; None when they are."""
    for figure in sentence.figures:
        if figure.what not in facts.figures:
            return f"it claims a figure {figure.what!r}, which the analysis does not have"
        actual = facts.figures[figure.what]
        if not _equal(figure.value, actual):
            return f"it gives {figure.what} as {_shown(figure.value)}, but the analysis says {_shown(actual)}"
    listed = [figure.value for figure in sentence.figures]
    stated, unreadable = stated_numbers(text)
    if unreadable:
        return unreadable
    for written, value in stated:
        if any(_equal(value, abs(figure)) for figure in listed):
            continue
        if not listed:
            return f"it states {written} without listing which figure it is"
        figures = ", ".join(f"{f.what} = {_shown(f.value)}" for f in sentence.figures)
        return f"it states {written}, which is none of the figures it lists ({figures})"
    return None


def _equal(value: float, figure: float) -> bool:
    return abs(value - figure) < 1e-9


def _shown(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _language_problem(text: str, language: str) -> str | None:
    cjk, latin = len(_CJK.findall(text)), len(_LATIN.findall(text))
    if language == "zh" and (cjk == 0 or cjk < 0.3 * (cjk + latin)):
        return "it is not written in Chinese"
    if language != "zh" and cjk:
        return "it is not written in English"
    return None
