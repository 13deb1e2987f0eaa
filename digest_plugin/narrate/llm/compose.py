"""The model's sentences put in place of the built-in writer's, part by part, where every sentence checks out.

Pure. A part is the summary, one theme, one key change, one risk, or the recommendations. A part is
the model's only when each of its sentences passes `check_sentence`; otherwise it stays the built-in
writer's, and every sentence of it is listed as rejected with the reason. A kept text carries the
figures its sentences listed (`Cited.figures`), so that `check_grounding` holds its numbers to them
as it holds the built-in writer's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from digest_plugin.narrate.llm.answer import Answer, Sentence
from digest_plugin.narrate.llm.check import WRITTEN_CITATION, WeekFacts, check_sentence
from digest_plugin.narrate.llm.prompt import MAX_RECOMMENDATIONS
from digest_plugin.narrate.model import Cited, Narrative, Rejection, SentenceCheck
from digest_plugin.narrate.wording import Language, unique

SPOILED = "another sentence of the same part was rejected"


class _Judge:
    """Checks parts and keeps the tally the page and the build log report."""

    def __init__(self, facts: WeekFacts, language: str):
        self.facts, self.language = facts, language
        self.checked = self.kept = 0
        self.rejected: list[Rejection] = []
        self.parts: list[tuple[str, int]] = []

    def passes(
        self,
        part: str,
        where: str,
        sentences: Sequence[Sentence],
        allowed: Collection[int] | None = None,
        implied: Collection[int] = (),
        scope: str = "risk",
    ) -> bool:
        if not sentences:
            return False
        self.checked += len(sentences)
        reasons = [
            check_sentence(s, self.facts, self.language, allowed, implied, scope) for s in sentences
        ]
        if any(reasons):
            self.rejected.extend(
                Rejection(part, s.text, reason or SPOILED) for s, reason in zip(sentences, reasons)
            )
            return False
        self.kept += len(sentences)
        self.parts.append((where, len(sentences)))
        return True

    def reject(self, part: str, sentences: Sequence[Sentence], reason: str) -> None:
        self.checked += len(sentences)
        self.rejected.extend(Rejection(part, s.text, reason) for s in sentences)


def compose(
    base: Narrative, answer: Answer, facts: WeekFacts, lang: Language, model: str
) -> Narrative:
    """`base` (the built-in writer's narrative) with each part the model wrote well replaced by its words."""
    judge = _Judge(facts, lang.code)
    summary = base.summary
    if judge.passes("summary", "summary", answer.summary):
        summary = _cited(answer.summary, lang)

    themes = list(base.themes)
    for i, theme in enumerate(base.themes):
        sentences, pulls = answer.themes.get(theme.name, ()), facts.themes.get(theme.name, ())
        judge.reject(f"theme {theme.name}", sentences[1:], "a theme gets one sentence")
        if judge.passes(
            f"theme {theme.name}",
            f"themes[{i}]",
            sentences[:1],
            allowed=pulls,
            implied=pulls,
            scope="theme",
        ):
            themes[i] = replace(theme, sentence=_cited(sentences[:1], lang))
    for name in answer.themes.keys() - {t.name for t in base.themes}:
        judge.reject(f"theme {name}", answer.themes[name], f"this week has no theme {name!r}")

    key_changes = list(base.key_changes)
    for i, change in enumerate(base.key_changes):
        sentences = answer.key_changes.get(change.number, ())
        if judge.passes(
            f"key change #{change.number}", f"key_changes[{i}]", sentences, implied=(change.number,)
        ):
            key_changes[i] = replace(
                change, details=_cited(sentences, lang, first=(change.number,))
            )
    for number in answer.key_changes.keys() - {c.number for c in base.key_changes}:
        judge.reject(
            f"key change #{number}",
            answer.key_changes[number],
            f"#{number} is not a key pull request of this week",
        )

    risks = list(base.risks)
    for i, risk in enumerate(base.risks):
        sentences = answer.risks.get(risk.kind, ())
        if judge.passes(
            f"risk {risk.kind}", f"risks[{i}]", sentences, allowed=risk.pulls, implied=risk.pulls
        ):
            risks[i] = replace(risk, sentence=_cited(sentences, lang))
    for kind in answer.risks.keys() - {r.kind for r in base.risks}:
        judge.reject(f"risk {kind}", answer.risks[kind], f"this week shows no {kind!r} risk")

    recommendations = base.recommendations
    wanted = answer.recommendations[:MAX_RECOMMENDATIONS]
    judge.reject(
        "recommendations",
        answer.recommendations[MAX_RECOMMENDATIONS:],
        f"more than {MAX_RECOMMENDATIONS} recommendations",
    )
    if judge.passes("recommendations", "recommendations", wanted):
        recommendations = tuple(_cited([s], lang) for s in wanted)

    check = SentenceCheck(
        model, judge.checked, judge.kept, tuple(judge.rejected), parts=tuple(judge.parts)
    )
    return replace(
        base,
        summary=summary,
        themes=tuple(themes),
        key_changes=tuple(key_changes),
        risks=tuple(risks),
        recommendations=recommendations,
        writer="llm" if judge.kept else base.writer,
        check=check,
    )


def _cited(sentences: Sequence[Sentence], lang: Language, first: Sequence[int] = ()) -> Cited:
    """Sentences as one text citing what they cite and stating the figures they listed."""
    texts = [_spaced_citations(s.text) for s in sentences]
    written = [int(m[1]) for text in texts for m in WRITTEN_CITATION.finditer(text)]
    listed = [n for s in sentences for n in s.pulls]
    figures = tuple(dict.fromkeys(f for s in sentences for f in s.figures))
    return Cited(lang.sentences(texts), unique([*first, *written, *listed]), figures)


def _spaced_citations(text: str) -> str:
    """ "修复#12的崩溃" -> "修复 #12 的崩溃": Chinese typesetting spaces Latin, and the page can link it."""
    text = re.sub(r"(?<=[\u3400-\u9fff])#(?=\d)", " #", text)
    return re.sub(r"(?<![A-Za-z0-9_&])(#\d+)(?=[\u3400-\u9fff])", r"\1 ", text)
