"""Dependency and toolchain upgrades: whether a PR moves what the project runs on, what and how far.

`upgrades(pull, classification, rules)` names each dependency moved (package, from, to) as the title
says it ("upgrade to torch 2.7, sglang 0.4.8", "Update Rust crate syn to v2.0.98", "Bump MSRV to
Rust 1.88", "tensordict==0.6.2") or, failing that, as a Renovate or Dependabot body's table does
(`v1.2.0` → `v1.3.0`). A PR that only touches dependency files (lock files, requirements,
Dockerfiles) is an upgrade with no named package. Importance (the upgrade factors) and risks (the
dependency-upgrade kind) both ask here, so they agree.
"""

from __future__ import annotations

import re

from digest_plugin.analysis.classify import TITLE_LIMIT, parse_title
from digest_plugin.analysis.model import Classification, Upgrade
from digest_plugin.analysis.rules import Rules
from digest_plugin.store.records import Pull

_VERSION = re.compile(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")
# "2.7", "1.3.0rc13", "2.7.1.post2", Renovate's "v5"; not a commit digest ("9c9c13b") nor an address
_VERSION_TEXT = r"v?\d+(?:\.\d+){0,2}(?:\.?(?:post|rc|dev|a|b|alpha|beta)\d*)*(?![\w.])"
# "NAME (from OLD) to NEW", "NAME==NEW", "NAME NEW" inside an upgrade title
_FROM_TO = re.compile(
    rf"(?P<package>[A-Za-z][\w./@+-]*?)(?:\s+(?:dev|development|test))?(?:\s+(?:crate|action|package|image|dependency|version|dependencies))?\s+"
    rf"(?:from\s+(?P<old>{_VERSION_TEXT})\s+)?to\s+(?P<new>{_VERSION_TEXT})\b",
    re.IGNORECASE,
)
_PINNED = re.compile(
    r"(?P<package>[A-Za-z][\w.@+-]*?)(?:\s*(?:==|>=|<=|~=|<|>)|\s+(?:under|below|above|at least|>=|<=|<|>))?\s*"
    r"(?P<new>v?\d+\.\d+(?:\.\d+)?(?:\.?(?:post|rc|dev|a|b)\d*)*)(?![\w.])",
    re.IGNORECASE,
)
_BARE_TO = re.compile(rf"\bto\s+(?P<new>{_VERSION_TEXT})\b", re.IGNORECASE)
# Renovate: "| [name](url) | ... | `v1.2.0` → `v1.3.0` |"; Dependabot: "Bumps [name](url) from 1.2 to 1.3."
_BODY_TABLE = re.compile(r"\[`?(?P<package>[\w./@-]+?)`?\]\([^()\s]*\)[^`\n]{0,80}?(?:\n[^`\n]{0,80})?`(?P<old>[^`\s]+)`\s*(?:→|->)\s*`(?P<new>[^`\s]+)`")
_BODY_BUMPS = re.compile(r"\bbumps\s+\[?(?P<package>[\w./@-]+)\]?(?:\([^()\s]*\))?\s+from\s+(?P<old>\S+?)\s+to\s+(?P<new>\S+?)\.?(?:\s|$)", re.IGNORECASE)
_UPGRADE_VERB = re.compile(r"\b(?:update|updates|bump|bumps|bumped|upgrade|upgrades|upgraded|pin|pins)\b", re.IGNORECASE)
_UPGRADE_WORDS = re.compile(
    r"\b(update|bump|upgrade|pin)s?\b.*\b(dependenc\w*|deps?|version|image|requirements?|toolchain)\b"
    r"|\b(update|bump|upgrade|pin)s?\b.{0,40}?\b[a-z][\w.-]*\s*(==|>=|~=|to\s+)?v?\d+\.\d+",
    re.IGNORECASE,
)
_OWN_RELEASE = re.compile(
    r"^(bump|release|prepare|update|set)\s+(the\s+)?(((main|master|dev)\s+)?branch\s+|package\s+|project\s+)?version\b|^(bump|release|prepare)\s+(to\s+)?v?\d|^release\b",
    re.IGNORECASE,
)
_ANOTHER_VERSION = re.compile(r"\bversion\s+of\b", re.IGNORECASE)  # "bump the version of vllm-ascend to v0.11.0"
_NOT_PACKAGES = frozenset({"to", "from", "and", "the", "a", "version", "versions", "image", "images", "dependency", "dependencies",
                           "crate", "action", "package", "up", "bump", "update", "upgrade", "pin", "set", "with", "in", "of", "for",
                           "v", "docker", "deps", "requirements", "limit", "lock", "it", "all", "also", "default", "minimum",
                           "digest", "under", "below", "above", "least", "than", "dev", "is", "on", "at", "address"})
_RENOVATE_PREFIX = re.compile(r"^(?:update|bump)\s+(?:rust crate|dependency|npm package|module|python|(?:[\w-]+ )?dependency)\s+", re.IGNORECASE)


def own_release(pull: Pull, rules: Rules) -> str | None:
    """The version a PR releases the project at ("Bump version to 0.15.19", "Release v0.4.2"), or None."""
    title = parse_title(pull.title[:TITLE_LIMIT], rules).description
    if not _OWN_RELEASE.match(title) or _ANOTHER_VERSION.search(title):
        return None
    version = re.search(_VERSION_TEXT, title)
    # "0.5.0.dev" opens the next cycle: a version number, not a release
    return version[0] if version and "." in version[0] and "dev" not in version[0] else None


def upgrades(pull: Pull, classification: Classification, rules: Rules) -> tuple[Upgrade, ...]:
    """What a PR upgrades (see the module docstring); () when it is not an upgrade."""
    title = parse_title(pull.title[:TITLE_LIMIT], rules).description
    kinds = rules.files_of(pull)[1]
    touches_deps = any(k & {"dependencies", "manifests"} for k in kinds)
    only_deps = bool(kinds) and all("dependencies" in k for k in kinds)
    says_upgrade = bool(_UPGRADE_WORDS.search(title)) or bool(_UPGRADE_VERB.search(title) and _BARE_TO.search(title))
    if classification.type not in ("build", "chore", "ci", None) and not only_deps and not (says_upgrade and touches_deps):
        return ()
    if not (says_upgrade or only_deps) or _OWN_RELEASE.match(title):
        return ()  # not an upgrade, or the project's own release
    # the project's own name among them is its own version ("bump trtllm to 1.3 and verl to v0.7.1")
    named = [n for n in _title_versions(title) or _body_versions(pull.body) if n[0] not in rules.source_roots]
    if not named:
        if not (touches_deps or only_deps):
            return ()
        named = [("", None, None)]
    return tuple(_upgrade(package, old, new, rules) for package, old, new in named)


def _title_versions(title: str) -> list[tuple[str, str | None, str | None]]:
    """(package, old, new) as an upgrade title names them, in title order."""
    text = _RENOVATE_PREFIX.sub("", title)
    found: dict[str, tuple[str, str | None, str | None]] = {}
    for pattern in (_FROM_TO, _PINNED):
        for match in pattern.finditer(text):
            package = match["package"].strip(".,:;`'\"").lower()
            if package in _NOT_PACKAGES or package.isdigit():
                continue
            old = match.groupdict().get("old")
            found.setdefault(package, (package, _clean(old), _clean(match["new"])))
    if not found and (bare := _BARE_TO.search(text)):
        # "Bump MSRV to Rust 1.88", "upgrade to 2.7": the toolchain word, or the first noun, names it
        words = [w.lower() for w in re.findall(r"[A-Za-z][\w.+-]*", text[: bare.start()]) if w.lower() not in _NOT_PACKAGES]
        found[""] = (words[-1] if words else "", None, _clean(bare["new"]))
    return list(found.values())


def _body_versions(body: str) -> list[tuple[str, str | None, str | None]]:
    found = {}
    for pattern in (_BODY_TABLE, _BODY_BUMPS):
        for match in pattern.finditer(body or ""):
            package = match["package"].lower()
            found.setdefault(package, (package, _clean(match["old"]), _clean(match["new"])))
    return list(found.values())[:10]


def _clean(version: str | None) -> str | None:
    return version.strip("`'\".,;:").removeprefix("v").removeprefix("V") if version else None


def _upgrade(package: str, old: str | None, new: str | None, rules: Rules) -> Upgrade:
    core = package in rules.core_dependencies  # by its exact name: `@types/react` is no React
    toolchain = package in rules.toolchains
    return Upgrade(package=package, old=old, new=new, major=toolchain or _across_major(old, new), core=core or toolchain)


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
    return new_match[1] == "0" and new_match[2] is not None and old_match[2] is not None and int(new_match[2]) > int(old_match[2])

