"""Risks as table rows and sentences, and the follow-ups they call for, each citing its PRs."""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.model import RISK_KINDS, WeekAnalysis
from .model import Cited, RiskLine
from .wording import Language, impact_names, risk_names

IMPACT_ORDER = {"high": 0, "medium": 1, "low": 2}
RECOMMENDATION_PULLS = 10


def risk_lines(week: WeekAnalysis, lang: Language) -> tuple[RiskLine, ...]:
    _ = lang.gettext
    names, impacts = risk_names(_), impact_names(_)
    ordered = sorted(week.risks, key=lambda r: (IMPACT_ORDER.get(r.impact, 1), _kind_order(r.kind)))
    return tuple(
        RiskLine(
            kind=risk.kind,
            name=names.get(risk.kind, risk.kind),
            impact=impacts.get(risk.impact, risk.impact),
            level=risk.impact,
            pulls=risk.pulls,
            sentence=Cited(_risk_sentence(risk.kind, risk.pulls, lang), risk.pulls),
        )
        for risk in ordered
        if risk.pulls
    )


def _kind_order(kind: str) -> int:
    return RISK_KINDS.index(kind) if kind in RISK_KINDS else len(RISK_KINDS)


def _risk_sentence(kind: str, pulls: Sequence[int], lang: Language) -> str:
    ngettext, n = lang.ngettext, len(pulls)
    templates = {
        "missing-tests": ngettext("{count} PR changed code without changing any test: {pulls}.", "{count} PRs changed code without changing any test: {pulls}.", n),
        "breaking-change": ngettext("{count} PR is a breaking change: {pulls}.", "{count} PRs are breaking changes: {pulls}.", n),
        "dependency-upgrade": ngettext("{count} PR upgrades dependencies: {pulls}.", "{count} PRs upgrade dependencies: {pulls}.", n),
        "security": ngettext("{count} PR touches security: {pulls}.", "{count} PRs touch security: {pulls}.", n),
        "revert": ngettext("{count} PR reverts earlier work: {pulls}.", "{count} PRs revert earlier work: {pulls}.", n),
        "deprecation": ngettext("{count} PR deprecates existing behaviour: {pulls}.", "{count} PRs deprecate existing behaviour: {pulls}.", n),
        "large-change": ngettext("{count} PR is a large change, hard to review in full: {pulls}.", "{count} PRs are large changes, hard to review in full: {pulls}.", n),
        "config-change": ngettext("{count} PR changes configuration: {pulls}.", "{count} PRs change configuration: {pulls}.", n),
        "ci-change": ngettext("{count} PR changes CI: {pulls}.", "{count} PRs change CI: {pulls}.", n),
        "hotspot": ngettext("{count} PR changed files that many PRs touched this week: {pulls}.", "{count} PRs changed files that many PRs touched this week: {pulls}.", n),
    }
    template = templates.get(kind) or ngettext("{count} PR shows the risk “{kind}”: {pulls}.", "{count} PRs show the risk “{kind}”: {pulls}.", n)
    return template.format(count=lang.number(n), pulls=lang.pulls(pulls), kind=kind)


def recommendations(week: WeekAnalysis, lang: Language) -> tuple[Cited, ...]:
    _ = lang.gettext
    by_kind = {risk.kind: risk.pulls for risk in week.risks if risk.pulls}
    refactors = {p.pull.number for p in week.pulls if p.classification.type == "refactor"}
    templates = {
        "breaking-change": _("Call out the breaking changes {pulls} in the release notes, with migration steps."),
        "security": _("Have someone who knows the security model review {pulls} again."),
        "revert": _("Find out why {pulls} had to revert earlier work, and track the proper fix."),
        "missing-tests": _("Add tests for {pulls}, which shipped without them."),
        "dependency-upgrade": _("Review the upgrades {pulls} against their upstream changelogs."),
        "deprecation": _("Announce the deprecations in {pulls} and plan when the old paths will be removed."),
        "config-change": _("Check deployed configurations against the changes in {pulls}."),
        "ci-change": _("Watch CI stability after {pulls}."),
        "hotspot": _("Files that many PRs changed this week may need an owner or a refactor: {pulls}."),
    }
    recommendations = []

    def recommend(template: str, numbers: Sequence[int]) -> None:
        pulls, shown = lang.some_pulls(numbers, RECOMMENDATION_PULLS)
        recommendations.append(Cited(template.format(pulls=pulls), shown))

    large = by_kind.get("large-change", ())
    large_refactors = tuple(n for n in large if n in refactors)
    if large_refactors:
        recommend(_("Regression-test the large refactors {pulls} before the next release."), large_refactors)
    other_large = tuple(n for n in large if n not in refactors)
    if other_large:
        recommend(_("Give the large changes {pulls} a second review and regression tests."), other_large)
    for kind, template in templates.items():
        if kind in by_kind:
            recommend(template, by_kind[kind])
    return tuple(recommendations)
