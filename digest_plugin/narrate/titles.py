"""PR titles as prose: the leading verb found, so that a title can be said in a sentence.

A title such as "[rollout] feat: add async weight sync" becomes, in English, the predicate "adds
async weight sync" ("#12 adds async weight sync"): the "[scope] type:" prefix goes and the leading
verb agrees with the PR as subject. In Chinese a title is translated only when every word of it is
known to the rules (`chinese.py`): "Fix typo in the README" -> "在 README 中修复拼写错误", names and
code kept as written. Otherwise it is not spliced into Chinese grammar: a Chinese sentence says its
leading verb in Chinese and quotes the rest as written (`framed_title`: "新增「async weight sync」"),
or without a verb to say quotes it whole (「Async weight sync」); a list shows it as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from digest_plugin.analysis.description import capitalised
from digest_plugin.narrate.chinese import HAN, WORDS, join, noun_phrase, predicate, tidy
from digest_plugin.narrate.verbs import FORMS, VERBS, word_pairs

# A title's module prefix ("[trainer, data] "), conventional-commit type ("fix: ", "feat(parser)!: ").
_MODULE_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\]\s*)+(?::\s*)?")  # "[ruff]: Build X" too
_TYPE_PREFIX = re.compile(r"^([A-Za-z]+)(?:\(([^)]*)\))?!?:\s+")
# "Megatron: Support X", "flowgrpo - add X": a short scope before a colon or a dash
_SCOPE_PREFIX = re.compile(r"^([\w.\-/ ]{1,30}?)(?::|\s+[-–—])\s+(?=\S)")
_TITLE_TYPES = set(
    "feat fix refactor perf docs doc test tests ci build chore revert style misc".split()
)

# verbs with a particle: "clean up X", "speed up X" (the particle has no word of its own in Chinese)
_PARTICLES = word_pairs("clean=up speed=up set=up tidy=up split=up tighten=up")
# "update X to 2.0", "bump X from 1.2 to 2.0"
_UPGRADE = re.compile(
    r"^(?P<what>.+?)\s+(?:from\s+(?P<old>v?\d[\w.\-+]*)\s+)?to\s+(?P<new>v?\d[\w.\-+]*)\s*$",
    re.IGNORECASE,
)
# a merge commit's title, as old imports have them: "Merge pull request #12 from owner/feature/x"
_MERGE_TITLE = re.compile(
    r"^Merge pull request #\d+ from (?P<owner>[^/\s]+)/(?P<branch>\S+)$", re.IGNORECASE
)
_AND_VERB = re.compile(r"(\b(?:and|then)|,|\s&)\s+([a-z]+)\b")
# verbs whose "to" says where: said with their Chinese preposition
_TOWARDS = word_pairs("""
    migrate=迁移到 move=移到 rename=重命名为 switch=切换到 set=设置为 change=改为 convert=转换为
    pass=传给
""")
# verbs that are not also nouns: "… and fix Y" starts a second predicate, "… and return type" does not
_CLEAR_VERBS = frozenset(
    """
    add fix remove update improve support use enable disable rename deprecate delete drop refactor
    introduce implement avoid simplify move clean make allow bump upgrade replace migrate handle
    ensure prevent restore skip ignore
    """.split()
)
_SMALL_WORDS = frozenset("for and the of to in on with from a an by at or".split())
_TWO_UPGRADES = re.compile(
    r"^(?P<first>.+?\s+to\s+v?\d[\w.\-+]*)\s+and\s+(?P<second>.+?\s+to\s+v?\d[\w.\-+]*)$",
    re.IGNORECASE,
)
# words that say what kind of package the next word names: "Update Rust crate log to 0.4"
_PACKAGE_KINDS = frozenset(("crate", "package", "dependency", "library", "plugin", "module"))
_VERSION = re.compile(r"v?\d+(?:\.\d+)+[\w.+-]*")
_TRAILING_CODES = re.compile(r"\s*\((?P<codes>`[^`]+`(?:\s*,\s*`[^`]+`)*)\)\s*$")
_INSTEAD = re.compile(r"^(?P<what>.+?)\s+instead\s+of\s+(?P<old>.+)$", re.IGNORECASE)
_SUPPORT_FOR = re.compile(r"^support\s+for\s+(?P<what>.+)$", re.IGNORECASE)
_TRAILING_SUPPORT = re.compile(r"^(?P<what>.+?)\s+support$", re.IGNORECASE)
# what follows "Support" as a noun: "Support of dist checkpoint", "support for the new sampler"
_SUPPORTED = re.compile(r"^(?:for|of)\s+(?P<what>\S.*)$", re.IGNORECASE)
# type words said in Chinese when the title has no verb of its own: "fix: crash on empty input"
_TYPE_WORDS_ZH = word_pairs(
    "fix=修复： feat=新功能： docs=文档： doc=文档： refactor=重构： perf=性能优化："
)


@dataclass(frozen=True)
class Clause:
    """A title taken apart: scope ("Megatron"), change type ("fix"), leading verb ("add") and the rest."""

    text: str  # the title without its "[module] type:" prefix, as written
    verb: str | None  # the base form of the leading verb, when it is one of VERBS
    rest: str  # what follows the verb (or the whole text without a scope)
    scope: str | None = None
    kind: str | None = None


def clause(title: str) -> Clause:
    """`title` taken apart for prose; unknown shapes keep the text and have no verb."""
    text = _MODULE_PREFIX.sub("", title, count=1)
    kind = None
    typed = _TYPE_PREFIX.match(text)
    if typed and typed[1].lower() in _TITLE_TYPES:
        kind, text = typed[1].lower(), text[typed.end() :]
    text = " ".join(text.split()).rstrip(".") or " ".join(title.split())
    scoped = _SCOPE_PREFIX.match(text)
    scope, rest = (
        (scoped[1].strip(), text[scoped.end() :])
        if scoped and _verb_of(text[scoped.end() :])
        else (None, text)
    )
    verb = _verb_of(rest)
    after = rest.split(None, 1)[1] if verb and " " in rest else ""
    if not after:  # "Fix" alone, or no known verb: the text as written
        return Clause(text, None, text, None, kind)
    return Clause(text, verb, after, scope, kind)


def first_change(rest: str) -> str:
    """What a clause's verb acts on, up to a second verb: "pyproj.toml and fix tensordict req" ->
    "pyproj.toml"."""
    second = next((m for m in _AND_VERB.finditer(rest) if _verb_of(m[2])), None)
    return rest[: second.start()].rstrip() if second else rest


def _verb_of(text: str) -> str | None:
    first = text.split(None, 1)[0].lower() if text.split() else ""
    base = FORMS.get(first, first)
    return base if base in VERBS else None


def merged_branch(title: str) -> str | None:
    """The branch a merge commit's title names ("Merge pull request #12 from owner/feature/x" ->
    "feature/x"), a fork's default branch with its owner ("clockback/main": "main" alone reads as
    the project's own, pelican #3473); None for any other title."""
    merged = _MERGE_TITLE.match(title.strip())
    if not merged:
        return None
    branch = merged["branch"]
    return f"{merged['owner']}/{branch}" if _DEFAULT_BRANCH.fullmatch(branch) else branch


def feature_branch(title: str) -> str | None:
    """A merge commit's branch where it names the change ("remove-icons"), not a default branch."""
    merged = _MERGE_TITLE.match(title.strip())
    return merged["branch"] if merged and not _DEFAULT_BRANCH.fullmatch(merged["branch"]) else None


def display_title(title: str) -> str:
    """A PR title for an English list: without its "[module] type:" prefix, as written otherwise,
    capitalised unless it starts with code ("sys.implementation.version is not …", ruff #25608)."""
    text = clause(title).text
    return capitalised(text) if text[:1].isascii() else text


def english_predicate(title: str) -> str | None:
    """ "adds async weight sync" for "[rollout] feat: Add async weight sync"; None without a known verb."""
    branch = merged_branch(title)
    if branch:
        return f"merges the branch {branch}"
    parts = clause(title)
    if parts.verb is None:
        return (
            f"fixes {parts.text[0].lower() + parts.text[1:]}"
            if parts.kind == "fix" and not parts.text[:2].isupper()
            else None
        )
    # "Support of dist checkpoint": a noun, not "supports of"
    support = _SUPPORTED.match(parts.rest)
    if parts.verb == "support" and support:
        predicate = f"adds support for {support['what']}"
        return f"{predicate} ({parts.scope})" if parts.scope else predicate
    # "add X and fix Y": every verb of the clause agrees with the PR as subject
    rest = _AND_VERB.sub(
        lambda m: f"{m[1]} {VERBS[m[2].lower()][0]}" if m[2].lower() in VERBS else m[0], parts.rest
    )
    predicate = f"{VERBS[parts.verb][0]} {rest}"
    return f"{predicate} ({parts.scope})" if parts.scope else predicate


def translated_title(title: str) -> str | None:
    """The title in Chinese where the rules translate every word of it ("将 CI 迁移到 uv",
    "在 README 中修复拼写错误"); None where they cannot, and it is to be quoted instead."""
    branch = merged_branch(title)
    if branch:
        return f"合入分支 {branch}"
    parts = clause(title)
    scope = ""
    if parts.scope:
        scope = noun_phrase(parts.scope) or ""
        if not scope:
            return None
        scope += "："
    reverted = (
        re.fullmatch(r'"(?P<title>.+)"', parts.rest.strip()) if parts.verb == "revert" else None
    )
    if reverted:  # 'Revert "[ty] Emit X"': the reverted title, translated or quoted
        return tidy(f"{scope}回退{chinese_title(reverted['title'])}")
    if _title_case(parts.rest):
        return None  # "Remove Deprecated Optimizer Args": no capital tells a name from a word
    code = _TRAILING_CODES.search(parts.rest)  # "(`RUF065`)" names the whole change: said last
    if code and "(`" in parts.rest[: code.start()]:
        return None  # "A (`UP045`) and B (`UP007`)": each code names one part
    rest = parts.rest[: code.start()] if code else parts.rest
    said = (
        _without_verb(replace(parts, rest=rest))
        if parts.verb is None
        else _chinese_predicate(parts.verb, rest)
    )
    return tidy(scope + said + (f"（{code['codes']}）" if code else "")) if said else None


def _title_case(text: str) -> bool:
    """Several plain words capitalised, a known one among them: "Expand Semantic Syntax Coverage"."""
    words = re.findall(r"(?<![`\w'-])[A-Z][a-z]+(?![`\w'-])", text)
    return len(words) >= 2 and any(w.lower() in WORDS or w.lower() in _SMALL_WORDS for w in words)


def _without_verb(parts: Clause) -> str | None:
    """ "X support" -> "支持 X"; "fix: X" -> "修复：X" where X translates; other titles that start
    without a verb are names or noun phrases whose first word's capital says nothing: not said."""
    support = _TRAILING_SUPPORT.match(parts.rest)
    if support:
        what = noun_phrase(support["what"], sentence_start=True)
        return join(["支持", what]) if what else None
    if parts.kind in _TYPE_WORDS_ZH:
        what = noun_phrase(parts.rest, sentence_start=True)
        return _TYPE_WORDS_ZH[parts.kind] + what if what else None
    return None


# titles led by a noun that say a verb: "Initial implementation of X" is "初步实现 X"
# ("Don't store X": 不再「store X」; "Rm", "Fixup": abbreviations no English sentence would say;
# "New rule X", not "New engine saves X", a clause)
_NOUN_OPENINGS = tuple(
    (re.compile(f"^{opening}", re.IGNORECASE), chinese)
    for opening, chinese in [
        *word_pairs(r"""
            initial\s+implementation\s+(?:of|for)\s+=初步实现
            initial\s+support\s+(?:of|for)\s+=初步支持
            (?:improvements?|enhancements?)\s+(?:to|for|of)\s+=改进 (?:don'?t|do\s+not)\s+=不再
            bug\s*fix(?:es)?\s+(?:for|in|of|on)\s+=修复 better\s+=改进 fall\s*back\s+to\s+=回退到
            get\s+rid\s+of\s+=去除 rm\s+=移除 fix-?up\s+=修正
        """).items(),
        (r"new\s+(?=(?:lint\s+)?(?:rule|diagnostic|option|setting|command)s?\b)", "新增"),
    ]
)
# titles that end in the noun of what they do: "VLLM Lora sync index misalignment fix" is 修复「…」
_NOUN_ENDINGS = tuple(
    (re.compile(rf"\s+(?:{noun})$", re.IGNORECASE), chinese)
    for noun, chinese in word_pairs(r"""
        support=支持 (?:bug\s*)?fix(?:es)?=修复 improvements?=改进 refactor(?:ing)?=重构
        clean-?up=清理 optimi[sz]ations?=优化
    """).items()
)
# verbs not framed: "Follow aliases" is not 遵循 them; 'Revert "X"' quotes another PR's title
_UNFRAMED = re.compile(r"^follow\b|^revert\s+[\"“']", re.IGNORECASE)
_VERSION_VERBS = frozenset(("update", "upgrade", "bump", "pin", "downgrade"))
# adverbs a title may start with, said before its verb: "Lazily infer X" is 惰性推断「X」
_ADVERBS = word_pairs("""
    correctly=正确 lazily=惰性 always=始终 also=同时 only=仅 temporarily=暂时 further=进一步
    gracefully=妥善 properly=正确 explicitly=显式 automatically=自动
""")
# verbs said only over a quotation: "Make X configurable" is 使「X configurable」, whose words the
# rules could not put in Chinese order; "Document X" 为「X」补充文档, as translated whole
_FRAMING_ONLY = {"make": "使", "document": "为{}补充文档", "parenthesize": "为{}加括号"}
_PROBLEM = re.compile(
    r"#\d+|\b(?:issues?|errors?|oom|bugs?|problems?|conflicts?|warnings?|broken|missing|stuck|ambiguity|crash\w*)\b",
    re.IGNORECASE,
)
_DEFAULT_BRANCH = re.compile(r"(?:master|main|develop|dev|patch-\d+)", re.IGNORECASE)
_DEFAULTED = re.compile(r"^default\s+(?:(?P<what>.+?)\s+)?to\s+(?!help\b)(?P<to>\S.*)$", re.I)
FRAMED_LONGEST = 120  # characters of English a framed title keeps; a longer one is not said so


def framed_title(title: str) -> str | None:
    """A title the rules cannot translate whole, said by its leading verb in Chinese and the rest
    quoted as written: "[ty] Fix panic for unclosed string literal" -> "修复「panic for unclosed
    string literal」". The sentence is Chinese, and what it quotes is the author's. None without a
    known verb or opening (a "fix: X" would be the title again), or where the rest is long."""
    if merged_branch(title):  # "合入分支 X" is true of every merge: its facts say more
        return None
    parts = clause(title)
    if len(parts.rest) > FRAMED_LONGEST or HAN.search(parts.rest):
        return None
    said = _framed(parts)
    if said is None:
        return None
    if not parts.scope:
        return tidy(said)
    # a scope is said as a title's would be: its words in Chinese, names as written, else quoted
    scope = noun_phrase(parts.scope) or f"「{parts.scope}」"
    return tidy(f"{scope}：{said}")


def _framed(parts: Clause) -> str | None:
    """ "新增「X」", and each verb of "add X and make Y default" said over its own words
    ("弃用「X」，并…"), never one verb over both; None where a verb has no Chinese."""
    chinese, rest = _leading_verb(parts)
    rest = re.sub(r"^(?:the|an?)\s+", "", rest, flags=re.IGNORECASE).strip()
    if said := _said_with_two_quotes(parts, rest):
        return said
    if chinese is None or not rest:
        return None
    if ";" in rest:
        return _two_changes(parts.verb, rest)
    if re.fullmatch(r"(?:it\s+)?by\s+default", rest, re.IGNORECASE) and "{" not in chinese:
        return f"默认{chinese}"  # "disable by default" has no object to quote (pelican #1747)
    # "upgrade X and Y, add Z": the first "and" a clear verb follows
    joined = next((j for j in _AND_VERB.finditer(rest) if j[2].lower() in _CLEAR_VERBS), None)
    if joined:
        first = rest[: joined.start()].rstrip(" ,")
        second = _framed(clause(rest[joined.start(2) :]))
        return f"{_quoted(chinese, first)}，并{second}" if first and second else None
    support = _SUPPORT_FOR.match(rest) if parts.verb in ("add", "complete") else None
    if support:  # "add support for X": 新增对「X」的支持; "complete support for X": 完善对…
        return f"{chinese}对「{support['what']}」的支持"
    moved = re.match(r"^(?P<what>.+?)\s+to\s+(?P<where>\S.*)$", rest, re.IGNORECASE)
    # "move CI to uv"; not "change the way to compute X", whose "to" opens a verb
    if (
        parts.verb in _TOWARDS
        and moved
        and "=" not in moved["what"]
        and not _verb_of(moved["where"])
    ):
        return f"将「{moved['what']}」{_TOWARDS[parts.verb]}「{moved['where']}」"
    return _quoted(chinese, rest)


def _two_changes(verb: str | None, rest: str) -> str | None:
    """ "move X to Y; move Z to W": each change said over its own words, where the second would
    have read as the first's target (verl #1392)."""
    before, _, after = rest.partition(";")
    each = [_framed(clause(f"{verb} {before}")), _framed(clause(after.strip()))]
    framed = [part for part in each if part]
    return "；".join(framed) if len(framed) == len(each) else None


def _said_with_two_quotes(parts: Clause, rest: str) -> str | None:
    """ "Treat X as Y", "Consider X as Y": 将「X」视为「Y」, not 考虑 (ruff #13305); "Default X to Y":
    将「X」的默认值改为「Y」, "Default to Y": 默认使用「Y」 (not "default VSCode settings to help …")."""
    treated = re.match(r"^(?P<what>.+?)\s+as\s+(?P<as>\S.*)$", rest, re.IGNORECASE)
    if parts.verb in ("treat", "consider") and treated:
        return f"将「{treated['what']}」视为「{treated['as']}」"
    defaulted = _DEFAULTED.match(parts.text) if parts.verb is None else None
    if defaulted and not _verb_of(to := defaulted["to"]):
        what = defaulted["what"]
        return f"将「{what}」的默认值改为「{to}」" if what else f"默认使用「{to}」"
    return None


def _quoted(chinese: str, words: str) -> str:
    """The Chinese verb said over the quoted words, before them or around them ("为{}补充文档")."""
    return chinese.format(f"「{words}」") if "{}" in chinese else f"{chinese}「{words}」"


def _leading_verb(parts: Clause) -> tuple[str | None, str]:
    """The Chinese verb a title starts with and what follows it: "clean up X" is 清理 X, "switch to
    X" 切换到 X, "Initial support for X" 初步支持 X; None where there is none to say."""
    verb, rest = parts.verb, parts.rest
    lower = rest.lower()
    if verb is None:
        return _opening(parts)
    if _UNFRAMED.match(f"{verb} {rest}"):
        return None, rest
    if verb == "make" and lower.startswith("sure "):
        return VERBS["ensure"][1], rest[5:]
    if verb in _FRAMING_ONLY:
        return _FRAMING_ONLY[verb], rest
    if verb == "resolve":  # a problem is solved (verl's "resolve oom …"), a name looked up (ty's)
        return ("解决" if _PROBLEM.search(rest) else "解析"), rest
    if verb == "recover" and lower.startswith("from "):  # a parser's "recover from X"
        return "从{}中恢复", rest[5:]
    if verb in _PARTICLES and lower.startswith(_PARTICLES[verb] + " "):
        return VERBS[verb][1], rest[len(_PARTICLES[verb]) + 1 :]
    if verb in _TOWARDS and lower.startswith("to "):
        return _TOWARDS[verb], rest[3:]
    if lower.startswith("to "):  # "upgrade to torch 2.7" is 升级到, "refactor to use X" not said
        return (f"{VERBS[verb][1]}到", rest[3:]) if verb in _VERSION_VERBS else (None, rest)
    supported = _SUPPORTED.match(rest) if verb == "support" else None
    if supported:
        return VERBS[verb][1], supported["what"]
    return VERBS[verb][1], rest


def _opening(parts: Clause) -> tuple[str | None, str]:
    """What a title without a leading verb opens or ends with that says one: an adverb and its verb
    ("Lazily infer X": 惰性推断), or a noun ("Initial support for X": 初步支持; "X fix": 修复)."""
    adverb, _, after = parts.text.partition(" ")
    led = VERBS.get(_verb_of(after) or "", ("", None))[1] if adverb.lower() in _ADVERBS else None
    if led:
        return _ADVERBS[adverb.lower()] + led, after.partition(" ")[2]
    opening = next((o for o in _NOUN_OPENINGS if o[0].match(parts.text)), None)
    if opening:
        return opening[1], opening[0].sub("", parts.text, count=1)
    # "Qwen3.5 LoRA & MTP support": 支持「Qwen3.5 LoRA & MTP」
    ending = next((e for e in _NOUN_ENDINGS if e[0].search(parts.text)), None)
    return (ending[1], ending[0].sub("", parts.text)) if ending else (None, parts.rest)


def chinese_title(title: str) -> str:
    """The title for a Chinese sentence: translated, or else quoted whole as written (「…」), never
    half translated."""
    return translated_title(title) or f"「{display_title(title)}」"


def _chinese_predicate(verb: str, rest: str) -> str | None:
    """What "{verb} {rest}" says, in Chinese; None when a word of it is not known."""
    chinese = VERBS[verb][1]
    particle = _PARTICLES.get(verb)
    if particle and rest.lower().startswith(particle + " "):
        rest = rest[len(particle) + 1 :]
    joined = _AND_VERB.search(rest)
    if joined and joined[2].lower() in _CLEAR_VERBS:  # "add X and fix Y": each said, joined by 并
        first = _chinese_predicate(verb, rest[: joined.start()].rstrip(" ,"))
        second_verb = _verb_of(joined[2])
        assert second_verb is not None  # a clear verb is one of VERBS
        second = _chinese_predicate(second_verb, rest[joined.end() :].strip())
        return f"{first}，并{second}" if first and second else None
    if chinese is None:
        return None
    if verb in _VERSION_VERBS:
        versions = _versions_said(verb, rest)
        if versions is not _NO_SHAPE:
            return versions
    if verb in _TOWARDS:
        return _towards(verb, rest)
    shaped = _shaped(verb, rest)
    if shaped is not _NO_SHAPE:
        return shaped
    if verb == "support" and rest.lower().startswith("for "):
        rest = rest[4:]
    if verb == "add" and re.match(r"(?:an?\s+)?new\s", rest, re.IGNORECASE):
        rest = re.sub(r"^(?:an?\s+)?new\s+", "", rest, flags=re.IGNORECASE)  # "新增" says it is new
    return predicate(verb, chinese, rest)


_NO_SHAPE = "not this shape"  # the title has not the shape asked about (None: it has, and does not translate)


def _versions_said(verb: str, rest: str) -> str | None:
    """ "Bump 0.11.3", "X to 2.0", "X to 1.85 and Y to 1.87" in Chinese; _NO_SHAPE when `rest` names no version."""
    if verb == "bump" and _VERSION.fullmatch(rest):
        return f"版本号升至 {rest}"  # "Bump 0.11.3": the project's own version
    both = _TWO_UPGRADES.match(rest)  # "MSRV to 1.85 and toolchain to 1.87"
    if both:
        first, second = (_chinese_predicate(verb, part) for part in (both["first"], both["second"]))
        return f"{first}，并{second}" if first and second else None
    upgrade = _UPGRADE.match(rest)
    return _version_change(verb, upgrade) if upgrade else _NO_SHAPE


def _shaped(verb: str, rest: str) -> str | None:
    """The few shapes with a word order of their own: "document X", "add support for X", "use X
    instead of Y"; _NO_SHAPE for any other."""
    if verb == "document":
        what = noun_phrase(rest)
        return f"为 {what} 补充文档" if what else None
    support = _SUPPORT_FOR.match(rest) if verb == "add" else None
    if support:
        what = noun_phrase(support["what"])
        return f"新增对 {what} 的支持" if what else None
    instead = _INSTEAD.match(rest) if verb in ("use", "prefer") else None
    if instead:
        new, old = noun_phrase(instead["what"]), noun_phrase(instead["old"])
        return f"改用 {new} 代替 {old}" if new and old else None
    return _NO_SHAPE


def _version_change(verb: str, upgrade: re.Match) -> str | None:
    """ "Update Rust crate clap to v4.5.40" -> "将 Rust 包 clap 更新到 v4.5.40": the last word before
    the versions names the package, whatever its case, and the words before it must be known."""
    what_text = re.sub(r"^(?:the\s+)?", "", upgrade["what"], flags=re.IGNORECASE)
    words = what_text.split()
    # "Rust crate log", "dependency cache": the word after the kind of package is its name, even a common word
    named = words[-1] if len(words) >= 2 and words[-2].lower() in _PACKAGE_KINDS else None
    what = noun_phrase(what_text, names=frozenset((named,))) if named else noun_phrase(what_text)
    packages = [
        w
        for w in what_text.split()
        if re.fullmatch(r"[\w.\-\[\]/]+", w)
        and w.lower() not in WORDS
        and w.lower() not in _SMALL_WORDS
    ]
    # one word may be the package's own name
    for word in reversed(packages) if what is None else ():
        what = noun_phrase(what_text, names=frozenset((word,)))
        if what:
            break
    if what is None:
        return None
    # "update" says no direction (the version claims are silent): only "bump" and "upgrade" go up
    target = {"pin": "固定为", "downgrade": "降级到", "update": "更新到"}.get(verb, "升级到")
    if upgrade["old"]:
        return f"将 {what} 从 {upgrade['old']} {target} {upgrade['new']}"
    return f"将 {what} {target} {upgrade['new']}"


def _towards(verb: str, rest: str) -> str | None:
    """ "migrate to X" -> "迁移到 X", "rename X to Y" -> "将 X 重命名为 Y"; None without a "to"."""
    chinese = _TOWARDS[verb]
    if ";" in rest:  # a second change after it would read as the target (verl #1392)
        return None
    target = re.match(r"^to\s+(?P<new>\S.*)$", rest, re.IGNORECASE)
    if target:
        new = noun_phrase(target["new"])
        return join([chinese, new]) if new else None
    moved = re.match(r"^(?P<what>.+?)\s+to\s+(?P<new>\S.*)$", rest, re.IGNORECASE)
    if moved and "=" in moved["what"]:
        return None  # "set X=1.0 to Y" passes a value to Y: it does not set X to Y
    if moved:
        what, new = noun_phrase(moved["what"]), noun_phrase(moved["new"])
        return f"将 {what} {chinese} {new}" if what and new else None
    return predicate(verb, own, rest) if (own := VERBS[verb][1]) else None
