"""What one PR does, in one line: the author's own summary when the description has one, else the
title made into a sentence and what the files show.

The analysis has already taken the description's summary out of the body as whole sentences
(template, checklists, comments, code and dangling links gone, the "What does this PR do?" section
preferred). Here it is held to what a reader needs: never the title said again, never a template
line, at most two list items. The author's words are grounded by being the author's: they are
quoted as written, never replaced by a file list. Without them the line is the title as a
sentence and where the PR works, with or without tests ("Adds async weight sync, mainly changing
verl/workers/rollout, with tests."), or what its files show when that says more ("Adds
verl/experimental, a new folder of 5 files.").

On a Chinese page the author's English words are not spliced into Chinese: the line is a Chinese
lead ("作者的说明：", after the title in Chinese where the rules translate it fully) and the words
follow as a quotation of their own (`KeyLine.quote`), which pages, Markdown and feeds show apart.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass

from digest_plugin.analysis.claims import speaks, type_speaks
from digest_plugin.analysis.classify import is_code_move, restyles_code
from digest_plugin.analysis.description import capitalised
from digest_plugin.analysis.model import AnalysedPull
from digest_plugin.narrate.chinese import HAN
from digest_plugin.narrate.model import Cited
from digest_plugin.narrate.titles import (
    clause,
    display_title,
    english_predicate,
    feature_branch,
    framed_title,
    merged_branch,
    translated_title,
)
from digest_plugin.narrate.wording import Language, StatedNumbers

MIN_WORDS = 4  # fewer words are a label, not a sentence
TESTED_SHARE = 20  # a PR is "with tests" when its tests gained more than 1/20 of its core lines
MOSTLY_TESTS = 2  # times its core lines, from which a PR's test lines are said to be most of it
MAX_ITEMS = 2
_CONTINUATION = re.compile(
    r"^(?:By|Via|Using|So that|Such that|Without|Instead of) ", re.IGNORECASE
)
_FILLER = frozenset(
    "a an the in on of to for and or with by from this that is are be it its pr".split()
)
_HOUSEKEEPING = re.compile(
    r"\b(pre-commit|formatting|format:|lint|typos?|code style|ruff format|black)\b", re.IGNORECASE
)
_ITEM_LABEL = re.compile(
    r"^(?:add|fix|format|update|change|feat|refactor|docs?|test|ci|remove)s?:\s+(?=\S)",
    re.IGNORECASE,
)
# "(… is largely unchanged.)" needs no full stop after it; "f(...)" does
_ENDED = re.compile(r"(?<![.…])[.!?。！？][)\"'”’）」]*$")
_TEMPLATE_WORDS = re.compile(
    r"^(?:thank you|thanks for|please (?:check|read|make sure|describe)|add \*?\*?concise|describe your changes)|"
    r"aims to achieve or accomplish",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class KeyLine:
    """A key PR's line: `text`, in the site's language, then the author's `quote` (verbatim, in
    their language; "" when there is none to show apart)."""

    text: Cited
    quote: str = ""


def body_sentences(analysed: AnalysedPull) -> str | None:
    """The analysis' summary as whole sentences, ending in a full stop; None when it is no more than
    the title, a template line, or a fragment."""
    text = " ".join(analysed.summary.split())
    if not text or text.endswith("…"):
        return None
    # its full stop goes, not an ending "..." (ruff #24165: blocks "that only contain pass or ...")
    dots = re.search(r"\.\.\.[ .。]*$", text)
    text = _main_items(text[: dots.start() + 3] if dots else text.rstrip(" .。"))
    if (
        _words(text) < MIN_WORDS
        or _TEMPLATE_WORDS.search(text)
        or _repeats_title(text, analysed.pull.title)
    ):
        return None
    if not _ENDED.search(text):
        text += "。" if _mostly_chinese(text) else "."
    return capitalised(text) if text[:1].isascii() else text


def continues_title(sentence: str, title: str) -> str | None:
    """ "By deferring X." after the title "Fix Y" reads as "fixes Y by deferring X.": the body
    finishing the title's sentence, said as one predicate; None otherwise."""
    predicate = english_predicate(title)
    if not predicate or not _CONTINUATION.match(sentence) or ". " in sentence.rstrip("."):
        return None
    return f"{predicate} {sentence[0].lower()}{sentence[1:]}"


def _repeats_title(text: str, title: str) -> bool:
    """The text says nothing the title does not: its words are (almost) all in the title."""
    words = set(re.findall(r"[a-z0-9_]+", text.lower())) - _FILLER
    titled = set(re.findall(r"[a-z0-9_]+", title.lower()))
    if not words:
        # Chinese says more than an English title
        return not HAN.search(text) or set(HAN.findall(text)) <= set(HAN.findall(title))
    return len(words - titled) <= max(1, len(words) // 5)


def _words(text: str) -> int:
    """Words of Latin script, a name of several parts one ("verlai/verl:sgl054p3.dev", verl #4037's
    whole description), and Chinese characters two to a word (Chinese has no spaces to count)."""
    latin = [t for t in re.split(r"[\s\u4e00-\u9fff]+", text) if re.search(r"[^\W_]", t)]
    return len(latin) + len(HAN.findall(text)) // 2


def _main_items(text: str) -> str:
    """A description made of list items ("Add: X; Format: pre-commit changes; Add: a CI test")
    without the housekeeping items and the items' own labels, at most MAX_ITEMS of them."""
    items = [item for item in text.split("; ") if not _HOUSEKEEPING.search(item)]
    items = [_ITEM_LABEL.sub("", item) for item in items][:MAX_ITEMS] or [text]
    joined = "; ".join(items)
    return capitalised(joined)


def _mostly_chinese(text: str) -> bool:
    return len(HAN.findall(text)) > len(text) / 4


def new_folder(analysed: AnalysedPull) -> str | None:
    """A folder that every added file is in and that held none of the PR's other files: often a new
    module, but the file list cannot tell whether earlier PRs had put files there (ruff #17134's
    parser test inputs), so it is said as where the files were added."""
    added = analysed.pull.files and analysed.footprint.added_files
    if (
        not added
        or len(added) < 2
        or len(added) < analysed.footprint.added_count
        or not all("/" in p for p in added)
    ):
        return None
    common = posixpath.commonpath(added)
    others = [f.path for f in analysed.pull.files if f.path not in added]
    if common and common not in added and not any(p.startswith(common + "/") for p in others):
        return common
    return None


def files_sentence(analysed: AnalysedPull, lang: Language) -> Cited | None:
    """What the files show when it is more than where the PR works: a new folder, files removed,
    CI workflows changed; one sentence with the figures it states."""
    ngettext, footprint, n = lang.ngettext, analysed.footprint, analysed.pull.number
    said = StatedNumbers(lang)
    workflows, added, removed = (
        len(footprint.workflows),
        footprint.added_count,
        footprint.removed_count,
    )
    folder = new_folder(analysed)
    if folder:
        template = ngettext(
            "Adds {count} file, all in {folder}.",
            "Adds {count} files, all in {folder}.",
            added,
        )
        return said.cited(
            template.format(folder=folder, count=said.number(f"pull:{n}:added_files", added))
        )
    if removed and footprint.removed_lines >= analysed.pull.additions:
        files = ngettext("{count} file", "{count} files", removed).format(
            count=said.number(f"pull:{n}:removed_files", removed)
        )
        lines = said.number(f"pull:{n}:removed_lines", footprint.removed_lines)
        return said.cited(
            lang.gettext("Removes {files} with {lines} lines.").format(files=files, lines=lines)
        )
    if workflows and workflows * 2 >= analysed.pull.changed_files:
        template = ngettext("Changes {count} CI file.", "Changes {count} CI files.", workflows)
        return said.cited(template.format(count=said.number(f"pull:{n}:workflows", workflows)))
    return None


def mostly_tests(analysed: AnalysedPull) -> bool:
    """Whether tests hold more than half of a PR's changed lines."""
    pull = analysed.pull
    return analysed.footprint.test_lines * 2 > pull.additions + pull.deletions


def _tested(analysed: AnalysedPull) -> bool | None:
    """Whether the PR came with tests: its test files gained lines; None when a file list cannot
    tell (Rust keeps tests in the source) or its tests were only trimmed or adjusted (ruff #18960
    deleted five lines of two tests: "with tests" would say they show the change)."""
    footprint = analysed.footprint
    if restyles_code(analysed.pull) or is_code_move(analysed.pull, analysed.classification):
        # its tests' edits follow the code (ruff #27630's rustfmt, #24471's move into a crate)
        return None
    if footprint.test_files:  # a test adjusted to a large change does not show it (ruff #18627)
        return True if footprint.test_lines_gained * TESTED_SHARE > footprint.core_lines else None
    return None if footprint.inline_test_files else False


_FILES_WORD = re.compile(r"\bfiles\b", re.IGNORECASE)


def title_sentence(analysed: AnalysedPull, lang: Language) -> Cited:
    """The title made into a sentence, with where in the code the PR works and whether tests came
    with it: "Adds async weight sync, mainly changing verl/workers/rollout, with tests." (not "in
    verl/workers/rollout", which reads as where the title's object is). In Chinese the title is
    translated, or framed by its leading verb ("新增「X」，主要改动 Y，并附带测试。"), or said by its
    facts where the rules cannot ("core 模块的改动，主要改动 Y。"): the English title stands above
    the line already."""
    _, title = lang.gettext, analysed.pull.title
    if lang.code == "zh":
        # the title is shown above it, in English: this line says it in Chinese as far as it can
        said = chinese_mention(analysed, lang, sized=False, located=False)  # says where below
    else:
        predicate = predicate_of(analysed)
        said = predicate[0].upper() + predicate[1:] if predicate else display_title(title)
    fact = files_sentence(analysed, lang)
    if fact:  # a new folder, removals or CI workflows say more than where the PR works
        return Cited(lang.sentences((_("{said}.").format(said=said), fact.text)), (), fact.figures)
    footprint = analysed.footprint
    if footprint.test_lines > MOSTLY_TESTS * footprint.core_lines:
        # where its code changed is not where it works (ruff #24490: an e2e framework, 3,800 of its
        # 4,100 lines in tests), and where docs, examples or CI are more, not most is tests either
        # (verl #7362, 338 of 1,458 lines)
        if mostly_tests(analysed):
            return Cited(lang.tidy(_("{title}, most of it in tests.").format(title=said)))
        return Cited(_("{said}.").format(said=said))
    if footprint.places:
        said = _("{title}, mainly changing {place}").format(
            title=said, place=lang.join(footprint.places)
        )
    elif (
        footprint.core_lines
        and len(analysed.pull.files) > 1
        and not _FILES_WORD.search(analysed.pull.title)
    ):
        said = _("{title}, across several files").format(title=said)  # not after "Move 250 files"
    tested = _tested(analysed)
    if tested is not None and not speaks("tests.with-tests" if tested else "tests.no-test-changed"):
        tested = None  # whether tests came with it is not told reliably (end-to-end jobs, resources elsewhere)
    endings = {
        True: _("{said}, with tests."),
        False: _("{said}; no test changed."),
        None: _("{said}."),
    }
    return Cited(lang.tidy(endings[tested].format(said=said)))


def chinese_sentence(sentence: str) -> str | None:
    """The author's sentence in Chinese where the rules translate it fully (a short one that starts
    with a known verb: "Adds a retry to the fetcher." -> "为 fetcher 新增重试。"); None otherwise."""
    if (
        HAN.search(sentence)
        or len(sentence.split()) > 12
        or re.search(r"[;:,!?]|\. ", sentence)
        or not clause(sentence.rstrip(".")).verb
    ):
        return None
    translated = translated_title(sentence.rstrip("."))
    return translated + "。" if translated else None


def quoted_in_chinese(analysed: AnalysedPull, sentences: str, lang: Language) -> KeyLine:
    """The author's sentences on a Chinese page: rules cannot translate prose, so they are quoted as
    the author's words (Chinese ones too, which may carry their own English), after what the title
    says in Chinese where the rules translate it fully ("修复 X。作者的说明：" then the quotation)."""
    lead = lang.gettext("In the author's words:")
    title = whole_translation(analysed.pull.title)
    text = lang.sentences((title + "。", lead)) if title else lead
    return KeyLine(Cited(text), sentences)


def what_it_does(analysed: AnalysedPull, lang: Language) -> KeyLine:
    """A key PR's line: the author's sentences, else the title as a sentence with what the files show."""
    sentences = body_sentences(analysed)
    if sentences and lang.code == "en":
        continued = continues_title(sentences, analysed.pull.title)
        return KeyLine(Cited(continued[0].upper() + continued[1:] if continued else sentences))
    if sentences:
        chinese = chinese_sentence(sentences)
        return KeyLine(Cited(chinese)) if chinese else quoted_in_chinese(analysed, sentences, lang)
    return KeyLine(title_sentence(analysed, lang))


def quoted_forms(analysed: AnalysedPull, chinese: bool) -> set[str]:
    """The author's words as the narrative may quote them (title, summary; in Chinese too where
    `chinese`, the narrative's language, puts them so), and the names taken from its files: text
    the grounding check does not read as claims."""
    title = analysed.pull.title
    predicate, parts = english_predicate(title) or "", clause(title)
    forms = {
        title,
        " ".join(title.split()),
        display_title(title),
        predicate,
        predicate[:1].upper() + predicate[1:],
        parts.text,
        parts.rest,
        parts.rest.strip('"“” '),  # 'Revert "X"': X, as a revert's risk quotes it
        analysed.summary,
        analysed.pull.author.login,
        *analysed.footprint.places,
    }
    sentences = body_sentences(analysed)
    if chinese:
        forms.update(
            (
                translated_title(title) or "",
                framed_title(title) or "",
                feature_branch(title) or "",
                (chinese_sentence(sentences) if sentences else None) or "",
            )
        )
    if sentences:
        forms.update((sentences, sentences.rstrip(".")))
        continued = continues_title(sentences, title)
        forms.update((continued, continued[0].upper() + continued[1:]) if continued else ())
    forms.update(
        part for c in analysed.consequences for part in (c.what, c.old, c.new, c.quote) if part
    )
    forms.add(analysed.mitigation)
    forms.add(new_folder(analysed) or "")
    forms.update(f.path for f in analysed.pull.files)
    return {f for f in forms if f}


# -- a PR said in Chinese without its title ----------------------------------------------------------

MODULES_SAID = 2  # a PR of more modules is said by its first two


@functools.lru_cache(maxsize=4)  # a site's language: asked for each of its PRs, every build
def type_words(_) -> dict[str | None, str]:
    """Change types in the singular, as a table cell or badge says them (shared: not to be changed)."""
    return {
        "feat": _("feature"),
        "fix": _("fix"),
        "refactor": _("refactor"),
        "perf": _("performance"),
        "docs": _("documentation"),
        "test": _("test"),
        "ci": _("CI"),
        "build": _("build"),
        "chore": _("chore"),
        "revert": _("revert"),
    }


def chinese_facts(
    analysed: AnalysedPull,
    lang: Language,
    sized: bool = True,
    said: StatedNumbers | None = None,
    located: bool = True,
) -> str:
    """A PR in Chinese from its facts, for where its English title is not to be quoted again: its
    kind, its modules and, when `sized`, its size ("ascend 模块的修复，+120 −30 行"), its figures
    recorded in `said` when given, and, when `located`, the file that says most of what it is about
    (`_main_file`). The kind is the word the type column of the page uses, where its claim is
    precise enough to be said (analysis/claims.py); else "改动", a change."""
    _, kind = lang.gettext, analysed.classification
    words = type_words(_)
    # an imprecise kind is not said
    what = words.get(kind.type or "", "改动") if type_speaks(kind.type) else "改动"
    # files at the repository's root are a module only in the tables
    modules = "、".join("根目录" if m == "(root)" else m for m in kind.modules[:MODULES_SAID])
    what_said = f"{modules} 模块的{what}" if modules else what
    where = located and _main_file(analysed)
    if where:
        what_said += f"，{where}"
    pull = analysed.pull
    if not sized:
        return what_said
    said = said or StatedNumbers(lang)
    added, removed = (
        said.number(f"pull:{pull.number}:additions", pull.additions),
        said.number(f"pull:{pull.number}:deletions", pull.deletions),
    )
    if analysed.footprint.core_lines and mostly_tests(analysed):
        # the module did not take most of the lines (pelican #623: 4 lines of contents.py beside
        # 259 of regenerated test output), as the English key line says "most of it in tests"
        return f"{what_said}，+{added} \u2212{removed} 行，多数行在测试文件中"
    return f"{what_said}，+{added} \u2212{removed} 行"


def _main_file(analysed: AnalysedPull) -> str | None:
    """The file that says most of what a PR is about, in Chinese: the largest it adds ("新增
    crates/ruff_linter/src/suppression.rs 等文件"), else the one it changes most; none where most
    of its lines are not code (docs, tests, lock files), which no code file speaks for."""
    footprint, pull = analysed.footprint, analysed.pull
    if footprint.core_lines * 2 < pull.additions + pull.deletions:
        return None
    if footprint.added_count:  # the largest added, and no count: it would be a figure
        added = (p for p in footprint.main_files if p in footprint.added_files)
        more = " 等文件" if footprint.added_count > 1 else ""
        return f"新增 {next(added, footprint.added_files[0])}{more}"
    return f"主要改动 {footprint.main_files[0]}" if footprint.main_files else None


def chinese_mention(
    analysed: AnalysedPull,
    lang: Language,
    sized: bool = True,
    said: StatedNumbers | None = None,
    located: bool = True,
) -> str:
    """What a Chinese sentence calls a PR besides its number: its title in Chinese where the rules
    translate it whole, else its leading verb in Chinese with the rest quoted (`framed_title`),
    else its facts (`chinese_facts`: "io 模块的改动" says nothing of what a PR does, and is the
    last resort); never the English title whole, which the page shows once, in the PR's key change
    or its row of the list."""
    title = analysed.pull.title
    said_by_title = whole_translation(title) or framed_title(title)
    if said_by_title:
        return said_by_title + ("（其描述称仅在预览模式中）" if behind_preview(analysed) else "")
    facts = chinese_facts(analysed, lang, sized, said, located)
    branch = feature_branch(title)  # an old import's merge commit: its branch's words help
    return f"{facts}，来自分支 {branch}" if branch else facts


# a change its description keeps behind preview, where the title says what happens by default
# (not a type's default, nor a title that takes something out of preview: "Stabilize …")
_BY_DEFAULT = re.compile(r"\b(?:by default|the default)\b", re.IGNORECASE)
_OUT_OF_PREVIEW = re.compile(r"\b(?:stabili[sz]|promot)", re.IGNORECASE)
_IN_PREVIEW = re.compile(
    r"\b(?:in|under|behind|only in)\s+(?:the\s+)?preview\b|--preview\b|\bfor now\b.{0,40}\bpreview\b",
    re.IGNORECASE,
)


def behind_preview(analysed: AnalysedPull) -> bool:
    """Whether a title says what happens by default of a change its description keeps in preview:
    ruff #19919 "Show fixes by default" added them "to the `full` output format in preview for
    now", and said as its title, the stable default seemed to change."""
    title = analysed.pull.title
    return (
        bool(_BY_DEFAULT.search(title))
        and not _OUT_OF_PREVIEW.search(title)
        and "preview" not in title.lower()
        and bool(_IN_PREVIEW.search(analysed.pull.body or ""))
    )


def predicate_of(analysed: AnalysedPull) -> str | None:
    """ "adds X" for "feat: Add X" (titles.english_predicate), "in preview" where the title's
    default is one (`behind_preview`); None without a known verb."""
    predicate = english_predicate(analysed.pull.title)
    if predicate and behind_preview(analysed):
        return f"{predicate} (in preview, its description says)"
    return predicate


def change_said(analysed: AnalysedPull, lang: Language) -> str | None:
    """What a sentence says a PR does after its number: `predicate_of`; in Chinese `chinese_mention`,
    as the English title is shown once, in the PR's key change or its row of the list."""
    if lang.code == "zh":
        return chinese_mention(analysed, lang, sized=False)
    return predicate_of(analysed)


def whole_translation(title: str) -> str | None:
    """The title in Chinese where the rules translate it and the translation does not hold the
    English title after all: neither a revert's quotation of the title it reverts nor a title
    that is all names ("feat: 1f1b overlap/moe_a2a_overlap" -> "新功能：1f1b overlap/moe_a2a_overlap"),
    nor a merge commit's branch ("合入分支 enable-flake8-builtins": its English words are the title)."""
    translated = translated_title(title)
    if (
        translated is None
        or "「" in translated
        or display_title(title) in translated
        or merged_branch(title)
    ):
        return None
    return translated


def brief(analysed: AnalysedPull, lang: Language) -> str:
    """A PR in a few words, after its number where its title is not shown in full: its title as a
    list shows it in English; in Chinese what `chinese_mention` says."""
    return (
        chinese_mention(analysed, lang) if lang.code == "zh" else display_title(analysed.pull.title)
    )
