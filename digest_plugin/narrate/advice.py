"""Recommendations in words: at most five, each naming its file, version or PRs, from the
analysis' ranked `Recommendation` facts (each traceable to the risk it comes from)."""

from __future__ import annotations

from digest_plugin.analysis.model import MAX_RECOMMENDATION_PULLS, MAX_RECOMMENDATIONS, Recommendation, WeekAnalysis
from digest_plugin.narrate.model import Cited
from digest_plugin.narrate.wording import Language, Stated


def recommendations(week: WeekAnalysis, lang: Language) -> tuple[Cited, ...]:
    in_week = {p.pull.number for p in week.pulls}
    told = []
    for index, recommendation in enumerate(week.recommendations[:MAX_RECOMMENDATIONS]):
        pulls = tuple(n for n in recommendation.pulls if n in in_week)[:MAX_RECOMMENDATION_PULLS]
        text = _recommendation(index, recommendation, pulls, Stated(lang))
        if text is not None:
            told.append(text)
    return tuple(told)


def _recommendation(index: int, r: Recommendation, pulls: tuple[int, ...], said: Stated) -> Cited | None:
    lang, n = said.lang, len(pulls)
    _ = lang.gettext
    if not pulls:
        return None
    shown = lang.pulls(pulls) if r.count <= n else _("{pulls} and others").format(pulls=lang.pulls(pulls))
    values = {"pulls": shown, "first": f"#{pulls[0]}", "path": r.path or "", "package": r.package or "", "old": r.old or "", "new": r.new or "", "detail": r.detail or ""}
    if r.action == "own-hot-file" and r.count:
        values["count"] = said.number(f"recommendation:{index}:count", r.count)
    template = _template(r, n, lang)
    if template is None:
        return None
    return said.cited(template.format(**values), pulls)


def _template(r: Recommendation, n: int, lang: Language) -> str | None:
    return _named_template(r, n, lang) or _plain_templates(n, lang).get(r.action)


def _named_template(r: Recommendation, n: int, lang: Language) -> str | None:
    """The template for a recommendation that names its file, package, setting or advisory."""
    _, ngettext = lang.gettext, lang.ngettext
    action = r.action
    if action == "check-upgrade":
        return _upgrade_template(r, lang)
    if action == "add-tests" and r.path and n == 1:
        return _("Add tests for {path}, which {pulls} changed without any.")
    if action == "add-tests" and r.path:  # the path is the first PR's largest untested file
        return _("Add tests for {pulls}, which shipped without any, starting with {path} in {first}.")
    if action == "own-hot-file" and r.path and r.count:
        return ngettext("Give {path} an owner: {count} PR changed it this week ({pulls}).", "Give {path} an owner: {count} PRs changed it this week ({pulls}).", r.count)
    if action == "release-advisory" and r.detail:
        return _("Publish an advisory for {detail}, fixed by {pulls}, and release the fix soon, so that users of released versions get it.")
    if action == "check-defaults" and r.detail:
        return _("Check deployed configurations that rely on the default of {detail}, which {pulls} changed.")
    if action == "watch-ci" and r.path:
        return ngettext("Watch the next CI runs of {path} after the workflow change in {pulls}.",
                        "Watch the next CI runs of {path} after the workflow changes in {pulls}.", n)
    return None


def _upgrade_template(r: Recommendation, lang: Language) -> str | None:
    _ = lang.gettext
    if r.package and r.old and r.new:
        return _("Read the {package} changelog from {old} to {new} ({pulls}) and run the integration tests against the new version.")
    if r.package and r.new:
        return _("Read the {package} {new} changelog ({pulls}) and run the integration tests against the new version.")
    return None


def _plain_templates(n: int, lang: Language) -> dict[str, str]:
    """Templates by action for recommendations that name only their PRs."""
    ngettext = lang.ngettext
    return {
        "check-upgrade": ngettext("Check the upgrade {pulls} against its upstream changelog.", "Check the upgrades {pulls} against their upstream changelogs.", n),
        "release-advisory": ngettext("Publish an advisory for the security fix {pulls} and release it soon, so that users of released versions get it.",
                                     "Publish advisories for the security fixes {pulls} and release them soon, so that users of released versions get them.", n),
        "security-review": ngettext("Have someone who knows the security model review {pulls}.",
                                    "Have someone who knows the security model review {pulls}.", n),
        "migration-notes": ngettext("Write migration steps for the breaking change {pulls} into the release notes.",
                                    "Write migration steps for the breaking changes {pulls} into the release notes.", n),
        "add-tests": ngettext("Add tests for {pulls}, which shipped without any.", "Add tests for {pulls}, which shipped without any.", n),
        "follow-up-revert": ngettext("Land a fixed version of the change that {pulls} reverted.", "Land fixed versions of the changes that {pulls} reverted.", n),
        "announce-deprecation": ngettext("Announce the deprecation in {pulls} and set a date for removing the old way.",
                                         "Announce the deprecations in {pulls} and set dates for removing the old ways.", n),
        "regression-test": ngettext("Give the large change {pulls} a second review and regression tests before the next release.",
                                    "Give the large changes {pulls} a second review and regression tests before the next release.", n),
        "check-defaults": ngettext("Check deployed configurations against the changed default in {pulls}.",
                                   "Check deployed configurations against the changed defaults in {pulls}.", n),
        "watch-ci": ngettext("Watch the next CI runs after the workflow change in {pulls}.", "Watch the next CI runs after the workflow changes in {pulls}.", n),
    }
