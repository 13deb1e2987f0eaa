"""Draft-time remarks: what a description said while the PR was being written, not what merged.

"WIP", "missing tests and docs", "will add docs", "TODO: tests", "at the time of opening this
compiles locally": true of the draft, often false of the merge, which may well have come with
tests, fixtures and snapshots. The files decide such things (risks' missing-tests), so these
sentences are left out of what the report quotes as the author's account of the change.
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")
_DRAFT = re.compile(
    r"\b(?:wip|work in progress|(?:as|is|still) a draft|draft pr|not ready(?: for review)?|do not merge|at the time of (?:opening|writing)|"
    r"missing (?:the |any |some )?(?:unit |e2e )?(?:tests?|docs?|documentation|changelog)|"
    r"(?:tests?|docs?|documentation) (?:are|is) (?:still )?(?:missing|to come|pending|todo)|"
    r"(?:will|'ll|shall|going to|plan to|need to|still need to|have to) (?:add|write|update|fix|finish) (?:the |some |more )?(?:unit |e2e )?(?:tests?|docs?|documentation)|"
    r"(?:tests?|docs?|documentation) (?:will|to) (?:be added|come|follow)|todo\b:?\s*(?:add )?(?:tests?|docs?)|"
    r"no (?:unit )?tests? yet|not (?:yet )?(?:tested|documented)|(?:i|we) (?:still )?need to add)\b",
    re.IGNORECASE,
)


def without_draft_remarks(prose: str) -> str:
    """`prose` (description.description_text) without its sentences about the draft's state."""
    if not prose or not _DRAFT.search(prose):
        return prose
    return " ".join(sentence for sentence in _SENTENCE.split(prose) if not _DRAFT.search(sentence))
