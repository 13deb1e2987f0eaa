"""Recommendations in words: at most five, each naming its object (the PR, file, dependency,
setting or reverted change) and the finding that calls for it, from the analysis' ranked
`Recommendation` facts. A week whose analysis found nothing to act on gets none."""

from __future__ import annotations

from digest_plugin.analysis.model import (
    MAX_RECOMMENDATION_PULLS,
    MAX_RECOMMENDATIONS,
    Recommendation,
    WeekAnalysis,
)
from digest_plugin.narrate.model import Cited
from digest_plugin.narrate.wording import Language, StatedNumbers


def recommendations(
    week: WeekAnalysis, lang: Language, risk: str | None = None
) -> tuple[Cited, ...]:
    """The week's recommendations in words; with `risk`, only those that come from that risk kind."""
    in_week = {p.pull.number for p in week.pulls}
    told = []
    for index, recommendation in enumerate(week.recommendations[:MAX_RECOMMENDATIONS]):
        if risk is not None and recommendation.risk != risk:
            continue
        pulls = tuple(n for n in recommendation.pulls if n in in_week)[:MAX_RECOMMENDATION_PULLS]
        if pulls:
            text = _recommendation(index, recommendation, pulls, in_week, StatedNumbers(lang))
            if text is not None:
                told.append(text)
    return tuple(told)


def _recommendation(
    index: int, r: Recommendation, pulls: tuple[int, ...], in_week: set[int], said: StatedNumbers
) -> Cited | None:
    lang = said.lang
    shown = (
        lang.pulls(pulls)
        if r.count <= len(pulls) or r.action != "migration-notes"
        else lang.gettext("{pulls} and others").format(pulls=lang.pulls(pulls))
    )
    values = {
        "pulls": shown,
        "path": r.path or "",
        "package": r.package or "",
        "old": r.old or "",
        "new": r.new or "",
        # a setting's name is a term; the other actions quote their detail
        "detail": lang.term(r.detail or "") if r.action == "check-defaults" else r.detail or "",
    }
    cited = list(pulls)
    if r.action == "add-tests":
        values["count"] = said.number(f"recommendation:{index}:count", r.count)
        added = r.evidence.by if r.evidence is not None and r.risk == "hotspot" else None
        if added in in_week:
            values["added"] = f"#{added}"
            cited.append(added)
    template = _template(r, len(pulls), "added" in values, lang)
    if template is None:
        return None
    return said.cited(template.format(**values), tuple(dict.fromkeys(cited)))


def _release_note(r: Recommendation, lang: Language) -> str:
    """Tell users what a PR says it changes for them, naming the thing, and the author's step when it gives one."""
    _ = lang.gettext
    e = r.evidence
    if e is not None and e.detail == "rename" and e.old and e.new:
        said = _("Say in the release notes that {old} is now {new} ({pulls})")
    elif e is not None and e.detail == "removal" and e.package:
        said = _("Say in the release notes that {pulls} removes {package}")
    else:
        said = lang.ngettext(
            "Say in the release notes what {pulls} changes for users",
            "Say in the release notes what {pulls} change for users",
            r.count,
        )
    if r.detail:
        said = _("{said}, with its author's step: “{detail}”").format(said=said, detail="{detail}")
    return _("{evidence}.").format(evidence=said)


def _template(r: Recommendation, n: int, added_this_week: bool, lang: Language) -> str | None:
    """The sentence of each action: what to do, about what, and the finding that calls for it."""
    _, ngettext = lang.gettext, lang.ngettext
    if r.action == "release-advisory":
        return _(
            "Publish an advisory for {detail}, fixed by {pulls}, and release the fix soon, so that users of released versions get it."
        )
    # that a description tells users nothing to do is not read reliably (verl #3998 named the
    # branch and image it needs): that no documentation changed is a fact
    if r.action == "migration-notes":
        return ngettext(
            "Write migration notes for {pulls} before the next release: it is marked breaking and "
            "changes no documentation.",
            "Write migration notes for {pulls} before the next release: they are marked breaking "
            "and change no documentation.",
            n,
        )
    if r.action == "release-notes":
        return _release_note(r, lang)
    if r.action == "security-review":
        return _(
            "Have someone who knows the security model review {pulls}: its title or description mentions “{detail}”."
        )
    pending = r.evidence is not None and r.evidence.outcome == "pending"
    # the reverted title is in the revert's own, shown once
    if r.action == "re-land-or-drop" and lang.code == "zh":
        if pending:
            return _(
                "Decide whether to land the change {pulls} reverted again: nothing has re-landed or replaced it so far."
            )
        return _(
            "Decide whether to land the change {pulls} reverted again: no PR of the following four weeks re-landed or replaced it."
        )
    if r.action == "re-land-or-drop" and r.detail:
        if pending:
            return _(
                "Decide whether to land “{detail}” again, which {pulls} reverted: nothing has re-landed or replaced it so far."
            )
        return _(
            "Decide whether to land “{detail}” again, which {pulls} reverted: no PR of the following four weeks re-landed or replaced it."
        )
    if r.action == "lock-file":
        return _(
            "Check that {detail} pins {package} {new}: {pulls} raises it in {path} without touching the lock file."
        )
    if r.action == "add-tests" and r.risk == "hotspot":
        if added_this_week:
            return _(
                "Add tests for {path}: {added} added it this week, and {count} PRs changed it, none with a test."
            )
        return _(
            "Add tests for {path}: it was added in the last twelve weeks without tests, and {count} PRs changed it this week, none with a test."
        )
    if r.action == "add-tests" and r.path:
        return _(
            "Add tests for {pulls}: it adds {count} lines of source code, {path} the largest file, and changes no test."
        )
    if r.action == "check-defaults":
        return _(
            "Say in the release notes that the default of {detail} changed ({pulls}): deployments that do not set it get the new value."
        )
    return None
