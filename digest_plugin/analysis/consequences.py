"""Consequences: what a PR changes for its users (a default flipped, something removed or renamed), as
the PR itself says it, never guessed from its files.

Two places say it precisely enough to repeat (tests/corpora/consequences.jsonl measures them, rule
"consequence.stated" of claims.py):

- the title, when it leads with the change and names what users set: "Rename setting A → B",
  "Rename `src.root` setting to `environment.root`", "Change default REVERSE_ARCHIVE_ORDER to true",
  "Remove `--reference-links` parameter from pelican-import", "Drop Python 3.3 support",
  "Stabilize `UP044`" (out of preview: on for every user who selects it);
- the body's own "Breaking changes" or "Migration" section: its first sentences, quoted as the
  author's words, with no kind read into them.

A change only to docs, tests, examples or CI changes nothing users run: no consequence. Nor does a
change the body says is behind preview or not yet released.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from digest_plugin.analysis.classify import says_default_change
from digest_plugin.analysis.description import description_text, plain, section_sentences, summary_of, whole_sentence
from digest_plugin.analysis.model import Consequence
from digest_plugin.store.records import Pull

# a name users write: in backticks or quotes, a SETTING_NAME, a dotted key, a --flag
_NAME = r"`[^`=]{1,60}`|\"[^\"=]{1,60}\"|(?-i:\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{4,}\b)|\b[a-z][\w-]*(?:\.[\w*-]+)+\b|--[\w-]+"
_SETTING = r"(?-i:\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{4,}\b)|`?\b[a-z][\w-]*(?:\.[\w*-]+)+\b`?|`?--[\w-]+`?"  # a setting's own spelling
# what users set or select, said beside the name
_USER_THING = r"settings?|options?|flags?|arg(?:ument)?s?|parameters?|config(?:uration)?|keys?|rules?|lints?|error codes?|diagnostics?|directives?|(?:sub)?commands?|severity"
# code of the project's own insides: renaming or removing it changes nothing a user writes
_INTERNAL = re.compile(r"::|(?<![\w-])(?:internal\w*|struct|traits?|crates?|methods?|functions?|class(?:es)?|tests?|fields?|redundant|unused|dead|"
                       r"non-?existing|hack|references|mentions|comments|typos?|(?:dead|legacy|deprecated|old) codes?|helpers?|modules?|types?|imports?|prefix|suffix)(?![\w-])", re.IGNORECASE)
_CALL = re.compile(r"\w\(\)")  # `symbol_by_id()`: a function of the code
_FILE_NAME = re.compile(r"\.(?:toml|py|pyi|rs|txt|md|rst|ya?ml|json|cfg|ini|lock|sh|js|ts|html|css|ipynb)\b`?(?!\w)", re.IGNORECASE)  # a file, not a setting
_QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"")
_RENAME = re.compile(rf"^renam\w*\s+(?:the\s+)?(?:misleading\s+)?(?:(?:{_USER_THING})\s+)?(?P<old>{_NAME})(?:\s+[\w-]+){{0,3}}?\s*(?:to|→|->|=>)\s+(?P<new>{_NAME})",
                     re.IGNORECASE)
_USER_WORD = re.compile(rf"\b(?:{_USER_THING})\b", re.IGNORECASE)
_REMOVAL = re.compile(r"(?:^|\band\s+)(?:remov\w*|drop\w*|delet\w*)\s+(?P<what>.{2,80}?)\s*(?:[;(]|\.(?:\s|$)|$)", re.IGNORECASE)
# what a removal must name to be something users had, its last word saying what it is ("`--x` parameter",
# "PDF generation settings", "Python 3.3 support", not "`Preview` rule status"), or support for a
# version, a part of the core, a setting by its own spelling
_REMOVED_HEAD = re.compile(rf"\b(?:{_USER_THING}|support|reader|importer)`?$", re.IGNORECASE)
_REMOVED_ANYWHERE = re.compile(rf"^(?:explicit\s+)?support\s+for\b|\bpython\s+\d|\bfrom\s+(?:\w+\s+)?core\b|^(?:{_SETTING})$", re.IGNORECASE)
_ELSEWHERE = re.compile(r"\b(?:in|from)\s+(?:the\s+|all\s+)?(?:scripts?|examples?|docs?|documentation|tests?|ci|recipes?|notebooks?)\b", re.IGNORECASE)
_OBJECT_END = re.compile(r"\s+(?:from|in|of)\s+", re.IGNORECASE)
_REMOVAL_END = re.compile(r",|;|\s+in favou?r of\s|\s+and\s+(?:use|only|move)\b", re.IGNORECASE)  # what follows the removed thing
_CONDITION = re.compile(r"\b(?:when|if|unless|while)\b", re.IGNORECASE)  # "remove a call when …": a fix of what code it writes
_STABILISE = re.compile(r"^stabili[sz]\w*\s+(?P<what>.{2,100})$", re.IGNORECASE)
_PREVIEW = re.compile(r"\bpreview\b", re.IGNORECASE)
_OUTPUT = re.compile(r"\boutput\b|\bformats?\b", re.IGNORECASE)
_RULE_NAMED = re.compile(r"`[^`]+`|\b[A-Z]{1,4}\d{3,4}\b")  # what is stabilised is named: a rule, an option
_NOT_RUN = frozenset({"tests", "docs", "ci"})  # files no user runs (examples and their configuration are copied)
# a default change that reaches no user yet: behind preview, or of something not released
_NOT_FOR_USERS_YET = re.compile(r"\b(?:in|under|behind|with|only in)\s+(?:global\s+)?(?:the\s+)?preview\b|--preview\b|not (?:yet )?(?:been )?released|"
                                r"\bunreleased\b|\bfor now\b.{0,40}\bpreview\b", re.IGNORECASE)
# the setting a title names beside "default": `max_num_seqs`, "default of X", "X by default"
# (or "default content status to": what comes between), never a value in backticks (`None`, `true`, `0`)
DEFAULT_SETTING = re.compile(r"`([^`]{1,60})`|\bdefault(?:\s+value)?\s+(?:of|for)\s+([\w.-]+)|\b(?:enable|disable|use)s?\s+([\w.-]+)\s+by default"
                             r"|\bdefault\s+(?!values?\b)((?:[A-Za-z][\w.-]*\s+){0,2}[A-Za-z][\w.-]*)\s+(?:to|from)\b", re.IGNORECASE)
LITERAL = re.compile(r"none|null|nil|true|false|yes|no|-?\d[\d.]*|[\"'].*[\"']|\[\]|\{\}|", re.IGNORECASE)
_DEFAULT_VALUES = re.compile(r"\bfrom\s+(?P<old>`[^`]+`|[\w.-]+)\s+to\s+(?P<new>`[^`]+`|[\w.-]+)|\bto\s+(?P<to>`[^`]+`|[\w.'\"-]+)\s*$", re.IGNORECASE)
# the body's own section on what breaks or what to do: "Breaking changes", "⚠️ Breaking", "Migration guide"
BREAKING_SECTION = re.compile(r"^\W*(?:(?:api changes \()?breaking(?: changes?| apis?)?\)?(?: affecting all users)?(?:\s*/\s*migration(?: notes?)?)?"
                              r"|migration(?: guide| notes?| required)?)\W*$", re.IGNORECASE)
# a section that says nothing breaks
_NOTHING = re.compile(r"^(?:none|n/?a|no\b|nothing|not applicable|-+$)|\bno breaking\b|\bbackwards?[- ]compatible\b|\bnot a breaking\b|"
                      r"\bno (?:user-facing|api) changes?\b", re.IGNORECASE)


def consequences_of(pull: Pull, title: str, kinds: Sequence[frozenset[str]], template: frozenset[str] = frozenset(),
                    repo: str = "") -> tuple[Consequence, ...]:
    """What `pull` says it changes for users: from its title (`title`, without its prefixes) and its
    body's breaking or migration section. `kinds` are its files' kinds (rules.files_of): a PR that
    changes only docs, tests, examples, scripts or CI changes nothing users run."""
    if kinds and all(k & _NOT_RUN and "config" not in k for k in kinds):
        return ()
    found = [c for c in (_from_title(title.strip(), pull.body or "", pull.files, kinds),) if c is not None]
    said = section_sentences(pull.body or "", BREAKING_SECTION, template, repo) or _footer(pull.body or "")
    if said and not _NOTHING.search(said):
        found.append(Consequence(None, "body", quote=said))
    return tuple(found)


def _from_title(title: str, body: str, files, kinds: Sequence[frozenset[str]]) -> Consequence | None:
    """The consequence of the first form the title takes (a rename, a default, a stabilisation, a
    removal), or None: a title of one form that fails that form's checks is not read as another."""
    if "::" in title or _CALL.search(title) or _FILE_NAME.search(title) or _INTERNAL.search(_QUOTED.sub("", title)):
        return None
    for form in (_renamed, _default_flipped, _stabilised, _removed):
        taken, consequence = form(title, body, files, kinds)
        if taken:
            return consequence
    return None


def _renamed(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    rename = _RENAME.match(title)
    if rename is None:
        return False, None
    if not (_USER_WORD.search(title) or _dotted_or_setting(rename["old"])):
        return True, None
    old, new = _bare(rename["old"]), _bare(rename["new"])
    return True, Consequence("rename", "title", what=old, old=old, new=new, quote=title)


def _default_flipped(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    if not says_default_change(_QUOTED.sub("X", title)):  # "default" of the title's words, not of a `--default-index` it names
        return False, None
    if _NOT_FOR_USERS_YET.search(body):
        return True, None
    return True, Consequence("default-flip", "title", what=default_setting(title), new=_default_value(title), quote=title)


def _stabilised(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    """Out of preview: what users had to opt into is on for all who select it."""
    stabilised = _STABILISE.match(title)
    if stabilised is None:
        return False, None
    if not (_PREVIEW.search(body) or _RULE_NAMED.search(stabilised["what"]) or any("preview" in f.path for f in files)):
        return True, None
    kind = "format-change" if _OUTPUT.search(_QUOTED.sub("", stabilised["what"])) else "default-flip"  # what users get out changes shape
    return True, Consequence(kind, "title", what=stabilised["what"].strip(), old="preview", quote=title)


def _removed(title: str, body: str, files, kinds) -> tuple[bool, Consequence | None]:
    removed = _REMOVAL.match(title)
    if removed is None or not _removes_what_users_had(removed["what"]) or _ELSEWHERE.search(title):
        return False, None
    if not any(not k & _NOT_RUN and "examples" not in k for k in kinds):  # a clean-up of examples removes nothing users have
        return True, None
    return True, Consequence("removal", "title", what=_REMOVAL_END.split(removed["what"])[0].strip(), quote=title)


# a Conventional Commits footer: "BREAKING CHANGE: Removes backward compatibility."
_FOOTER = re.compile(r"^\W{0,4}BREAKING[ -]CHANGES?\W{0,4}:\W{0,4}(?P<said>\w.{10,})$", re.MULTILINE)


def _footer(body: str) -> str:
    found = _FOOTER.search(body)
    return summary_of(plain(found["said"]), "") if found else ""


# a sentence telling users what to do: run a script, set or use something instead, migrate
_DOES = re.compile(r"\b(?:users?|you) (?:should|must|need to|have to|will need to)\b|\bplease (?:use|set|run|migrate|update|switch)\b|"
                   r"\bto migrate\b|\bmigrat\w+ (?:by|with|using)\b|\brun (?:`[^`]+`|[\w./-]+\.(?:py|sh))|\buse `[^`]+` instead\b|"
                   r"\bset `[^`]+`|\binstead,? (?:use|set)\b|^use [\w.`/-]+ instead\b|\b(?:should|must) (?:now )?use\b|\bto (?:keep|restore|retain|preserve) the (?:old|previous|original|former) "
                   r"behaviou?r\b|\bmigration (?:script|guide|tool)\b|\brun\b.{0,60}\bto (?:convert|migrate|upgrade)\b", re.IGNORECASE)
MIGRATION_SECTION = re.compile(r"^\W*(?:breaking\s*/\s*)?migration(?: guide| notes?| required| steps?)?\W*$|^\W*how to (?:migrate|upgrade)\W*$", re.IGNORECASE)


def mitigation_of(pull: Pull, template: frozenset[str] = frozenset(), repo: str = "") -> str:
    """The author's own words on what users do about the change: the first sentences of a
    "Migration" section, else the first sentence of the body that tells users to run, set or use
    something; "" when the PR says nothing of it (no advice is made up)."""
    said = section_sentences(pull.body or "", MIGRATION_SECTION, template, repo)
    if said:
        return said
    prose = description_text(pull.body or "", template, repo)
    for sentence in re.split(r"(?<=[.!?])\s+", prose):
        sentence = sentence.strip()
        if _DOES.search(sentence) and whole_sentence(sentence) == sentence and len(sentence) <= 280:
            return sentence  # the author's sentence as written, never one cut where a link or code was
    return ""


def _removes_what_users_had(what: str) -> bool:
    if _CONDITION.search(what):
        return False
    removed = _OBJECT_END.split(_REMOVAL_END.split(what)[0].strip())[0].strip()
    return bool(_REMOVED_HEAD.search(removed) or _REMOVED_ANYWHERE.search(what) or _REMOVED_ANYWHERE.search(removed))


def default_setting(title: str) -> str | None:
    """The setting a title names beside "default", never a value (`None`, `true`, `0`)."""
    named = (next(g for g in match.groups() if g) for match in DEFAULT_SETTING.finditer(title))
    return next((name for name in named if not LITERAL.fullmatch(name.strip())), None)


def _default_value(title: str) -> str | None:
    match = _DEFAULT_VALUES.search(title)
    if match is None:
        return None
    return _bare(match["new"] or match["to"])


def _dotted_or_setting(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]+|[a-z][\w-]*(?:\.[\w*-]+)+|--[\w-]+", _bare(name)))


def _bare(name: str) -> str:
    return name.strip().strip("`\"").strip()
