"""Classification: what kind of change a PR is, which modules it touches, its topics and markers.

Sources, in order of trust: GitHub labels; title conventions (`[BREAKING][mod1, mod2] type: ...`,
Conventional Commits `type(scope)!: ...`, ruff's bracketed rule prefixes, `Revert "..."`, GitHub
merge commits); the paths it touches; keyword and first-word rules on the title. All of them come
from `Rules` (digest_plugin/rules.yaml, overridable by DIGEST_RULES).
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from digest_plugin.analysis.model import Classification
from digest_plugin.analysis.rules import PERIPHERAL_KINDS, Rules
from digest_plugin.records.pull import Pull

# GitHub caps titles at 256 characters; an imported record may not, and the rules only need the start
TITLE_LIMIT = 300
_BRACKET = re.compile(r"^\s*\[([^\[\]]*)\]\s*:?\s*")
_CONVENTIONAL = re.compile(
    r"^([A-Za-z][A-Za-z ]{0,15}?)\s*(?:\(([^()]*)\))?\s*(!)?\s*[:：]\s*(?=\S)"
)
_SCOPE_PREFIX = re.compile(r"^([A-Za-z][\w./-]{0,40})\s*[:：]\s+(?=\S)")
_MERGE_PR = re.compile(r"^Merge pull request #(\d+) from (\S+)", re.IGNORECASE)
_MERGE_BRANCH = re.compile(r"^Merge (?:remote-tracking )?branch '([^']+)'", re.IGNORECASE)
# "Revert to stable behavior if …" returns to an old behaviour; it reverts no PR (ruff #20878)
_REVERT = re.compile(r"^revert(s|ed)?\b(?!\s+to\b)", re.IGNORECASE)
_REVERT_TO = re.compile(r"\brevert(s|ed)?\s+to\b", re.IGNORECASE)
_REVERT_QUOTED = re.compile(r"^revert(?:s|ed)?\s*:?\s*[\"“'](.+)[\"”']\s*$", re.IGNORECASE)
_PR_REF = re.compile(r"\(#(\d+)\)\s*$")
_REVERTS_BODY = re.compile(
    r"\b(?:this )?reverts?\s+(?:(?:pull request|pr)\s+)?(?:[\w.-]+/[\w.-]+)?#(\d+)", re.IGNORECASE
)
_REVERTS_URL = re.compile(r"\breverts?\b[^\n]{0,40}?/pull/(\d+)", re.IGNORECASE)
_BREAKING_FOOTER = re.compile(r"^BREAKING[ -]CHANGES?:", re.MULTILINE)
_DEFAULT_CHANGE = re.compile(
    r"\b(chang\w*|set|sets|setting|reset|switch\w*|enabl\w*|disabl\w*|turn\w*|flip\w*|make|makes|use|revert\w*|updat\w*|modif\w*)\b.{0,60}\bdefaults?\b"
    r"|\bdefaults?\b.{0,30}\b(to|value|changed?|now|from|is|no longer|not)\b|\bby default\b",
    re.IGNORECASE,
)
_NOT_A_DEFAULT_CHANGE = re.compile(
    r"\badd(?:s|ed|ing)?\s+(?:a\s+|the\s+)?default(?:\s+values?)?\s+(?:for|to)\b|\btests?\s+defaults?\b"
    r"|\b(?:in|for)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+)?tests?\b"
    r"|^use[sd]?\s+(?:a\s+|the\s+)?default\s+(?!values?\b|versions?\b|to\b)\S+"
    r"|^makes?\s+the\s+default\s+(?!values?\b|versions?\b|to\b)\w+\b(?!\s*(?:to\b|=))",
    re.IGNORECASE,
)
# the title leads with the change ("Default to X", "Enable Y by default"), not with something done about defaults elsewhere
_DEFAULT_LEAD = re.compile(
    r"^(?:chang\w*|set|sets|setting|switch\w*|make|makes|enabl\w*|disabl\w*|turn\w*|flip\w*|use[sd]?|updat\w*|"
    r"defaults?|includ\w*|exclud\w*|ignor\w*|reset\w*|revert\w*|modif\w*|now)\b",
    re.IGNORECASE,
)


# The project deprecating its own API, option or behaviour: "Deprecate X", "prototype deprecate X",
# "… and deprecate X", "mark X as deprecated"
_DEPRECATES = re.compile(
    r"^deprecat(?:e|es|ed|ing)\b|^\S+\s+deprecat(?:e|es|ing)\b|(?:[,;&]|\band)\s+deprecat(?:e|es)\b|\bmark(?:s|ed)?\b.{1,80}?\b(?:as\s+)?deprecated\b",
    re.IGNORECASE,
)
# ... or warning its users that it will: "Add a deprecation warning for X"
_WARNS_OF_DEPRECATION = re.compile(
    r"^(?:add|adds|added|emit|emits|raise|raises|show|shows|issue|issues)\s+(?:an?\s+)?deprecation\s+(?:warning|notice|message)s?\s+(?:for|to|on|when|about|in)\b",
    re.IGNORECASE,
)
# ... or removing what it deprecated before: "Remove deprecated X"
_REMOVES_DEPRECATED = re.compile(
    r"^(?:remove|removes|removed|drop|drops|delete|deletes|clean\s*up|cleanup)\s+(?:the\s+|all\s+|some\s+|a\s+)?deprecated\b",
    re.IGNORECASE,
)
# ... not following someone else's deprecation: an upstream warning, a library's deprecated API
_UPSTREAM_DEPRECATION = re.compile(
    r"\bdeprecation\s*warnings?\b|\b(?:Deprecation|Future)Warning\b|\b(?:is|are|was|were|been|being|now|gets?)\s+deprecated\b"
    r"|\bdeprecated\s+(?:in|by|since|upstream)\b|\bupstream\b|\bcompatib\w*\s+with\b|\blatest\s+(?:version|release)",
    re.IGNORECASE,
)


# ... in the author's words: not any "remove" ("an example to remove padding" deprecates nothing)
_SPEAKS_OF_DEPRECATION = re.compile(
    r"\bdeprecat|\b(?:remov|drop|delet)\w*\s+(?:the\s+|all\s+)?(?:legacy|old|obsolete|outdated)\b|\b(?:no|any)\s+longer\b|\bin\s+favou?r\s+of\b",
    re.IGNORECASE,
)


def own_deprecation(
    description: str, prose: str, kinds: Sequence[frozenset[str]], rules: Rules
) -> str | None:
    """ "deprecates" or "removes" when a PR deprecates, or removes after deprecating, the project's
    own API, option or behaviour; None otherwise. Its title must say so (the title's `description`,
    in its first words), its core code change (a deprecation lives in code, not in docs or
    examples), and neither its title nor, for a removal, its `prose` (description.description_text)
    may say the deprecation is someone else's: a lint rule about another library's deprecated
    argument, a migration check or the fix of an upstream warning deprecates nothing of the project.
    A description that says what the PR does must speak of the deprecation too."""
    text = description[:TITLE_LIMIT]
    if not any(not k & (PERIPHERAL_KINDS | {"dependencies", "manifests"}) for k in kinds):
        return None
    if _WARNS_OF_DEPRECATION.search(text):
        return "deprecates"
    if _UPSTREAM_DEPRECATION.search(text):
        return None
    if _REMOVES_DEPRECATED.search(text):
        upstream = _UPSTREAM_DEPRECATION.search(prose) or _names_a_dependency(text, rules)
        return None if upstream else "removes"
    if not _DEPRECATES.search(text):
        return None
    # the author's own account of the PR decides: one that never speaks of a deprecation is about
    # something else ("prototype deprecate DataProto …: part 2" adds a no-padding mode)
    return "deprecates" if not prose.strip() or _SPEAKS_OF_DEPRECATION.search(prose) else None


def _names_a_dependency(text: str, rules: Rules) -> bool:
    """The title names a runtime the project is built on ("Remove deprecated Megatron optimizer args")."""
    return any(word in rules.core_dependencies for word in re.findall(r"[a-z][\w-]*", text.lower()))


# A sentence that says why: a bug, a breakage, a regression
_WHY = re.compile(
    r"\b(?:bug|bugs|broke|breaks|broken|breaking|regress\w*|incompatib\w*|incorrect\w*|wrong|fail\w*|errors?|crash\w*|"
    r"issues?|problems?|because|due to|avoid\w*|unblock\w*)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[])")
REASON_CHARS = 240


def reason_of(prose: str) -> str | None:
    """The first whole sentence of a description (description.description_text) that says why
    (a bug, a breakage, a regression), at most REASON_CHARS long; None when none does."""
    for sentence in _SENTENCE.split(prose or ""):
        sentence = sentence.strip()
        if _WHY.search(sentence) and len(sentence) <= REASON_CHARS and sentence[-1:] in ".!?":
            return sentence
    return None


def says_default_change(description: str) -> bool:
    """Whether a title (without its prefixes) says a default value changes, leading with the change
    ("Default to ...", "Enable X by default"). Giving a default to what had none ("Adding a default
    value for `f(x=None)`") changes nothing anyone relied on, a test's own default ("e2e test
    defaults to FSDP1", "Enable `pull-diagnostics` by default in E2E tests") is not the users', and a
    change about defaults elsewhere ("Detect invalid default value type for `os.environ.get`", "Use
    default `HashSet` for X") changes none, nor does a change
    to a thing called the default ("Make the default database truly statically infallible")."""
    return bool(
        _DEFAULT_LEAD.match(description) and _DEFAULT_CHANGE.search(description)
    ) and not _NOT_A_DEFAULT_CHANGE.search(description)


@dataclass(frozen=True)
class Title:
    """What a title says by convention, before any guessing."""

    description: str  # the title without its prefixes
    modules: tuple[str, ...] = ()
    # ruff's `[`flake8-bugbear`]`: rule families, kept as topics
    rule_prefixes: tuple[str, ...] = ()
    explicit_type: str | None = None  # written as a type (`fix:`, `[bugfix]`, `feat(x):`)
    type_written: str | None = None  # that type as written: "fix:", "[bugfix]", "feat(x)!:"
    hinted_type: str | None = None  # implied by a module name such as `[ci]` or `[doc]`
    breaking: bool = False
    merge_commit: bool = False
    revert: bool = False
    reverted_title: str | None = None
    reverted_number: int | None = None


@functools.lru_cache(maxsize=1 << 16)  # a pure function of a title and a Rules (hashed by identity)
def parse_title(title: str, rules: Rules) -> Title:
    """Split a PR title into its conventional parts (see the module docstring for the forms)."""
    text = " ".join(title[:TITLE_LIMIT].split())
    if merge := _MERGE_PR.match(text) or _MERGE_BRANCH.match(text):
        assert merge.lastindex is not None  # both patterns end in a group
        branch = merge[merge.lastindex]
        words = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", branch.split("/", 1)[-1])
        words = re.sub(r"[-_]+", " ", words).strip()
        return Title(description=words[:1].upper() + words[1:], merge_commit=True)

    text, found = _brackets(text, rules)
    conventional = _CONVENTIONAL.match(text)
    if conventional and conventional[1].strip().lower() in rules.title_types:
        found.explicit_type = rules.title_types[conventional[1].strip().lower()]
        found.type_written = " ".join(conventional[0].split())
        if conventional[2] and not found.modules:
            found.modules = [
                s.strip().lower() for s in re.split(r"[,/]", conventional[2]) if s.strip()
            ]
        found.breaking = found.breaking or bool(conventional[3])
        text = text[conventional.end() :]
    elif conventional and conventional[1].strip().lower() == "breaking":  # "[trainer] breaking: …"
        found.breaking, text = True, text[conventional.end() :]
    elif (
        not found.modules
        and (scope := _SCOPE_PREFIX.match(text))
        and "://" not in text[: scope.end() + 3]
    ):
        found.modules = [scope[1].lower()]
        text = text[scope.end() :]
    # `[mod] type: ...` written twice, e.g. `[trainer] fix: [BREAKING] ...`
    if match := re.match(r"^\[breaking\]\s*", text, re.IGNORECASE):
        found.breaking, text = True, text[match.end() :]

    description = text.strip()
    reverted_title, reverted_number = _reverted(description)
    return Title(
        description=description,
        modules=tuple(dict.fromkeys(found.modules)),
        rule_prefixes=tuple(dict.fromkeys(found.rule_prefixes)),
        explicit_type=found.explicit_type,
        type_written=found.type_written,
        hinted_type=found.hinted_type,
        breaking=found.breaking,
        revert=bool(_REVERT.match(description)),
        reverted_title=reverted_title,
        reverted_number=reverted_number,
    )


@dataclass
class _Prefixes:
    """What a title's prefixes said, gathered while they are read."""

    modules: list[str] = field(default_factory=list)
    rule_prefixes: list[str] = field(default_factory=list)
    explicit_type: str | None = None
    type_written: str | None = None
    hinted_type: str | None = None
    breaking: bool = False


_SERIES_PLACE = re.compile(r"\d+\s*/\s*(?:n|\d+)|part\s*\d+", re.IGNORECASE)


def _brackets(text: str, rules: Rules) -> tuple[str, _Prefixes]:
    """The title after its `[...]` prefixes, and what they said: modules, markers, types, rule families."""
    found = _Prefixes()
    while match := _BRACKET.match(text):
        for raw in match[1].split(","):
            item = raw.strip()
            word = item.strip("`").strip().lower()
            if not word or _SERIES_PLACE.fullmatch(word):
                continue  # "[4/n]": the PR's place in a series, no module
            marker, _, rest = word.partition(" ")
            if marker in rules.markers and rest:  # "[BREAKING config]": a marker, then a module
                found.breaking, word, item = found.breaking or marker == "breaking", rest, rest
            if word in rules.markers:
                found.breaking = found.breaking or word == "breaking"
            elif word in rules.title_types and word not in rules.module_types:
                if found.explicit_type is None:
                    found.explicit_type, found.type_written = rules.title_types[word], f"[{item}]"
            elif item.startswith("`"):
                found.rule_prefixes.append(word)
            else:
                found.modules.append(word)
                found.hinted_type = found.hinted_type or rules.module_types.get(word)
        text = text[match.end() :]
    return text, found


def _reverted(description: str) -> tuple[str | None, int | None]:
    """(title, number) of what `Revert "..."` reverts, as far as the quoted title tells."""
    quoted = _REVERT_QUOTED.match(description)
    if not quoted:
        return None, None
    reverted_title = quoted[1].strip()
    if ref := _PR_REF.search(reverted_title):
        return reverted_title[: ref.start()].strip(), int(ref[1])
    return reverted_title, None


@dataclass(frozen=True)
class ModuleScheme:
    """How a repository names its modules, one way for all its PRs.

    "scope": the project writes modules as title scopes (`[trainer, vllm] feat: ...`, verl), so a
    PR's modules are its scopes, and a PR without one gets its path modules named as the
    project's scopes where one fits (`crates/ty_python_semantic` -> `ty`). "path": modules are
    path modules (`crates/ruff_linter` -> `ruff_linter`), and title scopes are left to themes.
    """

    kind: str = "path"
    scopes: frozenset[str] = frozenset()  # scopes the project uses (scope scheme)


PATH_SCHEME = ModuleScheme()
SCOPE_SHARE = 0.6  # of people's PRs with a title scope, from which scopes are the scheme
SCOPE_MIN_PULLS = 3  # a scope used by fewer PRs is a one-off, not a module


def module_scheme(pulls: Sequence[Pull], rules: Rules) -> ModuleScheme:
    """The repository's scheme (see ModuleScheme), from all its stored PRs."""
    people = [p for p in pulls if not is_bot(p, rules)]
    scoped = [parse_title(p.title, rules).modules for p in people]
    if not people or sum(1 for s in scoped if s) < SCOPE_SHARE * len(people):
        return PATH_SCHEME
    counts = Counter(scope for scopes in scoped for scope in scopes)
    # the project's own name as a scope (ruff's `[ruff]` rules) would swallow every crate named after it
    return ModuleScheme(
        "scope",
        frozenset(
            s for s, n in counts.items() if n >= SCOPE_MIN_PULLS and s not in rules.source_roots
        ),
    )


def classify(pull: Pull, rules: Rules, scheme: ModuleScheme = PATH_SCHEME) -> Classification:
    """The type, modules, labels, topics and markers of one PR (see the module docstring)."""
    title = parse_title(pull.title, rules)
    labels = tuple(pull.labels)
    label_modules = tuple(
        dict.fromkeys(
            match.expand(module)
            for label in labels
            for pattern, module in rules.label_modules
            if (match := pattern.fullmatch(label.strip()))
        )
    )
    modules, from_title = (
        (label_modules, False) if label_modules else _modules(title, pull, rules, scheme)
    )
    change_type, mark = _change_type(pull, title, rules)
    return Classification(
        type=change_type,
        type_mark=mark,
        modules=modules,
        modules_from_title=from_title,
        labels=labels,
        topics=_topics(title, labels, rules),
        breaking=title.breaking
        or labelled(rules.label_breaking, labels)
        or bool(_BREAKING_FOOTER.search(pull.body)),
        bot=is_bot(pull, rules),
        # the body's "Reverts owner/name#12" (GitHub's revert button) before the (#N) of a quoted title, which may be of a port
        reverts=reverted_number_in_body(pull.body) or title.reverted_number
        if title.revert or title.reverted_title
        else None,
        is_revert=title.revert,
    )


def _change_type(
    pull: Pull, title: Title, rules: Rules
) -> tuple[str | None, tuple[str, str] | None]:
    """The type from the most trusted source that says one (see the module docstring), and where
    the author said it, when the author did: ("label", "bug") or ("title", "fix:")."""
    labels = tuple(label.strip() for label in pull.labels)
    labelled = next(
        ((t, label) for t, p in rules.label_types for label in labels if p.fullmatch(label)), None
    )
    if labelled:
        return labelled[0], ("label", labelled[1])
    if title.explicit_type:
        return title.explicit_type, ("title", title.type_written or title.explicit_type)
    kinds = rules.files_of(pull)[1]
    return (
        ("revert" if title.revert else None)
        or title.hinted_type
        or type_from_paths(kinds)
        or _docs_example(title.description, kinds)
        or _refactor_by_its_body(pull.body)
        or type_from_words(title.description, rules)
        or type_of_noun_phrase(kinds, rules)
    ), None


_EXAMPLE = re.compile(r"\bexamples?\b", re.IGNORECASE)


def _docs_example(description: str, kinds: Sequence[frozenset[str]]) -> str | None:
    """ "docs" for a title about an example where no example file changes: the example of a
    rule's or setting's documentation (ruff #19672, "Make example error out-of-the-box"), not an
    example script (verl #1771, "Add DeepSeek 671B GRPO example", is examples/)."""
    named = _EXAMPLE.search(description) and not any("examples" in k for k in kinds)
    return "docs" if named else None


def _topics(title: Title, labels: tuple[str, ...], rules: Rules) -> tuple[str, ...]:
    """Keyword topics of the title and labels, a security label, then ruff-style rule families."""
    topics = [
        name
        for name, pattern in rules.topics
        if pattern.search(title.description) or any(pattern.search(label) for label in labels)
    ]
    if labelled(rules.label_security, labels) and "security" not in topics:
        topics.append("security")
    topics.extend(p for p in title.rule_prefixes if p not in topics)
    return tuple(topics)


def labelled(pattern: re.Pattern | None, labels: Sequence[str]) -> bool:
    return pattern is not None and any(pattern.fullmatch(label.strip()) for label in labels)


# the author's word that nothing a user sees changes, neither negated ("this is not a pure
# refactor") nor qualified (ruff #24950: "No functional changes, but we now surface …")
_NO_FUNCTIONAL_CHANGE = re.compile(
    r"\b(?:no\s+(?:functional|behaviou?ral|user[- ]facing)\s+changes?"
    r"|pure(?:ly)?\s+(?:a\s+)?refactor\w*|no\s+behaviou?r\s+changes?)\b(?![,;]?\s*but\b)",
    re.IGNORECASE,
)


def _refactor_by_its_body(body: str | None) -> str | None:
    """ "refactor" where the description says there is no functional change: ruff #16192's title
    "Improve API exposed on `ExprStringLiteral` nodes" reads as a feature, its body "There is no
    functional change here"."""
    text = (body or "")[:2000]
    said = _NO_FUNCTIONAL_CHANGE.search(text)
    negated = said and re.search(r"\bnot\b|n't\b", text[max(0, said.start() - 8) : said.start()])
    return "refactor" if said and not negated else None


def type_from_paths(kinds: Sequence[frozenset[str]]) -> str | None:
    """A type when every file says the same thing: only tests, only docs, only CI (with developers'
    tooling beside it), only tooling, only dependencies."""
    if not kinds:
        return None
    for kind, change_type in (("tests", "test"), ("docs", "docs")):
        if all(kind in k for k in kinds):
            return change_type
    if all(k & {"ci", "tooling"} for k in kinds):
        return "ci" if any("ci" in k for k in kinds) else "chore"
    if all(k & {"dependencies", "manifests"} for k in kinds):
        return "build"
    if all(k & {"tests", "docs"} for k in kinds) and any("tests" in k for k in kinds):
        return "test"
    return None


def type_from_words(description: str, rules: Rules) -> str | None:
    for change_type, pattern in rules.keyword_types:
        if pattern.search(description):
            return change_type
    words = [
        w
        for w in re.findall(r"[\w'-]+", description.lower().replace("’", "'"))
        if re.search(r"[a-z]", w)
    ]
    for word in words[:2]:  # "Also fix ...", "Correctly handle ..."
        if word in rules.verbs and not (
            rules.verbs[word] == "revert" and _REVERT_TO.search(description)
        ):
            return rules.verbs[word]
    for change_type, pattern in rules.fallback_types:
        if pattern.search(description):
            return change_type
    return None


def type_of_noun_phrase(kinds: Sequence[frozenset[str]], rules: Rules) -> str | None:
    """The configured type (default feat) for a title without any verb, when the PR changes core
    code together with tests: in all three real repositories such titles name new capabilities
    ("Implicit instance attributes", "Star annotations before Python 3.11")."""
    core = any(not k & (PERIPHERAL_KINDS | {"dependencies", "manifests"}) for k in kinds)
    return rules.noun_phrase_type if core and any("tests" in k for k in kinds) else None


def _modules(
    title: Title, pull: Pull, rules: Rules, scheme: ModuleScheme
) -> tuple[tuple[str, ...], bool]:
    """The PR's modules, and whether they are its title's scopes."""
    if scheme.kind != "scope":
        paths = path_modules(pull, rules)
        # scopes only when no files are known
        return (paths, False) if paths else (title.modules, bool(title.modules))
    if title.modules:
        return title.modules, True
    return tuple(
        dict.fromkeys(_as_scope(module, scheme.scopes) for module in path_modules(pull, rules))
    ), False


def _as_scope(module: str, scopes: frozenset[str]) -> str:
    """A path module named as the project's scope it belongs to: `ty_python_semantic` -> `ty`,
    `red_knot_python_semantic` -> `red-knot`, `workers` -> `worker`, `ruff_python_formatter` ->
    `formatter`; else itself."""
    parts = re.split(r"[_-]", module)
    # itself, its first words joined either way, longest first, then each word
    joined = (sep.join(parts[:i]) for i in range(len(parts), 1, -1) for sep in "-_")
    words = (name for part in parts for name in (part, part.removesuffix("s")))
    return next((name for name in (module, *joined, *words) if name in scopes), module)


def path_modules(pull: Pull, rules: Rules) -> tuple[str, ...]:
    """Modules of the files a PR touches, most changed lines first; core files win over tests,
    docs and examples when there are any."""
    lines: dict[str, int] = defaultdict(int)
    peripheral_lines: dict[str, int] = defaultdict(int)
    vendored_lines: dict[str, int] = defaultdict(int)
    paths, kinds = rules.files_of(pull)
    for path, path_kinds, change in zip(paths, kinds, pull.files, strict=True):
        module = module_of(path, rules)
        changed = (change.additions or 0) + (change.deletions or 0) + 1
        if path_kinds & {"generated", "tooling"}:
            # kept apart: a lock file or an editor's settings is no module; generated or vendored
            # code is its folder's, where a PR changes nothing else (ruff's typeshed syncs)
            if "generated" in path_kinds and not path_kinds & {"dependencies", "tooling"}:
                vendored_lines[module] += changed
            continue
        (peripheral_lines if path_kinds & PERIPHERAL_KINDS else lines)[module] += changed
    chosen = lines or peripheral_lines or vendored_lines
    if not chosen and paths:
        return ("tooling",) if any("tooling" in k for k in kinds) else ("build",)
    return tuple(sorted(chosen, key=lambda m: (-chosen[m], m)))


def module_of(path: str, rules: Rules) -> str:
    """A readable module name for a path: `crates/ruff_linter/...` -> `ruff_linter`,
    `verl/workers/...` -> `workers`, `docs/...` -> `docs`; CI files are `ci`, whatever the folder."""
    for pattern, module in rules.path_modules:
        if pattern.search("/" + path):
            return module
    parts = path.split("/")
    kinds = rules.path_kinds_of(path)
    if len(parts) == 1 or "ci" in kinds:
        return _root_module(kinds)
    if len(parts) >= 3 and parts[0].lower() in rules.source_roots:
        return parts[1]
    return parts[0]


def _root_module(kinds: frozenset[str]) -> str:
    """Files at the top of the repository have no folder: name them by what they are, so that
    README.md and pyproject.toml do not each become a module of their own."""
    for kind, module in (
        ("ci", "ci"),
        ("docs", "docs"),
        ("tooling", "tooling"),
        ("dependencies", "build"),
        ("manifests", "build"),
    ):
        if kind in kinds:
            return module
    return "(root)"


def is_bot(pull: Pull, rules: Rules) -> bool:
    return pull.author.type == "Bot" or rules.is_bot_login(pull.author.login)


def reverted_number_in_body(body: str) -> int | None:
    match = _REVERTS_BODY.search(body) or _REVERTS_URL.search(body)
    return int(match[1]) if match else None


BODY_OPENING = 300  # characters of a body that say what a PR is, before its details
_MOVING = re.compile(
    r"\b(rename\w*|move[sd]?|split\w*|sort\w*|extract\w*|flatten\w*)\b", re.IGNORECASE
)  # "Flatten `red_knot_project` import paths" (ruff #15616) moves its files
_RESTYLING = re.compile(r"\b(lint\w*|linters?|(re)?format\w*|code style|style)\b", re.IGNORECASE)


# tests and their snapshots, not ty's flow or branch snapshots, nor a memory snapshot (ruff #26203)
_TESTS_TITLE = re.compile(
    r"\b(?:tests?|mdtests?|(?<!flow )(?<!branch )(?<!memory )(?<!lazy )snapshots?)\b",
    re.IGNORECASE,
)


def titled_tests(pull: Pull) -> bool:
    """The title says the PR changes tests or snapshots: its Rust source, which may hold tests in
    the same file (`paths.inline_tests`), is then test code (ruff #25829, "Anonymize vendored line
    numbers in IDE tests": 3,900 lines of inline snapshots)."""
    return bool(_TESTS_TITLE.search(pull.title[:TITLE_LIMIT]))


def renames_code(pull: Pull) -> bool:
    """The title says code is renamed, moved or split and its added and deleted lines nearly
    balance: a move that a diff shows as such (ruff's "Rename `ReferenceRequestHandler` file",
    +1,733 -1,733), easy to review whatever its size."""
    low, high = sorted((pull.additions, pull.deletions))
    # or the opening of its body says so (ruff #23681: "And move relevant methods to those submodules")
    said = _MOVING.search(pull.title[:TITLE_LIMIT]) or _MOVING.search(pull.body[:BODY_OPENING])
    return bool(said) and high >= 100 and low / high >= 0.85


def is_code_move(pull: Pull, classification: Classification) -> bool:
    """Code moved, split or restyled, not rewritten: a refactor, or a change whose title or the
    opening of its body says it renames or moves code, whose added and deleted lines nearly balance
    (ruff's "Split up `types/class.rs`", +6,304 -6,205; #23681, "Introduce `types::bool` …", "And
    move relevant methods to those submodules", +1,604 −1,559), or a change whose title says it
    lints or formats code (verl's "fix: linting errors in all files", +1,057 -3,073). Its size says
    little about its weight."""
    title = pull.title[:TITLE_LIMIT]
    low, high = sorted((pull.additions, pull.deletions))
    restyled = _RESTYLING.search(title) and classification.type not in ("feat", "perf")
    if high >= 100 and (restyled or restyles_code(pull)):
        return True
    refactored = classification.type == "refactor" and high >= 100 and low / high >= 0.85
    return refactored or renames_code(pull)


# a sweep that fixes linters' findings or reformats code, not a linter's or formatter's own change
# (ruff's "Ruff 2025 style guide" changes what its formatter does)
_LINT_SWEEP = re.compile(
    r"\b(?:lint(?:ing|er)?\s+(?:errors?|issues?|warnings?|fix(?:es)?)|fix(?:es)?\s+lint(?:ing)?"
    r"|re-?format(?:s|ted|ting)?|apply(?:ing)?\s+\S+\s+formatt?ing"
    # a formatter run over the code by its name (ruff #27630, "Enable rustfmt on more files")
    r"|rustfmt|cargo\s+fmt|clang-format|gofmt"
    # a style guide followed (pelican #1753, "Make Pelican codebase compliant with PEP8"), not the
    # pep8-naming rules of a linter
    r"|(?:compliant\s+with|adhere\s+to|conform\w*\s+to)\s+pep\s?8|pep\s?8\s+(?:violations?|compliance))\b",
    re.IGNORECASE,
)


def restyles_code(pull: Pull) -> bool:
    """The title says the change fixes linters' findings or reformats code: however many lines it
    touches, they are the same code restyled (verl #1280, "fix: linting errors in all files")."""
    return bool(_LINT_SWEEP.search(pull.title[:TITLE_LIMIT]))
