"""Risks in words: what could go wrong and why these PRs show it, from the analysis' evidence.

Each risk becomes a table row (kind, impact, PRs) and a few sentences, one per piece of evidence
("#12 removes 2 files with 600 lines, among them src/old.py: anything that still imports them will
break"). A fix whose words name security is good news and is told first. Every figure is recorded
with the evidence field it comes from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from digest_plugin.analysis.claims import speaks
from digest_plugin.analysis.model import (
    BACK_MOVES,
    GOOD_NEWS_KINDS,
    IMPACTS,
    RISK_KINDS,
    AnalysedPull,
    Evidence,
    Risk,
    WeekAnalysis,
)
from digest_plugin.analysis.risks import main_risk
from digest_plugin.narrate.consequences import evidence_text, marked_breaking, mitigation
from digest_plugin.narrate.describe import whole_translation
from digest_plugin.narrate.model import Cited, RiskLine
from digest_plugin.narrate.reviews import reviewers
from digest_plugin.narrate.titles import (
    clause,
    display_title,
    first_change,
    framed_title,
    merged_branch,
)
from digest_plugin.narrate.wording import Language, StatedNumbers, impact_names, risk_names

EVIDENCE_PER_RISK = 3  # sentences per risk; the table lists every PR
PATHS_NAMED = 2
SUMMARY_PULLS = 3  # PRs the summary names for a risk without evidence
LISTED_PULLS = 8  # PRs a risk sentence names before "and others"


def risk_lines(week: WeekAnalysis, lang: Language) -> tuple[RiskLine, ...]:
    """Good news first, then risks from the most severe."""
    _ = lang.gettext
    names, impacts = risk_names(_), impact_names(_)
    order = {impact: i for i, impact in enumerate(IMPACTS)}
    ordered = sorted(
        (r for r in week.risks if r.pulls),
        key=lambda r: (order.get(r.impact, 1), _kind_order(r.kind)),
    )
    lines = [
        RiskLine(
            kind=news.kind,
            name=names.get(news.kind, news.kind),
            impact=_("Good news"),
            level="good",
            pulls=news.pulls,
            sentence=risk_sentence(news, week, lang),
        )
        for news in week.good_news
        if news.pulls
    ]
    lines += [
        RiskLine(
            kind=risk.kind,
            name=risk_row_name(risk, lang),
            impact=impacts.get(risk.impact, risk.impact),
            level=risk.impact,
            pulls=risk.pulls,
            sentence=risk_sentence(risk, week, lang),
            mitigation=mitigation(risk, week, lang),
        )
        for risk in ordered
    ]
    return tuple(lines)


def risk_row_name(risk: Risk, lang: Language) -> str:
    """The name of a risk's row: its kind ("Dependency upgrade") where every piece of its evidence
    rests on a claim that speaks (analysis/claims.py); otherwise what the evidence shows as a fact
    ("Edits requirements.txt", "Marked breaking by its author"), since the kind's name is itself
    the claim that is not precise."""
    _ = lang.gettext
    if risk_kind_speaks(risk):
        return risk_names(_).get(risk.kind, risk.kind)
    silent = [e for e in risk.evidence if not speaks_consequence(_consequence_of(e, risk.kind))]
    if risk.kind == "breaking-change":
        # stated consequences speak, the author's markers do not
        if len(silent) < len(risk.evidence):
            return _("User-facing change, or marked breaking by its author")
        return _("Marked breaking by its author")
    one = len(risk.pulls) == 1
    if risk.kind == "deprecation":
        # verl #5336 "remove deprecated codes"
        if all(e.detail == "removes" for e in risk.evidence):
            return (
                _("Removal of deprecated code named in its title")
                if one
                else _("Removal of deprecated code named in their titles")
            )
        return (
            _("Deprecation named in its title") if one else _("Deprecation named in their titles")
        )
    if not any(e.paths for e in risk.evidence):  # its titles are all it has
        if risk.kind == "dependency-upgrade":  # bots' "Update Rust crate toml to v1"
            return _("A version named in its title") if one else _("Versions named in their titles")
        return _("A default named in its title") if one else _("A default named in their titles")
    if risk.kind == "dependency-upgrade" and len(silent) < len(risk.evidence):
        return _("Dependency upgrade, or edits {paths}").format(paths=_named_paths(risk, lang))
    if not all(e.paths for e in risk.evidence):  # a PR whose title speaks of a default, no file
        return _("Edits {paths}, or a default named in a title").format(
            paths=_named_paths(risk, lang)
        )
    return _("Edits {paths}").format(paths=_named_paths(risk, lang))


# risk kinds whose name interprets their evidence (the others name a fact: size, CI files, a revert)
INTERPRETED_KINDS = ("dependency-upgrade", "config-change", "deprecation", "breaking-change")


def risk_kind_speaks(risk: Risk) -> bool:
    """Whether a risk may be called by its kind: all its evidence rests on claims that speak."""
    return risk.kind not in INTERPRETED_KINDS or all(
        speaks_consequence(_consequence_of(e, risk.kind)) for e in risk.evidence
    )


def _named_paths(risk: Risk, lang: Language) -> str:
    """A row's files: the first PATHS_NAMED of its evidence, then "and other files" if more."""
    paths = list(dict.fromkeys(p for e in risk.evidence for p in e.paths))
    more = len(paths) > PATHS_NAMED or any(e.files > len(e.paths) for e in risk.evidence)
    if not more:
        return lang.join(paths)
    return lang.gettext("{paths} and other files").format(
        paths=lang.gettext(", ").join(paths[:PATHS_NAMED])
    )


def _kind_order(kind: str) -> int:
    return RISK_KINDS.index(kind) if kind in RISK_KINDS else len(RISK_KINDS)


def risk_sentence(risk: Risk, week: WeekAnalysis, lang: Language) -> Cited:
    """What the evidence shows, PR by PR, then once what could go wrong, then how many PRs show the
    risk in all when that is more than the evidence named."""
    said = StatedNumbers(lang)
    pulls: list[int] = []
    clauses: list[str] = []
    for index, evidence in enumerate(risk.evidence[:EVIDENCE_PER_RISK]):
        cited = evidence_clause(risk.kind, index, evidence, week, lang)
        if cited.text in clauses:  # two versions one PR moves, said as the files they are in
            continue
        clauses.append(cited.text)
        pulls.extend(cited.pulls)
        said.figures.extend(cited.figures)
    if not clauses:
        return said.cited(_kind_sentence(risk, said, len(risk.pulls)), risk.pulls)
    sentences = [
        _with_consequence(clauses[0], risk.evidence[0], risk.kind, lang),
        *(lang.gettext("{evidence}.").format(evidence=c) for c in clauses[1:]),
    ]
    covered = {n for e in risk.evidence[:EVIDENCE_PER_RISK] for n in (e.pull, *e.pulls)}
    if set(risk.pulls) - covered:
        count = said.number(
            f"risk:{risk.kind}" if risk in week.risks else f"good:{risk.kind}", len(risk.pulls)
        )
        listed, shown = lang.some_pulls(risk.pulls, LISTED_PULLS)  # the table lists them all
        sentences.append(
            lang.ngettext(
                "{count} PR shows this in all: {pulls}.",
                "{count} PRs show this in all: {pulls}.",
                len(risk.pulls),
            ).format(count=count, pulls=listed)
        )
        pulls.extend(shown)
    return said.cited(lang.sentences(sentences), pulls)


def lead_sentence(risk: Risk, week: WeekAnalysis, lang: Language) -> Cited:
    """The one sentence the summary gives a risk: its first evidence and what could go wrong."""
    if risk.evidence:
        cited = evidence_clause(risk.kind, 0, risk.evidence[0], week, lang)
        return Cited(
            _with_consequence(cited.text, risk.evidence[0], risk.kind, lang),
            cited.pulls,
            cited.figures,
        )
    said = StatedNumbers(lang)
    return said.cited(_kind_sentence(risk, said, SUMMARY_PULLS), risk.pulls[:SUMMARY_PULLS])


def _with_consequence(clause: str, evidence: Evidence, kind: str, lang: Language) -> str:
    said = _consequence_of(evidence, kind)
    consequence = consequences(lang.gettext).get(said) if speaks_consequence(said) else None
    if consequence is None:
        return lang.gettext("{evidence}.").format(evidence=clause)
    return lang.gettext("{evidence}: {consequence}").format(
        evidence=clause, consequence=consequence
    )


def _consequence_of(evidence: Evidence, kind: str) -> str:
    """The key of `consequences` for a risk whose first evidence is `evidence`."""
    if evidence.fact == "version" and evidence.detail in BACK_MOVES:
        return "version-back"
    if evidence.fact == "deprecated" and evidence.detail == "removes":
        return "deprecated-removed"
    if evidence.fact == "breaking-marker" and not evidence.reason:
        return "breaking-marker-only"  # the PR says nothing of what breaks: the author's caution
    if evidence.fact == "reverted":  # only a change nothing brought back leaves something to say
        return "reverted-open" if evidence.outcome in ("none", "pending") else "reverted-settled"
    return evidence.fact


# consequence -> the claim rule (analysis/claims.py) it rests on: an imprecise rule's consequence is not said
CONSEQUENCE_CLAIMS = {
    "breaking-marker": "consequence.breaking",
    "breaking-marker-only": "consequence.marker-only",
    "version": "version.package",
    "version-back": "version.direction",
    "deprecated-removed": "consequence.removes-deprecated",
    "deprecated": "consequence.deprecates",
    "files-removed": "consequence.files-removed",
    "default-changed": "consequence.default-flip",
    "config-files": "config.user-changed",
    "reverted-open": "revert.nothing-followed",
}


def speaks_consequence(key: str) -> bool:
    """Whether the consequence `key` (of `consequences`) may be said: its claim rule is precise."""
    return key not in CONSEQUENCE_CLAIMS or speaks(CONSEQUENCE_CLAIMS[key])


def consequences(_) -> dict[str, str]:
    """What could go wrong, by the fact that shows it (`_consequence_of`): said once per risk, after
    its first evidence. The facts not here are said alone, because what they mean depends on what
    the PR does, which no rule tells: a large change or a CI change (a file moved or renamed, an
    end-to-end job added, a version pinned), untested code (docstrings, or code its body shows
    working by experiment), bots' bumps (a major version among them), a hot file (one author's
    small edits)."""
    return {
        "breaking-marker": _(
            "users will have to change code, configuration or scripts when they upgrade."
        ),
        "version": _(
            "behaviour, performance and compatibility can change in ways this repository's diff does not show."
        ),
        "version-back": _(
            "users get the older version until the pin is lifted, and whatever the newer one fixed stays out."
        ),
        "deprecated-removed": _("users who still rely on it will break when they upgrade."),
        "reverted-open": _("what it was for is still undone."),
        "deprecated": _("users need to hear about it before the old way is removed."),
        "files-removed": _(
            "anything that still imports or configures what was removed will break."
        ),
        "default-changed": _(
            "everyone who relies on the old value without setting it gets the new behaviour on upgrade."
        ),
        "config-files": _("deployments that rely on these values will behave differently."),
        "changes-requested": _("what the reviewer asked for may not have been done."),
    }


def _kind_sentence(risk: Risk, said: StatedNumbers, limit: int = 5) -> str:
    """A risk the analysis gave no evidence for: its PRs and what could go wrong."""
    lang = said.lang
    ngettext, n = lang.ngettext, len(risk.pulls)
    templates = {
        "missing-tests": lang.gettext("{pulls} changed code without changing any test."),
        "breaking-change": ngettext(
            "{pulls} is a breaking change: users will have to adapt when they upgrade.",
            "{pulls} are breaking changes: users will have to adapt when they upgrade.",
            n,
        ),
        "dependency-upgrade": ngettext(
            "{pulls} upgrades a dependency, which can change behaviour in ways this diff does not show.",
            "{pulls} upgrade dependencies, which can change behaviour in ways these diffs do not show.",
            n,
        ),
        "security": ngettext(
            "{pulls} touches security-sensitive code and deserves a careful review.",
            "{pulls} touch security-sensitive code and deserve a careful review.",
            n,
        ),
        "security-fix": ngettext(
            "{pulls} fixes a vulnerability: good news, though an advisory and a release may be due.",
            "{pulls} fix vulnerabilities: good news, though advisories and a release may be due.",
            n,
        ),
        "revert": ngettext("{pulls} reverts earlier work.", "{pulls} revert earlier work.", n),
        "deprecation": ngettext(
            "{pulls} deprecates existing behaviour: users should hear about it before it goes.",
            "{pulls} deprecate existing behaviour: users should hear about it before it goes.",
            n,
        ),
        "large-change": ngettext(
            "{pulls} is too large to review line by line, so regressions can hide in it.",
            "{pulls} are too large to review line by line, so regressions can hide in them.",
            n,
        ),
        "config-change": ngettext(
            "{pulls} changes configuration that deployments may rely on.",
            "{pulls} change configuration that deployments may rely on.",
            n,
        ),
        "ci-change": ngettext(
            "{pulls} changes CI, which decides what is tested before a release.",
            "{pulls} change CI, which decides what is tested before a release.",
            n,
        ),
        "hotspot": lang.gettext("{pulls} changed files that many PRs touched this week."),
        "unresolved-review": ngettext(
            "{pulls} was merged while a reviewer still requested changes.",
            "{pulls} were merged while reviewers still requested changes.",
            n,
        ),
    }
    template = templates.get(risk.kind) or ngettext(
        "{pulls} shows the risk “{kind}”.", "{pulls} show the risk “{kind}”.", n
    )
    return template.format(pulls=lang.some_pulls(risk.pulls, limit)[0], kind=risk.kind)


def evidence_clause(
    kind: str, index: int, evidence: Evidence, week: WeekAnalysis, lang: Language
) -> Cited:
    """One piece of evidence as a clause without its full stop: what the PR does that shows the risk."""
    said = StatedNumbers(lang)
    writer = _EVIDENCE.get(evidence.fact)
    if writer is None:
        return said.cited(
            _kind_sentence(Risk(kind, (evidence.pull,)), said).rstrip("。."), (evidence.pull,)
        )
    # the writers look PRs of the week up by number
    in_week = {p.pull.number: p for p in week.pulls}
    text, pulls = writer(EvidenceRef(kind, index), evidence, said, in_week)
    return said.cited(text, pulls)


@dataclass(frozen=True)
class EvidenceRef:
    """Which evidence of which risk a clause words: the figures it states are named after it."""

    kind: str
    index: int

    def key(self, field: str) -> str:
        return f"evidence:{self.kind}:{self.index}:{field}"


def _paths(evidence: Evidence, lang: Language) -> str:
    return lang.join(evidence.paths[:PATHS_NAMED])


_TEST_FOLDER = re.compile(r"(?:^|/)tests?/")


def _untested(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    """Untested source code; when the missing-tests claim is imprecise (end-to-end CI jobs, test
    resources elsewhere), only the lines added and, where exactly true, that no file under a tests/
    folder changed."""
    lang = said.lang
    values = {
        "pull": f"#{e.pull}",
        "lines": said.number(kind.key("lines"), e.lines),
        "files": said.number(kind.key("files"), e.files),
        "path": e.paths[0] if e.paths else "",
    }
    if not speaks("tests.missing"):
        return _added_source(e, values, in_week.get(e.pull), lang), (e.pull,)
    if e.paths:
        template = lang.ngettext(
            "{pull} adds {lines} lines of source code in {files} file ({path}) and changes no test",
            "{pull} adds {lines} lines of source code in {files} files, {path} the largest, and changes no test",
            e.files,
        )
    else:
        template = lang.ngettext(
            "{pull} adds {lines} lines of source code in {files} file and changes no test",
            "{pull} adds {lines} lines of source code in {files} files and changes no test",
            e.files,
        )
    return template.format(**values), (e.pull,)


def _added_source(e: Evidence, values: dict, analysed, lang: Language) -> str:
    if e.paths:
        template = lang.ngettext(
            "{pull} adds {lines} lines of source code in {files} file ({path})",
            "{pull} adds {lines} lines of source code in {files} files, {path} the largest",
            e.files,
        )
    else:
        template = lang.ngettext(
            "{pull} adds {lines} lines of source code in {files} file",
            "{pull} adds {lines} lines of source code in {files} files",
            e.files,
        )
    text = template.format(**values)
    known = analysed is not None and analysed.pull.files and not analysed.pull.files_truncated
    if known and not any(_TEST_FOLDER.search(f.path) for f in analysed.pull.files):
        text = lang.gettext("{added}, and changes no file under a tests/ folder").format(added=text)
    return text


def _breaking(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    return marked_breaking(e, said.lang), (e.pull,)


def _version(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    """The dependency files a PR changes. Which package it moves, and which way, is not said:
    version.package and version.direction are below the bar (analysis/claims.py)."""
    _ = said.lang.gettext
    values = {"pull": f"#{e.pull}", "paths": _paths(e, said.lang)}
    if not e.paths:
        text = _("{pull} names a version in its title or description")
    elif max(e.files, len(e.paths)) > PATHS_NAMED:  # ruff #27496 changes 4, 3 listed
        count = e.files or len(e.paths)
        values["count"] = said.number(kind.key("files" if e.files else "paths"), count)
        text = _("{pull} changes {count} dependency files, among them {paths}")
    else:
        text = _("{pull} changes {paths}")
    return text.format(**values), (e.pull,)


def _routine(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    lang, pulls = said.lang, e.pulls
    if not pulls:
        return _version(kind, e, said, in_week)
    count = said.number(kind.key("pulls"), len(pulls))
    more, shown = lang.some_pulls(pulls, 5)
    packages = lang.some(e.packages, 4)
    if packages:
        template = lang.ngettext(
            "{count} bump by a bot ({packages}; {pulls})",
            "{count} bumps by bots ({packages}; {pulls})",
            len(pulls),
        )
    else:
        template = lang.ngettext(
            "{count} bump by a bot ({pulls})",
            "{count} bumps by bots ({pulls})",
            len(pulls),
        )
    return template.format(count=count, packages=packages, pulls=more), shown


def _vulnerability(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    """What the PR's own words name (a CVE, "security", "path traversal"): no corpus measures whether
    a PR so named fixes a vulnerability or opens one (verl #2170, "Security Enhancement", hardens
    a sandbox), so the words are said, not what they would mean."""
    _ = said.lang.gettext
    if kind.kind in GOOD_NEWS_KINDS:
        text = _("{pull} is a fix whose title or description names {detail}")
    else:
        text = _("{pull} changes code, and its title or description names {detail}")
    return text.format(pull=f"#{e.pull}", detail=e.detail or "security"), (e.pull,)


def _reverted(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    """What a revert undid (the PR of this week, or the reverted title) and what happened next:
    re-landed or replaced (by whom, when of this week), nothing due, or nothing yet."""
    _ = said.lang.gettext
    revert, cited = _what_was_reverted(e, said.lang, in_week)
    if e.reason and e.outcome in ("none", "pending"):
        revert = _("{revert} (its description says: “{reason}”)").format(
            revert=revert, reason=e.reason.rstrip(".")
        )
    if not _follow_up_speaks(e.outcome):
        return revert, tuple(cited)  # what followed is not told reliably: the revert, and no more
    if e.outcome == "accidental":
        settled = _("an accidental change that needs no follow-up")
        return _("{revert}, {settled}").format(revert=revert, settled=settled), tuple(cited)
    outcome = (
        e.outcome
        if e.outcome not in ("relanded", "replaced") or speaks(f"revert.{e.outcome}")
        else "followed-up"
    )
    if e.outcome in ("relanded", "replaced") and e.by in in_week:
        assert outcome is not None and e.by is not None  # relanded or replaced, by a PR of the week
        cited.append(e.by)
        then = {
            "relanded": _("{by} re-landed it the same week"),
            "replaced": _("{by} replaced it the same week"),
            "followed-up": _("{by} re-landed or replaced it the same week"),
        }[outcome].format(by=f"#{e.by}")
    else:
        then = {
            "relanded": _("a PR of a later week re-landed it"),
            "replaced": _("a PR of a later week replaced it"),
            "followed-up": _("a PR of a later week re-landed or replaced it"),
            "none": _("no PR of the following four weeks re-landed or replaced it"),
            "pending": _("nothing has re-landed or replaced it so far"),
        }.get(outcome or "", "")
    if then:
        revert = _("{revert}; {then}").format(revert=revert, then=then)
    return revert, tuple(dict.fromkeys(cited))


def _what_was_reverted(e: Evidence, lang: Language, in_week) -> tuple[str, list[int]]:
    """ "#N reverts #M, merged this same week", "#N reverts “title”", what its own title says it
    undoes, or "#N reverts an earlier change"; and the PRs that cites."""
    _ = lang.gettext
    undoes = speaks("revert.undoes")
    same_week = [n for n in e.pulls if n in in_week] if undoes else []
    if same_week:
        return _("{pull} reverts {reverted}, merged this same week").format(
            pull=f"#{e.pull}", reverted=lang.pulls(same_week)
        ), [e.pull, *same_week]
    # in Chinese the reverted title may hold another title of the page (verl #3820's holds #3839's)
    if e.detail and undoes and lang.code != "zh":
        return _("{pull} reverts “{title}”").format(pull=f"#{e.pull}", title=e.detail), [e.pull]
    said = _what_it_reverts(in_week.get(e.pull), lang)
    return said or _("{pull} reverts an earlier change").format(pull=f"#{e.pull}"), [e.pull]


def _what_it_reverts(analysed: AnalysedPull | None, lang: Language) -> str | None:
    """ "#24789 reverts preview changes to displayed diagnostic severity in LSP": what a revert's
    own title says it undoes, quoted where it quotes another title; in Chinese only where it quotes
    none."""
    if analysed is None:
        return None
    title, parts = analysed.pull.title, clause(analysed.pull.title)
    rest = parts.rest.strip()
    if parts.verb != "revert" or not rest:
        return None
    quoted = re.fullmatch(r'["“](.+)["”]', rest)  # 'Revert "X"', X's PR not in the store
    pull = f"#{analysed.pull.number}"
    if lang.code != "zh" and quoted:
        return lang.gettext("{pull} reverts “{title}”").format(pull=pull, title=quoted[1])
    if lang.code != "zh":  # its own words, up to a second change ("revert pyproj.toml and fix …")
        return lang.gettext("{pull} reverts {what}").format(pull=pull, what=first_change(rest))
    said = None if quoted else whole_translation(title) or framed_title(title)
    return f"{pull} {said}" if said and "回退" in said else None


def _follow_up_speaks(outcome: str | None) -> bool:
    """Whether what followed a revert (REVERT_OUTCOMES) may be said: its claim rule is precise."""
    rule = {
        "relanded": ("revert.relanded", "revert.followed-up"),
        "replaced": ("revert.replaced", "revert.followed-up"),
        "none": ("revert.nothing-followed",),
        "pending": ("revert.nothing-followed",),
        "accidental": ("revert.needs-nothing",),
    }.get(outcome or "", ())
    return any(speaks(r) for r in rule)


def _deprecated(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    """Whether it deprecates or removes is not told reliably (consequence.deprecates,
    consequence.removes-deprecated): the core lines it changes."""
    return _core_lines(kind, e, said), (e.pull,)


def _core_lines(kind: EvidenceRef, e: Evidence, said: StatedNumbers) -> str:
    _ = said.lang.gettext
    if e.lines:
        return _("{pull} changes {lines} lines of core code").format(
            pull=f"#{e.pull}", lines=said.number(kind.key("lines"), e.lines)
        )
    return _("{pull} changes no line of core code").format(pull=f"#{e.pull}")


def _removed(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    lang = said.lang
    values = {
        "pull": f"#{e.pull}",
        "files": said.number(kind.key("files"), e.files),
        "lines": said.number(kind.key("lines"), e.lines),
        "paths": _paths(e, lang),
    }
    template = lang.ngettext(
        "{pull} removes {files} file with {lines} lines ({paths})",
        "{pull} removes {files} files with {lines} lines, among them {paths}",
        e.files,
    )
    return template.format(**values), (e.pull,)


def _size(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    lang = said.lang
    values = {
        "pull": f"#{e.pull}",
        "lines": said.number(kind.key("lines"), e.lines),
        "files": said.number(kind.key("files"), e.files),
    }
    if e.detail == "whole":  # its file list was cut: the PR's own totals, not its core code's
        template = lang.ngettext(
            "{pull} changes {lines} lines in {files} file",
            "{pull} changes {lines} lines in {files} files",
            e.files,
        )
    elif e.detail == "removes":
        template = lang.ngettext(
            "{pull} removes {lines} lines of core code in {files} file",
            "{pull} removes {lines} lines of core code in {files} files",
            e.files,
        )
    elif e.modules > 1:
        values["modules"] = said.number(kind.key("modules"), e.modules)
        template = lang.gettext(
            "{pull} changes {lines} lines of core code in {files} files across {modules} modules"
        )
    else:
        template = lang.ngettext(
            "{pull} changes {lines} lines of core code in {files} file",
            "{pull} changes {lines} lines of core code in {files} files",
            e.files,
        )
    return template.format(**values), (e.pull,)


def _default(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    """Which setting a title's "default" names is not told reliably (config.default-changed): that
    a default changes, where that is (consequence.default-flip), else the files it changes."""
    _ = said.lang.gettext
    if speaks("consequence.default-flip"):
        flip = _default_flip(in_week.get(e.pull))
        if flip:  # what the title says of it, as the breaking row says it
            return evidence_text(flip, said.lang), (e.pull,)
        return _("{pull} changes a default").format(pull=f"#{e.pull}"), (e.pull,)
    if e.paths:
        return _changed_files(kind, e, said), (e.pull,)
    return _("{pull} speaks of a default in its title").format(pull=f"#{e.pull}"), (e.pull,)


def _default_flip(analysed: AnalysedPull | None) -> Evidence | None:
    """The PR's own consequence evidence of a default it flips, where it names the setting (a name,
    not words of the title: "content status")."""
    flips = (
        e
        for e in (analysed.evidence if analysed else ())
        if e.fact == "consequence" and e.detail == "default-flip" and " " not in (e.package or " ")
    )
    return next(flips, None)


def _config(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    """Whether users' configuration changed is not told reliably (config.user-changed): the files,
    and what the PR says it does."""
    words = _its_words(in_week.get(e.pull), said.lang)
    return _changed_files(kind, e, said) + words, (e.pull,)


def _its_words(analysed: AnalysedPull | None, lang: Language) -> str:
    """What a PR says it does, after the files that say where: "#862 changes pelican/settings.py
    (“ignore emacs lock files …”)", which file names alone do not tell. Its title in English; in
    Chinese only a title translated whole, not its English again (the page shows it once); "" for a
    merge commit's title, which names only a branch."""
    if analysed is None or merged_branch(analysed.pull.title):
        return ""
    title = analysed.pull.title
    if lang.code != "zh":
        return f" (“{display_title(title).rstrip('.')}”)"
    said = whole_translation(title)
    return f"（{said}）" if said else ""


def _changed_files(kind: EvidenceRef, e: Evidence, said: StatedNumbers) -> str:
    _ = said.lang.gettext
    values = {"pull": f"#{e.pull}", "paths": _paths(e, said.lang)}
    if e.files > min(len(e.paths), PATHS_NAMED):
        values["count"] = said.number(kind.key("files"), e.files)
        template = {
            "removes": _(
                "{pull} takes lines out of {count} configuration files, among them {paths}"
            ),
            "adds": _("{pull} adds lines to {count} configuration files, among them {paths}"),
        }.get(e.detail or "", _("{pull} changes {count} configuration files, among them {paths}"))
    else:
        template = {
            "removes": _("{pull} takes lines out of {paths}"),
            "adds": _("{pull} adds lines to {paths}"),
        }.get(e.detail or "", _("{pull} changes {paths}"))
    return template.format(**values)


def _workflows(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    lang = said.lang
    count = e.files or len(e.paths)
    values = {
        "pull": f"#{e.pull}",
        "count": said.number(kind.key("files" if e.files else "paths"), count),
        "paths": _paths(e, lang),
    }
    if count <= PATHS_NAMED:
        template = lang.ngettext(
            "{pull} changes {count} CI file ({paths})",
            "{pull} changes {count} CI files ({paths})",
            count,
        )
    else:
        template = lang.gettext("{pull} changes {count} CI files, among them {paths}")
    return template.format(**values), (e.pull,)


def _hot_file(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    lang = said.lang
    listed, pulls = lang.some_pulls(
        tuple(n for n in (e.pulls or (e.pull,)) if n in in_week), LISTED_PULLS
    )
    values = {
        "path": e.paths[0] if e.paths else "",
        "count": said.number(kind.key("pulls"), len(e.pulls)) if e.pulls else "",
        "pulls": listed,
        "people": said.number(kind.key("authors"), len(e.authors)) if e.authors else "",
    }
    if e.authors and len(e.authors) > 1:
        template = lang.gettext(
            "{path} was changed by {count} PRs from {people} authors this week ({pulls})"
        )
    else:
        template = lang.gettext("{path} was changed by {count} PRs this week ({pulls})")
    return template.format(**values), pulls


def _changes_requested(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    text = said.lang.gettext("{pull} was merged while {reviewers} still requested changes")
    return text.format(pull=f"#{e.pull}", reviewers=reviewers(e.authors, said.lang)), (e.pull,)


def _consequence(kind: EvidenceRef, e: Evidence, said: StatedNumbers, in_week):
    return evidence_text(e, said.lang), (e.pull,)


_EVIDENCE = {
    "consequence": _consequence,
    "untested-code": _untested,
    "breaking-marker": _breaking,
    "version": _version,
    "routine-bumps": _routine,
    "vulnerability": _vulnerability,
    "reverted": _reverted,
    "deprecated": _deprecated,
    "files-removed": _removed,
    "size": _size,
    "default-changed": _default,
    "config-files": _config,
    "workflows": _workflows,
    "hot-file": _hot_file,
    "changes-requested": _changes_requested,
}


def summary_risks(week: WeekAnalysis, lang: Language) -> list[Cited]:
    """What the summary says of risks: good news first, then the main risk's first evidence (the
    analysis ranks it by what it can break for users: analysis.risks.main_risk)."""
    _ = lang.gettext
    told = []
    for news in week.good_news[:1]:
        lead = lead_sentence(news, week, lang)
        told.append(Cited(_("Good news: {news}").format(news=lead.text), lead.pulls, lead.figures))
    main = main_risk(week.risks)
    if main is not None:
        lead = lead_sentence(main, week, lang)
        told.append(
            Cited(_("The main risk: {risk}").format(risk=lead.text), lead.pulls, lead.figures)
        )
    return told
