"""What a PR changes for its users, in words: the key line's last sentence, the "Breaking and
user-facing changes" section, the breaking-change risk's evidence and the risk table's mitigation.

Only what the PR says (analysis/consequences.py, its claims by `claim_of`): a rename's two names,
a default and its new value, what a removal names, and otherwise the author's own sentence,
quoted ("In the author's words: …") where a paraphrase could get it wrong. The names and sentences
are GitHub's, untrusted: whoever renders the text escapes it.
"""

from __future__ import annotations

from digest_plugin.analysis.consequences import spoken
from digest_plugin.analysis.model import AnalysedPull, Evidence, Risk, WeekAnalysis
from digest_plugin.narrate.advice import recommendations
from digest_plugin.narrate.model import Cited
from digest_plugin.narrate.wording import Language


def consequence_text(
    kind: str,
    what: str | None,
    old: str | None,
    new: str | None,
    quote: str,
    lang: Language,
    pull: int | None = None,
    titled: bool = False,
) -> str:
    """One consequence as a clause without its full stop; led by "#N" when `pull` is given (a
    risk, the breaking section), else said of the PR whose line it ends. `titled`: `quote` is the
    PR's own title, which a Chinese page shows once, in its key change or its row: there the
    consequence is said by its kind instead, as it is where the title names it in words rather than
    by a name."""
    _ = lang.gettext
    # words of the title, not a name users write
    phrase = any(" " in (name or "") for name in (what, old, new))
    if titled and lang.code == "zh" and (_form(kind, what, old, new) == "quote" or phrase):
        kinds = {
            "default-flip": _("a changed default"),
            "removal": _("a removal"),
            "rename": _("a rename"),
            "format-change": _("a changed format"),
            "new-dependency": _("a new required dependency"),
        }
        said = kinds.get(kind, _("a change for its users"))
        if pull is None:
            return _("Its title states {kind}").format(kind=said)
        return _("{pull}'s title states {kind}").format(pull=f"#{pull}", kind=said)
    led, alone = {
        "rename": (_("{pull} renames {old} to {new}"), _("Renames {old} to {new}")),
        "preview": (_("{pull} takes {what} out of preview"), _("Takes {what} out of preview")),
        "default-to": (
            _("{pull} changes the default of {what} to {new}"),
            _("Changes the default of {what} to {new}"),
        ),
        "default": (_("{pull} changes the default of {what}"), _("Changes the default of {what}")),
        "default-on": (_("{pull} turns {what} on by default"), _("Turns {what} on by default")),
        "default-off": (_("{pull} turns {what} off by default"), _("Turns {what} off by default")),
        "removal": (_("{pull} removes {what}"), _("Removes {what}")),
        "quote": (
            _("{pull}, in the author's words: “{quote}”"),
            _("In the author's words: “{quote}”"),
        ),
    }[_form(kind, what, old, new)]
    values = {
        "pull": f"#{pull}" if pull is not None else "",
        "what": what or "",
        "old": old or "",
        "new": new or "",
        "quote": quote.rstrip(".。"),
    }  # the sentence's own full stop ends it, after the quote
    return (led if pull is not None else alone).format(**values).rstrip(".。")


def _form(kind: str, what: str | None, old: str | None, new: str | None) -> str:
    """Which sentence says a consequence: what it names, else the author's words."""
    if kind == "rename" and old and new:
        return "rename"
    if kind in ("default-flip", "format-change") and what and old == "preview":
        return "preview"
    if kind == "default-flip" and what and new in ("on", "off"):
        return f"default-{new}"  # "disable X by default"
    if kind == "default-flip" and what:
        return "default-to" if new else "default"
    if kind == "removal" and what:
        return "removal"
    return "quote"


def key_line_consequences(analysed: AnalysedPull, lang: Language, line: str) -> str:
    """The sentences a key line ends with: what the PR changes for users, as it says; "" when it says nothing
    (or the claim is not precise enough to be said)."""
    said = [
        consequence_text(
            c.kind or "stated", c.what, c.old, c.new, c.quote, lang, titled=c.source == "title"
        )
        for c in spoken(analysed.consequences)
        if c.source != "title" or c.what  # a title's own words are the line's title already
    ]
    # "Removes workspace support." said once
    said = [s for s in said if s.lower() not in line.lower()]
    return lang.sentences(lang.gettext("{evidence}.").format(evidence=s) for s in said)


GROUPED_PREVIEWS = 3  # more PRs than this taking things out of preview are said in one line


def breaking_changes(week: WeekAnalysis, lang: Language) -> tuple[Cited, ...]:
    """The week's "Breaking and user-facing changes": each consequence a PR states, and that a PR
    is marked breaking where it states none (verl #5604), most important PR first."""
    told: list[Cited] = []
    previews: list[tuple[int, str]] = []
    for analysed in week.pulls:
        n = analysed.pull.number
        stated = spoken(analysed.consequences)
        if not stated:
            told.extend(
                Cited(lang.gettext("{evidence}.").format(evidence=marked_breaking(e, lang)), (n,))
                for e in analysed.evidence
                if e.fact == "breaking-marker"
            )
        for c in stated:
            if c.old == "preview" and c.what:
                previews.append((n, c.what))
                continue
            text = consequence_text(
                c.kind or "stated",
                c.what,
                c.old,
                c.new,
                c.quote,
                lang,
                pull=n,
                titled=c.source == "title",
            )
            told.append(Cited(lang.gettext("{evidence}.").format(evidence=text), (n,)))
    if len(previews) > GROUPED_PREVIEWS:  # a release's many stabilisations: one line, not a page
        listed = lang.gettext("; ").join(
            lang.gettext("{what} ({pull})").format(what=what, pull=f"#{n}") for n, what in previews
        )
        told.append(
            Cited(
                lang.gettext("Out of preview: {listed}.").format(listed=listed),
                tuple(n for n, _ in previews),
            )
        )
    else:
        told.extend(
            Cited(
                lang.gettext("{evidence}.").format(
                    evidence=consequence_text(
                        "default-flip", what, "preview", None, "", lang, pull=n
                    )
                ),
                (n,),
            )
            for n, what in previews
        )
    return tuple(told)


def marked_breaking(e: Evidence, lang: Language) -> str:
    """That a PR is marked breaking, and where (a "breaking-marker" evidence)."""
    _ = lang.gettext
    where = {
        "title": _("in its title"),
        "label": _("by its label"),
        "footer": _("in its description"),
    }.get(e.detail or "", _("by its author"))
    return _("{pull} is marked as a breaking change ({where})").format(
        pull=f"#{e.pull}", where=where
    )


def evidence_text(e: Evidence, lang: Language) -> str:
    """A consequence evidence (model.EVIDENCE_FACTS "consequence") as a risk's clause."""
    return consequence_text(
        e.detail or "stated",
        e.package,
        e.old,
        e.new,
        e.reason or "",
        lang,
        pull=e.pull,
        titled=e.titled,
    )


USER_FACING_RISKS = ("breaking-change", "config-change", "deprecation", "dependency-upgrade")


def mitigation(risk: Risk, week: WeekAnalysis, lang: Language) -> Cited | None:
    """What a maintainer can do about a risk, from its PRs: the author's migration step or what the
    body tells users to run, set or use, quoted; for a rename, the new name; else the
    recommendation the risk's own finding calls for. None when none of these says anything (no
    advice is made up)."""
    in_week = {p.pull.number: p for p in week.pulls}
    for step in (_authors_step, _migration_script, _new_name):
        cited = step(risk, in_week, lang)
        if cited is not None:
            return cited
    # a recommendation the risk's own finding calls for, naming its object
    advised = recommendations(week, lang, risk=risk.kind)
    return advised[0] if advised else None


def _authors_step(risk: Risk, in_week: dict, lang: Language) -> Cited | None:
    if risk.kind not in USER_FACING_RISKS:
        # untested code, hot files, CI: an author's advice to users answers none of them
        return None
    for n in risk.pulls:
        analysed = in_week.get(n)
        if analysed is not None and analysed.mitigation:
            return Cited(
                lang.gettext("{pull}, in the author's words: “{quote}”").format(
                    pull=f"#{n}", quote=analysed.mitigation
                ),
                (n,),
            )
    return None


def _migration_script(risk: Risk, in_week: dict, lang: Language) -> Cited | None:
    """A format change whose PR adds the migration script its body names: run it."""
    scripts = [
        e
        for e in risk.evidence
        if e.fact == "consequence" and e.detail == "format-change" and e.new and e.pull in in_week
    ]
    if risk.kind != "breaking-change" or not scripts:
        return None
    e = scripts[0]
    return Cited(
        lang.gettext(
            "Run {script}, the migration script {pull} adds, on what was saved before it."
        ).format(script=e.new, pull=f"#{e.pull}"),
        (e.pull,),
    )


def _new_name(risk: Risk, in_week: dict, lang: Language) -> Cited | None:
    renamed = [
        e
        for e in risk.evidence
        if e.fact == "consequence"
        and e.detail == "rename"
        and e.old
        and e.new
        and e.pull in in_week
    ]
    if risk.kind != "breaking-change" or not renamed:
        return None
    e = renamed[0]
    return Cited(
        lang.gettext("{new} replaces {old}: update what refers to {old} ({pull}).").format(
            new=e.new, old=e.old, pull=f"#{e.pull}"
        ),
        (e.pull,),
    )
