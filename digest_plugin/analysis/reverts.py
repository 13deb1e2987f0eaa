"""What happened after a revert: whether a later PR re-landed or replaced the reverted change.

A revert is only half a story: the reader wants to know whether the change came back. `FollowUps`
holds every stored PR of a repository (History.follow_up asks it) and, for each revert, looks
among the PRs merged within `REVERT_FOLLOW_UP_DAYS` after it for the first one that brings the
change back (the reverted PR's title again, or a title saying "reland" about the same subject, or
`Revert "Revert …"`), or takes its place (it cites the revert or the reverted PR, the revert cites
it as its follow-up, or it touches the same files on the same subject). Without one it is "none",
or "pending" when the store ends before that window does; nothing is said where a later PR may
have redone it unseen (_may_redo). The check that a revert needs nothing (an accidental edit, or
only tests, docs, examples, scripts, CI or generated files) is the revert risk's own
(risks._revert): it looks at the revert's own words and files.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from datetime import timedelta

from digest_plugin.analysis.model import REVERT_FOLLOW_UP_DAYS
from digest_plugin.records.pull import Pull

# "#12", ".../pull/12", ".../issues/12" (starting at the character class, which keeps the search fast)
_REFERENCE = re.compile(r"[#/](pull/|issues/)?(\d{1,7})\b")
_REVERT_TITLE = re.compile(
    r"^\s*(?:\[[^\]]*\]\s*)*(?:\w+(?:\([^)]*\))?:\s*)?revert\b", re.IGNORECASE
)
_REVERT_OF_REVERT = re.compile(r"^\s*revert\W+revert\b", re.IGNORECASE)
_RELAND = re.compile(
    r"\b(?:re-?land\w*|re-?appl\w*|redo|re-?introduc\w*|re-?enable\w*|bring back|again)\b",
    re.IGNORECASE,
)
# on lower-case text: a literal start is fast
_RELAND_BODY = re.compile(r"(?<![a-z])re-?(?:land|appl(?:y|ies|ied)\b|introduc|submi)")
_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*(?:\w+(?:\([^)]*\))?!?:\s*)?")
# identifiers split at "_": `resource_pool` is "resource pool"
_WORD = re.compile(r"[a-z][a-z0-9]{3,}")
_COMMON = frozenset(
    """revert reland relanding again with from into that this when then than support update
    remove""".split()
)
# share of the reverted change's files a later PR touches to be about the same code ...
SAME_FILES = 0.5
SAME_WORDS = 0.5  # ... and share of title words in common to be on the same subject
# a later PR may have redone a reverted change within a week, editing each of its files by half to
# twice as many lines
REDO_DAYS = 7
REDO_LINES = 2


class FollowUps:
    """Every stored PR in merge order: what finding a revert's follow-up needs. Reverts are few, so
    what a PR's title, body and files say is read only for the PRs after one."""

    def __init__(self, pulls: Sequence[Pull]):
        ordered = sorted(pulls, key=lambda p: (p.merged_at, p.number))
        self._times = tuple(p.merged_at for p in ordered)  # oldest first
        self._ordered = tuple(ordered)
        self._pulls = {p.number: p for p in ordered}
        self._last = ordered[-1].merged_at if ordered else None  # the latest merge the store holds

    def after(self, revert: Pull, reverted: int | None) -> tuple[str | None, int | None]:
        """(outcome, the PR) for a revert: "relanded" or "replaced" and the later PR, or "none" /
        "pending" and None; (None, None) when the files cannot tell: the reverted PR is unknown, or a
        later PR may have redone it (_may_redo)."""
        end = revert.merged_at + timedelta(days=REVERT_FOLLOW_UP_DAYS)
        original = self._pulls.get(reverted) if reverted is not None else None
        undone = original.title if original is not None else _inner_title(revert.title)
        start = bisect.bisect_right(self._times, revert.merged_at)
        later = [
            p
            for p in self._ordered[start : bisect.bisect_right(self._times, end)]
            if p.number != revert.number and p is not original
        ]
        subject = (_plain(undone), _words(undone))
        subject_files = _files(original or revert)
        cited_by_revert = _mentions_of(revert)
        for pull in later:
            found = _follows(
                pull,
                (revert.number, original.number if original else None),
                subject,
                subject_files,
                pull.number in cited_by_revert,
            )
            if found:
                return found, pull.number
        if original is None:
            return None, None  # without the reverted PR, no later one can be said to be missing
        soon = revert.merged_at + timedelta(days=REDO_DAYS)
        if any(_may_redo(p, original) for p in later if p.merged_at <= soon):
            return None, None
        return ("none" if self._last is not None and self._last >= end else "pending"), None


def _may_redo(pull: Pull, original: Pull) -> bool:
    """Whether `pull`, under another title, edits every file the reverted PR did by about as many
    lines (REDO_LINES): it may have redone the change (verl #3192 set #3184's one line again the
    same day, inside a Docker update), which only a diff would show."""
    done, then = _lines(original), _lines(pull)
    return (
        bool(done)
        and not _REVERT_TITLE.match(pull.title)
        and all(
            lines <= REDO_LINES * then.get(path, 0) <= REDO_LINES**2 * lines
            for path, lines in done.items()
        )
    )


def _follows(
    pull: Pull,
    undone: tuple[int, int | None],
    undone_subject: tuple[str, frozenset[str]],
    subject_files: frozenset[str],
    cited_by_revert: bool,
) -> str | None:
    """ "relanded", "replaced" or None: what `pull` is to the revert and the PR it undid
    (`undone`), whose title and title words are `undone_subject`."""
    (revert, original), (undone_title, subject) = undone, undone_subject
    title = pull.title
    mentions = _mentions_of(pull)
    cites = revert in mentions or (original is not None and original in mentions)
    if _REVERT_OF_REVERT.match(title):
        return "relanded" if cites or _words(_inner_title(_inner_title(title))) == subject else None
    if _REVERT_TITLE.match(title):
        return None  # another revert undoes, it does not bring back
    words = _words(title)
    same_subject = bool(subject) and len(words & subject) >= SAME_WORDS * len(words | subject)
    # its title or body says it re-lands or re-applies something
    relands = bool(_RELAND.search(title) or _RELAND_BODY.search(pull.body[:2000].lower()))
    if _plain(title) == undone_title or (relands and (cites or same_subject)):
        return "relanded"
    shared = len(_files(pull) & subject_files)
    same_files = bool(subject_files) and shared >= SAME_FILES * len(subject_files)
    return "replaced" if cites or cited_by_revert or (same_subject and same_files) else None


def _files(pull: Pull) -> frozenset[str]:
    return frozenset(f.path for f in pull.files)


def _lines(pull: Pull) -> dict[str, int]:
    """Lines changed per file."""
    return {f.path: (f.additions or 0) + (f.deletions or 0) for f in pull.files}


def _mentions_of(pull: Pull) -> frozenset[int]:
    """The PR and issue numbers its title and body mention, not its own: "#12" not inside a word or
    a path, or a GitHub link (.../pull/12)."""
    text = f"{pull.title}\n{pull.body}"
    found = set()
    for match in _REFERENCE.finditer(text):
        at = match.start()
        if text[at] == "/" and not match[1]:
            continue  # a path, not a link to a PR
        if text[at] == "#" and at and (text[at - 1].isalnum() or text[at - 1] in "_/"):
            continue  # an anchor or a colour, not a reference
        found.add(int(match[2]))
    return frozenset(found - {pull.number})


def _inner_title(title: str) -> str:
    """What `Revert "X"` reverts, as its title quotes it; the title itself when it quotes nothing."""
    match = re.search(r"[\"“'](.+)[\"”']", title)
    return match[1] if match else _PREFIX.sub("", title)


def _plain(title: str) -> str:
    """A title as two that say the same compare: without its scopes and type, a trailing (#12), case and spacing."""
    return " ".join(re.sub(r"\(#\d+\)\s*$", "", _PREFIX.sub("", title)).lower().split())


def _words(title: str) -> frozenset[str]:
    """The subject words of a title: without its scopes and type, a trailing (#12), short and common words."""
    text = re.sub(r"\(#\d+\)\s*$", "", _PREFIX.sub("", title)).lower().replace("_", " ")
    return frozenset(w for w in _WORD.findall(text) if w not in _COMMON)
