"""Risks: what a maintainer should look at in a week, each with the PRs and the evidence that show it.

One PR's risks come from a table of small named checks (`PULL_CHECKS`), one per kind: each looks
at a `PullFacts` and returns the evidence it found (model.EVIDENCE_FACTS), none when the kind does
not apply. `week_risks` gathers the evidence per kind, adds the week-level hotspot kind, groups
routine bot bumps into one fact and sets an impact a reviewer would defend (`IMPACT_RULES`).
A fixed vulnerability is good news, not a risk: it goes to `good_news` as `security-fix`.
Thresholds are in rules.yaml (`thresholds`).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from digest_plugin.analysis.classify import TITLE_LIMIT, is_code_move, parse_title, says_default_change
from digest_plugin.analysis.footprint import beyond_kept
from digest_plugin.analysis.model import GOOD_NEWS_KINDS, IMPACTS, RISK_KINDS, AnalysedPull, Classification, Evidence, Footprint, Risk, Upgrade
from digest_plugin.analysis.rules import PERIPHERAL_KINDS, Rules
from digest_plugin.store.records import Pull

# the setting a title names beside "default": `max_num_seqs`, "default of X", "X by default"
_DEFAULT_SETTING = re.compile(r"`([^`]{1,60})`|\bdefault(?:\s+value)?\s+(?:of|for)\s+([\w.-]+)|\b(?:enable|disable|use)s?\s+([\w.-]+)\s+by default", re.IGNORECASE)
_SECURITY_BODY = re.compile(
    r"\b(cve-\d{4}-\d+|ghsa-[\w-]{4,}|rce|remote code execution|arbitrary code execution|(sql|command|code|shell|template|header) injection|"
    r"xss|cross-site|csrf|ssrf|path traversal|vulnerabilit\w*|security (fix|issue|advisory|hole|vulnerability)|"
    r"unsafe deseriali[sz]\w*)\b|\beval\s*\(|\bexec\s*\(|\bpickle\.loads?\b|\bshell\s*=\s*true\b|\byaml\.load\s*\(",
    re.IGNORECASE,
)
_ADVISORY = re.compile(r"\b(cve-\d{4}-\d+|ghsa(?:-[\w]{4}){3})\b", re.IGNORECASE)
_FIXING = re.compile(r"\b(fix\w*|patch\w*|prevent\w*|sanitiz\w*|escap\w*|harden\w*|mitigat\w*|avoid\w*|block\w*|validat\w*|restrict\w*|close[sd]?)\b", re.IGNORECASE)
LISTED_PATHS = 3
UNTESTED_HIGH_LINES = 500  # source lines a key PR adds without tests from which missing tests is high


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
    out: the file list cannot tell that it is untested, so it claims nothing about it."""
    pull, kind = facts.pull, facts.classification
    if kind.bot or kind.is_revert or is_code_move(pull, kind) or pull.files_truncated or kind.type in ("docs", "test"):
        return ()
    if any("tests" in k for k in facts.kinds):
        return ()
    added = sorted(((change.additions or 0, path) for path, k, change in facts.changes() if "source" in k and not k & (PERIPHERAL_KINDS | {"inline_tests"})), reverse=True)
    lines = sum(n for n, _ in added)
    if lines < facts.rules.thresholds.missing_tests_lines:  # removed code needs no new test
        return ()
    return (Evidence("untested-code", facts.number, paths=tuple(p for _, p in added[:LISTED_PATHS]), lines=lines, files=len(added)),)


def _breaking(facts: PullFacts) -> tuple[Evidence, ...]:
    if not facts.classification.breaking:
        return ()
    rules = facts.rules
    if parse_title(facts.pull.title, rules).breaking:
        how = "title"
    elif rules.label_breaking and any(rules.label_breaking.fullmatch(label.strip()) for label in facts.pull.labels):
        how = "label"
    else:
        how = "footer"
    return (Evidence("breaking-marker", facts.number, detail=how),)


def _dependency_upgrade(facts: PullFacts) -> tuple[Evidence, ...]:
    return tuple(
        Evidence("version", facts.number, package=u.package or None, old=u.old, new=u.new, major=u.major, core=u.core)
        for u in facts.upgrades
    )


def _security_words(facts: PullFacts) -> str | None:
    title = facts.pull.title[:TITLE_LIMIT]
    if advisory := _ADVISORY.search(f"{title}\n{facts.description}"):
        return advisory[1].upper()
    if "security" in facts.classification.topics:
        return "security"
    match = _SECURITY_BODY.search(title) or (facts.description and _SECURITY_BODY.search(facts.description))
    return match[0].strip().lower() if match else None


def _is_fix(facts: PullFacts) -> bool:
    return facts.classification.type == "fix" or bool(_FIXING.search(facts.pull.title[:TITLE_LIMIT]))


def _security(facts: PullFacts) -> tuple[Evidence, ...]:
    """A security-relevant change that fixes nothing: new attack surface to review."""
    word = _security_words(facts)
    return (Evidence("vulnerability", facts.number, detail=word),) if word and not _is_fix(facts) else ()


def _security_fix(facts: PullFacts) -> tuple[Evidence, ...]:
    """Good news: a vulnerability fixed (an advisory and a release may be due)."""
    word = _security_words(facts)
    return (Evidence("vulnerability", facts.number, detail=word),) if word and _is_fix(facts) else ()


def _revert(facts: PullFacts) -> tuple[Evidence, ...]:
    kind = facts.classification
    if not (kind.is_revert or kind.type == "revert"):
        return ()
    return (Evidence("reverted", facts.number, pulls=(kind.reverts,) if kind.reverts is not None else ()),)


def _deprecation(facts: PullFacts) -> tuple[Evidence, ...]:
    if "deprecation" not in facts.classification.topics:
        return ()
    paths = tuple(path for path, k, _ in facts.changes() if not k & PERIPHERAL_KINDS)
    return (Evidence("deprecated", facts.number, paths=paths[:LISTED_PATHS], lines=facts.footprint.core_lines, files=len(paths)),)


def _large_change(facts: PullFacts) -> tuple[Evidence, ...]:
    pull, thresholds = facts.pull, facts.rules.thresholds
    if facts.classification.bot:
        return ()
    core = [(path, change) for path, k, change in facts.changes() if not k & PERIPHERAL_KINDS]
    lines = sum((c.additions or 0) + (c.deletions or 0) for _, c in core)
    files = len(core)
    if pull.files_truncated and not _large_beyond_kept(pull, lines, files, thresholds):
        return ()  # a bulk of snapshots or vendored code past the kept files is no large change
    if not pull.files or pull.files_truncated:
        lines, files = max(lines, pull.additions + pull.deletions), pull.changed_files
    if lines < thresholds.large_change_lines and files < thresholds.large_change_files:
        return ()
    modules = len({path.split("/")[0] for path, _ in core if "/" in path})
    found = [Evidence("size", facts.number, lines=lines, files=files, modules=modules)]
    if facts.footprint.removed_count:
        found.append(Evidence("files-removed", facts.number, paths=facts.footprint.removed_files[:LISTED_PATHS],
                              files=facts.footprint.removed_count, lines=facts.footprint.removed_lines))
    return tuple(found)


def _large_beyond_kept(pull: Pull, core_lines: int, core_files: int, thresholds) -> bool:
    """Whether a PR whose file list was cut is large in core code, taking the dropped files to
    split by kind as the kept ones do."""
    kept = sum((c.additions or 0) + (c.deletions or 0) for c in pull.files)
    estimated_files = core_files * pull.changed_files / len(pull.files) if pull.files else pull.changed_files
    return beyond_kept(pull, core_lines, kept) >= thresholds.large_change_lines or estimated_files >= thresholds.large_change_files


def _config_change(facts: PullFacts) -> tuple[Evidence, ...]:
    if facts.classification.type in ("docs", "test"):
        return ()
    title = parse_title(facts.pull.title, facts.rules).description
    edited = tuple(path for path, k, change in facts.changes()
                   if "config" in k and not k & {"generated", "tests", "docs"} and (change.deletions or 0) > 0)
    found = []
    if says_default_change(title):
        setting = _DEFAULT_SETTING.search(title)
        found.append(Evidence("default-changed", facts.number, paths=edited[:LISTED_PATHS],
                              detail=next((g for g in setting.groups() if g), None) if setting else None))
    elif edited:
        lines = sum((c.additions or 0) + (c.deletions or 0) for path, _, c in facts.changes() if path in edited)
        found.append(Evidence("config-files", facts.number, paths=edited[:LISTED_PATHS], files=len(edited), lines=lines))
    return tuple(found)


def _ci_change(facts: PullFacts) -> tuple[Evidence, ...]:
    workflows = facts.footprint.workflows
    return (Evidence("workflows", facts.number, paths=workflows[:LISTED_PATHS], files=len(workflows)),) if workflows else ()


# kind -> check, in RISK_KINDS order; hotspot is a week-level kind (week_risks)
PULL_CHECKS: dict[str, Check] = {
    "missing-tests": _missing_tests,
    "breaking-change": _breaking,
    "dependency-upgrade": _dependency_upgrade,
    "security": _security,
    "revert": _revert,
    "deprecation": _deprecation,
    "large-change": _large_change,
    "config-change": _config_change,
    "ci-change": _ci_change,
    "security-fix": _security_fix,
}


def pull_evidence(facts: PullFacts) -> tuple[Evidence, ...]:
    """Every check's evidence for one PR, each marked with its kind."""
    return tuple(replace(evidence, kind=kind) for kind, check in PULL_CHECKS.items() for evidence in check(facts))


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
    needed = max(rules.thresholds.hotspot_pulls, math.ceil(rules.thresholds.hotspot_share * len(pulls)))
    return {path: tuple(sorted(numbers)) for path, numbers in sorted(touched.items()) if len(numbers) >= needed}


def hotspot_evidence(hot: dict[str, tuple[int, ...]], pulls: Sequence[AnalysedPull]) -> tuple[Evidence, ...]:
    """One `hot-file` fact per hot file, the busiest first: who touched it, in which PRs."""
    authors = {p.pull.number: p.pull.author.login for p in pulls}
    busiest = sorted(hot, key=lambda path: (-len(hot[path]), path))
    return tuple(
        Evidence("hot-file", hot[path][0], paths=(path,), pulls=hot[path],
                 authors=tuple(dict.fromkeys(authors[n] for n in hot[path] if n in authors)), kind="hotspot")
        for path in busiest
    )


def week_risks(pulls: Sequence[AnalysedPull], hot: dict[str, tuple[int, ...]]) -> tuple[tuple[Risk, ...], tuple[Risk, ...]]:
    """(risks, good news) of a week: one Risk per kind shown, most severe first. `pulls` carry
    their own evidence, `hot` is `hotspots(...)`."""
    by_kind: dict[str, list[tuple[AnalysedPull, Evidence]]] = defaultdict(list)
    for pull in pulls:  # highest importance first, so evidence is too
        for evidence in pull.evidence:
            by_kind[evidence.kind].append((pull, evidence))
    risks, good_news = [], []
    for kind in (*RISK_KINDS, *GOOD_NEWS_KINDS):
        if kind == "hotspot":
            evidence = hotspot_evidence(hot, pulls)
            members = [p for p in pulls if any(p.pull.number in e.pulls for e in evidence)]
        else:
            members = list(dict.fromkeys(p for p, _ in by_kind.get(kind, ())))
            evidence = tuple(e for _, e in by_kind.get(kind, ()))
        if not evidence:
            continue
        if kind == "dependency-upgrade":
            evidence = _group_routine_bumps(members, evidence)
        evidence = tuple(sorted(evidence, key=_telling))  # stable: importance order among equals
        numbers = tuple(dict.fromkeys(n for e in evidence for n in (e.pull, *(e.pulls if e.fact in ("hot-file", "routine-bumps") else ()))))
        risk = Risk(kind, numbers, IMPACT_RULES[kind](members, evidence), evidence,
                    paths=tuple(e.paths[0] for e in evidence if e.fact == "hot-file"))
        (good_news if kind in GOOD_NEWS_KINDS else risks).append(risk)
    order = {impact: i for i, impact in enumerate(IMPACTS)}
    return tuple(sorted(risks, key=lambda r: order[r.impact])), tuple(good_news)


def _telling(evidence: Evidence) -> tuple:
    """Most telling first: a core or major upgrade, the most untested or removed lines, the most
    workflows, the file most PRs touched."""
    return (not evidence.core, not evidence.major, evidence.fact == "routine-bumps", -evidence.lines, -evidence.files, -len(evidence.pulls))


def _routine(pull: AnalysedPull, evidence: Evidence) -> bool:
    """A bot's bump of something that is not a core runtime: one of many, not worth a line each."""
    return pull.classification.bot and not evidence.core


def _group_routine_bumps(members: Sequence[AnalysedPull], evidence: Sequence[Evidence]) -> tuple[Evidence, ...]:
    by_number = {p.pull.number: p for p in members}
    routine = [e for e in evidence if _routine(by_number[e.pull], e)]
    if len(routine) < 2:
        return tuple(evidence)
    numbers = tuple(dict.fromkeys(e.pull for e in routine))
    grouped = Evidence("routine-bumps", numbers[0], pulls=numbers, files=len(numbers), kind="dependency-upgrade",
                       packages=tuple(dict.fromkeys(e.package for e in routine if e.package)))
    return (*(e for e in evidence if e not in routine), grouped)


# Impact a reviewer would defend, per kind, from the members and their evidence.
def _upgrade_impact(members, evidence) -> str:
    human = [e for e in evidence if e.fact == "version"]
    if any(e.core and (e.major or e.old is None or e.new is None) for e in human) or any(e.core and e.major for e in evidence):
        return "high"  # a framework, CUDA or the toolchain moved
    return "medium" if any(e.package or e.major for e in human) else "low"


def _missing_tests_impact(members, evidence) -> str:
    key = {p.pull.number for p in members if p.key}
    if any(e.pull in key and e.lines >= UNTESTED_HIGH_LINES for e in evidence):
        return "high"  # a key change of hundreds of lines that nothing tests
    return "medium" if any(e.lines >= 100 for e in evidence) else "low"


def _large_impact(members, evidence) -> str:
    untested = any("missing-tests" in p.risks for p in members)
    return "high" if untested and any(p.key for p in members) else "medium"


def _deprecation_impact(members, evidence) -> str:
    return "medium" if any(e.lines >= 50 for e in evidence) else "low"  # a few-line warning is routine


def _config_impact(members, evidence) -> str:
    return "medium" if any(e.fact == "default-changed" for e in evidence) else "low"


def _ci_impact(members, evidence) -> str:
    people = {p.pull.number for p in members if not p.classification.bot}
    # a migration across many workflows by a person; a bot bumping an action in each is routine
    return "medium" if any(e.files >= 5 and e.pull in people for e in evidence) else "low"


def _hotspot_impact(members, evidence) -> str:
    return "medium" if any(len(e.authors) >= 3 for e in evidence) else "low"


def _fixed(level: str) -> Callable[..., str]:
    return lambda members, evidence: level


IMPACT_RULES: dict[str, Callable[[Sequence[AnalysedPull], Sequence[Evidence]], str]] = {
    "missing-tests": _missing_tests_impact,
    "breaking-change": _fixed("high"),
    "dependency-upgrade": _upgrade_impact,
    "security": _fixed("high"),
    "revert": _fixed("medium"),
    "deprecation": _deprecation_impact,
    "large-change": _large_impact,
    "config-change": _config_impact,
    "ci-change": _ci_impact,
    "hotspot": _hotspot_impact,
    "security-fix": lambda members, evidence: "high" if any(e.detail and e.detail[:3] in ("CVE", "GHS") for e in evidence) else "medium",
}
