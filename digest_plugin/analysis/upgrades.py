"""Dependency and toolchain upgrades: whether a PR moves what the project runs on, what and how far.

`upgrades(pull, classification, rules)` names each dependency moved (package, from, to) as the title
says it ("upgrade to torch 2.7, sglang 0.4.8", "Update Rust crate syn to v2.0.98", "Bump MSRV to
Rust 1.88", "tensordict==0.6.2") or, failing that, as a Renovate or Dependabot body's table does
(`v1.2.0` → `v1.3.0`). A PR that only touches dependency files (lock files, requirements,
Dockerfiles) is an upgrade with no named package. Importance (the upgrade factors) and risks (the
dependency-upgrade kind) both ask here, so they agree.

Which way it moves is checked, not assumed (`Upgrade.move`): two versions are compared (newer is a
major, minor or patch step, older a downgrade); a revert of an upgrade moves back; a pin is a pin
back when the description names a newer version of the package or says "previous version" (with
the description's sentence saying why), a cap when the title says "under" or "<"; otherwise, with
one version, only the upgrade verbs say "up". A version moved only in CI or tooling files (an
action, a runner image, a CI tool) is CI's own, not a dependency of the project.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from digest_plugin.analysis.classify import TITLE_LIMIT, parse_title, reason_of
from digest_plugin.analysis.model import BACK_MOVES, Classification, Upgrade
from digest_plugin.analysis.rules import Rules
from digest_plugin.records.pull import Pull

_VERSION = re.compile(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")
# "2.7", "1.3.0rc13", "2.7.1.post2", Renovate's "v5"; not a commit digest ("9c9c13b") nor an address
_VERSION_TEXT = r"v?\d+(?:\.\d+){0,2}(?:\.?(?:post|rc|dev|a|b|alpha|beta)\d*)*(?![\w.])"
# "NAME (from OLD) to NEW", "NAME==NEW", "NAME NEW" inside an upgrade title
_FROM_TO = re.compile(
    rf"(?P<package>[A-Za-z][\w./@+-]*?)(?:\[[\w,-]+\])?(?:\s+(?:dev|development|test))?(?:\s+(?:crate|action|package|image|dependency|version|dependencies))?\s+"
    rf"(?:from\s+(?P<old>{_VERSION_TEXT})\s+)?to\s+(?P<new>{_VERSION_TEXT})\b",
    re.IGNORECASE,
)
_PINNED = re.compile(
    r"(?P<package>[A-Za-z][\w.@+-]*?)(?:\s*(?:==|>=|<=|~=|<|>)\s*|\s+(?:(?:under|below|above|at least)\s+)?)"
    r"(?P<new>v?\d+\.\d+(?:\.\d+)?(?:\.?(?:post|rc|dev|a|b)\d*)*)(?![\w.])",
    re.IGNORECASE,
)
# "vllm 0.17->0.18"
_ARROW = re.compile(
    rf"(?P<package>[A-Za-z][\w./@+-]*?)\s+(?P<old>{_VERSION_TEXT})\s*(?:->|→|=>)\s*(?P<new>{_VERSION_TEXT})",
    re.IGNORECASE,
)
# "CANN8.5.2": a name written against its version, taken only for a runtime the rules know ("Qwen3.5" is a model)
_GLUED = re.compile(
    r"\b(?P<package>[A-Za-z][A-Za-z_-]*?)(?P<new>\d+\.\d+(?:\.\d+)?(?:\.?(?:post|rc|dev|a|b)\d*)*)(?![\w.])",
    re.IGNORECASE,
)
_MSRV = re.compile(r"\bmsrv\b|\bminimum supported rust\b", re.IGNORECASE)
_TOOLCHAIN = re.compile(r"\btoolchain\b", re.IGNORECASE)
_WHOSE_TOOLCHAIN = re.compile(r"\b([A-Za-z]+)\s+toolchain\b", re.IGNORECASE)
_VERSION_TAIL_WORD = re.compile(r"(?:post|rc|dev|a|b|alpha|beta)\d*", re.IGNORECASE)
_BARE_TO = re.compile(rf"\bto\s+(?P<new>{_VERSION_TEXT})\b", re.IGNORECASE)
_DOCS_TITLE = re.compile(r"\b(?:docs?|documentation|readme|guide|tutorial)\s*$", re.IGNORECASE)
_PIN_VERB = re.compile(
    r"\b(?:pin|pins|pinned|pinning|lock|locks|locked|hold|holds|freeze|freezes|restrict\w*|limit|limits|limited|constrain\w*)\b",
    re.IGNORECASE,
)
_CAP = re.compile(r"(?:\b(?:under|below|before|at most)|<=?)\s*v?\d", re.IGNORECASE)
_BACK = re.compile(
    r"\b(?:downgrad\w*|roll(?:s|ed|ing)?\s*back|rollback|previous (?:version|release)|older (?:version|release)|"
    r"last (?:good|working|known)|go(?:es|ing)? back to|back to)\b",
    re.IGNORECASE,
)
_UP_VERB = re.compile(
    r"\b(?:update[sd]?|bump(?:s|ed)?|upgrade[sd]?|move[sd]? to|raise[sd]?)\b", re.IGNORECASE
)

# Renovate: "| [name](url) | ... | `v1.2.0` → `v1.3.0` |"; Dependabot: "Bumps [name](url) from 1.2 to 1.3."
_BODY_TABLE = re.compile(
    r"\[`?(?P<package>[\w./@-]+?)`?\]\([^()\s]*\)[^`\n]{0,80}?(?:\n[^`\n]{0,80})?`(?P<old>[^`\s]+)`\s*(?:→|->)\s*`(?P<new>[^`\s]+)`"
)
_BODY_BUMPS = re.compile(
    r"\bbumps\s+\[?(?P<package>[\w./@-]+)\]?(?:\([^()\s]*\))?\s+from\s+(?P<old>\S+?)\s+to\s+(?P<new>\S+?)\.?(?:\s|$)",
    re.IGNORECASE,
)
_UPGRADE_VERB = re.compile(
    r"\b(?:update|updates|bump|bumps|bumped|upgrade|upgrades|upgraded|pin|pins)\b", re.IGNORECASE
)
_REMOVAL_FIRST = re.compile(
    r"(?:remove|delete|drop)\b(?![^,;&]*\b(?:dependenc|deps?\b|requirement|pin\b|version))",
    re.IGNORECASE,
)
_UPGRADE_WORDS = re.compile(
    r"\b(update|bump|upgrade|pin)s?\b.*\b(dependenc\w*|deps?|version|image|requirements?|toolchain)\b"
    r"|\b(update|bump|upgrade|pin)s?\b.{0,40}?\b[a-z][\w.-]*\s*(==|>=|~=|to\s+)?v?\d+\.\d+"
    # "Upgrade salsa", "Update salsa to fix …", "update to latest Salsa with …" (ruff #16794,
    # #22498, #17179)
    r"|^(update|bump|upgrade)s?\s+`?[\w.-]+`?(\s+to\s+(fix|pull|get|pick)\b.*)?$"
    r"|\b(update|bump|upgrade)s?\s+to\s+(the\s+)?latest\s+\w",
    re.IGNORECASE,
)
# "Bump version to 0.15.19", "Release v0.4.2", "Prepare for 0.15.1", "Prepare release v0.14.14"
_OWN_RELEASE = re.compile(
    r"^(bump|release|prepare|update|set)\s+(the\s+)?(((main|master|dev)\s+)?branch\s+|package\s+|project\s+)?version\b|^(bump|release|prepare)\s+(to\s+|for\s+|release\s+)?v?\d|^release\b"
    r"|^.*?\b(and|then)\s+bump\s+(it\s+)?to\s+v?\d",  # "Add pyproject.toml to rooster's `version_files` and bump to 0.13.1"
    re.IGNORECASE,
)
_NAMED_RELEASE = re.compile(r"^([\w.-]+)\s+v?\d+\.\d+")
# "bump the version of vllm-ascend to v0.11.0"
_ANOTHER_VERSION = re.compile(r"\bversion\s+of\b", re.IGNORECASE)
_NOT_PACKAGES = frozenset(
    """to from and the a version versions image images dependency dependencies crate action package
    up bump update upgrade pin set with in of for v docker deps requirements limit lock it all also
    default minimum digest under below above least than dev is on at address workflow workflows
    dockerfile dockerfiles pipeline pipelines ci build file files doc docs base tag tags runner
    runners stable latest""".split()
)
_RENOVATE_PREFIX = re.compile(
    r"^(?:update|bump)\s+(?:rust crate|dependency|npm package|module|python|(?:[\w-]+ )?dependency)\s+",
    re.IGNORECASE,
)


# a minimum version the project promises to support ("Update MSRV to 1.91" in Cargo.toml) is no
# dependency it runs on: releases are built as before unless the PR moves the toolchain file too
DECLARED_MINIMUMS = frozenset({"msrv"})
# Renovate's "Update salsa digest to a885bb4" (ruff #21486)
_DIGEST = re.compile(
    r"^update\s+(?P<package>[\w./@-]+)\s+digest\s+to\s+[0-9a-f]{7,40}$", re.IGNORECASE
)


def moving(upgrades: Sequence[Upgrade], kinds: Sequence[frozenset[str]]) -> tuple[Upgrade, ...]:
    """The upgrades that move what the project is built and runs with: a declared minimum does
    only with a file that pins it among the PR's (rust-toolchain.toml, a lock file, a Dockerfile)."""
    builds_change = any("dependencies" in k for k in kinds)
    return tuple(u for u in upgrades if u.package not in DECLARED_MINIMUMS or builds_change)


def own_release(pull: Pull, rules: Rules) -> str | None:
    """The version a PR releases the project at ("Bump version to 0.15.19", "Release v0.4.2"), or None."""
    title = parse_title(pull.title[:TITLE_LIMIT], rules).description
    named = _NAMED_RELEASE.match(title)  # "Ruff 0.9.1": the project's name and a version
    own = _OWN_RELEASE.match(title) or (named and named[1].lower() in rules.source_roots)
    if not own or _ANOTHER_VERSION.search(title):
        return None
    version = re.search(_VERSION_TEXT, title)
    # "0.5.0.dev" opens the next cycle: a version number, not a release
    return version[0] if version and "." in version[0] and "dev" not in version[0] else None


def upgrades(
    pull: Pull, classification: Classification, rules: Rules, prose: str = ""
) -> tuple[Upgrade, ...]:
    """What a PR upgrades, downgrades or pins (see the module docstring); () when it moves no
    dependency. `prose` is the description's text (description.description_text), where the
    reason for a pin is read."""
    title = parse_title(pull.title[:TITLE_LIMIT], rules).description
    paths, kinds = rules.files_of(pull)
    touches_deps = any(k & {"dependencies", "manifests"} for k in kinds)
    digest = _DIGEST.match(title)  # a git dependency moved to another commit: no version to compare
    named: list[tuple[str, str | None, str | None]]
    if digest and touches_deps:
        named = [(digest["package"], None, None)]
    elif not _moves_a_dependency(title, classification, kinds):
        return ()
    else:  # the project's own name among them is its own version ("bump trtllm to 1.3 and verl to v0.7.1")
        named = [
            n
            for n in _title_versions(title, rules) or _body_versions(pull.body)
            if n[0] not in rules.source_roots
        ]
    if not named:  # no versions: a move only when the title says one ("Update TQ dependency"), not a Dockerfile's other edits
        if not (touches_deps and _UPGRADE_VERB.search(title)):
            return ()
        named = [("", None, None)]
    # "Bump MSRV to Rust 1.89" names the minimum, not the compiler
    if _MSRV.search(title) and not _TOOLCHAIN.search(title):
        named = [
            ("msrv" if package == "rust" else package, old, new) for package, old, new in named
        ]
    files = tuple(
        path for path, k in zip(paths, kinds, strict=True) if k & {"dependencies", "manifests"}
    )
    reverting = classification.is_revert or classification.type == "revert"
    return tuple(
        _upgrade(package, old, new, rules, files, _Said(title, prose, reverting))
        for package, old, new in named
    )


def _moves_a_dependency(
    title: str, classification: Classification, kinds: tuple[frozenset[str], ...]
) -> bool:
    """Whether a PR of this title, type and files (their kinds) may move a dependency the project
    runs on: it says so, or changes nothing but dependencies."""
    touches_deps = any(k & {"dependencies", "manifests"} for k in kinds)
    only_deps = bool(kinds) and all("dependencies" in k for k in kinds)
    says_upgrade = bool(_UPGRADE_WORDS.search(title)) or bool(
        _UPGRADE_VERB.search(title) and _BARE_TO.search(title)
    )
    if (
        classification.type not in ("build", "chore", "ci", None)
        and not only_deps
        and not (says_upgrade and touches_deps)
    ) or _REMOVAL_FIRST.match(title):
        return False  # "remove plugins, update docs and adjust dependencies" (pelican #840)
    if (
        not (says_upgrade or only_deps)
        or _OWN_RELEASE.match(title)
        or (_DOCS_TITLE.search(title) and not touches_deps)
    ):
        return False  # not an upgrade, the project's own release, or a page about versions
    return _the_projects_own(kinds)


def _the_projects_own(kinds: tuple[frozenset[str], ...]) -> bool:
    """Whether files of these kinds hold what the project itself runs on: a version of CI's own (an
    action, a runner, a CI tool) is a CI change, and one that only a script, a benchmark, an
    example, the docs or the tests install is none of the project's."""
    if kinds and all(k & {"ci", "tooling"} for k in kinds):
        return False
    manifests = [k for k in kinds if k & {"dependencies", "manifests"}]
    return not (
        manifests and all(k & {"examples", "docs", "tests", "ci", "tooling"} for k in manifests)
    )


def _title_versions(title: str, rules: Rules) -> list[tuple[str, str | None, str | None]]:
    """(package, old, new) as an upgrade title names them, in title order."""
    text = _RENOVATE_PREFIX.sub("", title)
    found: dict[str, tuple[str, str | None, str | None]] = {}
    for pattern in (_ARROW, _FROM_TO, _PINNED, _GLUED):
        for match in pattern.finditer(text):
            package = match["package"].strip(".,:;`'\"").lower()
            if (
                package in _NOT_PACKAGES
                or package.isdigit()
                or _VERSION_TAIL_WORD.fullmatch(package)
            ):
                continue  # "0.4.3.post3 to 0.4.4" names no package "post3"
            if pattern is _GLUED and package not in rules.core_dependencies | rules.toolchains:
                continue
            old = match.groupdict().get("old")
            found.setdefault(package, (package, _clean(old), _clean(match["new"])))
    if not found and (bare := _BARE_TO.search(text)):
        # "Bump MSRV to Rust 1.88", "upgrade to 2.7": the toolchain word, or the first noun, names it
        words = [
            w.lower()
            for w in re.findall(r"[A-Za-z][\w.+-]*", text[: bare.start()])
            if w.lower() not in _NOT_PACKAGES
        ]
        # a runtime or toolchain the rules know; another last word is a guess ("Ascend Dockerfile")
        known = (
            words[-1] if words and words[-1] in rules.core_dependencies | rules.toolchains else ""
        )
        found[""] = (known, None, _clean(bare["new"]))
    if (
        "toolchain" in found
        and (whose := _WHOSE_TOOLCHAIN.search(text))
        and whose[1].lower() in rules.toolchains
    ):
        # "Update Rust toolchain to 1.90"
        found["toolchain"] = (f"{whose[1].lower()} toolchain", *found["toolchain"][1:])
    return list(found.values())


def _body_versions(body: str) -> list[tuple[str, str | None, str | None]]:
    found: dict[str, tuple[str, str | None, str | None]] = {}
    for pattern in (_BODY_TABLE, _BODY_BUMPS):
        for match in pattern.finditer(body or ""):
            package = match["package"].lower()
            found.setdefault(package, (package, _clean(match["old"]), _clean(match["new"])))
    return list(found.values())[:10]


def _clean(version: str | None) -> str | None:
    return version.strip("`'\".,;:").removeprefix("v").removeprefix("V") if version else None


class _Said:
    """What a PR says around its versions: the title's description, the body's prose, whether it is a revert."""

    def __init__(self, title: str, prose: str, reverting: bool):
        self.title, self.prose, self.reverting = title, prose, reverting


def _upgrade(
    package: str,
    old: str | None,
    new: str | None,
    rules: Rules,
    files: tuple[str, ...],
    said: _Said,
) -> Upgrade:
    if said.reverting:  # a revert of "Update X to 1.2" moves X back from 1.2
        old, new = new, old
    move, reason = _move(package, old, new, said)
    # by its exact name: `@types/react` is no React
    core = package in rules.core_dependencies or rules.is_toolchain(package)
    return Upgrade(
        package=package,
        old=old,
        new=new,
        major=move not in BACK_MOVES and _across_major(old, new),
        core=core,
        move=move,
        reason=reason,
        files=files,
    )


def _move(
    package: str, old: str | None, new: str | None, said: _Said
) -> tuple[str | None, str | None]:
    """(the move, of UPGRADE_MOVES, and for a move back the description's reason) from the versions and the words."""
    if said.reverting:
        return "down", reason_of(said.prose)
    if old and new:
        order = compare_versions(old, new)
        if order is not None and order > 0:
            return "down", reason_of(said.prose)
        return (version_step(old, new) if order is not None and order < 0 else None), None
    if new and _CAP.search(said.title):
        return "cap", reason_of(said.prose)
    newer = new and any(
        (compare_versions(new, mentioned) or 0) < 0
        for mentioned in _versions_of(package, said.prose)
    )
    if _BACK.search(said.title) or (
        _PIN_VERB.search(said.title) and (newer or _BACK.search(said.prose))
    ):
        return "pin-back" if _PIN_VERB.search(said.title) else "down", reason_of(said.prose)
    if _PIN_VERB.search(said.title):
        return "pin", None
    return ("up" if _UP_VERB.search(said.title) else None), None


def _versions_of(package: str, text: str) -> list[str]:
    """The versions a text gives near the package's name ("cargo-shear released v1.12.0 today")."""
    if not package or not text:
        return []
    return [
        m[0]
        for mention in re.finditer(re.escape(package), text, re.IGNORECASE)
        for m in re.finditer(_VERSION_TEXT, text[mention.end() : mention.end() + 40])
    ]


def version_key(version: str) -> tuple | None:
    """A sortable key of a version ("2.7.1.post2", "1.3.0rc10", "v5"), or None when its tail is unknown."""
    match = re.fullmatch(r"v?(\d+(?:\.\d+)*)\.?([a-z]*)\.?(\d*)", version.strip().lower())
    if not match:
        return None
    numbers, tag, count = tuple(int(n) for n in match[1].split(".")), match[2], int(match[3] or 0)
    if not tag:
        return numbers, (1, 0)
    if tag == "post":
        return numbers, (2, count)
    ranks = {"dev": 0, "a": 1, "alpha": 1, "b": 2, "beta": 2, "c": 3, "rc": 3, "pre": 3}
    return (numbers, (0, ranks[tag], count)) if tag in ranks else None


def compare_versions(old: str, new: str) -> int | None:
    """-1 when `new` is newer than `old`, 1 when older, 0 when the same; None when either does not read as a version."""
    first, second = version_key(old), version_key(new)
    if first is None or second is None:
        return None
    width = max(len(first[0]), len(second[0]))
    first, second = (
        (first[0] + (0,) * (width - len(first[0])), first[1]),
        (second[0] + (0,) * (width - len(second[0])), second[1]),
    )
    return (first > second) - (first < second)


def version_step(old: str, new: str) -> str:
    """ "major", "minor" or "patch": the first part of the version that moved (a pre-release or post-release, patch)."""
    old_key, new_key = version_key(old), version_key(new)
    assert old_key is not None and new_key is not None  # versions compare_versions has read
    first, second = old_key[0], new_key[0]
    width = max(len(first), len(second))
    first, second = first + (0,) * (width - len(first)), second + (0,) * (width - len(second))
    moved = next(
        (index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b), width
    )
    return ("major", "minor")[moved] if moved < 2 else "patch"


def _across_major(old: str | None, new: str | None) -> bool:
    """Across a major version: 1.x to 2.y; in 0.x, a minor step (semver lets it break); Renovate's
    bare "to v5" (it names a major update so)."""
    new_match = _VERSION.match(new or "")
    if not new_match:
        return False
    old_match = _VERSION.match(old or "")
    if not old_match:
        return new_match[2] is None and new_match[1] != "0"
    if int(new_match[1]) != int(old_match[1]):
        return int(new_match[1]) > int(old_match[1])
    return (
        new_match[1] == "0"
        and new_match[2] is not None
        and old_match[2] is not None
        and int(new_match[2]) > int(old_match[2])
    )


# A manifest users install from, at the top of the repository: requirements.txt (or a platform's
# requirements-npu.txt), setup.py, setup.cfg, pyproject.toml; not docs', tests' or an extra's file
_INSTALLED_MANIFEST = re.compile(
    r"^(?:requirements(?:-(?!docs?\b|tests?\b|dev\b|lint\b)[\w]+)?\.txt"
    r"|setup\.py|setup\.cfg|pyproject\.toml)$"
)
# the author says a package is added to what is installed ("Added `peft` package to
# requirements.txt", "Make TransferQueue a default dependency", "supplement the dependencies that
# are missing", "missing-dependency")
_ADDS_DEPENDENCY = re.compile(
    r"\b(?:add\w*|supplement\w*|mov(?:e|es|ed|ing)|introduc\w*|mak(?:e|es|ing))\b[^.\n]{0,80}?"
    r"\b(?:dependenc\w*|dependances|requirements?|deps)\b"
    r"|\brequirements?(?:[-\w]*\.txt)?\s+add\b|\bmissing[- ]dependenc\w*",
    re.IGNORECASE,
)
_NOT_REQUIRED = re.compile(
    r"\b(?:optional\w*|extras?|upgrad\w*|bump\w*|downgrad\w*|pin\w*|cooldowns?|remov\w*|drop\w*)\b",
    re.IGNORECASE,
)
# ... and the words say for whom: a dependency group, or one for development, tests, CI, a release
# or the docs, is not what users install
_NOT_INSTALLED = re.compile(
    r"\b(?:groups?|dev|develop\w*|tests?|testing|ci|release|lint\w*|docs?|lock(?:ed)?)\b",
    re.IGNORECASE,
)
NEW_DEPENDENCY_BODY = 600  # of the description: its first words say what the PR does


def adds_required_dependency(pull: Pull) -> bool:
    """Whether a PR adds a package its users must now install: its title or the start of its
    description says it adds a dependency or requirement (and not an optional one, nor a new
    version of one already there), and a manifest users install from gains lines. The data holds
    no diffs: which package, and whether every install needs it, the words alone tell."""
    grows = (
        _INSTALLED_MANIFEST.match(f.path) and (f.additions or 0) > (f.deletions or 0)
        for f in pull.files
    )
    title = pull.title[:TITLE_LIMIT]
    if not any(grows) or _NOT_REQUIRED.search(title):
        return False
    for text in (title, (pull.body or "")[:NEW_DEPENDENCY_BODY]):
        said = _ADDS_DEPENDENCY.search(text)
        if said and not (_NOT_REQUIRED.search(said[0]) or _NOT_INSTALLED.search(said[0])):
            return True
    return False
