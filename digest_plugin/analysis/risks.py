"""Risks: what a maintainer should look at in a week, each with the PRs that show it.

`pull_risks` says which risk kinds one PR shows (most are a property of the PR alone);
`week_risks` adds the week-level hotspot kind and gathers one `Risk` per kind, with an English
sentence of why it matters. Kinds are exactly DESIGN.md's (model.RISK_KINDS); thresholds are in
rules.yaml (`thresholds`).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Sequence

from ..records import Pull
from .classify import TITLE_LIMIT, is_code_move
from .model import RISK_KINDS, AnalysedPull, Classification, Risk
from .rules import PERIPHERAL_KINDS, Rules
from .upgrades import dependency_upgrade

_CODE_TYPES = ("feat", "fix", "perf", "refactor", None)
_DEFAULT_CHANGE = re.compile(
    r"\b(chang\w*|set|sets|setting|reset|switch\w*|enabl\w*|disabl\w*|turn\w*|flip\w*|make|makes|use|revert\w*|updat\w*|modif\w*)\b.{0,60}\bdefaults?\b"
    r"|\bdefaults?\b.{0,30}\b(to|value|changed?|now|from|is|no longer|not)\b|\bby default\b",
    re.IGNORECASE,
)
_SECURITY_BODY = re.compile(
    r"\b(cve-\d{4}-\d+|ghsa-[\w-]{4,}|rce|remote code execution|arbitrary code execution|(sql|command|code|shell|template|header) injection|"
    r"xss|cross-site|csrf|ssrf|path traversal|vulnerabilit\w*|security (fix|issue|advisory|hole|vulnerability)|"
    r"unsafe deseriali[sz]\w*)\b|\beval\s*\(|\bexec\s*\(|\bpickle\.loads?\b|\bshell\s*=\s*true\b|\byaml\.load\s*\(",
    re.IGNORECASE,
)

WHY = {
    "missing-tests": "Source code changed without any test changing, so nothing shows that these changes work or keeps them working.",
    "breaking-change": "Breaking changes need users to change their code, configuration or workflows when they upgrade.",
    "dependency-upgrade": "Dependency and toolchain upgrades can change behaviour, performance or compatibility in ways the project's own diff does not show.",
    "security": "Security-related changes deserve a careful review and may need an advisory or a prompt release.",
    "revert": "A revert undoes earlier work, usually because it broke something; the original change likely needs a fixed follow-up.",
    "deprecation": "Deprecations start a countdown for users: they should hear about them before the old behaviour is removed.",
    "large-change": "Large changes are hard to review thoroughly and more likely to hide regressions.",
    "config-change": "Changed configuration or defaults alter behaviour for everyone who relies on them without setting the value explicitly.",
    "ci-change": "Changes to CI decide what is tested and how releases are built; a mistake there lets regressions through unnoticed.",
    "hotspot": "Files changed by several PRs in one week are where conflicting changes and regressions concentrate.",
}
_ALWAYS_HIGH = {"breaking-change", "security"}
_LOW = {"ci-change"}


def pull_risks(pull: Pull, classification: Classification, rules: Rules, description: str = "") -> tuple[str, ...]:
    """The risk kinds one PR shows, in RISK_KINDS order. `description` is its cleaned body text
    (template removed), searched for security words together with the title."""
    kinds_of = rules.files_of(pull)[1]
    thresholds = rules.thresholds
    found: set[str] = set()

    added_source_lines = sum(
        change.additions or 0
        for change, kinds in zip(pull.files, kinds_of, strict=True)
        if "source" in kinds and not kinds & PERIPHERAL_KINDS
    )
    touches_tests = any("tests" in kinds for kinds in kinds_of)
    if (
        classification.type in _CODE_TYPES
        and not classification.bot
        and not classification.is_revert
        and not is_code_move(pull, classification)  # moved code keeps the tests it had
        and added_source_lines >= thresholds["missing_tests_lines"]  # removed code needs no new test
        and not touches_tests
        and not pull.files_truncated  # the tests may be among the files not kept
    ):
        found.add("missing-tests")
    if classification.breaking:
        found.add("breaking-change")
    if dependency_upgrade(pull, classification, rules):
        found.add("dependency-upgrade")
    title = pull.title[:TITLE_LIMIT]
    if "security" in classification.topics or _SECURITY_BODY.search(title) or (description and _SECURITY_BODY.search(description)):
        found.add("security")
    if classification.is_revert or classification.type == "revert":
        found.add("revert")
    if "deprecation" in classification.topics:
        found.add("deprecation")
    core_lines = sum(
        (change.additions or 0) + (change.deletions or 0)
        for change, kinds in zip(pull.files, kinds_of, strict=True)
        if not kinds & PERIPHERAL_KINDS
    )
    core_files = sum(1 for kinds in kinds_of if not kinds & PERIPHERAL_KINDS)
    if not pull.files or pull.files_truncated:
        core_lines = max(core_lines, pull.additions + pull.deletions)
        core_files = pull.changed_files
    if (core_lines >= thresholds["large_change_lines"] or core_files >= thresholds["large_change_files"]) and not classification.bot:
        found.add("large-change")
    config_edited = any(
        "config" in kinds and not kinds & {"generated", "tests", "docs"} and (change.deletions or 0) > 0
        for change, kinds in zip(pull.files, kinds_of, strict=True)
    )
    if classification.type not in ("docs", "test") and (config_edited or _DEFAULT_CHANGE.search(title)):
        found.add("config-change")
    if any("ci" in kinds for kinds in kinds_of):
        found.add("ci-change")
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
    needed = max(rules.thresholds["hotspot_pulls"], math.ceil(rules.thresholds["hotspot_share"] * len(pulls)))
    return {path: tuple(sorted(numbers)) for path, numbers in sorted(touched.items()) if len(numbers) >= needed}


def week_risks(pulls: Sequence[AnalysedPull], hot: dict[str, tuple[int, ...]], titles: dict[int, str] | None = None) -> tuple[Risk, ...]:
    """One Risk per kind shown this week, most severe first; `pulls` carry their own kinds,
    `hot` is `hotspots(...)`, `titles` (number -> title, the store's) names what reverts undo."""
    by_kind: dict[str, list[AnalysedPull]] = defaultdict(list)
    for pull in pulls:
        for kind in pull.risks:
            by_kind[kind].append(pull)
    risks = []
    for kind in RISK_KINDS:
        members = by_kind.get(kind, [])
        if kind == "hotspot":
            if not hot:
                continue
            numbers = tuple(sorted({n for ns in hot.values() for n in ns}))
            busiest = sorted(hot, key=lambda p: (-len(hot[p]), p))
            listed = ", ".join(f"{path} ({len(hot[path])} PRs)" for path in busiest[:3])
            text = f"{WHY[kind]} This week: {listed}{' and more' if len(busiest) > 3 else ''}."
            risks.append(Risk(kind, numbers, text, "medium", tuple(busiest)))
            continue
        if not members:
            continue
        numbers = tuple(sorted(p.pull.number for p in members))
        text = WHY[kind]
        if kind == "revert":
            undone = [f"#{p.classification.reverts}" + (f" ({titles[p.classification.reverts]})" if titles and p.classification.reverts in titles else "")
                      for p in members if p.classification.reverts is not None]
            if undone:
                text += f" Reverted: {', '.join(undone)}."
        impact = "high" if kind in _ALWAYS_HIGH or (any(p.key for p in members) and kind not in _LOW) else "low" if kind in _LOW else "medium"
        risks.append(Risk(kind, numbers, text, impact))
    order = {"high": 0, "medium": 1, "low": 2}
    return tuple(sorted(risks, key=lambda r: order[r.impact]))
