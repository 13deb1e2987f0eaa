"""Judges: what the digest's rules claim of each labelled PR (tests/corpora), against its label.

    index = analysed_index()                       # every week of ../shared/data, as a build analyses it
    verdicts = judge("reverts", load_corpus("reverts"), index)
    table = measure(verdicts)                      # {rule: Figures(labels, claims, right, found)}

Each rule is one claim a sentence of the digest makes of a PR, read as the reader reads it (the
rule names are those of digest_plugin/analysis/claims.py):

- reverts: "is a revert" (the revert risk), "which PR it undoes" (#N reverts #M / “title”), and what
  followed: re-landed by #N, replaced by #N, nothing followed within four weeks, needs no follow-up.
- versions: the package named, the direction said (upgrades / downgrades / pins), the project's own release.
- config: "edits configuration: deployments that rely on these values will behave differently"
  (a user-facing key or default changed), "changes the default of X" (a default changed).
- tests: "adds N lines of source code … and changes no test" (missing tests), "with tests" and
  "no test changed" (the key line's ending).
- types: the highlight buckets "New capabilities", "Key fixes", "Refactors".
- themes: a week's theme sentence, "megatron: 6 of the week's 40 PRs …": each PR a theme holds is
  about the theme's subject ("theme.member"), and the theme's name names a real subject, a product
  area, technology, platform or feature, not a path fragment, a generic word or an inflection
  ("theme.name"). A theme the corpus does not label for a labelled PR counts as wrong.
- consequences: "marked as a breaking change: users will have to change …", "removes something
  deprecated: users who still rely on it will break", "removes N files: anything that imports them
  will break", "deprecates existing behaviour", "changes the default of X", "adds a new required
  dependency".

A rule's analysis runs over the whole repository, each PR in its real week and history, as a build
analyses it (analysis.analyse_repo with the default rules). A third of each corpus, chosen by a hash
of the PR, is held out: rules are tuned on the rest and the held-out figures tell overfitting (a
corpus may say so itself, as themes.jsonl does by week: `held_out`).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

CORPORA = Path(__file__).resolve().parent / "corpora"
CLASSES = ("reverts", "versions", "config", "tests", "types", "consequences", "themes")
NOW = datetime(
    2026, 11, 30, tzinfo=UTC
)  # after every PR of ../shared/data: every follow-up window is closed


@dataclass(frozen=True)
class Verdict:
    """One rule on one labelled PR: whether it claims, whether the claim is right, whether the label
    says the claim holds (a miss when it does not claim)."""

    rule: str
    repo: str
    number: int
    claimed: bool
    right: bool  # of a claim: what it says is what the label says
    positive: bool  # the label says the claim holds of this PR
    said: str  # what the rule claims, for listing wrong ones
    why: str  # the label's reason
    held_out: bool


@dataclass(frozen=True)
class Figures:
    labels: int  # labelled PRs of the corpus the rule was judged on
    positives: int  # of which the label says the claim holds
    claims: int
    right: int  # claims that are right
    found: int  # positives the rule claimed, rightly

    @property
    def precision(self) -> float | None:
        return self.right / self.claims if self.claims else None

    @property
    def recall(self) -> float | None:
        return self.found / self.positives if self.positives else None


def load_corpus(name: str, folder: Path = CORPORA) -> list[dict]:
    path = folder / f"{name}.jsonl"
    if not path.exists():
        return []
    labels = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                labels.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}, line {number}, is not JSON: {error}") from None
    return labels


def held_out(repo: str, number: int) -> bool:
    """A third of every corpus, the same PRs whatever the order of its lines: not to tune on."""
    return zlib.crc32(f"{repo}#{number}".encode()) % 3 == 0


DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "github"
REPOS = {
    "verl-project/verl": "verl-project__verl.pulls.jsonl.gz",
    "astral-sh/ruff": "astral-sh__ruff.pulls.jsonl.gz",
    "getpelican/pelican": "getpelican__pelican.pulls.jsonl.gz",
}


def analysed_index(repos: Iterable[str] | None = None) -> dict[tuple[str, int], tuple]:
    """(repo, number) -> (AnalysedPull, WeekAnalysis) for every merged PR of ../shared/data (beside
    this checkout, whichever checkout's digest_plugin is imported)."""
    from digest_plugin.analysis import analyse_repo
    from digest_plugin.publish.history import analysis_options
    from digest_plugin.settings import DigestSettings
    from digest_plugin.store.jsonl_import import read_export

    index = {}
    for repo in repos or REPOS:
        pulls = sorted(read_export(DATA / REPOS[repo]), key=lambda p: (p.merged_at, p.number))
        for week in analyse_repo(repo, pulls, None, analysis_options(DigestSettings()), NOW):
            for analysed in week.pulls:
                index[repo, analysed.pull.number] = (analysed, week)
    return index


def judge(corpus: str, labels: list[dict], index: dict) -> list[Verdict]:
    """Every rule of a corpus's class on every labelled PR the data holds."""
    verdicts = []
    for label in labels:
        found = index.get((label["repo"], label["number"]))
        if found is None:
            continue  # not in the data: a label for a PR the data lacks judges nothing
        analysed, week = found
        for rule, check in JUDGES[corpus].items():
            claimed, right, positive, said = check(analysed, week, label)
            verdicts.append(
                Verdict(
                    rule,
                    label["repo"],
                    label["number"],
                    claimed,
                    claimed and right,
                    positive,
                    said,
                    label.get("why", ""),
                    label.get("held_out", held_out(label["repo"], label["number"])),
                )
            )
    return verdicts


def measure(
    verdicts: Iterable[Verdict], part: Callable[[Verdict], bool] = lambda v: True
) -> dict[str, Figures]:
    """Each rule's figures over the verdicts `part` keeps (all, or the held-out third)."""
    table: dict[str, list[Verdict]] = {}
    for verdict in verdicts:
        if part(verdict):
            table.setdefault(verdict.rule, []).append(verdict)
    return {
        rule: Figures(
            labels=len(vs),
            positives=sum(v.positive for v in vs),
            claims=sum(v.claimed for v in vs),
            right=sum(v.right for v in vs),
            found=sum(v.claimed and v.right and v.positive for v in vs),
        )
        for rule, vs in table.items()
    }


def _evidence(analysed, fact: str, kind: str | None = None) -> list:
    return [e for e in analysed.evidence if e.fact == fact and (kind is None or e.kind == kind)]


# --- reverts -------------------------------------------------------------------------------------


def _revert_evidence(analysed):
    found = _evidence(analysed, "reverted", "revert")
    return found[0] if found else None


def _is_revert(analysed, week, label):
    e = _revert_evidence(analysed)
    return e is not None, bool(label["revert"]), bool(label["revert"]), "a revert"


def _undoes(analysed, week, label):
    e = _revert_evidence(analysed)
    claimed = e is not None and bool(e.pulls)
    undone = set(label.get("reverts") or ())
    return (
        claimed,
        claimed and set(e.pulls) <= undone,
        bool(label["revert"] and undone),
        f"undoes {list(e.pulls) if claimed else []}",
    )


def _followed(outcomes: tuple[str, ...], follows: tuple[str, ...], check_by: bool):
    def check(analysed, week, label):
        e = _revert_evidence(analysed)
        claimed = e is not None and e.outcome in outcomes
        follow = label.get("follow") if label["revert"] else None
        right = (
            claimed
            and follow in follows
            and (not check_by or label.get("by") is None or e.by == label.get("by"))
        )
        return (
            claimed,
            claimed and right,
            follow in follows,
            f"{e.outcome} by {e.by}" if claimed else "",
        )

    return check


# --- versions ------------------------------------------------------------------------------------

# names a reader of the repository takes for one package (the sentence says the first, the label the second)
_ALIASES = {
    "mcore": "megatron-core",
    "trtllm": "tensorrt-llm",
    "toolchain": "rust",
    "rust-msrv": "msrv",
}


def _package(name: str | None) -> str:
    """A package name as two spellings of it compare: case, `-`/`_`/`.`, extras, a toolchain's suffix,
    a label's note in brackets ("rust (MSRV)" is the minimum supported Rust version)."""
    name = (
        re.sub(r"\[[^\]]*\]", "", (name or "").lower()).removesuffix(" toolchain").strip()
    )  # `sglang[all]` is sglang
    name = "msrv" if "(msrv)" in name else re.sub(r"\s*\(.*\)\s*", "", name).strip()
    for sep in ("_", ".", " "):
        name = name.replace(sep, "-")
    return _ALIASES.get(name, name)


def _labelled_changes(label) -> dict[str, str]:
    """package -> kind of a version label's changes, the project's own release left out."""
    return {
        _package(c.get("package")): c.get("kind")
        for c in label.get("changes") or ()
        if c.get("kind") != "own-release"
    }


def _versions_said(analysed):
    return [e for e in _evidence(analysed, "version", "dependency-upgrade") if e.package]


def _labelled_as(name: str, labelled: dict[str, str]) -> str | None:
    """The labelled package a said name stands for: the same, the label's without its owner
    (`actions/download-artifact` said `download-artifact`); for "a/b", a's when both are labelled."""
    if name in labelled:
        return name
    owners = {key.rpartition("/")[2]: key for key in labelled}
    if name in owners:
        return owners[name]
    parts = name.split("/")
    return parts[0] if len(parts) > 1 and all(p in labelled for p in parts) else None


def _package_named(analysed, week, label):
    said = _versions_said(analysed)
    labelled = _labelled_changes(label)
    names = [_package(e.package) for e in said]
    return (
        bool(said),
        all(_labelled_as(n, labelled) for n in names),
        bool(labelled),
        ", ".join(names),
    )


# the direction a version sentence says (narrate.risks._moved), and the labelled kinds it may be right for
def direction_said(e) -> str | None:
    if e.detail == "down":
        return "downgrade"
    if e.detail == "pin-back" and e.new:
        return "downgrade"
    if e.detail in ("pin", "cap") and e.new:
        return "pin"
    if e.package == "msrv" and e.new:
        return "upgrade"
    if e.old and e.new:
        return "upgrade" if e.detail in ("major", "minor", "patch") else None
    if e.new:
        return "upgrade" if e.detail == "up" else None
    return "upgrade"  # "{pull} upgrades {package}"


_DIRECTION_KINDS = {
    "upgrade": {"upgrade"},
    "downgrade": {"downgrade", "pin"},
    "pin": {"pin", "downgrade"},
}


def _direction(analysed, week, label):
    labelled = _labelled_changes(label)
    said = [(e, direction_said(e)) for e in _versions_said(analysed)]
    said = [(e, d) for e, d in said if d is not None]
    right = all(
        labelled.get(_labelled_as(_package(e.package), labelled) or "") in _DIRECTION_KINDS[d]
        for e, d in said
    )
    return bool(said), right, bool(labelled), ", ".join(f"{e.package} {d}" for e, d in said)


def _own_release(analysed, week, label):
    claimed = any(r.pull == analysed.pull.number for r in getattr(week, "releases", ()))
    own = any(c.get("kind") == "own-release" for c in label.get("changes") or ())
    return claimed, own, own, "own release"


# --- config --------------------------------------------------------------------------------------


def _config_user(analysed, week, label):
    said = _evidence(analysed, "config-files", "config-change")
    return (
        bool(said),
        label["config"] == "user",
        label["config"] == "user",
        ", ".join(p for e in said for p in e.paths),
    )


def _default_changed(analysed, week, label):
    said = _evidence(analysed, "default-changed", "config-change")
    return (
        bool(said),
        bool(label.get("defaults")),
        bool(label.get("defaults")),
        ", ".join(e.detail or "a default" for e in said),
    )


# --- tests ---------------------------------------------------------------------------------------


def _untested(label) -> bool:
    return label["tests"] == "none" and not label.get("e2e")


def _missing_tests(analysed, week, label):
    said = _evidence(analysed, "untested-code", "missing-tests")
    return bool(said), _untested(label), _untested(label), "changes no test"


def _tested_ending(analysed) -> bool | None:
    """What a key line's ending says (narrate.describe: "with tests." / "; no test changed.")."""
    footprint = analysed.footprint
    if footprint.test_files:
        return True if footprint.test_lines_gained > 0 else None
    return None if footprint.inline_test_files else False


def _with_tests(analysed, week, label):
    # "with tests" says tests show the change: tests only deleted do not
    shown = label["tests"] in ("added", "changed") or bool(label.get("e2e"))
    return _tested_ending(analysed) is True, shown, shown, "with tests"


def _no_test_changed(analysed, week, label):
    return _tested_ending(analysed) is False, _untested(label), _untested(label), "no test changed"


# --- types ---------------------------------------------------------------------------------------


def _bucket(name: str, kind: str):
    def check(analysed, week, label):
        try:
            from digest_plugin.narrate.builtin import highlight_bucket
        except (
            ImportError
        ):  # the code before claims were measured, where the bucket was always told
            from digest_plugin.narrate.builtin import _highlight_kind as highlight_bucket
        claimed = highlight_bucket(analysed) == name
        return claimed, label["type"] == kind, label["type"] == kind, name

    return check


# --- consequences --------------------------------------------------------------------------------


def _kinds(label) -> set[str]:
    return {c.get("kind") for c in label.get("consequences") or ()}


def _breaking(analysed, week, label):
    """ "Marked as a breaking change: users will have to change …", said of a marker whose PR says
    what breaks (the evidence's `reason`; before that rule, of every marker)."""
    said = [
        e
        for e in _evidence(analysed, "breaking-marker", "breaking-change")
        if e.reason or not _states_what_breaks()
    ]
    return (
        bool(said),
        bool(_kinds(label)),
        bool(_kinds(label)),
        said[0].reason or "" if said else "",
    )


def _marker_only(analysed, week, label):
    """The same said of a marker alone, its PR saying nothing of what breaks."""
    said = [e for e in _evidence(analysed, "breaking-marker", "breaking-change") if not e.reason]
    claimed = bool(said) and _states_what_breaks()
    return claimed, bool(_kinds(label)), bool(_kinds(label)), "marked only"


def _states_what_breaks() -> bool:
    """Whether the code measured reads what a marked PR says breaks (analysis/consequences.what_breaks)."""
    try:
        from digest_plugin.analysis.consequences import what_breaks  # noqa: F401
    except ImportError:
        return False
    return True


def _deprecated(detail: str, kinds: set[str] | None):
    def check(analysed, week, label):
        said = [e for e in _evidence(analysed, "deprecated", "deprecation") if e.detail == detail]
        holds = bool(_kinds(label) & kinds) if kinds else bool(_kinds(label))
        return bool(said), holds, holds, detail

    return check


def _files_removed(analysed, week, label):
    said = _evidence(analysed, "files-removed", "large-change")
    holds = "removal" in _kinds(label)
    return bool(said), holds, holds, ", ".join(p for e in said for p in e.paths)


def _default_flip(analysed, week, label):
    said = _evidence(analysed, "default-changed", "config-change")
    holds = "default-flip" in _kinds(label)
    return bool(said), holds, holds, ", ".join(e.detail or "a default" for e in said)


def _stated(analysed, week, label):
    """What the key line, the breaking section and the main risk say of a PR's consequences from its
    title and its Breaking/Migration section (analysis/consequences.py): right when the label has a
    consequence, of the kind said where one is."""
    said = [c for c in getattr(analysed, "consequences", ()) if c.source != "prose"]
    labelled = _kinds(label)
    right = bool(labelled) and all(c.kind is None or c.kind in labelled for c in said)
    return (
        bool(said),
        right,
        bool(labelled),
        ", ".join(f"{c.kind or 'stated'}: {c.what or c.quote}" for c in said),
    )


def _prose(kind: str):
    """A consequence of `kind` read from the body's prose: right when the label has one of that kind."""

    def check(analysed, week, label):
        said = [
            c
            for c in getattr(analysed, "consequences", ())
            if c.source == "prose" and c.kind == kind
        ]
        holds = kind in _kinds(label)
        return (
            bool(said),
            holds,
            holds,
            ", ".join(f"{c.what or ''} → {c.new or ''}: {c.quote}" for c in said),
        )

    return check


def _new_dependency(analysed, week, label):
    """A new required dependency (analysis/upgrades.adds_required_dependency), right when the label has one."""
    try:
        from digest_plugin.analysis.upgrades import adds_required_dependency
    except ImportError:  # the code before the rule: it never claimed one
        return False, False, "new-dependency" in _kinds(label), ""
    holds = "new-dependency" in _kinds(label)
    claimed = adds_required_dependency(analysed.pull)
    return claimed, holds, holds, "new required dependency" if claimed else ""


# --- themes --------------------------------------------------------------------------------------


def _themes_of(analysed, week) -> list:
    return [theme for theme in getattr(week, "themes", ()) if analysed.pull.number in theme.pulls]


def _theme_label(name: str, labelled: dict) -> dict | None:
    """The label of a theme named `name`: the one of that name, or of a name made of the same
    names or more ("ascend" and "ascend/npu" are labelled as "npu/ascend" is)."""
    parts = set(name.split("/"))
    return labelled.get(name) or next(
        (v for n, v in labelled.items() if parts <= set(n.split("/"))), None
    )


def _theme_judge(key: str):
    """A PR's themes against its labels (`themes`: name -> {member, name}): right when every theme
    it is in is labelled so; a theme the corpus does not label for the PR is wrong until read."""

    def check(analysed, week, label):
        themes, labelled = _themes_of(analysed, week), label.get("themes") or {}
        right = all((_theme_label(theme.name, labelled) or {}).get(key) is True for theme in themes)
        positive = any(v.get("member") and v.get("name") for v in labelled.values())
        return bool(themes), right, positive, ", ".join(theme.name for theme in themes)

    return check


JUDGES: dict[str, dict[str, Callable]] = {
    "reverts": {
        "revert.is-revert": _is_revert,
        "revert.undoes": _undoes,
        "revert.relanded": _followed(("relanded",), ("relanded",), check_by=True),
        "revert.replaced": _followed(("replaced",), ("replaced",), check_by=True),
        "revert.followed-up": _followed(
            ("relanded", "replaced"), ("relanded", "replaced"), check_by=True
        ),
        "revert.nothing-followed": _followed(
            ("none", "pending"), ("permanent", "unknown"), check_by=False
        ),
        "revert.needs-nothing": _followed(("accidental",), ("permanent",), check_by=False),
    },
    "versions": {
        "version.package": _package_named,
        "version.direction": _direction,
        "version.own-release": _own_release,
    },
    "config": {
        "config.user-changed": _config_user,
        "config.default-changed": _default_changed,
    },
    "tests": {
        "tests.missing": _missing_tests,
        "tests.with-tests": _with_tests,
        "tests.no-test-changed": _no_test_changed,
    },
    "types": {
        "type.feature": _bucket("features", "feature"),
        "type.fix": _bucket("fixes", "fix"),
        "type.refactor": _bucket("refactors", "refactor"),
    },
    "consequences": {
        "consequence.breaking": _breaking,
        "consequence.marker-only": _marker_only,
        "consequence.removes-deprecated": _deprecated("removes", {"removal", "rename"}),
        "consequence.deprecates": _deprecated("deprecates", None),
        "consequence.files-removed": _files_removed,
        "consequence.default-flip": _default_flip,
        "consequence.stated": _stated,
        "consequence.prose-rename": _prose("rename"),
        "consequence.prose-default": _prose("default-flip"),
        "consequence.prose-removal": _prose("removal"),
        "consequence.prose-format": _prose("format-change"),
        "consequence.new-dependency": _new_dependency,
    },
    "themes": {
        "theme.member": _theme_judge("member"),
        "theme.name": _theme_judge("name"),
    },
}
RULES = tuple(rule for rules in JUDGES.values() for rule in rules)
