"""What one PR does, in one line: from its description when that says something, else from its files.

The analysis has already taken the description's prose out of the body (template, checklists,
comments and links gone, the "What does this PR do?" section preferred) and capped it. Here that
text is held to what a reader needs: whole sentences only (a capped one is cut back to its last
full stop), no dangling "with pr" where a link was, and never the title said again. When nothing
is left, the files speak: "Adds the module verl/experimental (5 files)", "Changes 8 CI workflows",
"Removes 2 files and 600 lines".
"""

from __future__ import annotations

import posixpath
import re

from digest_plugin.analysis.model import AnalysedPull
from digest_plugin.narrate.model import Cited
from digest_plugin.narrate.titles import chinese_title, clause, display_title, english_predicate
from digest_plugin.narrate.wording import Language, Stated

MIN_WORDS = 4  # fewer words are a label, not a sentence
MAX_ITEMS = 2
_LOST_CODE = re.compile(r"\b(?:like this|as follows|the following|e\.g\.|for example|for instance|such as|looks like|below):\s", re.IGNORECASE)
_CONTINUATION = re.compile(r"^(?:By|Via|Using|So that|Such that|Without|Instead of) ", re.IGNORECASE)
_TEST_PATH = re.compile(r"(^|/)(tests?|testing|__tests__|spec|resources/test)/|(^|/)test_[^/]*$|_test\.\w+$|\.snap$")  # list items kept from a description made of a list
_FILLER = frozenset(("a", "an", "the", "in", "on", "of", "to", "for", "and", "or", "with", "by", "from", "this", "that", "is", "are",
                     "be", "it", "its", "pr"))
_HOUSEKEEPING = re.compile(r"\b(pre-commit|formatting|format:|lint|typos?|code style|ruff format|black)\b", re.IGNORECASE)
_ITEM_LABEL = re.compile(r"^(?:add|fix|format|update|change|feat|refactor|docs?|test|ci|remove)s?:\s+(?=\S)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s|$)")
# a sentence whose link was removed: "you should use mbridge with pr", "see the following:"
_DANGLING = re.compile(
    r"(?:[\s,;]+(?:with|see|in|at|from|via|by|for|to|of|on|and|or|like|the|a|an|as|here|this|following|below|"
    r"pr|prs|pull request|issue|link|commit|e\.g\.|i\.e\.|cf\.?))+[\s:.,;]*$",
    re.IGNORECASE,
)
_TEMPLATE_WORDS = re.compile(r"^(?:thank you|thanks for|please (?:check|read|make sure|describe)|add \*?\*?concise|describe your changes)", re.IGNORECASE)


def body_sentences(analysed: AnalysedPull) -> str | None:
    """The analysis' summary as whole sentences, ending in a full stop; None when it is no more than
    the title, a template line, or a fragment."""
    text = " ".join(analysed.summary.split())
    if text.endswith("…"):
        ends = [m.end() for m in _SENTENCE_END.finditer(text)]
        if not ends:
            return None
        text = text[: ends[-1]]
    text = _main_items(_DANGLING.sub("", _before_lost_code(text).rstrip(" .:;,")).strip())
    if len(re.findall(r"\w+", text)) < MIN_WORDS or _TEMPLATE_WORDS.match(text) or _repeats_title(text, analysed.pull.title):
        return None
    if not _SENTENCE_END.search(text[-1:]):
        text += "。" if _mostly_chinese(text) else "."
    return text[0].upper() + text[1:] if text[:1].isascii() and text[:1].islower() else text


def _before_lost_code(text: str) -> str:
    """The sentences before one that introduced a code block the analysis took out ("The code looks
    like this: where each line ..."): what follows the colon no longer reads."""
    lost = _LOST_CODE.search(text)
    if not lost:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, lost.start())]
    return text[: ends[-1]] if ends else ""


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
    return not words or len(words - titled) <= max(1, len(words) // 5)


def _main_items(text: str) -> str:
    """A description made of list items ("Add: X; Format: pre-commit changes; Add: a CI test")
    without the housekeeping items and the items' own labels, at most MAX_ITEMS of them."""
    items = [item for item in text.split("; ") if not _HOUSEKEEPING.search(item)]
    items = [_ITEM_LABEL.sub("", item) for item in items][:MAX_ITEMS] or [text]
    joined = "; ".join(items)
    return joined[0].upper() + joined[1:] if joined[:1].islower() else joined


def _mostly_chinese(text: str) -> bool:
    return sum("\u4e00" <= c <= "\u9fff" for c in text) > len(text) / 4


def new_folder(analysed: AnalysedPull) -> str | None:
    """A folder that every added file is in and that held none of the PR's other files: a new module."""
    added = analysed.pull.files and analysed.footprint.added_files
    if not added or len(added) < 2 or len(added) < analysed.footprint.added_count or not all("/" in p for p in added):
        return None
    common = posixpath.commonpath(added)
    others = [f.path for f in analysed.pull.files if f.path not in added]
    if common and common not in added and not any(p.startswith(common + "/") for p in others):
        return common
    return None


def files_sentence(analysed: AnalysedPull, lang: Language) -> Cited | None:
    """What the files show, when the body says nothing: one sentence with the figures it states."""
    ngettext, footprint, n = lang.ngettext, analysed.footprint, analysed.pull.number
    said = Stated(lang)
    workflows, added, removed = len(footprint.workflows), footprint.added_count, footprint.removed_count
    folder = new_folder(analysed)
    if folder:
        template = ngettext("Adds {folder}, a new folder of {count} file.", "Adds {folder}, a new folder of {count} files.", added)
        return said.cited(template.format(folder=folder, count=said.number(f"pull:{n}:added_files", added)))
    if removed and footprint.removed_lines >= analysed.pull.additions:
        files = ngettext("{count} file", "{count} files", removed).format(count=said.number(f"pull:{n}:removed_files", removed))
        lines = said.number(f"pull:{n}:removed_lines", footprint.removed_lines)
        return said.cited(lang.gettext("Removes {files} with {lines} lines.").format(files=files, lines=lines))
    if workflows and workflows * 2 >= analysed.pull.changed_files:
        template = ngettext("Changes {count} CI workflow.", "Changes {count} CI workflows.", workflows)
        return said.cited(template.format(count=said.number(f"pull:{n}:workflows", workflows)))
    if added:
        template = ngettext("Adds {count} source file.", "Adds {count} source files.", added)
        return said.cited(template.format(count=said.number(f"pull:{n}:added_files", added)))
    return _main_file_sentence(analysed, lang)


def _main_file_sentence(analysed: AnalysedPull, lang: Language) -> Cited | None:
    """ "Mostly changes src/io/reader.py; tests come with it": the file with the most changed lines."""
    _, files = lang.gettext, [f for f in analysed.pull.files if not _TEST_PATH.search(f.path)]
    if not files:
        return None
    main = max(files, key=lambda f: ((f.additions or 0) + (f.deletions or 0), f.path)).path
    tested = analysed.footprint.test_files > 0 or any(_TEST_PATH.search(f.path) for f in analysed.pull.files)
    alone = len(analysed.pull.files) == 1
    templates = {
        (True, True): _("Changes {path}, with tests."),
        (True, False): _("Changes {path}; no test changed."),
        (False, True): _("Mostly changes {path}, with tests."),
        (False, False): _("Mostly changes {path}; no test changed."),
    }
    return Cited(templates[(alone, tested)].format(path=main))


def quoted_forms(analysed: AnalysedPull) -> set[str]:
    """The author's words as the narrative may quote them (title, summary, in either language),
    and the names taken from its files: text the grounding check does not read as claims."""
    title = analysed.pull.title
    parts = clause(title)
    forms = {title, " ".join(title.split()), display_title(title), chinese_title(title), english_predicate(title) or "", parts.text, parts.rest,
             analysed.summary, analysed.pull.author.login}
    sentences = body_sentences(analysed)
    if sentences:
        forms.update((sentences, sentences.rstrip("."), chinese_sentence(sentences), continues_title(sentences, title) or ""))
        continued = continues_title(sentences, title)
        forms.add(continued[0].upper() + continued[1:] if continued else "")
    forms.add(new_folder(analysed) or "")
    forms.update(f.path for f in analysed.pull.files)
    return {f for f in forms if f}


def chinese_sentence(sentence: str) -> str:
    """The author's sentence in Chinese where the rules do it well (a short one that starts with a
    known verb: "Adds X." -> "新增 X。"); otherwise as written."""
    if len(sentence.split()) > 12 or re.search(r"[;:,!?]|\. ", sentence) or not clause(sentence.rstrip(".")).verb:
        return sentence
    return chinese_title(sentence.rstrip(".")) + "。"


def quoted_in_chinese(analysed: AnalysedPull, sentences: str, lang: Language) -> str:
    """The author's English sentences on a Chinese page: rules cannot translate prose, so they are
    quoted as the author's words, after what the title says in Chinese where the rules render it
    ("修复 X。作者的说明：“…”。"); no English full stop inside the Chinese quotes."""
    quote = lang.gettext("In the author's words: “{words}”").format(words=sentences.rstrip("."))
    title = analysed.pull.title
    lead = chinese_title(title)
    if lead in (title, display_title(title)):
        return quote
    return lang.sentences((lead + "。", quote))


def what_it_does(analysed: AnalysedPull, lang: Language) -> Cited:
    """One line: the author's sentences, else what the files show, else its title in the language's words."""
    sentences = body_sentences(analysed)
    if sentences and lang.code == "en":
        continued = continues_title(sentences, analysed.pull.title)
        return Cited(continued[0].upper() + continued[1:] if continued else sentences)
    if sentences:
        chinese = chinese_sentence(sentences)
        return Cited(chinese if chinese != sentences else quoted_in_chinese(analysed, sentences, lang))
    from_files = files_sentence(analysed, lang)
    if from_files:
        return from_files
    return Cited("")
