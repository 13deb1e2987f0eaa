"""Consequences: what a PR changes for its users (a default flipped, something removed or renamed), as
the PR itself says it, never guessed from its files.

Two places say it precisely enough to repeat (tests/corpora/consequences.jsonl measures them, rule
"consequence.stated" of claims.py):

- the title, when it leads with the change and names what users set: "Rename setting A → B",
  "Rename `src.root` setting to `environment.root`", "Change default REVERSE_ARCHIVE_ORDER to true",
  "Remove `--reference-links` parameter from pelican-import", "Drop Python 3.3 support",
  "Stabilize `UP044`" (out of preview: on for every user who selects it);
- the body's own "Breaking changes" or "Migration" section: its first sentences, quoted as the
  author's words, with no kind read into them;
- a plain statement in the body's prose, outside its test, design, motivation and checklist sections
  (source "prose", one claim rule per kind, `claim_of`): "Backend flag renamed: `a` → `b`", "renames
  TID254 to `lazy-import-mismatch`", "`x` now defaults to `true`", "remove legacy rolloutSkip", "the
  `--x` option has been removed", "Loading a v1 checkpoint raises a clear error" (a format change; the
  migration script the PR adds and names is its `new`).

A change only to docs, tests, examples or CI changes nothing users run: no consequence. Nor does a
change the body says is behind preview or not yet released.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from digest_plugin.analysis.claims import speaks
from digest_plugin.analysis.classify import says_default_change
from digest_plugin.analysis.description import (
    body_sections,
    cap,
    description_text,
    plain,
    section_sentences,
    summary_of,
    whole_sentence,
)
from digest_plugin.analysis.model import Consequence
from digest_plugin.analysis.rules import PERIPHERAL_KINDS
from digest_plugin.records.pull import Pull

# a name users write: in backticks or quotes, a SETTING_NAME, a dotted key, a --flag
_NAME = r"`[^`=]{1,60}`|\"[^\"=]{1,60}\"|(?-i:\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{4,}\b)|\b[a-z][\w-]*(?:\.[\w*-]+)+\b|--[\w-]+"
_SETTING = r"(?-i:\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{4,}\b)|`?\b[a-z][\w-]*(?:\.[\w*-]+)+\b`?|`?--[\w-]+`?"  # a setting's own spelling
# what users set or select, said beside the name
_USER_THING = r"settings?|options?|flags?|arg(?:ument)?s?|parameters?|config(?:uration)?|keys?|rules?|lints?|error codes?|diagnostics?|directives?|(?:sub)?commands?|severity"
# code of the project's own insides: renaming or removing it changes nothing a user writes
_INTERNAL = re.compile(
    r"::|(?<![\w-])(?:internal\w*|struct|traits?|crates?|methods?|functions?|class(?:es)?|tests?|fields?|redundant|unused|dead|"
    r"non-?existing|hack|references|mentions|comments|typos?|(?:dead|legacy|deprecated|old) codes?|helpers?|modules?|types?|imports?|prefix|suffix)(?![\w-])",
    re.IGNORECASE,
)
_CALL = re.compile(r"\w\(\)")  # `symbol_by_id()`: a function of the code
_FILE_NAME = re.compile(
    r"\.(?:toml|py|pyi|rs|txt|md|rst|ya?ml|json|cfg|ini|lock|sh|js|ts|html|css|ipynb)\b`?(?!\w)",
    re.IGNORECASE,
)  # a file, not a setting
_QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"")
_RENAME = re.compile(
    rf"^renam\w*\s+(?:the\s+)?(?:misleading\s+)?(?:(?:{_USER_THING})\s+)?(?P<old>{_NAME})(?P<words>(?:\s+[\w-]+){{0,3}}?)\s*(?:to|→|->|=>)\s+(?P<new>{_NAME})",
    re.IGNORECASE,
)
_USER_WORD = re.compile(rf"\b(?:{_USER_THING})\b", re.IGNORECASE)
_REMOVAL = re.compile(
    r"(?:^|\band\s+)(?:remov\w*|drop\w*|delet\w*)\s+(?P<what>.{2,80}?)\s*(?:[;(]|\.(?:\s|$)|$)",
    re.IGNORECASE,
)
# what a removal must name to be something users had, its last word saying what it is ("`--x` parameter",
# "PDF generation settings", "Python 3.3 support", not "`Preview` rule status"), or support for a
# version, a part of the core, the bundled plugins (pelican #840), a setting by its own spelling
_REMOVED_HEAD = re.compile(
    rf"\b(?:{_USER_THING}|support|reader|importer|plugins)`?$", re.IGNORECASE
)
_REMOVED_ANYWHERE = re.compile(
    rf"^(?:explicit\s+)?support\s+for\b|\bpython\s+\d|\bfrom\s+(?:\w+\s+)?core\b|^(?:{_SETTING})$",
    re.IGNORECASE,
)
_ELSEWHERE = re.compile(
    r"\b(?:in|from)\s+(?:the\s+|all\s+)?(?:scripts?|examples?|docs?|documentation|tests?|ci|recipes?|notebooks?)\b",
    re.IGNORECASE,
)
_OBJECT_END = re.compile(r"\s+(?:from|in|of)\s+", re.IGNORECASE)
# what follows the removed thing
_REMOVAL_END = re.compile(r",|;|\s+in favou?r of\s|\s+and\s+(?:use|only|move)\b", re.IGNORECASE)
# "remove a call when …": a fix of what code it writes
_CONDITION = re.compile(r"\b(?:when|if|unless|while)\b", re.IGNORECASE)
_STABILISE = re.compile(r"^stabili[sz]\w*:?\s+(?P<what>.{2,100})$", re.IGNORECASE)  # "Stabilize: X"
_PREVIEW = re.compile(r"\bpreview\b", re.IGNORECASE)
_OUTPUT = re.compile(r"\boutput\b|\bformats?\b", re.IGNORECASE)
# what is stabilised is named: a rule, an option
_RULE_NAMED = re.compile(r"`[^`]+`|\b[A-Z]{1,4}\d{3,4}\b")
# files no user runs (examples and their configuration are copied)
_NOT_RUN = frozenset({"tests", "docs", "ci", "tooling"})
# a default change that reaches no user yet: behind preview, or of something not released
_NOT_FOR_USERS_YET = re.compile(
    r"\b(?:in|under|behind|with|only in)\s+(?:global\s+)?(?:the\s+)?preview\b|--preview\b|not (?:yet )?(?:been )?released|"
    r"\bunreleased\b|\bfor now\b.{0,40}\bpreview\b",
    re.IGNORECASE,
)
# the setting a title names beside "default": `max_num_seqs`, "default of X", "X by default"
# (or "default content status to": what comes between), never a value in backticks (`None`, `true`, `0`)
DEFAULT_SETTING = re.compile(
    r"`([^`]{1,60})`|\bdefault(?:\s+value)?\s+(?:of|for)\s+([\w.-]+)|\b(?:enable|disable|use)s?\s+([\w.-]+)\s+by default"
    r"|\bdefault\s+(?!values?\b)((?:[A-Za-z][\w.-]*\s+){0,2}[A-Za-z][\w.-]*)\s+(?:to|from)\b",
    re.IGNORECASE,
)
LITERAL = re.compile(
    r"none|null|nil|true|false|yes|no|-?\d[\d.]*|[\"'].*[\"']|\[\]|\{\}|", re.IGNORECASE
)
_DEFAULT_VALUES = re.compile(
    r"\bfrom\s+(?P<old>`[^`]+`|[\w.-]+)\s+to\s+(?P<new>`[^`]+`|[\w.-]+)|\bto\s+(?P<to>`[^`]+`|[\w.'\"-]+)\s*$",
    re.IGNORECASE,
)
# the body's own section on what breaks or what to do: "Breaking changes", "⚠️ Breaking", "Migration guide"
BREAKING_SECTION = re.compile(
    r"^\W*(?:(?:api changes \()?breaking(?: changes?| apis?)?\)?(?: affecting all users)?(?:\s*/\s*migration(?: notes?)?)?"
    r"|migration(?: guide| notes?| required)?)\W*$",
    re.IGNORECASE,
)
# a sentence saying nothing breaks (a sentence may start "No …" and still say what goes: "No toggle
# is required (the former `x` field has been removed)")
_NOT_BREAKING = re.compile(
    r"\bno breaking\b|\bbackwards?[- ]compatible\b|\bnot a breaking\b|\bno (?:user-facing|api) changes?\b",
    re.IGNORECASE,
)
# a section that says nothing breaks: "None", "N/A", or such a sentence
_NOTHING = re.compile(
    r"^(?:none|n/?a|no\b|nothing|not applicable|-+$)|" + _NOT_BREAKING.pattern, re.IGNORECASE
)


def consequences_of(
    pull: Pull,
    title: str,
    kinds: Sequence[frozenset[str]],
    template: frozenset[str] = frozenset(),
    repo: str = "",
) -> tuple[Consequence, ...]:
    """What `pull` says it changes for users: from its title (`title`, without its prefixes) and its
    body's breaking or migration section. `kinds` are its files' kinds (rules.files_of): a PR that
    changes only docs, tests, examples, scripts or CI changes nothing users run."""
    if kinds and all(k & _NOT_RUN and "config" not in k for k in kinds):
        return ()
    body = pull.body or ""
    found = [c for c in (_title_consequence(pull, title, kinds),) if c is not None]
    said = section_sentences(body, BREAKING_SECTION, template, repo) or _footer(body)
    if said and not (_NOTHING.search(said) or _OWN_REVISIONS.search(body)):
        found.append(Consequence(None, "body", quote=said))
    if _NOT_FOR_USERS_YET.search(body):
        return tuple(found)
    # and what the body's prose states that the title or the section did not already say
    told = {(c.kind, c.what) for c in found} | {(c.kind, c.old) for c in found}
    paths = tuple(f.path.strip('"') for f in pull.files)
    prose = _from_prose(body, template, repo, paths)
    new = [c for c in prose if (c.kind, c.what) not in told and (c.kind, c.old) not in told]
    return (*found, *new)


# the title's leading scopes, "[example] …", "[ci, doc] …", "example: …", "docs(x): …": where the
# author says the change is
_SCOPES = re.compile(r"^\s*((?:\[[^\]]+\]\s*)+|[a-z]+(?=(?:\([^)]*\))?!?:))", re.IGNORECASE)
_NOT_RUN_SCOPES = frozenset(
    {"example", "examples", "doc", "docs", "test", "tests", "ci", "playground"}
)


def _peripheral_scope(title: str) -> bool:
    """Whether the title's scopes are all of what no user runs (examples, docs, tests, CI): the
    default or name its title changes is theirs, whatever else the PR touches on the way."""
    scoped = _SCOPES.match(title)
    words = re.findall(r"[\w-]+", scoped[1]) if scoped else []
    return bool(words) and all(w.lower() in _NOT_RUN_SCOPES for w in words)


# what the claim rules of analysis/claims.py call each consequence: the title's and the author's
# section's are "consequence.stated"; a statement of the prose is measured per kind
PROSE_CLAIMS = {
    "rename": "consequence.prose-rename",
    "default-flip": "consequence.prose-default",
    "removal": "consequence.prose-removal",
    "format-change": "consequence.prose-format",
}


def claim_of(consequence: Consequence) -> str:
    """The claim rule (analysis/claims.py) that says `consequence`."""
    if consequence.source != "prose":
        return "consequence.stated"
    return PROSE_CLAIMS.get(consequence.kind or "", "consequence.stated")


def spoken(consequences: Sequence[Consequence]) -> tuple[Consequence, ...]:
    """The consequences whose claim rule is precise enough to be said."""
    return tuple(c for c in consequences if speaks(claim_of(c)))


# --- the body's prose -----------------------------------------------------------------------------

# sections that tell why, how it was built or tested, not what changes for users
_NOT_SAID_THERE = re.compile(
    r"test|checklist|motivation|problem|background|context|\bwhy\b|design|code changes?|implementation|internal|"
    r"how it works|root cause|benchmark|result|performance|reviewer|todo|follow|future|acknowledg|screenshot|related|"
    r"timeline|bug|fix|before|alternative|discussion|note",
    re.IGNORECASE,
)
# a name users write: `in backticks` (no spaces), a --flag, a snake_case key (said beside what it
# is: "the use_x flag"), a dotted key, a SETTING_NAME, a rule code
_PROSE_NAME = r"`[^`\s]{1,60}`|--[a-z][\w-]+|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|(?-i:\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{1,4}\d{3,4}\b)|\b[a-z][a-z0-9_]*(?:\.[a-z][\w-]*)+\b"
_PROSE_RENAMES = (
    # "Backend flag renamed: `a` → `b`"
    re.compile(
        rf"\b(?P<thing>{_USER_THING})\s+(?:was\s+|is\s+|has been\s+)?renamed\s*:?\s*(?:from\s+)?(?P<old>{_PROSE_NAME})\s*(?:→|->|=>|to)\s*(?P<new>{_PROSE_NAME})",
        re.IGNORECASE,
    ),
    # "renames TID254 to `lazy-import-mismatch`", "Rename PYI033 from `a` to `b`", "rename the `x` option to `y`"
    re.compile(
        rf"\brenam(?:e[sd]?|ing)\s+(?:the\s+)?(?:(?P<thing>{_USER_THING})\s+)?(?P<old>{_PROSE_NAME})(?:\s+(?P<thing2>{_USER_THING}))?"
        rf"\s+(?:from\s+(?P<was>{_PROSE_NAME})\s+)?(?:to|→|->|=>)\s+(?P<new>{_PROSE_NAME})",
        re.IGNORECASE,
    ),
    # "the `x` option has been renamed to `y`"
    re.compile(
        rf"(?P<old>{_PROSE_NAME})\s+(?:(?P<thing>{_USER_THING})\s+)?(?:is|was|has been|have been)\s+renamed\s+to\s+(?P<new>{_PROSE_NAME})",
        re.IGNORECASE,
    ),
)
_PROSE_DEFAULTS = (
    # "`x` now defaults to `true`", "`x` is now enabled by default"
    re.compile(
        rf"(?P<what>{_PROSE_NAME})\s+(?:(?:{_USER_THING})\s+)?now\s+defaults\s+to\s+(?P<new>`[^`]+`|[\w.'\"-]+)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?P<what>{_PROSE_NAME})\s+(?:(?:{_USER_THING})\s+)?is\s+now\s+(?P<new>enabled|disabled|on|off)\s+by\s+default",
        re.IGNORECASE,
    ),
    # "changes the default of `x` from `a` to `b`", "the default value of `x` is changed to `b`"
    re.compile(
        rf"\bdefault(?:\s+value)?\s+(?:of|for)\s+(?P<what>{_PROSE_NAME})\s+(?:is\s+|was\s+|has been\s+)?(?:changed|switched|flipped|moved)\s+"
        rf"(?:from\s+(?P<old>`[^`]+`|[\w.'\"-]+)\s+)?to\s+(?P<new>`[^`]+`|[\w.'\"-]+)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?:change[sd]?|switch(?:es|ed)?|flip(?:s|ped)?)\s+the\s+default(?:\s+value)?\s+(?:of|for)\s+(?P<what>{_PROSE_NAME})\s+"
        rf"(?:from\s+(?P<old>`[^`]+`|[\w.'\"-]+)\s+)?to\s+(?P<new>`[^`]+`|[\w.'\"-]+)",
        re.IGNORECASE,
    ),
)
# "remove the `--x` option", "remove legacy rolloutSkip" (what was deprecated or legacy is what users had)
_LEGACY_NAME = (
    r"`[^`\s]{1,60}`|(?-i:\b[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b)"  # in case: a class's name
)
# what a user could have used, said beside a removed name: not a diagnostic a run emitted, which a
# fix of the checker removes without taking anything from users
_REMOVED_THING = r"settings?|options?|flags?|arg(?:ument)?s?|parameters?|config(?:uration)?(?:\s+(?:keys?|options?))?|keys?|rules?|directives?|(?:sub)?commands?|APIs?|environment\s+variables?"
_PROSE_REMOVALS = (
    re.compile(
        rf"\b(?:remov(?:e[sd]?|ing)|drop(?:s|ped)?|delet(?:e[sd]?|ing))\s+(?:the\s+)?(?:(?P<thing>{_REMOVED_THING})\s+)?(?P<what>{_PROSE_NAME})"
        rf"(?:\s+(?P<thing2>{_REMOVED_THING}))?",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?:remov(?:e[sd]?|ing)|drop(?:s|ped)?|delet(?:e[sd]?|ing))\s+(?:the\s+)?(?:deprecated|legacy)\s+(?P<what>{_LEGACY_NAME})",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?P<what>{_PROSE_NAME})\s+(?:(?P<thing>{_REMOVED_THING})\s+)?(?:has been|have been|is|was|are)\s+(?:now\s+)?(?:removed|dropped|deleted)\b",
        re.IGNORECASE,
    ),
)
# what another project removed or renamed (a rule that detects it, an upstream API): not this PR's doing
_UPSTREAM = re.compile(
    r"\b(?:removed|renamed|deleted|dropped|deprecated)\s+(?:in|from|by)\s+(?:(?-i:[A-Z]\w+)\s+)?v?\d|\bupstream\b|\bin (?:newer|the latest|recent|later) "
    r"(?:\w+ )?versions?\b|\bin (?:the )?(?:commit|upstream)\b|(?-i:\b[A-Z]\w+)\s+(?:has\s+)?(?:removed|renamed|changed)\b|\b(?:vllm|sglang|torch|transformers|megatron|airflow)\s+(?:has\s+)?(?:removed|renamed|changed)\b",
    re.IGNORECASE,
)
# what another PR did or a later one will: "was removed in #284", "Future PRs will remove …"
_NOT_THIS_PR = re.compile(
    r"\bwill\b|\bfuture\b|\bnext (?:pr|step)\b|\bfollow-?ups?\b|\b(?:in|by|since) (?:pr:?\s*)?(?:[\w.-]+/[\w.-]+)?#\d+|"
    r"\bpreviously\b|\bused to\b",
    re.IGNORECASE,
)
# "Loading a v1 checkpoint raises …", "old checkpoints can no longer be loaded": what was saved stops loading
_FORMAT = re.compile(
    r"\b(?:v\d|old|older|legacy|existing|previous)\s+(?:\w+\s+){0,2}?(?:checkpoints?|caches?|layout|format)\b.{0,80}?"
    r"\b(?:no longer|cannot|can't|fails?|failing|raises?|incompatible|not compatible|must be (?:migrated|converted))\b"
    r"|\b(?:loading|reading|resuming from)\s+(?:an?\s+)?(?:v\d|old|older|legacy|existing|previous)\s+(?:\w+\s+)?(?:checkpoints?|caches?)\b.{0,40}?\b(?:raises|fails|errors?)\b",
    re.IGNORECASE,
)
_MIGRATION_SCRIPT = re.compile(
    r"(?:^|/)[\w.-]*(?:migrat|convert|upgrade)[\w.-]*\.(?:py|sh)$", re.IGNORECASE
)
_LITERAL_NAME = re.compile(r"`?(?:none|null|true|false|yes|no|on|off|-?\d[\d.]*)`?", re.IGNORECASE)


_ADDS = re.compile(r"^(?:add|adds|added|introduce[sd]?|implement(?:s|ed)?|new)\b", re.IGNORECASE)


def introduced_names(title: str, body: str) -> frozenset[str]:
    """The names a PR that adds something (its title leads with "Add", "Introduce", "Implement",
    "New") writes in its title and body, as a rename or removal would name them (`_PROSE_NAME`,
    without backticks): what it may have brought in ("Add a rule to enforce lazy imports":
    "`TID254` enforces …"). Empty for any other PR."""
    if not _ADDS.match(title.strip()):
        return frozenset()
    return frozenset(
        name.strip("`") for name in re.findall(_PROSE_NAME, f"{title}\n{body}", re.IGNORECASE)
    )


def shipped_name(consequence: Consequence) -> str | None:
    """The name a rename or a removal takes from users (a rename's old name, what a removal
    removes), without backticks; None for other consequences."""
    name = {"rename": consequence.old, "removal": consequence.what}.get(consequence.kind or "")
    return name.strip("`") if name else None


def _from_prose(
    body: str, template: frozenset[str], repo: str, paths: Sequence[str]
) -> list[Consequence]:
    """What the body's prose states plainly, each kind once: a rename, a default, a removal, a format change."""
    found: dict[str, Consequence] = {}
    for sentence in _own_sentences(body, template, repo):
        if _of_code(sentence):
            continue
        for kind, read in (
            ("rename", _prose_rename),
            ("default-flip", _prose_default),
            ("removal", _prose_removal),
            ("format-change", _prose_format),
        ):
            if kind not in found and (said := read(sentence, paths, body)) is not None:
                found[kind] = said
    return list(found.values())


def _own_sentences(
    body: str, template: frozenset[str], repo: str, keep: re.Pattern | None = None
) -> Iterator[str]:
    """The body's sentences on what this PR changes: none under a heading on why it was done or
    how it was tested (unless `keep` matches that heading), none about upstream or another PR."""
    for heading, lines, _skipped in body_sections(body, template, repo):
        if heading and _NOT_SAID_THERE.search(heading) and not (keep and keep.search(heading)):
            continue
        for sentence in _statements(lines):
            if not _UPSTREAM.search(sentence) and not _NOT_THIS_PR.search(sentence):
                yield sentence


def _of_code(text: str) -> bool:
    """Whether a title or a sentence speaks of the project's insides: a path (`a::b`), a call, an
    internal word (a struct, a helper, a test)."""
    return bool("::" in text or _CALL.search(text) or _INTERNAL.search(_QUOTED.sub("", text)))


def _statements(lines: Sequence[str]) -> list[str]:
    """A section's lines as sentences, Markdown kept: a list item or a paragraph, split at full stops."""
    items: list[list[str]] = [[]]
    for line in lines:
        line = line.replace("\ue001", "")
        if not line.strip() or re.match(r"\s*(?:[-*+•]|\d+[.)])\s+", line):
            items.append([])
        items[-1].append(re.sub(r"^\s*(?:[-*+•]|\d+[.)])\s+", "", line).strip())
    sentences: list[str] = []
    for item in items:
        text = " ".join(part for part in item if part).replace("**", "")
        sentences.extend(
            s.strip() for s in re.split(r"(?<=[.!?;])\s+(?=[A-Z`(])", text) if s.strip()
        )
    return sentences


def _user_name(name: str) -> bool:
    """A name users write by its form alone: a SETTING_NAME, a --flag, a rule code. A dotted name is
    not one by itself: `content.valid` is as likely an attribute of the code as a key users set, so
    it counts only said beside what it is ("the `a.b` option")."""
    return bool(
        re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+|--[a-z][\w-]+|[A-Z]{1,4}\d{3,4}", _bare(name))
    )


def _file_or_value(name: str) -> bool:
    """A file's name or a literal value (`true`, `0`): no name users write."""
    return bool(_FILE_NAME.search(name) or "/" in name or _LITERAL_NAME.fullmatch(name))


def _prose_rename(sentence: str, paths, body: str) -> Consequence | None:
    for pattern in _PROSE_RENAMES:
        for match in pattern.finditer(sentence):
            old, new = match["old"], match["new"]
            if any(_file_or_value(n) for n in (old, new)):
                continue
            named = match.groupdict()
            if named.get("thing") or named.get("thing2") or _user_name(old):
                return Consequence(
                    "rename",
                    "prose",
                    what=_bare(old),
                    old=_bare(old),
                    new=_bare(new),
                    quote=plain(sentence),
                )
    return None


def _prose_default(sentence: str, paths, body: str) -> Consequence | None:
    for pattern in _PROSE_DEFAULTS:
        match = pattern.search(sentence)
        if match and not _file_or_value(match["what"]):
            old = match.groupdict().get("old")
            return Consequence(
                "default-flip",
                "prose",
                what=_bare(match["what"]),
                old=_bare(old) if old else None,
                new=_bare(match["new"]),
                quote=plain(sentence),
            )
    return None


def _prose_removal(sentence: str, paths, body: str) -> Consequence | None:
    if _CONDITION.search(sentence) or _ELSEWHERE.search(sentence) or _FROM_A_RULE.search(sentence):
        return None
    for index, pattern in enumerate(_PROSE_REMOVALS):
        for match in pattern.finditer(sentence):
            what = match["what"]
            if _file_or_value(what):
                continue
            named = match.groupdict()
            if not (named.get("thing") or named.get("thing2")) and _QUALIFIES.match(
                sentence[match.end() :]
            ):
                continue  # "the MAX_DEPTH limit", "the `x` code path": a thing of the code, named by it
            if index == 1 or named.get("thing") or named.get("thing2") or _user_name(what):
                return Consequence("removal", "prose", what=_bare(what), quote=plain(sentence))
    return None


# the word after a removed name, when the name only qualifies it ("the `x` code path", "the
# MAX_DEPTH limit"); a name said alone, or followed by a preposition, a conjunction or a verb, is
# itself what is removed
_QUALIFIES = re.compile(
    rf"\s+(?!(?:{_REMOVED_THING})\b)(?!(?:from|in|and|or|as|at|by|since|because|which|that|to|for|with|of|on|entirely|completely|"
    r"now|too|also|altogether|is|are|was|were|has|have|will|can|could|should|would|may|might|must)\b)[a-z]{3,}\b",
    re.IGNORECASE,
)
# "remove `a.b.c` from AIR301": a name a rule flags, not anything users had
_FROM_A_RULE = re.compile(r"\bfrom\s+(?:the\s+)?`?[A-Z]{1,4}\d{3,4}\b")


def _prose_format(sentence: str, paths, body: str) -> Consequence | None:
    if not _FORMAT.search(sentence):
        return None
    script = next(
        (p for p in paths if _MIGRATION_SCRIPT.search(p) and p.rpartition("/")[2] in body), None
    )
    return Consequence("format-change", "prose", new=script, quote=plain(sentence))


def _title_consequence(
    pull: Pull, title: str, kinds: Sequence[frozenset[str]]
) -> Consequence | None:
    """What the title (`title`, without its prefixes) says changes for users, unless its scopes say
    the change is of examples, docs, tests or CI, or it names code: the consequence of the first
    form it takes (a rename, a default, a stabilisation, a removal), or None: a title of one form
    that fails that form's checks is not read as another."""
    title = title.strip()
    if _peripheral_scope(pull.title) or _of_code(title) or _FILE_NAME.search(title):
        return None
    # "deprecate vanilla mBridge and make Megatron Bridge default": each clause leads with its verb
    for clause in (title, *_CLAUSE.split(title)[1:]):
        for form in (_renamed, _default_flipped, _stabilised, _removed, _moved_to_a_plugin):
            taken, consequence = form(clause, pull.body or "", pull.files, kinds)
            if taken:
                return consequence
    return None


_CLAUSE = re.compile(r",?\s+and\s+(?=[a-z]+\b)", re.IGNORECASE)  # "…, and make X default"


def title_default_flip(
    pull: Pull, title: str, kinds: Sequence[frozenset[str]]
) -> Consequence | None:
    """The default the title says changed, read as every title consequence is
    (`_title_consequence`): the risk table's "changes the default of X" says the same as the key
    line, and neither says it of a default behind preview, one given where none was, a computed
    fallback, a change whose body says no API changes, or a title of code (a function, a file, an
    internal)."""
    said = _title_consequence(pull, title, kinds)
    return said if said and said.kind == "default-flip" and said.old != "preview" else None


def _renamed(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    rename = _RENAME.match(title)
    if rename is None:
        return False, None
    if not (_USER_WORD.search(title) or _dotted_or_setting(rename["old"])):
        return True, None
    old, new = _bare(rename["old"]), _bare(rename["new"])
    # what the name is, where the title says it after the name: "`trainer` arg" (verl #6724
    # renamed one argument, not everything called trainer)
    if thing := _USER_WORD.search(rename["words"]):
        old = f"the {old} {thing[0]}"
    return True, Consequence("rename", "title", what=old, old=old, new=new, quote=title)


def _default_flipped(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    # "default" of the title's words, not of a `--default-index` it names nor of a "non-default value"
    if not says_default_change(_NON_DEFAULT.sub("X", _QUOTED.sub("X", title))):
        return False, None
    # a default of examples, the playground, CI: no user's
    if (
        (kinds and all(k & PERIPHERAL_KINDS for k in kinds))
        or _NOT_FOR_USERS_YET.search(body)
        or _NOT_FOR_USERS_YET.search(title)
        or _DEFAULT_GIVEN.match(title)
        or _FALLBACK.match(title)
        or _NO_API_CHANGE.search(section_sentences(body, _API_SECTION))
    ):
        return True, None
    # "change default to calculate_log_probs=True"
    if assigned := _ASSIGNED_DEFAULT.search(title):
        what, new = assigned["what"], assigned["new"]
    else:
        what, new = default_setting(title), _default_value(title)
    return True, Consequence("default-flip", "title", what=what, new=new, quote=title)


# "Set default max_model_len": a default given to what had none, no value said; "default X to the
# processor's real patch_size in f": a fallback the code computes, not a value users see
# the body's "API and Usage" section saying nothing users write changes
_API_SECTION = re.compile(r"^\W*api(?: changes?)?(?: and usage(?: example)?)?\W*$", re.IGNORECASE)
_NO_API_CHANGE = re.compile(
    r"^\W*(?:no|none|n/?a)\b(?:\s+(?:api|interface|user-facing))?(?:\s+changes?)?\W*$",
    re.IGNORECASE,
)
_ASSIGNED_DEFAULT = re.compile(
    r"\bdefaults?\s+to\s+`?(?P<what>[a-z][\w.-]*)\s*=\s*(?P<new>[\w.'\"-]+)`?\s*$", re.IGNORECASE
)
_NON_DEFAULT = re.compile(r"\bnon-?default\b", re.IGNORECASE)
# a title ending with the rules it changes
_OF_A_RULE = re.compile(r"\(`?[A-Z]{1,5}\d{3,4}`?(?:,\s*`?[A-Z]{1,5}\d{3,4}`?)*\)\s*$")
_DEFAULT_GIVEN = re.compile(
    r"^(?:set|add)\w*\s+(?:a\s+)?default(?:\s+value)?\s+(?:(?:of|for)\s+)?[`\w.-]+\s*$",
    re.IGNORECASE,
)
_FALLBACK = re.compile(
    r"^default\s+[`\w.-]+\s+to\s+(?![`'\"\d]|(?:true|false|none)\b)(?:\S+\s+){2,}", re.IGNORECASE
)


def _stabilised(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    """Out of preview: what users had to opt into is on for all who select it."""
    stabilised = _STABILISE.match(title)
    if stabilised is None:
        return False, None
    what = stabilised["what"]
    if not (
        _PREVIEW.search(body) or _RULE_NAMED.search(what) or any("preview" in f.path for f in files)
    ):
        return True, None
    # what users get out changes shape
    kind = "format-change" if _OUTPUT.search(_QUOTED.sub("", what)) else "default-flip"
    return True, Consequence(kind, "title", what=what.strip(), old="preview", quote=title)


def _removed(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    removed = _REMOVAL.match(title)
    if removed is None or not _removes_what_users_had(removed["what"]) or _ELSEWHERE.search(title):
        return False, None
    if (
        _PREVIEW.search(title)  # "from the preview default set": what only preview users had
        # "Remove `airflow.x.y` (`AIR301`)": a name the rule no longer flags
        or ("." in removed["what"] and _OF_A_RULE.search(title))
        # a clean-up of examples removes nothing users have
        or not any(not k & _NOT_RUN and "examples" not in k for k in kinds)
        or _NEVER_USED.search(body)  # the author says nothing used what goes
    ):
        return True, None
    return True, Consequence(
        "removal", "title", what=_REMOVAL_END.split(removed["what"])[0].strip(), quote=title
    )


def _moved_to_a_plugin(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    """ "Move PDF generation to a plugin" (pelican #1010): it leaves the core, and a site that used
    it needs the plugin."""
    moved = _TO_A_PLUGIN.match(title)
    if moved is None:
        return False, None
    return True, Consequence("removal", "title", what=moved["what"].strip(), quote=title)


_TO_A_PLUGIN = re.compile(
    r"^mov\w*\s+(?P<what>.{2,60}?)\s+(?:out\s+)?(?:in)?to\s+(?:a|an|its\s+own)\s+"
    r"(?:separate\s+)?plugin\b",
    re.IGNORECASE,
)
_NEVER_USED = re.compile(
    r"\b(?:are|is|were|was|been)\s+(?:never|not)\s+(?:being\s+)?used\b", re.IGNORECASE
)
# a breaking section about the PR's own drafts ("the backend from earlier revisions of this PR no
# longer exists"): nothing a user had
_OWN_REVISIONS = re.compile(
    r"\b(?:earlier|previous|prior|older)\s+(?:revisions?|versions?|iterations?|drafts?)\s+of\s+this\s+(?:PR|pull request)\b",
    re.IGNORECASE,
)


# a Conventional Commits footer: "BREAKING CHANGE: Removes backward compatibility.", or the same
# said in bold behind a warning sign ("**⚠️ BREAKING CHANGE**: …"), its paragraph however wrapped
_FOOTER = re.compile(
    r"^\W{0,6}BREAKING[ -]CHANGES?\W{0,4}:\W{0,4}(?P<said>\w.{10,}(?:\n(?![ \t]*\n).+)*)$",
    re.MULTILINE,
)


def _footer(body: str) -> str:
    found = _FOOTER.search(body.replace("\r\n", "\n"))
    return summary_of(plain(" ".join(found["said"].split())), "") if found else ""


# A breaking marker ("[BREAKING]", "feat!:", a label, a footer) is the author's word that something
# breaks; verl asks for it on any API change, and features that only add opt-in options carry it
# too, as caution. The marker says what users must change only where the PR says what breaks: a
# consequence it states, a title that leads with taking away or moving what users have, or a
# sentence of its body that says something breaks, goes, is renamed or replaced, or no longer works.
_TAKES_AWAY = re.compile(
    r"^(?:remov|drop|delet|renam|mov(?:e|es|ed|ing)\b|deprecat|replac|chang|switch|get\s+rid|migrat)\w*",
    re.IGNORECASE,
)
_BREAKS = re.compile(
    r"\bbreak(?:s|ing)?\b|\bbroken\b|\bremov(?:e[sd]?|ing|al)\b|\brenam\w*|\bdeprecat\w*|\bmigrat\w*|"
    r"\bno longer\b|\breplac(?:e[sd]?|ing|ement)\b|\bincompatib\w*|\bbackwards?[- ]compat\w*",
    re.IGNORECASE,
)


def what_breaks(
    pull: Pull,
    title: str,
    said: Sequence[Consequence],
    template: frozenset[str] = frozenset(),
    repo: str = "",
) -> str:
    """The PR's own words on what its breaking marker breaks: a consequence it states (`said`, of
    consequences_of), its title (`title`, without its prefixes), or the first sentence of its body
    saying so; "" when it says nothing of it, and the marker is only the author's caution."""
    if said:
        return said[0].quote or said[0].what or title
    if _TAKES_AWAY.match(title.strip()):
        return title.strip()
    for sentence in _own_sentences(pull.body or "", template, repo, keep=BREAKING_SECTION):
        if _BREAKS.search(_QUOTED.sub("", sentence)) and not _NOT_BREAKING.search(sentence):
            return cap(plain(sentence))  # a list item may run on: the JSON keeps its start
    return ""


# a sentence telling users what to do: run a script, set or use something instead, migrate
_DOES = re.compile(
    r"\b(?:users?|you) (?:should|must|need to|have to|will need to)\b|\bplease (?:use|set|run|migrate|update|switch)\b|"
    r"\bto migrate\b|\bmigrat\w+ (?:by|with|using)\b|\brun (?:`[^`]+`|[\w./-]+\.(?:py|sh))|\buse `[^`]+` instead\b|"
    r"\bset `[^`]+`|\binstead,? (?:use|set)\b|^use [\w.`/-]+ instead\b|\bto (?:keep|restore|retain|preserve) the (?:old|previous|original|former) "
    r"behaviou?r\b|\bmigration (?:script|guide|tool)\b|\brun\b.{0,60}\bto (?:convert|migrate|upgrade)\b",
    re.IGNORECASE,
)
MIGRATION_SECTION = re.compile(
    r"^\W*(?:breaking\s*/\s*)?migration(?: guide| notes?| required| steps?)?\W*$|^\W*how to (?:migrate|upgrade)\W*$",
    re.IGNORECASE,
)


def mitigation_of(pull: Pull, template: frozenset[str] = frozenset(), repo: str = "") -> str:
    """The author's own words on what users do about the change: the first sentences of a
    "Migration" section, else the first sentence of the body that tells users to run, set or use
    something; "" when the PR says nothing of it (no advice is made up)."""
    if said := section_sentences(pull.body or "", MIGRATION_SECTION, template, repo):
        return said
    prose = description_text(pull.body or "", template, repo)
    for sentence in re.split(r"(?<=[.!?])\s+", prose):
        sentence = sentence.strip()
        if _DOES.search(sentence) and whole_sentence(sentence) == sentence and len(sentence) <= 280:
            # the author's sentence as written, never one cut where a link or code was
            return sentence
    return ""


def _removes_what_users_had(what: str) -> bool:
    if _CONDITION.search(what):
        return False
    removed = _OBJECT_END.split(_REMOVAL_END.split(what)[0].strip())[0].strip()
    return bool(
        _REMOVED_HEAD.search(removed)
        or _REMOVED_ANYWHERE.search(what)
        or _REMOVED_ANYWHERE.search(removed)
    )


def default_setting(title: str) -> str | None:
    """The setting a title names beside "default", never a value (`None`, `true`, `0`)."""
    named = (next(g for g in match.groups() if g) for match in DEFAULT_SETTING.finditer(title))
    return next((name for name in named if not LITERAL.fullmatch(name.strip())), None)


def _default_value(title: str) -> str | None:
    if match := _DEFAULT_VALUES.search(title):
        return _bare(match["new"] or match["to"])
    switched = _SWITCHED_BY_DEFAULT.search(title)
    if switched and not _NEGATED.search(title):
        return "on" if switched["how"].lower().startswith("enable") else "off"
    return None


# "disable division-by-zero by default" (ruff #18220), "Ignore `possibly-unresolved-reference` by default"
_SWITCHED_BY_DEFAULT = re.compile(
    r"\b(?P<how>enabled?|disabled?|ignored?)s?\b.*\bby default\b", re.IGNORECASE
)
_NEGATED = re.compile(r"\b(?:not|no longer|don'?t|never)\b", re.IGNORECASE)


def _dotted_or_setting(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]+|[a-z][\w-]*(?:\.[\w*-]+)+|--[\w-]+", _bare(name)))


def _bare(name: str) -> str:
    return name.strip().strip('`"').strip()
