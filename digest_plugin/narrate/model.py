"""What the narrative stage returns: plain text that cites pull requests, per section of the week page.

Every text is PLAIN TEXT (never HTML or Markdown) in the narrative's language, and cites pull
requests as `#1234`; `pulls` lists the numbers it cites, so pages and the Markdown report can link
them and `check_grounding` can verify them. PR titles and summaries quoted inside a text are
untrusted and verbatim: whoever renders a text escapes it (`cited_html`, `markdown_report`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from digest_plugin.records.frozen import frozen_record

CITATION = re.compile(r"(?<![\w&])#(\d+)\b")  # "#1234" in a text, not "&#39;" nor "abc#12"


@frozen_record
class Figure:
    """A number a text states, with what it is: `check_grounding` looks the figure up by `what`
    ("merged", "pull:1701:deletions", "theme:npu", ...; grounding.py lists them all) and checks
    that the analysis holds exactly `value` there, and that the text states no other number."""

    what: str
    value: float


@frozen_record
class Cited:
    text: str
    pulls: tuple[int, ...] = ()  # the PRs the text cites, in the order it cites them
    figures: tuple[Figure, ...] = ()  # every number the text states, with what it is


@frozen_record
class HighlightGroup:
    """One kind of highlight (new capabilities, upgrades, ...), each item naming one PR."""

    kind: str  # "features", "upgrades", "fixes", "refactors", "performance", "docs", "deprecations"
    heading: str  # the kind, as a heading in the narrative's language
    items: tuple[Cited, ...]
    separator: str = ": "  # between heading and items in `text`; full-width in Chinese
    joiner: str = "; "

    @property
    def text(self) -> str:
        """The group as one line ("New capabilities: … (#1); … (#2)"), for JSON and feeds."""
        return self.heading + self.separator + self.joiner.join(item.text for item in self.items)

    @property
    def pulls(self) -> tuple[int, ...]:
        return tuple(n for item in self.items for n in item.pulls)


@frozen_record
class KeyChange:
    """A key PR, as the "Key changes" section shows it."""

    number: int
    title: str  # verbatim from GitHub, untrusted
    url: str
    summary: str  # what it does, one line in the narrative's language: the author's own sentences
    #                (untrusted, verbatim), or a lead before `quote`, or the title as a sentence and what its files show
    modules: tuple[str, ...]
    importance: float  # shown once, beside the title: no sentence repeats it
    details: Cited  # generated: the modules it changes and its size; cites the PR
    summary_figures: tuple[Figure, ...] = ()  # the numbers `summary` states, when it is generated
    quote: str = ""  # the author's words in their own language (untrusted, verbatim), shown apart after `summary`


@frozen_record
class RiskLine:
    """One risk, as a table row (risk, impact, PRs) and as a sentence."""

    kind: str  # one of analysis.model.RISK_KINDS
    name: str  # the kind, in the narrative's language
    impact: str  # its impact, in the narrative's language
    level: str  # the impact as the analysis gives it: "high", "medium" or "low" (for styling)
    pulls: tuple[int, ...]
    sentence: Cited  # what could go wrong and why these PRs show it
    # what a maintainer can do about it, as its PRs say (narrate/consequences.py); None when they say nothing
    mitigation: Cited | None = None


@frozen_record
class ThemeLine:
    """One theme of the week (analysis.model.Theme, by `name`) in one sentence that cites its PRs."""

    name: str
    sentence: Cited

    @property
    def text(self) -> str:
        return self.sentence.text


@dataclass(frozen=True)
class Rejection:
    """A language model's sentence that did not survive the check, and why."""

    part: str  # "summary", "key change #12", "risk hotspot", "recommendations"
    text: str  # the model's words, untrusted
    reason: str


@dataclass(frozen=True)
class SentenceCheck:
    """How a language model's text fared against the data: the page states it, the build log lists it."""

    model: str
    checked: int = 0  # sentences the model wrote for this week
    kept: int = 0  # of those, shown on the page
    rejected: tuple[Rejection, ...] = ()
    unused: str = ""  # why the model wrote nothing for this week (in progress, a fault, the budget)
    # the `texts()` places the model's words fill, with their sentences
    parts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Narrative:
    language: str  # "en" or "zh"
    title: str  # "verl-project/verl, week 2026-W21 (May 18 – 24, 2026)"
    summary: Cited  # the week's main moves, then the main risk, then the figures
    themes: tuple[ThemeLine, ...] = ()
    highlights: tuple[HighlightGroup, ...] = ()
    key_changes: tuple[KeyChange, ...] = ()
    trends: tuple[Cited, ...] = ()
    risks: tuple[RiskLine, ...] = ()
    # "Breaking and user-facing changes": what PRs say they remove, rename, flip or break
    breaking: tuple[Cited, ...] = ()
    recommendations: tuple[Cited, ...] = ()
    quiet: bool = False  # no PRs merged: the summary is the whole story
    writer: str = "builtin"  # which Writer produced it
    check: SentenceCheck | None = None  # a language model's writing, checked sentence by sentence

    def texts(self) -> Iterator[tuple[str, Cited]]:
        """Every generated text with where it sits ("summary", "trends[2]", ...), for checks."""
        yield "summary", self.summary
        for i, theme in enumerate(self.themes):
            yield f"themes[{i}]", theme.sentence
        for g, group in enumerate(self.highlights):
            for i, item in enumerate(group.items):
                yield f"highlights[{g}][{i}]", item
        for i, change in enumerate(self.key_changes):
            yield f"key_changes[{i}].summary", Cited(change.summary, (), change.summary_figures)
            yield f"key_changes[{i}]", change.details
        for i, cited in enumerate(self.trends):
            yield f"trends[{i}]", cited
        for i, risk in enumerate(self.risks):
            yield f"risks[{i}]", risk.sentence
        for i, risk in enumerate(self.risks):
            if risk.mitigation is not None:
                yield f"risks[{i}].mitigation", risk.mitigation
        for i, cited in enumerate(self.breaking):
            yield f"breaking[{i}]", cited
        for i, cited in enumerate(self.recommendations):
            yield f"recommendations[{i}]", cited
