"""Recommendations: at most five follow-ups for the week, each from a finding of the analysis,
naming its object and the reason: a breaking change without migration notes, a runtime dependency
raised without its lock file, a new file many PRs change and no test covers, a revert nothing has
re-landed or replaced, a vulnerability fixed (with its advisory id), a changed default (naming the
setting), code that runs untrusted input. A risk alone is no finding: most weeks call for none.

Facts only (model.Recommendation); narrate words them. The order: impact of the risk it comes
from, then model.RECOMMENDATION_ACTIONS; low-impact risks only fill the places the others leave.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from digest_plugin.analysis.claims import speaks
from digest_plugin.analysis.model import (
    IMPACTS,
    MAX_RECOMMENDATION_PULLS,
    MAX_RECOMMENDATIONS,
    RECOMMENDATION_ACTIONS,
    Recommendation,
    Risk,
)

# what a security finding must name for a review to be worth asking: code that runs or loads input
_REVIEWABLE = re.compile(
    r"eval|exec|pickle|shell|yaml\.load|deseriali[sz]|injection|traversal|xss|csrf|ssrf|remote code|arbitrary code",
    re.IGNORECASE,
)


def _top(numbers: Sequence[int]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(numbers))[:MAX_RECOMMENDATION_PULLS]


def _advisory(risk: Risk) -> list[Recommendation]:
    fixed = [e for e in risk.evidence if e.detail and e.detail[:3] in ("CVE", "GHS")]
    if not fixed:
        return []
    return [
        Recommendation(
            "release-advisory",
            _top([e.pull for e in fixed]),
            risk.kind,
            detail=fixed[0].detail,
            count=len(fixed),
        )
    ]


def _migration(risk: Risk) -> list[Recommendation]:
    silent = [e.pull for e in risk.evidence if e.missing == "migration-notes"]
    if not silent:
        return []
    return [Recommendation("migration-notes", _top(silent), risk.kind, count=len(silent))]


def _security_review(risk: Risk) -> list[Recommendation]:
    found = [e for e in risk.evidence if e.detail and _REVIEWABLE.search(e.detail)]
    return [
        Recommendation(
            "security-review", (e.pull,), risk.kind, detail=e.detail, count=1, evidence=e
        )
        for e in found[:1]
    ]


def _revert(risk: Risk) -> list[Recommendation]:
    """Each revert of a known PR that nothing re-landed or replaced, named by the title of what it undid
    (when that finding is precise: analysis/claims.py)."""
    if not (speaks("revert.nothing-followed") and speaks("revert.undoes")):
        return []
    return [
        Recommendation(
            "re-land-or-drop", (e.pull,), risk.kind, detail=e.detail, count=1, evidence=e
        )
        for e in risk.evidence
        if e.outcome in ("none", "pending") and e.detail
    ]


def _lock_file(risk: Risk) -> list[Recommendation]:
    """A package raised in a manifest whose lock file stayed as it was, when the package and its move are told precisely."""
    if not (speaks("version.package") and speaks("version.direction")):
        return []
    return [
        Recommendation(
            "lock-file",
            (e.pull,),
            risk.kind,
            path=e.paths[0],
            detail=e.paths[1],
            package=e.package,
            new=e.new,
            count=1,
            evidence=e,
        )
        for e in risk.evidence
        if e.missing == "lock-file"
    ]


def _tests_for_new_file(risk: Risk) -> list[Recommendation]:
    return [
        Recommendation(
            "add-tests", _top(e.pulls), risk.kind, path=e.paths[0], count=len(e.pulls), evidence=e
        )
        for e in risk.evidence
        if e.missing == "tests"
    ]


def _tests_for_large_change(risk: Risk) -> list[Recommendation]:
    """A key change of hundreds of untested lines (the risk is high only then), when "untested" is precise."""
    if risk.impact != "high" or not speaks("tests.missing"):
        return []
    first = risk.evidence[0]  # the most untested lines
    return [
        Recommendation(
            "add-tests",
            (first.pull,),
            risk.kind,
            path=first.paths[0] if first.paths else None,
            count=first.lines,
            evidence=first,
        )
    ]


def _defaults(risk: Risk) -> list[Recommendation]:
    """A default the title names (`detail`) that the PR's configuration files change too (`paths`),
    when a title's "default" is precise."""
    if not (speaks("config.default-changed") and speaks("consequence.default-flip")):
        return []
    changed = [e for e in risk.evidence if e.fact == "default-changed" and e.detail and e.paths]
    return [
        Recommendation(
            "check-defaults",
            (e.pull,),
            risk.kind,
            detail=e.detail,
            path=e.paths[0],
            count=1,
            evidence=e,
        )
        for e in changed[:1]
    ]


def _release_notes(risk: Risk) -> list[Recommendation]:
    """What a PR states it removes, renames or breaks (not a default flipped, nor a rule out of
    preview): tell users in the release notes, with the step its author gives, if any."""
    stated = [
        e
        for e in risk.evidence
        if e.fact == "consequence" and e.detail not in ("default-flip",) and e.old != "preview"
    ]
    # one that writes no documentation is asked for migration notes instead (_migration), which
    # say as much (verl #4280 was asked both)
    marked = {
        e.pull
        for e in risk.evidence
        if e.fact == "breaking-marker" and e.reason and e.missing != "migration-notes"
    }
    # verl 2026-W18: the PRs marked breaking, most important first, and what the others state
    if marked:
        told = {e.pull for e in stated} | marked
        pulls = tuple(dict.fromkeys(e.pull for e in risk.evidence if e.pull in told))
        return [Recommendation("release-notes", pulls, risk.kind, count=len(pulls))]
    return [
        Recommendation(
            "release-notes",
            (e.pull,),
            risk.kind,
            package=e.package,
            old=e.old,
            new=e.new,
            detail=e.advice,
            count=1,
            evidence=e,
        )
        for e in stated[:2]
    ]


def _breaking(risk: Risk) -> list[Recommendation]:
    return [*_release_notes(risk), *_migration(risk)]


# risk (or good-news) kind -> the recommendations its findings call for (most often none)
FOLLOW_UPS: dict[str, Callable[[Risk], list[Recommendation]]] = {
    "security-fix": _advisory,
    "breaking-change": _breaking,
    "security": _security_review,
    "revert": _revert,
    "dependency-upgrade": _lock_file,
    "hotspot": _tests_for_new_file,
    "missing-tests": _tests_for_large_change,
    "config-change": _defaults,
}


def recommendations(
    risks: Sequence[Risk], good_news: Sequence[Risk] = ()
) -> tuple[Recommendation, ...]:
    """The week's follow-ups, at most MAX_RECOMMENDATIONS, most pressing first; one per file."""
    found: list[Recommendation] = []
    for risk in (*good_news, *risks):
        follow_up = FOLLOW_UPS.get(risk.kind)
        found.extend(replace(r, impact=risk.impact) for r in (follow_up(risk) if follow_up else ()))
    found.sort(key=lambda r: (IMPACTS.index(r.impact), RECOMMENDATION_ACTIONS.index(r.action)))
    # the more pressing of two on one file
    unique = {(r.action, r.path or r.pulls): r for r in reversed(found)}
    return tuple(r for r in found if unique[(r.action, r.path or r.pulls)] is r)[
        :MAX_RECOMMENDATIONS
    ]
