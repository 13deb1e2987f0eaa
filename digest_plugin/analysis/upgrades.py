"""Dependency and toolchain upgrades: whether a PR moves what the project runs on, and how far.

Used by importance (an upgrade factor) and by risks (the dependency-upgrade kind), so both agree.
"""

from __future__ import annotations

import re

from ..records import Pull
from .classify import TITLE_LIMIT, parse_title
from .model import Classification
from .rules import Rules

_VERSION = re.compile(r"\bv?(\d+)(?:\.(\d+))?(?:\.(\d+))?")
_UPGRADE_TITLE = re.compile(
    r"\b(?:update|bump|upgrade|pin|require)s?\b.*?(?:\bfrom\s+v?(?P<old>\d[\w.]*)\s+)?\bto\s+v?(?P<new>\d[\w.-]*)",
    re.IGNORECASE,
)
_UPGRADE_WORDS = re.compile(
    r"\b(update|bump|upgrade|pin)s?\b.*\b(dependenc\w*|deps?|version|image|requirements?)\b"
    r"|\b(update|bump|upgrade|pin)s?\b.{0,40}?\b[a-z][\w.-]*\s*(==|>=|~=|to\s+)?v?\d+\.\d+",
    re.IGNORECASE,
)
_OWN_RELEASE = re.compile(
    r"^(bump|release|prepare|update|set)\s+(the\s+)?(((main|master|dev)\s+)?branch\s+|package\s+|project\s+)?version\b|^(bump|release|prepare)\s+(to\s+)?v?\d|^release\b",
    re.IGNORECASE,
)
_TOOLCHAIN = re.compile(r"\b(msrv|toolchain|python\s*3\.\d+|rust\s*1\.\d+|node\s*\d+|cuda\s*\d+|torch\s*\d|pytorch)\b", re.IGNORECASE)


def dependency_upgrade(pull: Pull, classification: Classification, rules: Rules) -> str | None:
    """"major" or "minor" when a PR upgrades a dependency or the toolchain, else None.

    Major: the title goes across a major version (`from 1.2 to 2.0`, Renovate's `to v5`), or it
    moves the toolchain (MSRV, Python, Rust, CUDA, torch). Minor: any other version bump, or a PR
    that only touches dependency files (lock files, requirements, Dockerfiles).
    """
    title = pull.title[:TITLE_LIMIT]
    match = _UPGRADE_TITLE.search(title)
    kinds = rules.files_of(pull)[1]
    touches_deps = any(k & {"dependencies", "manifests"} for k in kinds)
    only_deps = bool(kinds) and all("dependencies" in k for k in kinds)
    mentions_upgrade = bool(_UPGRADE_WORDS.search(title))
    if classification.type not in ("build", "chore", "ci", None) and not only_deps and not (mentions_upgrade and touches_deps):
        return None
    if match is None and not only_deps and not (mentions_upgrade and touches_deps):
        return None
    if _OWN_RELEASE.match(parse_title(title, rules).description):
        return None  # the project's own release
    if _TOOLCHAIN.search(title) and (match or touches_deps):
        return "major"
    if match:
        new = _VERSION.match(match["new"])
        old = _VERSION.match(match["old"]) if match["old"] else None
        if old and new and int(new[1]) > int(old[1]):
            return "major"
        if not old and new and new[2] is None and new[1] != "0":
            return "major"  # Renovate names a major update "to v5"
        if old and new and old[1] == new[1] == "0" and new[2] and old[2] and int(new[2]) > int(old[2]):
            return "major"  # 0.x: a minor step breaks, as semver allows
    return "minor"
