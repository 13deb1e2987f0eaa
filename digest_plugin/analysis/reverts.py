"""What happened after a revert: whether a later PR re-landed or replaced the reverted change.

A revert is only half a story: the reader wants to know whether the change came back. The
`FollowUps` index is built once per repository (RepoContext.follow_ups) from every stored PR, and
asked for each revert: among the PRs merged within `REVERT_FOLLOW_UP_DAYS` after it, the first one
that brings the change back (the reverted PR's title again, or a title saying "reland" about the
same subject, or `Revert "Revert …"`), or takes its place (it cites the revert or the reverted PR,
the revert cites it as its follow-up, or it touches the same files on the same subject). Without
one it is "none", or "pending" when the store ends before that window does. The check that a
revert needs nothing (an accidental edit, or only tests, docs, examples, scripts, CI or generated
files) is the revert risk's own (risks._revert): it looks at the revert's own words and files.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

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


@dataclass(frozen=True)
class FollowUps:
    """Every stored PR's merge time, title words, files and the PR numbers it mentions: what finding
    a revert's follow-up needs."""

    times: tuple[datetime, ...]  # merge times, oldest first
    numbers: tuple[int, ...]  # in the same order
    titles: dict[int, str]
    files: dict[int, frozenset[str]]
    lines: dict[int, dict[str, int]]  # lines changed per file
    merged: dict[int, datetime]
    mentions: dict[int, frozenset[int]]  # PR numbers its title and body mention (#12, .../pull/12)
    relands: frozenset[int]  # PRs whose title or body says they re-land or re-apply something
    last: datetime | None  # the latest merge the store holds

    def after(self, revert: Pull, reverted: int | None) -> tuple[str | None, int | None]:
        """(outcome, the PR) for a revert: "relanded" or "replaced" and the later PR, or "none" /
        "pending" and None; (None, None) when the files cannot tell: the reverted PR is unknown, or a
        later PR edits all of its files."""
        end = revert.merged_at + timedelta(days=REVERT_FOLLOW_UP_DAYS)
        original = reverted if reverted in self.titles else None
        undone = self.titles[original] if original is not None else _inner_title(revert.title)
        subject = _words(undone)
        subject_files = (original is not None and self.files.get(original)) or self.files.get(
            revert.number, frozenset()
        )
        cited_by_revert = self.mentions.get(revert.number, frozenset())
        start = bisect.bisect_right(self.times, revert.merged_at)
        later = [
            n
            for n in self.numbers[start : bisect.bisect_right(self.times, end)]
            if n not in (revert.number, original)
        ]
        for number in later:
            found = self._follows(
                number,
                (revert.number, original),
                (_plain(undone), subject),
                subject_files,
                number in cited_by_revert,
            )
            if found:
                return found, number
        if original is None:
            return None, None  # without the reverted PR, no later one can be said to be missing
        soon = revert.merged_at + timedelta(days=REDO_DAYS)
        if any(self._may_redo(n, original) for n in later if self.merged[n] <= soon):
            return None, None
        return ("none" if self.last is not None and self.last >= end else "pending"), None

    def _may_redo(self, number: int, original: int) -> bool:
        """Whether PR `number`, under another title, edits every file the reverted PR did by about
        as many lines (REDO_LINES): it may have redone the change (verl #3192 set #3184's one line again the
        same day, inside a Docker update), which only a diff would show."""
        done, then = self.lines.get(original, {}), self.lines.get(number, {})
        return (
            bool(done)
            and not _REVERT_TITLE.match(self.titles[number])
            and all(
                lines <= REDO_LINES * then.get(path, 0) <= REDO_LINES**2 * lines
                for path, lines in done.items()
            )
        )

    def _follows(
        self,
        number: int,
        undone: tuple[int, int | None],
        undone_subject: tuple[str, frozenset[str]],
        subject_files: frozenset[str],
        cited_by_revert: bool,
    ) -> str | None:
        """ "relanded", "replaced" or None: what PR `number` is to the revert and the PR it undid
        (`undone`), whose title and title words are `undone_subject`."""
        (revert, original), (undone_title, subject) = undone, undone_subject
        title = self.titles[number]
        mentions = self.mentions.get(number, frozenset())
        cites = revert in mentions or (original is not None and original in mentions)
        if _REVERT_OF_REVERT.match(title):
            return (
                "relanded"
                if cites or _words(_inner_title(_inner_title(title))) == subject
                else None
            )
        if _REVERT_TITLE.match(title):
            return None  # another revert undoes, it does not bring back
        words = _words(title)
        same_subject = bool(subject) and len(words & subject) >= SAME_WORDS * len(words | subject)
        if _plain(title) == undone_title or (number in self.relands and (cites or same_subject)):
            return "relanded"
        if cites or cited_by_revert:
            return "replaced"
        files = self.files.get(number, frozenset())
        if (
            same_subject
            and subject_files
            and len(files & subject_files) >= SAME_FILES * len(subject_files)
        ):
            return "replaced"
        return None


def follow_ups(pulls: Sequence[Pull]) -> FollowUps:
    ordered = sorted(pulls, key=lambda p: (p.merged_at, p.number))
    return FollowUps(
        times=tuple(p.merged_at for p in ordered),
        numbers=tuple(p.number for p in ordered),
        titles={p.number: p.title for p in ordered},
        files={p.number: frozenset(f.path for f in p.files) for p in ordered},
        merged={p.number: p.merged_at for p in ordered},
        lines={
            p.number: {f.path: (f.additions or 0) + (f.deletions or 0) for f in p.files}
            for p in ordered
        },
        mentions={p.number: _mentions(f"{p.title}\n{p.body}") - {p.number} for p in ordered},
        relands=frozenset(
            p.number
            for p in ordered
            if _RELAND.search(p.title) or _RELAND_BODY.search(p.body[:2000].lower())
        ),
        last=ordered[-1].merged_at if ordered else None,
    )


def _mentions(text: str) -> frozenset[int]:
    """The PR and issue numbers a text mentions: "#12" not inside a word or a path, or a GitHub link."""
    found = set()
    for match in _REFERENCE.finditer(text):
        at = match.start()
        if text[at] == "/" and not match[1]:
            continue  # a path, not a link to a PR
        if text[at] == "#" and at and (text[at - 1].isalnum() or text[at - 1] in "_/"):
            continue  # an anchor or a colour, not a reference
        found.add(int(match[2]))
    return frozenset(found)


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
