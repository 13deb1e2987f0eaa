"""Importance: a 0-10 score per PR, the sum of named factors, so a page can show why.

Weights live in rules.yaml (`weights`) and are documented with the calibration in
docs/calibration.md. Factors, in the order applied:

- type: the kind of change (a new capability counts most, a docs or CI chore least)
- size: changed lines in core paths, log-scaled; files: files changed, log-scaled; large: a
  change of many core lines
- breadth: core modules touched beyond the first
- moved: minus, for code moved, split or restyled (a refactor whose added and deleted lines nearly
  balance, a lint or format pass); such a change also keeps only a quarter of its size points
- peripheral: minus, by the share of changed lines in docs, examples, CI and generated files
  (lock files, snapshots); tests count only when there is nothing but tests
- breaking, security, crash (a fix of a crash, leak, deadlock, hang or data loss)
- deprecation: of the project's own API (classify.own_deprecation), scaled by the core lines
  changed, so a few-line warning adds little
- upgrade: a dependency or toolchain upgrade; core_upgrade for a core runtime (a framework, CUDA,
  the compiler toolchain: rules.yaml `runtimes`), more across a major version
- workflows: CI workflows changed together (a migration of the build or CI tooling)
- default: the title says a default value changes
- revert: a revert of a PR in the store
- discussion: comments and reviews, where the source knows them
- issues: issues the body says the PR closes (`Fixes #12`, `Closes owner/repo#3`): people asked for it
- described: a description of some length that explains the change (its prose, templates left out)
- bot: minus, for changes made by bots
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from digest_plugin.analysis.classify import (
    is_code_move,
    module_of,
    own_deprecation,
    parse_title,
    says_default_change,
    titled_tests,
)
from digest_plugin.analysis.description import description_text
from digest_plugin.analysis.footprint import beyond_kept
from digest_plugin.analysis.model import TYPES, AnalysedPull, Classification, Score, Upgrade
from digest_plugin.analysis.rules import PERIPHERAL_KINDS, Rules
from digest_plugin.analysis.upgrades import moving
from digest_plugin.analysis.upgrades import upgrades as upgrades_of
from digest_plugin.records.pull import Pull

# Ties are broken by substance: the weightier kind of change first (a feature before a chore)
_TYPE_RANK = {
    name: rank
    for rank, name in enumerate(
        ("feat", "perf", "fix", "revert", "refactor", "build", None, "chore", "ci", "test", "docs")
    )
}
_WORKFLOWS_FROM = 3  # CI files changed together from which it is a migration, not an edit
SOFT_CAP = 9.0  # sums above this bend towards 10 (see `scaled`) ...
BEND = 2.0  # ... closing about two thirds of the way left to 10 every this many points
DESCRIBED_FROM = 50  # words of description from which it counts
_ISSUE = r"(?:[\w.-]+/[\w.-]+)?#\d+|https?://github\.com/[\w.-]+/[\w.-]+/issues/\d+"
_ISSUE_REF = re.compile(_ISSUE)
_CLOSING = re.compile(
    rf"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+((?:{_ISSUE})(?:(?:\s*,\s*|\s+and\s+|\s+)(?:{_ISSUE}))*)",
    re.IGNORECASE,
)

MOVED_SIZE_SHARE = 0.25  # of the size points a change keeps when it moves, splits or restyles code
_SIZE_NAMES = frozenset({"size", "files", "large", "breadth"})


def by_importance(analysed: AnalysedPull) -> tuple:
    """The sort key of a week's PRs: score, then substance (core lines, breadth, kind of change)."""
    breadth = dict(analysed.score.factors).get("breadth", 0.0)
    return (
        -analysed.score.value,
        -analysed.footprint.core_lines,
        -breadth,
        _TYPE_RANK.get(analysed.classification.type, len(TYPES)),
        analysed.pull.number,
    )


def importance(
    pull: Pull,
    classification: Classification,
    rules: Rules,
    upgrades: Sequence[Upgrade] | None = None,
    description: str | None = None,
) -> Score:
    """The score of one PR from its record and classification; 0 <= value <= 10. `upgrades` are
    `upgrades.upgrades(...)` and `description` is `description.description_text(...)` when the
    caller has them already."""
    weights = rules.weights
    if description is None:
        description = description_text(pull.body)
    if upgrades is None:
        upgrades = upgrades_of(pull, classification, rules, description)
    title = parse_title(pull.title, rules).description
    deprecated = own_deprecation(title, description, rules.files_of(pull)[1], rules) is not None
    # a type its author did not mark is read from its title and files (the type claims are not
    # precise, analysis/claims.py): the factor says so (ruff #21674, a mechanical "Add" of 8.5)
    factors = [
        (
            "type" if classification.author_typed else "type_read",
            weights.type.get(classification.type or "unknown", weights.type["unknown"]),
        ),
        *_size_factors(pull, classification, rules, upgrades, deprecated),
        *_marker_factors(pull, classification, rules),
        *_upgrade_factors(pull, rules, moving(upgrades, rules.files_of(pull)[1])),
    ]
    factors += _substance_factors(pull, rules, description)
    if pull.comments is not None or pull.reviews is not None:
        discussed = (pull.comments or 0) + (pull.reviews or 0)
        factors.append(("discussion", _log_share(discussed, 30) * weights.discussion))
    if classification.bot:
        factors.append(("bot", weights.bot))
    named = tuple((name, round(points, 2)) for name, points in factors if points)
    return Score(value=round(scaled(sum(points for _, points in named)), 1), factors=named)


def _size_factors(
    pull: Pull,
    classification: Classification,
    rules: Rules,
    upgrades: Sequence[Upgrade],
    deprecated: bool,
) -> list[tuple[str, float]]:
    """size, files, large, breadth, peripheral, moved and deprecation: how much core code the PR
    changes (a deprecation of the project's own API counts by the code it touches)."""
    weights = rules.weights
    core_lines, peripheral_share, core_modules = _footprint(pull, rules)
    factors = [
        ("size", _log_share(core_lines, weights.size_lines) * weights.size),
        ("files", _log_share(pull.changed_files, weights.files_count) * weights.files),
        ("large", _large(core_lines, rules)),
        ("breadth", min(weights.breadth_max, weights.breadth * max(0, core_modules - 1))),
    ]
    # the examples a breaking change updates, the CI an upgrade or a migration moves: its substance
    if not (
        classification.breaking
        or any(u.core for u in upgrades)
        or _workflows(pull, rules) >= _WORKFLOWS_FROM
    ):
        factors.append(("peripheral", weights.peripheral * peripheral_share))
    if is_code_move(pull, classification):
        # moved, split or restyled code: its lines say little about its weight (is_code_move)
        factors = [
            (name, points * MOVED_SIZE_SHARE if name in _SIZE_NAMES else points)
            for name, points in factors
        ]
        factors.append(("moved", weights.moved))
    if deprecated:  # scaled by size: a few-line warning adds little
        factors.append(
            ("deprecation", weights.deprecation * min(1.0, core_lines / weights.deprecation_lines))
        )
    return factors


def _large(core_lines: int, rules: Rules) -> float:
    """`large` points from large_change_lines core lines on, growing by half again for every tenfold
    (1,000 lines 1.0, 10,000 lines 1.5): the largest change of a week stays above a merely large one."""
    threshold = rules.thresholds.large_change_lines
    if core_lines < threshold:
        return 0.0
    return rules.weights.large * (1.0 + 0.5 * min(1.0, math.log10(core_lines / threshold)))


def _marker_factors(
    pull: Pull, classification: Classification, rules: Rules
) -> list[tuple[str, float]]:
    """breaking, security, crash, default and revert: what the title, labels or body say it is."""
    weights, topics = rules.weights, classification.topics
    crash = "crash" in topics and classification.type in ("fix", "revert", None)
    default = says_default_change(parse_title(pull.title, rules).description)
    return [
        ("breaking", weights.breaking if classification.breaking else 0.0),
        ("security", weights.security if "security" in topics else 0.0),
        ("crash", weights.crash if crash else 0.0),
        ("default", weights.default_change if default else 0.0),
        ("revert", weights.revert if classification.reverts is not None else 0.0),
    ]


def _upgrade_factors(
    pull: Pull, rules: Rules, upgrades: Sequence[Upgrade]
) -> list[tuple[str, float]]:
    """core_upgrade or upgrade, and workflows: what the project runs on and is built with."""
    weights = rules.weights
    if any(u.core for u in upgrades):
        return [("core_upgrade", weights.core_upgrade)]  # its workflow edits are part of it
    factors = []
    if upgrades:
        major = any(u.major for u in upgrades)
        factors.append(("upgrade", weights.major_upgrade if major else weights.upgrade))
    workflows = _workflows(pull, rules)
    if workflows >= _WORKFLOWS_FROM:
        factors.append(
            ("workflows", _log_share(workflows, weights.workflows_count) * weights.workflows)
        )
    return factors


def _substance_factors(pull: Pull, rules: Rules, description: str) -> list[tuple[str, float]]:
    """issues and described: what the body shows of the change's weight, where the source keeps no
    discussion. A description counts from DESCRIBED_FROM words: a line or two says nothing of weight."""
    weights = rules.weights
    words = len(description.split())
    described = (
        math.log(words / DESCRIBED_FROM) / math.log(weights.described_words / DESCRIBED_FROM)
        if words > DESCRIBED_FROM
        else 0.0
    )
    issues = len(closed_issues(pull.body))
    return [
        ("issues", _log_share(issues, weights.issues_count) * weights.issues),
        ("described", min(1.0, described) * weights.described),
    ]


def closed_issues(body: str) -> set[str]:
    """The issues a body says the PR closes: `Fixes #12`, `closes owner/repo#3, #4`, an issue URL."""
    return {issue for match in _CLOSING.finditer(body) for issue in _ISSUE_REF.findall(match[1])}


def _workflows(pull: Pull, rules: Rules) -> int:
    return sum(1 for kinds in rules.files_of(pull)[1] if "ci" in kinds)


def scaled(total: float) -> float:
    """The sum of factors on 0..10: as it is up to SOFT_CAP, then bending slowly towards 10
    without reaching it (sums of 10, 12 and 14 give 9.4, 9.8 and 9.9), so that a week's standouts
    stay apart instead of all being pressed against 10."""
    if total <= SOFT_CAP:
        return max(0.0, total)
    return SOFT_CAP + (10.0 - SOFT_CAP) * (1.0 - math.exp(-(total - SOFT_CAP) / BEND))


def _footprint(pull: Pull, rules: Rules) -> tuple[int, float, int]:
    """(changed lines in core paths, peripheral share, core modules touched).

    The peripheral share is that of lines in docs, examples, CI and generated files; tests that
    come with core code do not count against it (a tested change is no less important), a PR of
    nothing but tests is wholly peripheral. Where the source kept no file list, all of the PR's
    lines count as core.
    """
    if not pull.files:
        return pull.additions + pull.deletions, 0.0, 1
    core = tests = other = 0
    modules = set()
    inline_tests = titled_tests(pull)
    for path, kinds, change in zip(*rules.files_of(pull), pull.files, strict=True):
        lines = (change.additions or 0) + (change.deletions or 0)
        if "tests" in kinds or (inline_tests and "inline_tests" in kinds):
            tests += lines
        elif kinds & PERIPHERAL_KINDS:
            other += lines
        else:
            core += lines
            if "/" in path:  # a top-level file (a manifest, a lock file) is no module of its own
                modules.add(module_of(path, rules))
    if pull.files_truncated:
        # the dropped files' kinds are unknown: they are taken to split as the kept files do, so a
        # bulk of snapshots or vendored code past the kept files stays that (ruff #26161)
        kept = core + tests + other
        core, tests, other = (
            (beyond_kept(pull, lines, kept) for lines in (core, tests, other))
            if kept
            else (pull.additions + pull.deletions, 0, 0)
        )
    if core:
        share = other / (core + other)
    else:
        share = 1.0 if tests + other else 0.0
    return core, share, len(modules) or (1 if core else 0)


def _log_share(amount: float, full: float) -> float:
    """0 for nothing, 1 from `full` on, log-scaled in between."""
    if amount <= 0:
        return 0.0
    return min(1.0, math.log1p(amount) / math.log1p(full))
