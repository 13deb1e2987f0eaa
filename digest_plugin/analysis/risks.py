"""Risks: what a maintainer should look at in a week, each with the PRs and the evidence that show it.

One PR's risks come from a table of small named checks (`PULL_CHECKS`), one per kind: each looks
at a `PullFacts` and returns the evidence it found (model.EVIDENCE_FACTS), none when the kind does
not apply. `week_risks` gathers the evidence per kind, adds the week-level hotspot kind, groups
routine bot bumps into one fact and sets an impact a reviewer would defend (`IMPACT_RULES`): a risk
shown only by tests, docs, examples, scripts or generated files is low, whatever its kind.
`main_risk` picks the week's main one by what it does to users (CONSEQUENCE_ORDER). Each check looks at the data
before it claims: the versions an upgrade moves between, what happened after a revert, whether a
deprecation is the project's own. A fixed vulnerability is good news, not a risk: it goes to
`good_news` as `security-fix`. Thresholds are in rules.yaml (`thresholds`).
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from digest_plugin.analysis.claims import speaks
from digest_plugin.analysis.classify import (
    TITLE_LIMIT,
    is_code_move,
    labelled,
    own_deprecation,
    parse_title,
    reason_of,
    renames_code,
    restyles_code,
    titled_tests,
)
from digest_plugin.analysis.consequences import default_setting, spoken, title_default_flip
from digest_plugin.analysis.file_history import Added, lock_for
from digest_plugin.analysis.footprint import beyond_kept
from digest_plugin.analysis.model import (
    BACK_MOVES,
    GOOD_NEWS_KINDS,
    IMPACTS,
    RISK_KINDS,
    AnalysedPull,
    Classification,
    Consequence,
    Evidence,
    Footprint,
    ReviewOutcome,
    Risk,
    Upgrade,
)
from digest_plugin.analysis.rules import NOT_CODE_KINDS, PERIPHERAL_KINDS, Rules
from digest_plugin.analysis.upgrades import moving, own_release
from digest_plugin.records.pull import FileChange, Pull

# a title saying the code it changes is only words in it, which no test checks (verl #4732,
# "[docs] feat: improve docstrings in tensordict_utils.py", +360 lines of a source file)
_WORDS_IN_CODE = re.compile(
    r"\b(?:docstrings?|typos?|type (?:hints?|annotations?))\b", re.IGNORECASE
)
_DOCS_SCOPES = frozenset({"doc", "docs", "documentation"})
_SECURITY_BODY = re.compile(
    r"\b(cve-\d{4}-\d+|ghsa-[\w-]{4,}|rce|remote code execution|arbitrary code execution|(sql|command|code|shell|template|header) injection|"
    r"xss|cross-site|csrf|ssrf|path traversal|vulnerabilit\w*|security (fix|issue|advisory|hole|vulnerability)|"
    r"unsafe deseriali[sz]\w*)\b|\beval\s*\(|\bexec\s*\(|\bpickle\.loads?\b|\bshell\s*=\s*true\b|\byaml\.load\s*\(",
    re.IGNORECASE,
)
_ADVISORY = re.compile(r"\b(cve-\d{4}-\d+|ghsa(?:-[\w]{4}){3})\b", re.IGNORECASE)
_FIXING = re.compile(
    r"\b(fix\w*|patch\w*|prevent\w*|sanitiz\w*|escap\w*|harden\w*|mitigat\w*|avoid\w*|block\w*|validat\w*|restrict\w*|close[sd]?)\b",
    re.IGNORECASE,
)
# words of a description that tells users what to change ("use X instead", "renamed to", "migrate")
_MIGRATION = re.compile(
    r"\b(?:migrat\w*|upgrade guide|instead|replac\w+|renam\w+|now (?:called|named|set|uses?|defaults?|require\w*)|"
    r"in favou?r of|users? (?:should|need|must|can)|to update|how to|before this pr|after this pr|no longer|"
    r"has been|have been|moved? to|deprecat\w*|removed?)\b|→|->|=>",
    re.IGNORECASE,
)
_NOT_RUNTIME = re.compile(
    r"\b(?:dev|development|test|tests|testing|docs?|documentation|lint\w*|ci|typing|stubs?|benchmarks?)\b",
    re.IGNORECASE,
)
_ACCIDENTAL = re.compile(
    r"\b(?:accidental\w*|by mistake|mistaken\w*|unintended|unintentional\w*|inadvertent\w*|erroneous\w*)\b",
    re.IGNORECASE,
)
LISTED_PATHS = 3

# a file moved is one this close in size to another (a tenth), from this many lines on (two small
# files of a size are a coincidence)
MOVED_SIZE, MOVED_FROM_LINES = 0.1, 50
# a file that gains (or loses) four times what it loses (or gains) takes (or gives) moved lines;
# lines split over several files or merged from several come back within a fifth
MOVE_ONE_WAY, MOVED_SPLIT = 4, 0.2
# source lines a key PR adds without tests from which missing tests is high
UNTESTED_HIGH_LINES = 500
# changed lines a file under which many files make a sweep, not a large change
THIN_LINES_PER_FILE = 5
_INSTALLED_FOR_TOOLS = frozenset({"tests", "tooling", "docs", "ci", "examples"})
FILES_ONLY = "files"  # a version evidence's detail: dependency files edited, no version named
# an __init__.py this short marks a package or re-exports: nothing of its own to test
MARKER_LINES = 30


@dataclass(frozen=True)
class PullFacts:
    """What the checks look at for one PR, computed once."""

    pull: Pull
    classification: Classification
    paths: tuple[str, ...]
    kinds: tuple[frozenset[str], ...]
    description: str  # the body's prose (description.description_text)
    footprint: Footprint
    upgrades: tuple[Upgrade, ...]
    rules: Rules
    review: ReviewOutcome  # its verdicts when it merged (reviews.review_outcome)
    # the lock files the repository kept when it merged (file_history.locks_before)
    locks: frozenset[str] = frozenset()

    @property
    def number(self) -> int:
        return self.pull.number

    def changes(self):
        return zip(self.paths, self.kinds, self.pull.files, strict=True)


Check = Callable[[PullFacts], tuple[Evidence, ...]]


def _missing_tests(facts: PullFacts) -> tuple[Evidence, ...]:
    """Source code added without any test changing, whatever the title calls the change. Tests as
    projects write them count (rules.yaml `paths.tests`: snapshots, Markdown tests, fixtures).
    Source in a language whose tests can sit in the same file (`paths.inline_tests`: Rust) is left
    out: the file list cannot tell that it is untested, so it claims nothing about it; so is a
    package's short `__init__.py`, a marker or a list of re-exports with nothing of its own to test,
    and so is a PR whose title scopes it to docs or says it changes docstrings, typos or type hints."""
    pull, kind = facts.pull, facts.classification
    if _no_new_code(pull, kind):
        return ()
    # tests changed, or source that may hold its own (ruff #25998: 89 lines of a Python script
    # beside 700 of Rust, whose tests the file list cannot see): "changes no test" is not known
    if any("tests" in k or "inline_tests" in k for k in facts.kinds):
        return ()
    moved_in = _moves(pull.files).filled
    source = [
        (path, change)
        for path, k, change in facts.changes()
        if "source" in k
        and not k & (PERIPHERAL_KINDS | {"inline_tests"})
        and not _package_marker(path, change)
        and path not in moved_in
    ]
    added = sorted(((change.additions or 0, path) for path, change in source), reverse=True)
    lines = sum(n for n, _ in added)
    removed = sum(change.deletions or 0 for _, change in source)
    # removed code needs no new test, nor a PR that removes two thirds as much code as it adds: it
    # rewrites code more than it adds (verl #3138, +31 −53, "remove unused padding"; #4224 moved a
    # function; #1248, +27 −24, wrapped lines in an `if`), which the tests before it may cover
    rewrites = removed * 3 >= lines * 2
    if lines < facts.rules.thresholds.missing_tests_lines or rewrites:
        return ()
    return (
        Evidence(
            "untested-code",
            facts.number,
            paths=tuple(p for _, p in added[:LISTED_PATHS]),
            lines=lines,
            files=len(added),
        ),
    )


def _no_new_code(pull: Pull, kind: Classification) -> bool:
    """Whether what the PR says it is leaves no new code to test, whatever its files: a bot's, a
    revert, code moved or restyled, docs or tests by its type or its title's scope, or words in
    code (docstrings, typos, type hints); or its file list is cut, so its tests may be past it."""
    return bool(
        kind.bot
        or kind.is_revert
        or is_code_move(pull, kind)
        or pull.files_truncated
        or kind.type in ("docs", "test")
        or (kind.modules_from_title and kind.modules and set(kind.modules) <= _DOCS_SCOPES)
        or _WORDS_IN_CODE.search(pull.title)
    )


@dataclass(frozen=True)
class Moves:
    """The files of a PR whose lines went to or came from others of it: code moved, renamed or
    split, which the data shows only as sizes (no diff to compare)."""

    filled: frozenset[str] = frozenset()  # (nearly) only gaining the lines moved in
    emptied: frozenset[str] = frozenset()  # (nearly) only losing the lines moved out


def _moves(files: Sequence[FileChange]) -> Moves:
    """One file filled as one emptied, each within a tenth of the other's size (verl #4187 renamed
    sglang_router.py, +73 and −73; #599 took 152 lines of metric utils out of the trainer into a
    file of 168; ruff #17950 took options_base.rs, 434 lines, into a new crate's lib.rs, 440), or
    all the filled ones as all the emptied ones within a fifth (#2782 split vllm_utils.py, −203,
    into three files of 242)."""
    counted = [(c.path, c.additions or 0, c.deletions or 0) for c in files]
    gaining = {path: added for path, added, gone in counted if added > MOVE_ONE_WAY * gone}
    # lines enough that a size matching is no chance (verl #4981's 19 lines lost, 20 and 21 gained)
    emptied = {
        path: gone - added
        for path, added, gone in counted
        if gone > MOVE_ONE_WAY * added and gone - added >= MOVED_FROM_LINES
    }
    if not gaining or not emptied:
        return Moves()
    if _near(sum(gaining.values()), [sum(emptied.values())], MOVED_SPLIT):
        return Moves(frozenset(gaining), frozenset(emptied))
    return Moves(
        frozenset(path for path, added in gaining.items() if _near(added, emptied.values())),
        frozenset(path for path, gone in emptied.items() if _near(gone, gaining.values())),
    )


def _package_marker(path: str, change) -> bool:
    """A short `__init__.py`: a licence header, a docstring, re-exports (a long one holds code)."""
    return path.endswith("__init__.py") and (change.additions or 0) <= MARKER_LINES


def _breaking(facts: PullFacts) -> tuple[Evidence, ...]:
    """A change marked breaking, and whether it tells users what to change: a docs or changelog
    file among its files, or migration words in its description (missing "migration-notes" if not)."""
    # a marker on docs, CI or a PR template alone (an upstream change it describes) breaks nothing
    # users run; a recipe or an example is run (verl #4427, "[BREAKING][recipe, ckpt]")
    if not facts.classification.breaking or (
        facts.kinds and all(k & PERIPHERAL_KINDS - {"examples"} for k in facts.kinds)
    ):
        return ()
    rules = facts.rules
    if parse_title(facts.pull.title, rules).breaking:
        how = "title"
    elif labelled(rules.label_breaking, facts.pull.labels):
        how = "label"
    else:
        how = "footer"
    noted = any("docs" in k for k in facts.kinds) or bool(_MIGRATION.search(facts.description))
    missing = None if noted else "migration-notes"
    return (Evidence("breaking-marker", facts.number, detail=how, missing=missing),)


def _dependency_upgrade(facts: PullFacts) -> tuple[Evidence, ...]:
    moved = tuple(_version(facts, u) for u in moving(facts.upgrades, facts.kinds))
    return moved or _dependency_files(facts)


def _dependency_files(facts: PullFacts) -> tuple[Evidence, ...]:
    """Files that pin what the project runs on (lock files, requirements, Dockerfiles) edited where
    the title names no version, said as the files: a pin moved inside a fix (ruff #21038 took a
    new Salsa to fix a hang), an image bumped in a feature (verl #6374), so that the row's "edits
    X" names every PR that does. With them, the manifests whose one line changed (the pin). Not
    the project's own release, which sets its own version in each manifest."""
    # not what tests, tooling or docs install (requirements/test.pip, a script's own lock file)
    pinning = [
        path
        for path, k in zip(facts.paths, facts.kinds, strict=True)
        if "dependencies" in k and not k & _INSTALLED_FOR_TOOLS
    ]
    if not pinning or own_release(facts.pull, facts.rules):
        return ()
    manifests = [
        path
        for path, k, c in facts.changes()
        if "manifests" in k and (c.additions, c.deletions) == (1, 1)
    ]
    paths = (*manifests, *pinning)
    # how much of it is about its dependencies: all its dependency files and manifests
    lines = sum(
        (c.additions or 0) + (c.deletions or 0)
        for _, k, c in facts.changes()
        if k & {"dependencies", "manifests"}
    )
    return (
        Evidence(
            "version",
            facts.number,
            detail=FILES_ONLY,
            paths=paths[:LISTED_PATHS],
            files=len(paths),
            lines=lines,
        ),
    )


def _version(facts: PullFacts, upgrade: Upgrade) -> Evidence:
    """An upgrade's evidence; a runtime dependency raised in a manifest whose lock file the PR left
    as it was is missing "lock-file" (paths: the manifest and that lock file)."""
    evidence = Evidence(
        "version",
        facts.number,
        package=upgrade.package or None,
        old=upgrade.old,
        new=upgrade.new,
        major=upgrade.major,
        core=upgrade.core,
        detail=upgrade.move,
        reason=upgrade.reason,
        paths=upgrade.files[:LISTED_PATHS],
        files=len(upgrade.files),  # all of them, the paths being the first few
    )
    if (
        not upgrade.package
        or facts.rules.is_toolchain(upgrade.package)
        or upgrade.move in BACK_MOVES
        or _NOT_RUNTIME.search(facts.pull.title)
    ):
        return evidence
    for manifest, k, _ in facts.changes():
        lock = lock_for(manifest, facts.locks) if "manifests" in k else None
        if lock is not None and lock not in facts.paths:
            return replace(evidence, missing="lock-file", paths=(manifest, lock))
    return evidence


def _security_words(facts: PullFacts) -> str | None:
    """What the PR's words name of security, as they write it: an advisory's id, then the words
    themselves ("shell injection"), then the topic a DIGEST_RULES pattern found."""
    title = facts.pull.title[:TITLE_LIMIT]
    if advisory := _ADVISORY.search(f"{title}\n{facts.description}"):
        return advisory[1].upper()
    if match := _SECURITY_BODY.search(title) or _SECURITY_BODY.search(facts.description):
        return match[0].strip().lower()
    return "security" if "security" in facts.classification.topics else None


def _in_code(facts: PullFacts) -> bool:
    """Whether the PR changes what the project ships: not only tooling, CI, docs, tests, scripts or
    dependency manifests (a security policy, a scanning workflow, a version moved for advisories)."""
    return not facts.kinds or any(
        not k & (PERIPHERAL_KINDS | {"dependencies", "manifests"}) for k in facts.kinds
    )


def _vulnerability(facts: PullFacts, fixed: bool) -> tuple[Evidence, ...]:
    """A security-relevant change of the project's code. One that fixes nothing (`fixed` False) is
    new attack surface to review (a security policy, a scanning workflow, a page about security, or
    a dependency's version moved for its advisories is none); a fix (`fixed` True) is good news, in
    what the project ships (ruff #23894 fixed a shell injection in its own dev scripts: no user's
    concern)."""
    word = _security_words(facts)
    fixes = facts.classification.type == "fix" or _FIXING.search(facts.pull.title[:TITLE_LIMIT])
    if word and _in_code(facts) and bool(fixes) == fixed:
        return (Evidence("vulnerability", facts.number, detail=word),)
    return ()


def _revert(facts: PullFacts) -> tuple[Evidence, ...]:
    """A revert of the project's code, with why (as it says) and, when it undoes an accidental
    edit, the outcome "accidental": nothing of it needs to land again. One of only tests, docs,
    examples, scripts, CI or generated files is no user's risk (ruff #26044 reverts a step of the
    ecosystem check). What later PRs did is the history's to say (analysis.repository,
    reverts.FollowUps)."""
    kind = facts.classification
    if not (kind.is_revert or kind.type == "revert") or _peripheral_only(facts):
        return ()
    accidental = _ACCIDENTAL.search(f"{facts.pull.title[:TITLE_LIMIT]}\n{facts.description}")
    return (
        Evidence(
            "reverted",
            facts.number,
            pulls=(kind.reverts,) if kind.reverts is not None else (),
            outcome="accidental" if accidental else None,
            reason=reason_of(facts.description),
        ),
    )


def _deprecation(facts: PullFacts) -> tuple[Evidence, ...]:
    """The project deprecating (or removing after deprecating) its own API, option or behaviour
    (classify.own_deprecation), not a change about deprecated things elsewhere."""
    title = parse_title(facts.pull.title, facts.rules).description
    how = own_deprecation(title, facts.description, facts.kinds, facts.rules)
    if how is None or _breaking(facts):
        return ()  # "[BREAKING] deprecate X" that deletes it (verl #6067): the marker's row says it
    core = [(path, change) for path, k, change in facts.changes() if not k & PERIPHERAL_KINDS]
    if core and not any(change.additions for _, change in core):
        how = "removes"  # "deprecate legacy code" that deletes it: it is gone, not going
    paths = tuple(path for path, _ in core)
    return (
        Evidence(
            "deprecated",
            facts.number,
            paths=paths[:LISTED_PATHS],
            lines=facts.footprint.core_lines,
            files=len(paths),
            detail=how,
        ),
    )


def _mechanical(facts: PullFacts) -> bool:
    """A bot's, a rename, a move or a lint sweep: large but mechanical (verl #1280: 2,752 lines of
    lint fixes); or a release's version strings and changelog, no change of code (ruff #26884)."""
    pull = facts.pull
    return bool(
        facts.classification.bot
        or renames_code(pull)
        or restyles_code(pull)
        or own_release(pull, facts.rules)
    )


def _large_change(facts: PullFacts) -> tuple[Evidence, ...]:
    pull, thresholds = facts.pull, facts.rules.thresholds
    if _mechanical(facts):
        return ()
    core = _core_changes(facts)
    kept = _not_moved(core)
    lines = sum((c.additions or 0) + (c.deletions or 0) for _, c in kept)
    files = len(kept)
    if pull.files_truncated and not _large_beyond_kept(pull, lines, files, thresholds):
        return ()  # a bulk of snapshots or vendored code past the kept files is no large change
    # without its whole file list, the PR's own totals: all its lines, tests and vendored ones too
    whole = "whole" if not pull.files or pull.files_truncated else None
    if whole:
        lines, files = max(lines, pull.additions + pull.deletions), pull.changed_files
    if not _large_enough(lines, files, thresholds):
        return ()
    modules = len({path.split("/")[0] for path, _ in core if "/" in path})
    # lines only taken out (verl #6445 deleted a package, +0 −1,618): "removes", not "changes"
    removes = "removes" if not whole and not any(c.additions for _, c in kept) else None
    return (
        Evidence(
            "size", facts.number, lines=lines, files=files, modules=modules, detail=whole or removes
        ),
        *(() if _rearranges(pull) else _removed_files(facts.number, core)),
    )


def _core_changes(facts: PullFacts) -> list[tuple[str, FileChange]]:
    # source that may hold its own tests (Rust) is test code where the title says it changes tests
    tests_only = {"inline_tests"} if titled_tests(facts.pull) else set()
    return [
        (path, change)
        for path, k, change in facts.changes()
        if not k & (NOT_CODE_KINDS | tests_only)
    ]


def _large_enough(lines: int, files: int, thresholds) -> bool:
    """Many lines, or many files but not by a few lines each: that is a sweep (ruff #16364
    normalised 43 docstrings, +43 −43)."""
    return lines >= thresholds.large_change_lines or (
        files >= thresholds.large_change_files and lines >= THIN_LINES_PER_FILE * files
    )


def _not_moved(core: list[tuple[str, FileChange]]) -> list[tuple[str, FileChange]]:
    """The files a PR does not move whole: one moved weighs nothing (ruff #26122, formats/rst.rs
    −1,069 as document/rst.rs +1,069)."""
    moves = _moves([change for _, change in core])
    return [(path, c) for path, c in core if path not in moves.filled | moves.emptied]


def _rearranges(pull: Pull) -> bool:
    """Whether a PR adds back nearly all it deletes (within a tenth): its code moved, merged or
    split, and a file it removes went into others (ruff #15616, +1,872 −1,885, flattened a crate's
    modules; `_moves` tells a file moved whole)."""
    return abs(pull.additions - pull.deletions) <= MOVED_SIZE * pull.deletions


def _removed_files(number: int, core: list[tuple[str, FileChange]]) -> tuple[Evidence, ...]:
    """The core files a PR removes, largest first: what users can import or configure (a test
    fixture or snapshot removed breaks none of them). A file the PR moves is not removed: ruff
    #17950 took options_base.rs (434 lines) into a new crate's lib.rs (440)."""
    moved_out = _moves([change for _, change in core]).emptied
    removed = sorted(
        (
            (change.deletions or 0, path)
            for path, change in core
            if change.status == "removed" and path not in moved_out
        ),
        key=lambda r: (-r[0], r[1]),
    )
    if not removed:
        return ()
    return (
        Evidence(
            "files-removed",
            number,
            paths=tuple(path for _, path in removed[:LISTED_PATHS]),
            files=len(removed),
            lines=sum(lines for lines, _ in removed),
        ),
    )


def _near(lines: int, sizes: Iterable[int], within: float = MOVED_SIZE) -> bool:
    """Whether one of `sizes` is within a share (a tenth) of `lines`: the same lines, moved."""
    return any(abs(size - lines) <= within * lines for size in sizes)


def _large_beyond_kept(pull: Pull, core_lines: int, core_files: int, thresholds) -> bool:
    """Whether a PR whose file list was cut is large in core code, taking the dropped files to
    split by kind as the kept ones do."""
    kept = sum((c.additions or 0) + (c.deletions or 0) for c in pull.files)
    estimated_files = (
        core_files * pull.changed_files / len(pull.files) if pull.files else pull.changed_files
    )
    return (
        beyond_kept(pull, core_lines, kept) >= thresholds.large_change_lines
        or estimated_files >= thresholds.large_change_files
    )


def _config_change(facts: PullFacts) -> tuple[Evidence, ...]:
    """A default the title says changed, or configuration files edited, in what users run: a PR of
    only tooling, lint, CI, tests, docs, examples (the playground) or generated files changes none."""
    if _peripheral_only(facts):
        return ()
    title = parse_title(facts.pull.title, facts.rules).description
    configs = {
        path: change
        for path, k, change in facts.changes()
        if "config" in k and not k & PERIPHERAL_KINDS
    }
    # those that lost lines first: a key or a value users set may be gone
    edited = sorted(configs, key=lambda path: not configs[path].deletions)
    # a title that documents or tests a default does not change it; the files it edits are listed
    # whatever its type (pelican #1426, "Documents DOCUTILS_SETTINGS and initializes it")
    documents = facts.classification.type in ("docs", "test")
    if not documents and title_default_flip(facts.pull, title, facts.kinds):
        lost = tuple(path for path in edited if configs[path].deletions)
        return (
            Evidence(
                "default-changed",
                facts.number,
                paths=lost[:LISTED_PATHS],
                detail=default_setting(title),
            ),
        )
    if not edited:
        return ()
    # every PR that edits them, so that the row's "edits X" names them all (verl #177 added a key
    # to ppo_trainer.yaml beside #222, which changed it), said as what the lines did
    lines = sum((c.additions or 0) + (c.deletions or 0) for c in configs.values())
    added = any(c.additions for c in configs.values())
    taken = any(c.deletions for c in configs.values())
    return (
        Evidence(
            "config-files",
            facts.number,
            paths=tuple(edited[:LISTED_PATHS]),
            files=len(configs),  # every configuration file it changes, as its sentence says
            lines=lines,
            # only taken out: the files may be gone (verl #5454), not "changed"
            detail=None if added and taken else "adds" if added else "removes",
        ),
    )


def _peripheral_only(facts: PullFacts) -> bool:
    """Only tooling, lint, CI, tests, docs, examples or generated files: nothing users run."""
    return bool(facts.kinds) and all(k & PERIPHERAL_KINDS for k in facts.kinds)


def _ci_change(facts: PullFacts) -> tuple[Evidence, ...]:
    workflows = facts.footprint.workflows
    if not workflows:
        return ()
    # the most changed first: the new job, not the one-line trigger edits before it (verl #1037)
    lines = {path: (c.additions or 0) + (c.deletions or 0) for path, _, c in facts.changes()}
    ordered = sorted(workflows, key=lambda path: -lines.get(path, 0))
    return (
        Evidence(
            "workflows", facts.number, paths=tuple(ordered[:LISTED_PATHS]), files=len(ordered)
        ),
    )


def _unresolved_review(facts: PullFacts) -> tuple[Evidence, ...]:
    """Merged while a person's change request stood: no approval followed it. A bot's request
    (a review tool's) is left out: merging over it is routine."""
    people = tuple(
        login for login in facts.review.outstanding if not facts.rules.is_bot_login(login)
    )
    return (Evidence("changes-requested", facts.number, authors=people),) if people else ()


# kind -> check, in RISK_KINDS order; hotspot is a week-level kind (week_risks)
PULL_CHECKS: dict[str, Check] = {
    "missing-tests": _missing_tests,
    "breaking-change": _breaking,
    "dependency-upgrade": _dependency_upgrade,
    "security": functools.partial(_vulnerability, fixed=False),
    "revert": _revert,
    "deprecation": _deprecation,
    "large-change": _large_change,
    "config-change": _config_change,
    "ci-change": _ci_change,
    "unresolved-review": _unresolved_review,
    "security-fix": functools.partial(_vulnerability, fixed=True),
}


def pull_evidence(facts: PullFacts) -> tuple[Evidence, ...]:
    """Every check's evidence for one PR, each marked with its kind."""
    return tuple(
        replace(evidence, kind=kind)
        for kind, check in PULL_CHECKS.items()
        for evidence in check(facts)
    )


def consequence_evidence(
    number: int, consequences: Sequence[Consequence], advice: str = ""
) -> tuple[Evidence, ...]:
    """What a PR says it changes for users (analysis/consequences.py), as breaking-change evidence,
    when that claim is precise enough to be said (analysis/claims.py)."""
    return tuple(
        Evidence(
            "consequence",
            number,
            detail=c.kind or "stated",
            package=c.what,
            old=c.old,
            new=c.new,
            reason=c.quote or None,
            advice=advice or None,
            titled=c.source == "title",
            kind="breaking-change",
        )
        for c in spoken(consequences)
    )


def kinds_of(evidence: Sequence[Evidence]) -> tuple[str, ...]:
    """The risk kinds evidence shows, in RISK_KINDS order (good news left out)."""
    found = {e.kind for e in evidence}
    return tuple(kind for kind in RISK_KINDS if kind in found)


def hotspots(pulls: Sequence[Pull], rules: Rules) -> dict[str, tuple[int, ...]]:
    """Source files changed by at least `thresholds.hotspot_pulls` PRs of the week, and by at
    least `thresholds.hotspot_share` of them -> those PRs."""
    touched: dict[str, list[int]] = defaultdict(list)
    for pull in pulls:
        for path, kinds in set(zip(*rules.files_of(pull), strict=True)):
            if "source" in kinds and not kinds & PERIPHERAL_KINDS:
                touched[path].append(pull.number)
    # in a busy week a few files (the type checker's core, say) are always touched: the bar grows
    needed = max(
        rules.thresholds.hotspot_pulls, math.ceil(rules.thresholds.hotspot_share * len(pulls))
    )
    return {
        path: tuple(sorted(numbers))
        for path, numbers in sorted(touched.items())
        if len(numbers) >= needed
    }


def hotspot_evidence(
    hot: dict[str, tuple[int, ...]], pulls: Sequence[AnalysedPull], untested: dict[str, int]
) -> tuple[Evidence, ...]:
    """One `hot-file` fact per hot file, the busiest first: who touched it, in which PRs; for a file
    of `untested` (path -> the PR that added it), missing "tests"."""
    authors = {p.pull.number: p.pull.author.login for p in pulls}
    busiest = sorted(hot, key=lambda path: (-len(hot[path]), path))
    return tuple(
        Evidence(
            "hot-file",
            hot[path][0],
            paths=(path,),
            pulls=hot[path],
            authors=tuple(dict.fromkeys(authors[n] for n in hot[path] if n in authors)),
            kind="hotspot",
            missing="tests" if path in untested else None,
            by=untested.get(path),
        )
        for path in busiest
    )


def untested_new_files(
    hot: dict[str, tuple[int, ...]],
    pulls: Sequence[AnalysedPull],
    added: Callable[[str], Added | None],
    rules: Rules,
) -> dict[str, int]:
    """The hot files that are new and that no test covers, -> the PR that added them: `added(path)`
    finds a recent addition (file_history), made without tests, and none of the week's PRs that
    changed the file changed a test either. Languages whose tests sit in the source file are left out."""
    by_number = {p.pull.number: p.pull for p in pulls}
    found = {}
    for path, numbers in hot.items():
        if (
            "inline_tests" in rules.path_kinds_of(path)
            or (addition := added(path)) is None
            or addition.tested
        ):
            continue
        if not any(
            "tests" in k for n in numbers if n in by_number for k in rules.files_of(by_number[n])[1]
        ):
            found[path] = addition.pull
    return found


def week_risks(
    pulls: Sequence[AnalysedPull], hot: dict[str, tuple[int, ...]], untested: dict[str, int]
) -> tuple[tuple[Risk, ...], tuple[Risk, ...]]:
    """(risks, good news) of a week: one Risk per kind shown, most severe first. `pulls` carry
    their own evidence, `hot` is `hotspots(...)`, `untested` is `untested_new_files(...)`."""
    by_kind: dict[str, list[tuple[AnalysedPull, Evidence]]] = defaultdict(list)
    for pull in pulls:  # highest importance first, so evidence is too
        for evidence in pull.evidence:
            by_kind[evidence.kind].append((pull, evidence))
    risks: list[Risk] = []
    good_news: list[Risk] = []
    for kind in (*RISK_KINDS, *GOOD_NEWS_KINDS):
        risk = _kind_risk(kind, pulls, by_kind.get(kind, ()), hot, untested)
        if risk is not None:
            (good_news if kind in GOOD_NEWS_KINDS else risks).append(risk)
    order = {impact: i for i, impact in enumerate(IMPACTS)}
    return tuple(sorted(risks, key=lambda r: order[r.impact])), tuple(good_news)


def _kind_risk(
    kind: str,
    pulls: Sequence[AnalysedPull],
    shown: Sequence[tuple[AnalysedPull, Evidence]],
    hot: dict[str, tuple[int, ...]],
    untested: dict[str, int],
) -> Risk | None:
    """The week's Risk of one kind from the (pull, evidence) pairs that show it, if any."""
    if kind == "hotspot":
        evidence = hotspot_evidence(hot, pulls, untested)
        members = [p for p in pulls if any(p.pull.number in e.pulls for e in evidence)]
    else:
        members = list(dict.fromkeys(p for p, _ in shown))
        evidence = tuple(e for _, e in shown)
    if not evidence:
        return None
    if kind == "dependency-upgrade":
        evidence = _group_routine_bumps(members, evidence)
    evidence = tuple(sorted(evidence, key=_telling))  # stable: importance order among equals
    numbers = tuple(
        dict.fromkeys(
            n
            for e in evidence
            for n in (e.pull, *(e.pulls if e.fact in ("hot-file", "routine-bumps") else ()))
        )
    )
    impact = IMPACT_RULES[kind](members, evidence)
    if kind != "ci-change" and members and all(_peripheral(p) for p in members):
        impact = "low"  # examples, docs, scripts and tests alone break nothing a user runs
    return Risk(
        kind,
        numbers,
        impact,
        evidence,
        paths=tuple(e.paths[0] for e in evidence if e.fact == "hot-file"),
    )


def _peripheral(pull: AnalysedPull) -> bool:
    """A PR of only tests, docs, examples, scripts, CI, tooling or generated files (its whole file list known)."""
    return (
        bool(pull.pull.files) and not pull.pull.files_truncated and pull.footprint.core_lines == 0
    )


# What a change does to users, most first (the week's main risk is the first of these it shows): a
# change its author marks breaking, something removed, a default flipped, a core runtime moved across
# a major version, users' configuration edited. Each is a piece of evidence whose claim rule is
# precise enough to be said (analysis/claims.py). Untested or large code, reverts, hot files, CI,
# lint, tooling, test requirements and ecosystem scripts do nothing to users by themselves: never the main risk.
# (risk kind, evidence fact, the claim rule it needs)
CONSEQUENCE_ORDER: tuple[tuple[str, str, str | None], ...] = (
    # what the PR says it removes, renames, flips or breaks (only what speaks is evidence)
    ("breaking-change", "consequence", None),
    ("breaking-change", "breaking-marker", None),  # the author's own marker, said in their words
    ("deprecation", "deprecated", "consequence.removes-deprecated"),  # detail "removes"
    ("large-change", "files-removed", "consequence.files-removed"),
    ("config-change", "default-changed", "consequence.default-flip"),
    # a core runtime forward across a major version, for users
    ("dependency-upgrade", "version", "version.direction"),
    ("config-change", "config-files", "config.user-changed"),
)
_USER_MANIFEST = re.compile(
    r"(?:^|/)(?:pyproject\.toml|setup\.py|setup\.cfg|requirements\.txt|Cargo\.toml|package\.json|environment\.ya?ml)$"
)


def main_risk(risks: Sequence[Risk]) -> Risk | None:
    """The week's main risk, by what it does to users (CONSEQUENCE_ORDER), then impact: the risk with
    the piece of evidence that shows it first. None when no risk of the week does anything to users
    (or only at low impact, in tests, docs, examples or scripts alone)."""
    found = [
        (rank, IMPACTS.index(risk.impact), risk, evidence)
        for risk in risks
        if risk.impact != "low" and risk.pulls
        for evidence in risk.evidence
        if (rank := _consequence_rank(risk.kind, evidence)) is not None
    ]
    if not found:
        return None
    _, _, risk, evidence = min(found, key=lambda f: (f[0], f[1]))
    # what the marked PR says it changes tells more than the mark
    if evidence.fact == "breaking-marker":
        evidence = next(
            (e for e in risk.evidence if e.fact == "consequence" and e.pull == evidence.pull),
            evidence,
        )
    return replace(risk, evidence=(evidence, *(e for e in risk.evidence if e is not evidence)))


def _consequence_rank(kind: str, evidence: Evidence) -> int | None:
    """Where a piece of evidence stands in CONSEQUENCE_ORDER; None when it does nothing to users."""
    for rank, (risk_kind, fact, rule) in enumerate(CONSEQUENCE_ORDER):
        if kind != risk_kind or evidence.fact != fact or (rule is not None and not speaks(rule)):
            continue
        if fact == "deprecated" and evidence.detail != "removes":
            return None
        if fact == "breaking-marker":
            # its author's words on what breaks weigh as what a PR says it removes or renames, the
            # more important PR first (verl 2026-W18: #6200's −7,713 lines before #6198's −16);
            # a marker alone changes anything in 5 of 11 such PRs
            return 0 if evidence.reason else len(CONSEQUENCE_ORDER) + 1
        if fact == "consequence" and not _breaks(evidence):
            # a default flipped, a rule out of preview: after whatever breaks, before nothing
            return len(CONSEQUENCE_ORDER)
        if fact == "version" and not (
            evidence.core
            and evidence.major
            and evidence.detail not in BACK_MOVES
            and any(_USER_MANIFEST.search(path) for path in evidence.paths)
        ):
            return None  # a test requirement, a CI action, a minor step: nothing users run changes much
        return rank
    return None


def _telling(evidence: Evidence) -> tuple:
    """Most telling first: a core or major upgrade, the most untested or removed lines, the most
    workflows, the file most PRs touched."""
    return (
        not evidence.core,
        not evidence.major,
        evidence.fact == "routine-bumps",
        evidence.detail == FILES_ONLY,  # after the upgrades titles name
        -evidence.lines,
        -evidence.files,
        -len(evidence.pulls),
    )


def _group_routine_bumps(
    members: Sequence[AnalysedPull], evidence: Sequence[Evidence]
) -> tuple[Evidence, ...]:
    by_number = {p.pull.number: p for p in members}
    # a bot's bump of something that is not a core runtime: one of many, not worth a line each
    routine = [e for e in evidence if by_number[e.pull].classification.bot and not e.core]
    if len(routine) < 2:
        return tuple(evidence)
    numbers = tuple(dict.fromkeys(e.pull for e in routine))
    grouped = Evidence(
        "routine-bumps",
        numbers[0],
        pulls=numbers,
        files=len(numbers),
        kind="dependency-upgrade",
        packages=_one_package_of_each_first(routine),
    )
    return (*(e for e in evidence if e not in routine), grouped)


def _one_package_of_each_first(routine: Sequence[Evidence]) -> tuple[str, ...]:
    """The bumped packages, the first of each PR before the second of any: a sentence that names
    only the first few then speaks for as many PRs as it can (one PR may bump a dozen hooks)."""
    named = [(e.pull, e.package) for e in routine if e.package]
    firsts: dict[int, str] = {}
    for pull, package in named:
        firsts.setdefault(pull, package)
    return tuple(dict.fromkeys([*firsts.values(), *(package for _, package in named)]))


# Impact a reviewer would defend, per kind, from the members and their evidence.
def _upgrade_impact(members, evidence) -> str:
    """High when a core runtime moves forward across a major version or by an unknown step; medium
    for another named dependency the project ships, or a core runtime held back; low otherwise.
    An impact rests only on what may be said: while the package read is silent, dependency files a
    person edited are medium whatever they hold (ruff's toolchain bump was "high")."""
    human = [e for e in evidence if e.fact == "version" and e.detail != FILES_ONLY]
    if not speaks("version.package"):
        return "medium" if any(e.paths for e in human) else "low"
    forward = (
        [e for e in human if e.detail not in BACK_MOVES] if speaks("version.direction") else []
    )
    if any(e.core and (e.major or e.old is None or e.new is None) for e in forward):
        return "high"  # a framework, CUDA or the toolchain moved
    return "medium" if any(e.package and (e.paths or e.core) for e in human) else "low"


def _missing_tests_impact(members, evidence) -> str:
    key = {p.pull.number for p in members if p.key}
    if any(e.pull in key and e.lines >= UNTESTED_HIGH_LINES for e in evidence):
        return "high"  # a key change of hundreds of lines that nothing tests
    return "medium" if any(e.lines >= 100 for e in evidence) else "low"


def _large_impact(members, evidence) -> str:
    untested = any("missing-tests" in p.risks for p in members)
    return "high" if untested and any(p.key for p in members) else "medium"


def _revert_impact(members, evidence) -> str:
    """Medium while a reverted change of the project's code has not come back; low once a later PR
    re-landed or replaced it, or when it needed nothing (an accidental edit, tests, docs, scripts)."""
    return "medium" if any(e.outcome in ("none", "pending") for e in evidence) else "low"


def _deprecation_impact(members, evidence) -> str:
    # a few-line warning is routine
    return "medium" if any(e.lines >= 50 for e in evidence) else "low"


def _config_impact(members, evidence) -> str:
    """Medium for a changed default, while that reading may be said (consequence.default-flip: that
    a default users see changed; config.default-changed also names the setting)."""
    default = speaks("consequence.default-flip") and any(
        e.fact == "default-changed" for e in evidence
    )
    return "medium" if default else "low"


def _ci_impact(members, evidence) -> str:
    # a migration across many workflows by a person; a bot bumping an action in each is routine,
    # and so is a PR of tests that runs them in each (verl #1042 adds a path to nine triggers)
    people = {
        p.pull.number
        for p in members
        if not p.classification.bot and not (titled_tests(p.pull) and not p.footprint.core_lines)
    }
    return "medium" if any(e.files >= 5 and e.pull in people for e in evidence) else "low"


def _hotspot_impact(members, evidence) -> str:
    return "medium" if any(len(e.authors) >= 3 for e in evidence) else "low"


def _unresolved_review_impact(members, evidence) -> str:
    # a key change merged over a reviewer's objection
    return "high" if any(p.key for p in members) else "medium"


def _breaks(evidence: Evidence) -> bool:
    """Marked breaking, or a stated removal or format change: what users have stops working as it
    did. A default flipped, or something taken out of preview, changes what they get without
    breaking it; a rename may keep the old name working (ruff #18760 kept `src.root` with a
    warning), which neither its title nor its files can tell."""
    return evidence.fact != "consequence" or (
        evidence.detail not in ("default-flip", "rename") and evidence.old != "preview"
    )


IMPACT_RULES: dict[str, Callable[[Sequence[AnalysedPull], Sequence[Evidence]], str]] = {
    "missing-tests": _missing_tests_impact,
    "breaking-change": lambda members, evidence: (
        "high" if any(_breaks(e) for e in evidence) else "medium"
    ),
    "dependency-upgrade": _upgrade_impact,
    "security": lambda members, evidence: "high",
    "revert": _revert_impact,
    "deprecation": _deprecation_impact,
    "large-change": _large_impact,
    "config-change": _config_impact,
    "ci-change": _ci_impact,
    "hotspot": _hotspot_impact,
    "unresolved-review": _unresolved_review_impact,
    "security-fix": lambda members, evidence: (
        "high" if any(e.detail and e.detail[:3] in ("CVE", "GHS") for e in evidence) else "medium"
    ),
}
