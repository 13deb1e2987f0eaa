"""Recommendations: at most five follow-ups for the week, ranked, each traced to a risk (or the
good news) and naming its subject: the file, the version, the setting, the PRs (at most five).

Facts only (model.Recommendation); narrate words them. The order: impact of the risk it comes
from, then model.RECOMMENDATION_ACTIONS; low-impact risks only fill the places the others leave.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from digest_plugin.analysis.model import IMPACTS, MAX_RECOMMENDATION_PULLS, MAX_RECOMMENDATIONS, RECOMMENDATION_ACTIONS, Evidence, Recommendation, Risk


def _top(numbers: Sequence[int]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(numbers))[:MAX_RECOMMENDATION_PULLS]


def _advisory(risk: Risk) -> Recommendation:
    advisory = next((e.detail for e in risk.evidence if e.detail and e.detail[:3] in ("CVE", "GHS")), None)
    return Recommendation("release-advisory", _top(risk.pulls), risk.kind, count=len(risk.pulls), detail=advisory)


def _security_review(risk: Risk) -> Recommendation:
    return Recommendation("security-review", _top(risk.pulls), risk.kind, count=len(risk.pulls), detail=risk.evidence[0].detail)


def _migration(risk: Risk) -> Recommendation:
    return Recommendation("migration-notes", _top(risk.pulls), risk.kind, count=len(risk.pulls))


def _upgrade(risk: Risk) -> Recommendation | None:
    named = [e for e in risk.evidence if e.fact == "version" and e.package]
    if not named:
        return None  # only routine bumps or unnamed images: no changelog to point at
    first = named[0]  # the most telling: a core runtime or a major version first
    same = [e.pull for e in named if e.package == first.package]
    return Recommendation("check-upgrade", _top(same), risk.kind, package=first.package, old=first.old, new=first.new, count=len(same))


def _tests(risk: Risk) -> Recommendation:
    first = risk.evidence[0]  # the most untested lines
    return Recommendation("add-tests", _top(risk.pulls), risk.kind, path=first.paths[0] if first.paths else None, count=len(risk.pulls))


def _revert(risk: Risk) -> Recommendation:
    return Recommendation("follow-up-revert", _top(risk.pulls), risk.kind, count=len(risk.pulls))


def _large(risk: Risk) -> Recommendation:
    return Recommendation("regression-test", _top(risk.pulls), risk.kind, count=len(risk.pulls))


def _defaults(risk: Risk) -> Recommendation | None:
    changed = [e for e in risk.evidence if e.fact == "default-changed"]
    if not changed:
        return None  # configuration files edited, no default said to change: nothing to check
    return Recommendation("check-defaults", _top([e.pull for e in changed]), risk.kind, detail=changed[0].detail,
                          path=changed[0].paths[0] if changed[0].paths else None, count=len(changed))


def _hot_file(risk: Risk) -> Recommendation:
    hottest: Evidence = risk.evidence[0]
    return Recommendation("own-hot-file", _top(hottest.pulls), risk.kind, path=hottest.paths[0], count=len(hottest.pulls))


def _ci(risk: Risk) -> Recommendation | None:
    widest = risk.evidence[0]  # the most workflows
    if risk.impact == "low":
        return None  # a workflow edited here and there: CI itself will tell
    return Recommendation("watch-ci", _top(risk.pulls), risk.kind, path=widest.paths[0] if widest.paths else None, count=len(risk.pulls))


def _deprecation(risk: Risk) -> Recommendation:
    return Recommendation("announce-deprecation", _top(risk.pulls), risk.kind, count=len(risk.pulls))


# risk (or good-news) kind -> how it becomes a recommendation (None: it calls for none this week)
FOLLOW_UPS: dict[str, Callable[[Risk], Recommendation | None]] = {
    "security-fix": _advisory,
    "breaking-change": _migration,
    "security": _security_review,
    "dependency-upgrade": _upgrade,
    "missing-tests": _tests,
    "revert": _revert,
    "large-change": _large,
    "config-change": _defaults,
    "hotspot": _hot_file,
    "ci-change": _ci,
    "deprecation": _deprecation,
}


def recommendations(risks: Sequence[Risk], good_news: Sequence[Risk] = ()) -> tuple[Recommendation, ...]:
    """The week's follow-ups, at most MAX_RECOMMENDATIONS, most pressing first."""
    found = []
    for risk in (*good_news, *risks):
        follow_up = FOLLOW_UPS.get(risk.kind)
        recommendation = follow_up(risk) if follow_up else None
        if recommendation is not None:
            found.append(replace(recommendation, impact=risk.impact))
    found.sort(key=lambda r: (IMPACTS.index(r.impact), RECOMMENDATION_ACTIONS.index(r.action)))
    return tuple(found[:MAX_RECOMMENDATIONS])

