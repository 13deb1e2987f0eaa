"""The rules of classification and scoring: defaults from `rules.yaml`, merged with DIGEST_RULES.

Both arrive as data (the settings read the files): `checked_rules(defaults, user)` merges and
checks them once a build, and `compile_rules(data, repo, bots)` compiles them once per repository
into `Rules`, which every other function of the analysis stage takes. How DIGEST_RULES merges is documented at the top of `digest_plugin/rules.yaml`:
mapping keys override or extend (null removes a default entry), lists extend.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType

from digest_plugin.analysis.model import TYPES
from digest_plugin.errors import DigestError

# Mappings whose keys are the user's to choose; every other mapping only takes the defaults' keys.
_OPEN = {"labels.modules", "title.types", "title.module_types", "topics", "paths.modules"}
# Mappings keyed by a change type.
_TYPE_KEYED = {"labels.types", "title.verbs", "keywords.types", "keywords.fallback"}
# Mappings whose values are regular expressions, or whose keys are.
_REGEX_VALUES = {"labels.types", "keywords.types", "keywords.fallback", "topics"}
_REGEX_KEYS = {"labels.modules"}
_TYPE_VALUES = {"title.types", "title.module_types"}
# Paths that support the code rather than being it: they count less in importance and modules.
PERIPHERAL_KINDS = frozenset({"tests", "docs", "examples", "ci", "generated", "tooling"})
# Lines that are not the project's code, for the size of a change, though a PR of them is no
# peripheral one: those and the files that pin what it runs on (a Dockerfile, requirements.txt).
# verl #4037 moved 14 Dockerfiles, 2,578 lines, and was said to change "2,600 lines of core code".
NOT_CODE_KINDS = PERIPHERAL_KINDS | {"dependencies"}
PATH_KINDS = (
    "tests",
    "docs",
    "examples",
    "ci",
    "tooling",
    "dependencies",
    "manifests",
    "config",
    "generated",
    "source",
    "inline_tests",
)


@dataclass(frozen=True)
class Weights:
    """Points of each importance factor (rules.yaml `weights`, documented there and in
    docs/calibration.md); every key is required, none other is allowed."""

    type: Mapping[str, float]  # change type (TYPES and "unknown") -> points
    size: float
    size_lines: float
    files: float
    files_count: float
    large: float
    moved: float
    breadth: float
    breadth_max: float
    peripheral: float
    breaking: float
    security: float
    crash: float
    deprecation: float
    deprecation_lines: float
    major_upgrade: float
    upgrade: float
    core_upgrade: float
    workflows: float
    workflows_count: float
    default_change: float
    bot: float
    revert: float
    discussion: float
    issues: float
    issues_count: float
    described: float
    described_words: float


@dataclass(frozen=True)
class Thresholds:
    """Thresholds of statistics, risks and themes (rules.yaml `thresholds`)."""

    large_change_lines: int
    large_change_files: int
    missing_tests_lines: int
    hot_min_pulls: int
    hot_limit: int
    hotspot_pulls: int
    hotspot_share: float
    template_share: float
    template_min_pulls: int
    summary_chars: int
    first_time_warmup_weeks: int
    theme_min_pulls: int
    theme_min_share: float
    theme_lift: float
    theme_baseline_weeks: int
    theme_baseline_pulls: int
    theme_dominant_share: float
    themes_max: int


@dataclass(frozen=True, eq=False)
class Rules:
    """Compiled rules for one repository: plain data, no state. Compared and hashed by identity
    (eq=False), so that pure functions of a Rules and a path or title (`path_kinds_of`,
    `files_of`, classify.parse_title) can be memoised in bounded caches outside it."""

    label_types: tuple[tuple[str, re.Pattern], ...]
    label_breaking: re.Pattern | None
    label_security: re.Pattern | None
    label_modules: tuple[tuple[re.Pattern, str], ...]
    title_types: dict[str, str]
    markers: frozenset[str]
    module_types: dict[str, str]
    verbs: dict[str, str]  # first word of a description -> type
    keyword_types: tuple[tuple[str, re.Pattern], ...]
    fallback_types: tuple[tuple[str, re.Pattern], ...]  # tried after the first-word verbs
    noun_phrase_type: str | None  # for a verb-less title of a PR changing core code and tests
    topics: tuple[tuple[str, re.Pattern], ...]
    path_modules: tuple[tuple[re.Pattern, str], ...]
    source_roots: frozenset[str]
    path_kinds: dict[str, re.Pattern]  # kind -> one pattern over "/" + path
    bots: frozenset[str]  # lower-case logins
    core_dependencies: frozenset[str]  # runtimes.core, lower case
    toolchains: frozenset[str]  # runtimes.toolchains
    weights: Weights
    thresholds: Thresholds

    def path_kinds_of(self, path: str) -> frozenset[str]:
        """Which of PATH_KINDS a file path is (a path may be several: a test written in Python)."""
        return _path_kinds(self, path)

    def files_of(self, pull) -> tuple[tuple[str, ...], tuple[frozenset[str], ...]]:
        """(paths, their kinds) of a pull's files: every step asks, so it is worked out once."""
        return _files_of(self, pull.files)

    def is_toolchain(self, package: str) -> bool:
        """Whether a package an upgrade names is a compiler or interpreter ("python", "rust toolchain")."""
        return package.rpartition(" ")[2] in self.toolchains

    def is_bot_login(self, login: str) -> bool:
        lowered = login.lower()
        return (
            lowered.endswith("[bot]")
            or lowered in self.bots
            or lowered.removesuffix("-bot") in self.bots
        )


# Bounded memos of pure functions, keyed by the Rules object itself: a new build's Rules misses
# them and old entries age out, so nothing a build computed can leak into the next one's results.
@functools.lru_cache(maxsize=1 << 16)
def _path_kinds(rules: Rules, path: str) -> frozenset[str]:
    probe = "/" + path
    return frozenset(kind for kind, pattern in rules.path_kinds.items() if pattern.search(probe))


@functools.lru_cache(maxsize=1 << 14)
def _files_of(rules: Rules, files: tuple) -> tuple[tuple[str, ...], tuple[frozenset[str], ...]]:
    # git quotes unusual paths ("crates/…"); the quotes are not part of the name
    paths = tuple(
        f.path[1:-1] if len(f.path) > 1 and f.path[0] == f.path[-1] == '"' else f.path
        for f in files
    )
    return paths, tuple(_path_kinds(rules, path) for path in paths)


def checked_rules(defaults: dict, user: dict | None = None, origin: object = None) -> dict:
    """DIGEST_RULES (`user`, read from `origin` if a file) merged over the bundled `defaults`, checked
    against their shape, not compiled. Raises DigestError naming the first bad key, and the file."""
    if user is None:
        return defaults
    try:
        return merge_rules(defaults, user)
    except DigestError as error:
        raise (
            DigestError(f"{str(error).rstrip('.')} (in {origin}).") if origin else error
        ) from None


def merge_rules(defaults: dict, user: dict, prefix: str = "") -> dict:
    """`user` over `defaults`, checking every key and value against the defaults' shape."""
    merged = copy.deepcopy(defaults)
    section = prefix.rstrip(".")
    if not isinstance(user, dict):
        raise DigestError(f"DIGEST_RULES key '{section}' must be a mapping.")
    entries = section in _OPEN or section in _TYPE_KEYED or section == "weights.type"
    for key, value in user.items():
        name = f"{prefix}{key}"
        _check_key(section, name, key, defaults, entries)
        if not entries:
            merged[key] = _merged_value(name, value, defaults[key])
        elif value is None:
            merged.pop(key, None)  # null removes a default entry
        else:
            merged[key] = _entry(section, name, key, value, defaults.get(key))
    return merged


def _check_key(section: str, name: str, key, defaults: dict, entries: bool) -> None:
    """Refuse a key the section does not have (a misspelt one), naming it and the keys there are."""
    if not isinstance(key, str):
        raise DigestError(f"DIGEST_RULES key {name!r} must be a string.")
    if section in _TYPE_KEYED or section == "weights.type":
        allowed = TYPES if section in _TYPE_KEYED else (*TYPES, "unknown")
        if key not in allowed:
            raise DigestError(
                f"DIGEST_RULES key '{name}' is not a change type; the types are: {', '.join(allowed)}."
            )
    elif not entries and key not in defaults:
        known = ", ".join(str(k) for k in defaults) or "none"
        raise DigestError(f"DIGEST_RULES key '{name}' is not a rule; the keys there are: {known}.")


def _merged_value(name: str, value, default):
    """The user's value for a key of the defaults, checked against the default's shape."""
    if name == "keywords.noun_phrase_with_tests":
        return None if value is None else _type_name(value, name)
    if isinstance(default, dict):
        return merge_rules(default, value, f"{name}.")
    if isinstance(default, list):
        return [*default, *_strings(value, name)]
    if isinstance(default, int | float) and not isinstance(default, bool):
        return _number(value, name)
    return _compile(value, name).pattern  # labels.breaking, labels.security


def _entry(section: str, name: str, key: str, value, default):
    """One entry of an open or type-keyed mapping, checked for what that mapping holds."""
    if section == "title.verbs":
        return [*(default or []), *_strings(value, name)]
    if section == "weights.type":
        return _number(value, name)
    if section in _TYPE_VALUES:
        return _type_name(value, name)
    if section in _REGEX_KEYS:
        _compile(key, name)
    if section in _REGEX_VALUES:
        _compile(value, name)
    if not isinstance(value, str):
        raise DigestError(f"DIGEST_RULES key '{name}' must be a string, not {value!r}.")
    return value


def _strings(value, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DigestError(f"DIGEST_RULES key '{name}' must be a list of strings.")
    return value


def _number(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DigestError(f"DIGEST_RULES key '{name}' must be a number, not {value!r}.")
    return value


def _type_name(value, name: str) -> str:
    if value not in TYPES:
        raise DigestError(
            f"DIGEST_RULES key '{name}' must name a change type ({', '.join(TYPES)}), not {value!r}."
        )
    return value


def _compile(pattern, name: str) -> re.Pattern:
    if not isinstance(pattern, str):
        raise DigestError(
            f"DIGEST_RULES key '{name}' must be a regular expression string, not {pattern!r}."
        )
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as error:
        raise DigestError(
            f"DIGEST_RULES key '{name}' is not a valid regular expression ({error})."
        ) from None


def compile_rules(data: dict, repo: str | None = None, bots: tuple[str, ...] = ()) -> Rules:
    title, paths = data["title"], data["paths"]
    roots = {r.lower() for r in paths["source_roots"]}
    if repo:
        name = repo.split("/")[-1].lower()
        roots |= {name, name.replace("-", "_")}
    return Rules(
        **_compile_labels(data["labels"]),
        title_types={k.lower(): v for k, v in title["types"].items() if v},
        markers=frozenset(m.lower() for m in title["markers"]),
        module_types={k.lower(): v for k, v in title["module_types"].items() if v},
        verbs=_verbs(title["verbs"]),
        keyword_types=_patterns(data["keywords"]["types"], "keywords.types"),
        fallback_types=_patterns(data["keywords"]["fallback"], "keywords.fallback"),
        noun_phrase_type=data["keywords"].get("noun_phrase_with_tests"),
        topics=_patterns(data["topics"], "topics"),
        path_modules=tuple(
            (_glob_pattern([g]), str(m)) for g, m in (paths.get("modules") or {}).items() if m
        ),
        source_roots=frozenset(roots),
        path_kinds={kind: _glob_pattern(paths[kind]) for kind in PATH_KINDS if paths.get(kind)},
        bots=frozenset(b.lower() for b in [*data["bots"], *bots]),
        core_dependencies=frozenset(name.lower() for name in data["runtimes"]["core"]),
        toolchains=frozenset(name.lower() for name in data["runtimes"]["toolchains"]),
        weights=_typed(Weights, data["weights"], "weights"),
        thresholds=_typed(Thresholds, data["thresholds"], "thresholds"),
    )


def _compile_labels(labels: dict) -> dict:
    """The label rules of Rules: types, breaking and security markers, modules."""
    return {
        "label_types": tuple(
            (t, _full(p, f"labels.types.{t}")) for t, p in labels["types"].items() if p
        ),
        "label_breaking": _full(labels["breaking"], "labels.breaking")
        if labels.get("breaking")
        else None,
        "label_security": _full(labels["security"], "labels.security")
        if labels.get("security")
        else None,
        "label_modules": tuple(
            (_full(p, f"labels.modules.{p}"), m)
            for p, m in (labels.get("modules") or {}).items()
            if m
        ),
    }


def _patterns(section: dict, name: str) -> tuple[tuple[str, re.Pattern], ...]:
    """(key, compiled pattern) of a mapping of regular expressions, null entries left out."""
    return tuple(
        (key, _compile(pattern, f"{name}.{key}")) for key, pattern in section.items() if pattern
    )


def _verbs(verbs: dict) -> dict[str, str]:
    """First word -> type; the order of TYPES decides a word listed under two types."""
    found: dict[str, str] = {}
    for type_name in TYPES:
        for word in reversed(verbs.get(type_name) or ()):
            found.setdefault(word.lower(), type_name)
    return found


def _typed(kind, values: dict, section: str):
    """A Weights or Thresholds from its merged section: every field present, numbers where numbers go."""
    names = {f.name: f for f in fields(kind)}
    for key in values:
        if key not in names:
            raise DigestError(
                f"rules key '{section}.{key}' is not a rule; the keys there are: {', '.join(names)}."
            )
    if missing := [name for name in names if name not in values]:
        raise DigestError(f"rules section '{section}' lacks {', '.join(missing)}.")
    typed: dict[str, object] = {}
    for name, spec in names.items():
        value = values[name]
        if name == "type":
            typed[name] = MappingProxyType(
                {t: _number(v, f"{section}.type.{t}") for t, v in value.items()}
            )
            continue
        number = _number(value, f"{section}.{name}")
        if spec.type == "int" and number != int(number):
            raise DigestError(
                f"DIGEST_RULES key '{section}.{name}' must be a whole number, not {value!r}."
            )
        typed[name] = int(number) if spec.type == "int" else float(number)
    return kind(**typed)


def _full(pattern: str, name: str) -> re.Pattern:
    _compile(pattern, name)
    return re.compile(f"(?:{pattern})", re.IGNORECASE)  # used with fullmatch


def _glob_pattern(globs: list[str]) -> re.Pattern:
    """One pattern for several globs, searched in "/" + path. A glob with "/" matches from the
    repository root and its `*` crosses folders; one without "/" matches a file name at any depth,
    or at the root only when written with a leading "/" (`/tasks.py`). Leading and trailing stars
    become unanchored ends, which keeps the search linear."""
    parts = []
    for glob in globs:
        at_root = glob.startswith("/")
        glob = glob.lstrip("/")
        in_folders = "/" in glob
        star = ".*" if in_folders else "[^/]*"
        head = "" if glob.startswith("*") else "^/" if in_folders or at_root else "/"
        tail = "" if glob.endswith("*") and in_folders else "$"
        core = glob.strip("*") if in_folders else glob.lstrip("*") if head == "" else glob
        body = "".join(star if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in core)
        parts.append(f"{head}{body}{tail}")
    return re.compile("|".join(f"(?:{p})" for p in parts), re.IGNORECASE)
