"""PR titles as prose: the leading verb found, so that a title can be said in a sentence.

A title such as "[rollout] feat: add async weight sync" becomes, in English, the predicate "adds
async weight sync" ("#12 adds async weight sync") and, in Chinese, "新增 async weight sync": the
"[scope] type:" prefix goes, the leading verb is put in the language's form, and everything after it
(code names, model names) stays as the author wrote it, the way Chinese engineers mix English terms
into Chinese prose. A title that does not start with a known verb is quoted as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A title's module prefix ("[trainer, data] "), conventional-commit type ("fix: ", "feat(parser)!: ").
_MODULE_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\]\s*)+")
_TYPE_PREFIX = re.compile(r"^([A-Za-z]+)(?:\(([^)]*)\))?!?:\s+")
# "Megatron: Support X", "mypy_primer: add X": a short scope before a colon
_SCOPE_PREFIX = re.compile(r"^([\w.\-/ ]{1,30}?):\s+(?=\S)")
_TITLE_TYPES = {"feat", "fix", "refactor", "perf", "docs", "doc", "test", "tests", "ci", "build", "chore", "revert", "style", "misc"}

# base verb -> (English third person, Chinese). Chinese puts a space before Latin text that follows.
VERBS = {
    "add": ("adds", "新增"),
    "introduce": ("introduces", "引入"),
    "implement": ("implements", "实现"),
    "support": ("supports", "支持"),
    "fix": ("fixes", "修复"),
    "deprecate": ("deprecates", "弃用"),
    "remove": ("removes", "移除"),
    "delete": ("deletes", "删除"),
    "drop": ("drops", "移除"),
    "update": ("updates", "更新"),
    "upgrade": ("upgrades", "升级"),
    "bump": ("bumps", "升级"),
    "use": ("uses", "改用"),
    "avoid": ("avoids", "避免"),
    "improve": ("improves", "改进"),
    "optimize": ("optimizes", "优化"),
    "move": ("moves", "移动"),
    "allow": ("allows", "允许"),
    "enable": ("enables", "启用"),
    "disable": ("disables", "禁用"),
    "refactor": ("refactors", "重构"),
    "rename": ("renames", "重命名"),
    "handle": ("handles", "处理"),
    "preserve": ("preserves", "保留"),
    "skip": ("skips", "跳过"),
    "ignore": ("ignores", "忽略"),
    "detect": ("detects", "检测"),
    "document": ("documents", "补充文档："),
    "simplify": ("simplifies", "简化"),
    "reduce": ("reduces", "减少"),
    "replace": ("replaces", "替换"),
    "migrate": ("migrates", "迁移"),
    "correct": ("corrects", "修正"),
    "ensure": ("ensures", "确保"),
    "prevent": ("prevents", "防止"),
    "restore": ("restores", "恢复"),
    "revert": ("reverts", "回退"),
    "extend": ("extends", "扩展"),
    "clarify": ("clarifies", "澄清"),
    "validate": ("validates", "校验"),
    "unify": ("unifies", "统一"),
    "increase": ("increases", "提高"),
    "expand": ("expands", "扩展"),
    "split": ("splits", "拆分"),
    "cache": ("caches", "缓存"),
    "stabilize": ("stabilizes", "稳定"),
    "respect": ("respects", "遵循"),
    "infer": ("infers", "推断"),
    "sync": ("syncs", "同步"),
    "reject": ("rejects", "拒绝"),
    "emit": ("emits", "输出"),
    "include": ("includes", "纳入"),
    "exclude": ("excludes", "排除"),
    "suppress": ("suppresses", "抑制"),
    "clean": ("cleans", "清理"),
    "pin": ("pins", "固定"),
    "integrate": ("integrates", "集成"),
    "follow": ("follows", "遵循"),
    "switch": ("switches", "切换"),
    "speed": ("speeds", "加速"),
}
# other forms of the same verbs a title may start with
_FORMS = {"adds": "add", "added": "add", "adding": "add", "fixes": "fix", "fixed": "fix", "fixing": "fix",
          "supports": "support", "removes": "remove", "removed": "remove", "updates": "update", "updated": "update",
          "bumps": "bump", "upgrades": "upgrade", "deprecates": "deprecate", "introduces": "introduce",
          "implements": "implement", "refactors": "refactor", "refactored": "refactor", "uses": "use", "improves": "improve"}
# "update X to 2.0", "bump X from 1.2 to 2.0"
_UPGRADE = re.compile(r"^(?P<what>.+?)\s+(?:from\s+(?P<old>v?\d[\w.\-+]*)\s+)?to\s+(?P<new>v?\d[\w.\-+]*)\s*$", re.IGNORECASE)
# a merge commit's title, as old imports have them: "Merge pull request #12 from owner/feature/x"
_MERGE_TITLE = re.compile(r"^Merge pull request #\d+ from [^/\s]+/(?P<branch>\S+)$", re.IGNORECASE)
_AND_VERB = re.compile(r"(\b(?:and|then|,))\s+([a-z]+)\b")
# verbs whose "to" says where: said with their Chinese preposition
_TOWARDS = {"migrate": "迁移到", "move": "移到", "rename": "重命名为", "switch": "切换到"}
_SUPPORT_FOR = re.compile(r"^support\s+for\s+(?P<what>.+)$", re.IGNORECASE)
_TRAILING_SUPPORT = re.compile(r"^(?P<what>.+?)\s+support$", re.IGNORECASE)
# type words said in Chinese when the title has no verb of its own: "fix: crash on empty input"
_TYPE_WORDS_ZH = {"fix": "修复：", "feat": "新功能：", "docs": "文档：", "doc": "文档：", "refactor": "重构：", "perf": "性能优化："}


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
        kind, text = typed[1].lower(), text[typed.end():]
    text = " ".join(text.split()).rstrip(".") or " ".join(title.split())
    scoped = _SCOPE_PREFIX.match(text)
    scope, rest = (scoped[1].strip(), text[scoped.end():]) if scoped and _verb_of(text[scoped.end():]) else (None, text)
    verb = _verb_of(rest)
    after = rest.split(None, 1)[1] if verb and " " in rest else ""
    if not after:  # "Fix" alone, or no known verb: the text as written
        return Clause(text, None, text, None, kind)
    return Clause(text, verb, after, scope, kind)


def _verb_of(text: str) -> str | None:
    first = text.split(None, 1)[0].lower() if text.split() else ""
    base = _FORMS.get(first, first)
    return base if base in VERBS else None


def display_title(title: str) -> str:
    """A PR title for an English list: without its "[module] type:" prefix, as written otherwise."""
    text = clause(title).text
    return text[0].upper() + text[1:] if text[:1].isascii() and text[:1].islower() else text


def english_predicate(title: str) -> str | None:
    """ "adds async weight sync" for "[rollout] feat: Add async weight sync"; None without a known verb."""
    merged = _MERGE_TITLE.match(title.strip())
    if merged:
        return f"merges the branch {merged['branch']}"
    parts = clause(title)
    if parts.verb is None:
        return f"fixes {parts.text[0].lower() + parts.text[1:]}" if parts.kind == "fix" and not parts.text[:2].isupper() else None
    # "add X and fix Y": every verb of the clause agrees with the PR as subject
    rest = _AND_VERB.sub(lambda m: f"{m[1]} {VERBS[m[2].lower()][0]}" if m[2].lower() in VERBS else m[0], parts.rest)
    predicate = f"{VERBS[parts.verb][0]} {rest}"
    return f"{predicate} ({parts.scope})" if parts.scope else predicate


def chinese_title(title: str) -> str:
    """The title as a Chinese engineer would write it: "新增 X", "修复 X", "将 X 升级到 2.0"."""
    merged = _MERGE_TITLE.match(title.strip())
    if merged:
        return f"合入分支 {merged['branch']}"
    parts = clause(title)
    scope = f"{parts.scope}：" if parts.scope else ""
    if parts.verb is None:
        support = _TRAILING_SUPPORT.match(parts.rest)
        if support:
            return scope + _spaced("支持", support["what"])
        return scope + (_spaced(_TYPE_WORDS_ZH[parts.kind], parts.rest) if parts.kind in _TYPE_WORDS_ZH else parts.rest)
    return scope + _chinese_predicate(parts.verb, parts.rest)


def _chinese_predicate(verb: str, rest: str) -> str:
    if verb in ("update", "upgrade", "bump", "pin"):
        upgrade = _UPGRADE.match(rest)
        if upgrade:
            target = "固定为" if verb == "pin" else "升级到"
            what = re.sub(r"^(?:the\s+)?", "", upgrade["what"], flags=re.IGNORECASE)
            if upgrade["old"]:
                return f"将 {what} 从 {upgrade['old']} {target} {upgrade['new']}"
            return f"将 {what} {target} {upgrade['new']}"
    if verb in _TOWARDS:
        return _towards(verb, rest)
    if verb == "add":
        support = _SUPPORT_FOR.match(rest)
        if support:
            return f"新增对 {support['what']} 的支持"
    if verb == "support":
        support = _SUPPORT_FOR.match(f"support {rest}")
        if support:
            return _spaced("支持", support["what"])
    return _spaced(VERBS[verb][1], _chinese_conjunctions(rest))


def _towards(verb: str, rest: str) -> str:
    """ "migrate to X" -> "迁移到 X", "rename X to Y" -> "将 X 重命名为 Y"."""
    chinese = _TOWARDS[verb]
    target = re.match(r"^to\s+(?P<new>\S.*)$", rest, re.IGNORECASE)
    if target:
        return _spaced(chinese, _chinese_conjunctions(target["new"]))
    moved = re.match(r"^(?P<what>.+?)\s+to\s+(?P<new>\S.*)$", rest, re.IGNORECASE)
    if moved:
        return f"将 {moved['what']} {chinese} {_chinese_conjunctions(moved['new'])}"
    return _spaced(VERBS[verb][1], _chinese_conjunctions(rest))


def _chinese_conjunctions(rest: str) -> str:
    """ "X and delete Y" -> "X 并删除 Y", "X, migrate to Y" -> "X，migrate to Y" with the verb in Chinese."""
    def said(match: re.Match) -> str:
        verb = _FORMS.get(match[2].lower(), match[2].lower())
        if verb not in VERBS:
            return match[0]
        joiner = {"and": "并", "then": "然后", ",": "，"}[match[1]]
        if verb in _TOWARDS and match.string[match.end():].lstrip().lower().startswith("to "):
            return f"{joiner}{_TOWARDS[verb]}"  # "…，migrate to engines" -> "…，迁移到 engines"
        return f"{joiner}{VERBS[verb][1]}"
    text = _AND_VERB.sub(said, rest)
    return re.sub(r"(迁移到|移到|重命名为|切换到)\s+to\s+", r"\1 ", text)


def _spaced(chinese: str, latin: str) -> str:
    """Chinese words then the author's text, with a space where Chinese meets Latin letters."""
    if not latin:
        return chinese.rstrip("：")
    if chinese.endswith(("：", "，")) or not latin[:1].isascii():
        return chinese + latin
    return f"{chinese} {latin}"


def translated_title(title: str) -> str | None:
    """The title in Chinese where the rules render it; None where they leave it as written."""
    chinese = chinese_title(title)
    return chinese if chinese not in (title, display_title(title)) else None


def title_in(title: str, language: str) -> str:
    """A title for a list in `language`: as written (without its prefix) in English, rendered in Chinese."""
    return chinese_title(title) if language == "zh" else display_title(title)
