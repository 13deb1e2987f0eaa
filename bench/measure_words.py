"""How well the reports' words read, over every week of the three real repositories, both languages.

    .venv/bin/python bench/measure_words.py                  # the table
    .venv/bin/python bench/measure_words.py --examples 20    # and up to 20 offending texts of each kind

It runs on older checkouts too (copy it into one and run it there with this checkout's .venv:
its own code is imported first), for before and after figures.

The three exports in ../shared/data are imported into a temporary store with `repo-digest import`;
every week is then analysed, narrated and laid out as the site does it (`load_weeks`, `narrate`,
`week_view`; charts left out, they hold no sentences) and its texts are read as a reader reads them.
What is counted:

- **Key PR lines** (the line under a key PR's title, both languages), bad when
  - *a file list*: the line is nothing but what the files show ("Mostly changes X; no test
    changed.", "Adds 3 source files.", "Changes 2 CI workflows."), said without the title's or the
    author's words;
  - *the title again*: besides the title's own words (or its Chinese rendering) and filler words,
    the line says nothing;
  - *cut*: it ends without a full stop, or with "…", or on a word that cannot end a sentence
    ("please refer.", "see the."), or with brackets or quotes left open, or it starts by pointing
    at something the reader was not shown ("Building on this", "As mentioned above").
- **Chinese sentences with English outside quotations**: every text of a Chinese report that a
  reader sees as a sentence (summary, themes, highlights, key PR lines, risks, recommendations,
  trends; split at 。！？；), holding at least one Chinese character. Left out before looking:
  quoted originals (in 「」, “”, "" or 《》), code (`…`), PR references (#12), URLs, names the data
  gives (the repository, its modules, labels, logins, the week's file paths and each of their path
  parts, packages, theme names), and tokens that are identifiers, paths, versions or code: anything
  with a digit, "_", ".", "/", "::", "()", "=", "-", "@", an inner capital (camelCase, vLLM) or all
  capitals (CI, NPU). What is left and counted as English: a run of two or more Latin words
  ("platform abstraction layer"), or a single one that is a common English word (a function word
  or a verb the title rules know: "the", "to", "use", "support"). A single capitalised or lowercase
  word that is neither (Megatron, sglang) is taken for a name.
- **Titles in Chinese**: every title of the three repositories as a Chinese report shows it, one of
  *fully translated* (a Chinese sentence with no English outside names, by the rule above),
  *quoted* (the original in quotation marks after a Chinese lead, or alone), or *mixed* (English
  words spliced into Chinese grammar: what must not happen).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from digest_plugin import cli  # noqa: E402
from digest_plugin.narrate import narrate  # noqa: E402
from digest_plugin.narrate.titles import chinese_title, display_title  # noqa: E402
from digest_plugin.narrate.wording import Language  # noqa: E402
from digest_plugin.publish.history import load_weeks  # noqa: E402
from digest_plugin.publish.week_view import week_view  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402

try:  # the store; older checkouts kept it in store.py
    from digest_plugin.store.folder import Store
except ImportError:
    from digest_plugin.store import Store

try:  # what the analysis reads of the settings; older checkouts passed the settings themselves
    from digest_plugin.publish.history import analysis_options
except ImportError:

    def analysis_options(settings):
        return settings


try:  # the title verbs; older checkouts kept them in titles.py
    from digest_plugin.narrate.verbs import VERBS
except ImportError:
    from digest_plugin.narrate.titles import VERBS

DATA = ROOT.parent / "shared" / "data" / "github"
REPOS = {
    "verl-project/verl": "verl-project__verl.pulls.jsonl.gz",
    "astral-sh/ruff": "astral-sh__ruff.pulls.jsonl.gz",
    "getpelican/pelican": "getpelican__pelican.pulls.jsonl.gz",
}
LANGUAGES = ("en", "zh")

# --- key PR lines ----------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9_]+")
_FILLER = frozenset(
    (
        "a",
        "an",
        "the",
        "in",
        "on",
        "of",
        "to",
        "for",
        "and",
        "or",
        "with",
        "by",
        "from",
        "this",
        "that",
        "is",
        "are",
        "be",
        "it",
        "its",
        "pr",
    )
)
_SENTENCE_END = re.compile(r"[.!?。！？][”\"’'」)）]*$")
# words a sentence cannot end on; "please refer." is what is left when a link was taken out
_DANGLING_END = re.compile(
    r"(?:\b(?:a|an|the|to|of|in|on|at|by|for|from|with|via|and|or|see|refer|please refer|here|below|following|like|such as|e\.g|i\.e|"
    r"this pr|pr|issue|link|as)|[,:;(\[])\s*[.。]$",
    re.IGNORECASE,
)
# a hole where a link was: a preposition followed by a conjunction or punctuation ("As discussed in and")
_HOLE = re.compile(
    r"(?<=\s)(?:in|on|at|by|from|with|of|see|via|refer to)\s+(?:and|or|but)\b|(?<=\s)(?:in|on|at|by|from|with|of|see|via|refer to)\s*[,;)]",
    re.IGNORECASE,
)
# a first sentence that leans on context the line does not show
_LEANING_START = re.compile(
    r"^(?:building on (?:this|that|top)|following (?:up )?(?:on )?(?:this|that|the above)|this is a follow[- ]?up\.|"
    r"continuing|similar to (?:the )?above|same as (?:the )?above|see above|as above)",
    re.IGNORECASE,
)
# text of a pull request template ("Add one-line overview of what this PR aims to achieve or accomplish")
_TEMPLATE = re.compile(
    r"aims to achieve or accomplish|thank you for contributing|describe your change|please describe|"
    r"paste at least one query link|format the pr title|contribute guide|what does this pr do",
    re.IGNORECASE,
)


def file_list_patterns(lang: Language) -> list[re.Pattern]:
    """The sentences the files alone make ("Mostly changes {path}; no test changed."), as patterns."""
    _, ngettext = lang.gettext, lang.ngettext
    templates = [
        _("Changes {path}, with tests."),
        _("Changes {path}; no test changed."),
        _("Mostly changes {path}, with tests."),
        _("Mostly changes {path}; no test changed."),
        _("Removes {files} with {lines} lines."),
    ]
    for count in (1, 2):
        templates += [
            ngettext(
                "Adds {folder}, a new folder of {count} file.",
                "Adds {folder}, a new folder of {count} files.",
                count,
            ),
            ngettext("Changes {count} CI workflow.", "Changes {count} CI workflows.", count),
            ngettext("Adds {count} source file.", "Adds {count} source files.", count),
        ]
    patterns = []
    for template in dict.fromkeys(templates):
        parts = re.split(r"\{\w+\}", template)
        patterns.append(re.compile("^" + ".+?".join(re.escape(p) for p in parts) + "$"))
    return patterns


def key_line_fault(
    line: str, title: str, chinese_title: str, file_lists: list[re.Pattern]
) -> str | None:
    """Why a key PR's line says nothing ("empty", "file list", "template", "title again", "cut"), or None."""
    text = " ".join(line.split())
    if not text:
        return "empty"
    if any(p.match(text) for p in file_lists):
        return "file list"
    if _TEMPLATE.search(text):
        return "template"
    if _repeats_title(text, title, chinese_title):
        return "title again"
    if _is_cut(text):
        return "cut"
    return None


def _repeats_title(text: str, title: str, chinese_title: str) -> bool:
    rest = text
    for said in sorted({title, display_title(title), chinese_title}, key=len, reverse=True):
        if said:
            rest = rest.replace(said, " ")
    words = set(_WORD.findall(rest.lower())) - _FILLER
    titled = set(_WORD.findall(title.lower()))
    new_chinese = set(re.findall(r"[\u4e00-\u9fff]", rest)) - set(chinese_title)
    return len(new_chinese) <= 2 and (not words or len(words - titled) <= max(1, len(words) // 5))


def _is_cut(text: str) -> bool:
    if text.endswith("…") or not _SENTENCE_END.search(text):
        return True
    if _DANGLING_END.search(text) or _HOLE.search(text) or _LEANING_START.match(text):
        return True
    pairs = ("()", "[]", "“”", "「」", "（）")
    return any(text.count(a) != text.count(b) for a, b in pairs) or text.count('"') % 2 == 1


# --- Chinese sentences -----------------------------------------------------------------------------

_QUOTED = re.compile(
    r"「[^」]*」|“[^”]*”|\"[^\"]*\"|《[^》]*》|『[^』]*』|`[^`]*`|<[^<>\s]+>|\w+\[[^\]\s]*\]"
)
_URL = re.compile(r"https?://\S+")
_REF = re.compile(r"#\d+")
_LATIN_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-/:@+=()'’]*")
_CHINESE_SENTENCE = re.compile(r"[^。！？；\n]+[。！？；]?")
_FUNCTION_WORDS = (
    _FILLER
    | frozenset(
        (
            "but",
            "not",
            "no",
            "at",
            "via",
            "into",
            "onto",
            "over",
            "under",
            "than",
            "as",
            "if",
            "when",
            "while",
            "so",
            "these",
            "those",
            "been",
            "being",
            "was",
            "were",
            "has",
            "have",
            "had",
            "do",
            "does",
            "can",
            "will",
            "should",
            "may",
            "must",
            "new",
            "old",
            "all",
            "any",
            "some",
            "more",
            "less",
            "only",
            "also",
            "per",
            "each",
            "every",
            "other",
            "both",
        )
    )
    | frozenset(VERBS)
    | frozenset(forms[0] for forms in VERBS.values())
)
_PROSE_WORD = re.compile(r"(?<![\w`/.-])[a-z]{2,}(?![\w`/.(-])")
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)|`[^`\n]*`|https?://\S+", re.DOTALL)


def prose_vocabulary(texts_by_repo: dict[str, list[str]], least: int = 3) -> frozenset[str]:
    """Lowercase words that the titles and descriptions of every repository use in prose, each in
    at least `least` PRs of each: the common English of the three (fix, typo, config, workflow), as
    against the names one project has (salsa, megatron), which a Chinese sentence may carry."""
    shared: set[str] | None = None
    for texts in texts_by_repo.values():
        counts: Counter = Counter()
        for text in texts:
            counts.update(set(_PROSE_WORD.findall(_CODE_BLOCK.sub(" ", text))))
        words = {word for word, count in counts.items() if count >= least}
        shared = words if shared is None else shared & words
    return frozenset((shared or set()) - _proper_nouns(texts_by_repo)) | _FUNCTION_WORDS


def _proper_nouns(texts_by_repo: dict[str, list[str]]) -> set[str]:
    """Words written capitalised inside sentences more often than in lower case: Python, GitHub."""
    upper: Counter = Counter()
    lower: Counter = Counter()
    for texts in texts_by_repo.values():
        for text in texts:
            text = _CODE_BLOCK.sub(" ", text)
            upper.update(w.lower() for w in re.findall(r"(?<=[a-z,] )[A-Z][a-z]+\b", text))
            lower.update(re.findall(r"(?<=[a-z,] )[a-z]+\b", text))
    return {word for word, count in upper.items() if count > lower[word]}


def is_code_like(token: str) -> bool:
    """An identifier, path, version or code: digits, separators, an inner capital, or all capitals."""
    core = token.strip("'’.-:")
    return bool(
        re.search(r"[0-9_./:@=()+]|-", core)
        or re.search(r"[a-z][A-Z]", core)
        or (len(core) >= 2 and core.isupper())
    )


def english_outside_quotes(
    sentence: str, names: frozenset[str], vocabulary: frozenset[str]
) -> list[str]:
    """The English of a Chinese sentence that is not quoted, a name, an identifier or code: runs of
    two or more Latin words with a lowercase or common one among them, and single common words."""
    text = _REF.sub(" ", _QUOTED.sub(" ", _URL.sub(" ", sentence)))
    for name in (
        n for n in names if " " in n or not n.isascii()
    ):  # logins such as "kang sheng", "Martín Gaitán"
        text = text.replace(name, " ")
    runs: list[list[str]] = [[]]
    position = 0
    for match in _LATIN_TOKEN.finditer(text):
        if text[position : match.start()].strip(
            " ,"
        ):  # a Chinese character or other punctuation ends a run
            runs.append([])
        position = match.end()
        token = match[0].rstrip(".,:;'’")
        if token:
            known = token in names or token.lower() in names or is_code_like(token)
            runs[-1].append("" if known else token)
    found = []
    for run in runs:
        words = [w for w in run if w]
        common = any(w.lower() in vocabulary for w in words)
        if common or (len(run) >= 2 and any(w.islower() for w in words)):
            found.append(" ".join(words))
    return found


def chinese_sentences(text: str) -> list[str]:
    return [s.strip() for s in _CHINESE_SENTENCE.findall(text) if re.search(r"[\u4e00-\u9fff]", s)]


def week_names(week, repo: str) -> frozenset[str]:
    """Names the data gives: a Chinese sentence may carry them as they are."""
    names = set(repo.replace("-", "/").split("/")) | set(repo.split("/"))
    stats = week.stats
    names.update(stats.modules)
    names.update(stats.labels)
    names.update(a.login for a in (*stats.authors, *stats.bots))
    for analysed in week.pulls:
        names.update(analysed.classification.modules)
        names.update(analysed.classification.labels)
        for f in analysed.pull.files:
            names.update(re.split(r"[/.]", f.path))
        for upgrade in analysed.upgrades:
            names.add(upgrade.package)
    names.update(t.name for t in week.themes)
    return frozenset(n for n in names if n)


# --- titles ----------------------------------------------------------------------------------------


def title_rendering(
    title: str, names: frozenset[str], vocabulary: frozenset[str]
) -> tuple[str, str]:
    """(kind, the title as a Chinese list shows it): kind "translated", "quoted" or "mixed"."""
    rendered = chinese_title_of(title)
    if not re.search(r"[\u4e00-\u9fff]", rendered):
        return "quoted", rendered  # the original alone, as written
    if english_outside_quotes(rendered, names, vocabulary):
        return "mixed", rendered
    return (
        "quoted"
        if _QUOTED.sub("", rendered) != rendered and _quotes_title(rendered, title)
        else "translated"
    ), rendered


def _quotes_title(rendered: str, title: str) -> bool:
    return any(
        q.strip('「」“”"').lower() in title.lower() for q in _QUOTED.findall(rendered) if len(q) > 6
    )


def chinese_title_of(title: str) -> str:
    """The title as the code renders it for a Chinese list."""
    return chinese_title(title)


# --- reading every week ----------------------------------------------------------------------------


@dataclass
class Tally:
    key_lines: Counter = field(default_factory=Counter)  # (language, fault or "good")
    chinese: Counter = field(default_factory=Counter)  # "sentences", "mixed"
    titles: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=lambda: defaultdict(list))


def import_store(folder: Path) -> Path:
    """The three exports imported into a store under `folder`, by the command line; its settings file."""
    settings = folder / "pelicanconf.py"
    settings.write_text('DIGEST_DATA_PATH = "data"\n', encoding="utf-8")
    for repo, name in REPOS.items():
        if cli.main(["import", str(DATA / name), "--repo", repo, "--settings", str(settings)]) != 0:
            sys.exit(f"Importing {name} failed.")
    return settings


def read_repo(repo: str, weeks: list, tally: Tally, vocabulary: frozenset[str]) -> None:
    languages = {code: Language.of(code) for code in LANGUAGES}
    file_lists = {code: file_list_patterns(lang) for code, lang in languages.items()}
    repo_url = f"https://github.com/{repo}"
    for index, week in enumerate(weeks):
        titles = {p.pull.number: p.pull.title for p in week.pulls}
        names = week_names(week, repo)
        for code, lang in languages.items():
            narrative = narrate(week, weeks[:index], lang)
            view = week_view(
                week, narrative, (), lang, repo_url, ""
            )  # as the site's pages, without charts
            for change in view.key_changes:
                title = titles[change.ref.number]
                fault = key_line_fault(
                    key_line(change), title, chinese_title_of(title), file_lists[code]
                )
                tally.key_lines[code, fault or "good"] += 1
                if fault:
                    tally.examples[f"key line, {code}, {fault}"].append(
                        f"{repo} {week.week} #{change.ref.number} {title!r}: {key_line(change)}"
                    )
            if code == "zh":
                for text in view_texts(view):
                    for sentence in chinese_sentences(text):
                        tally.chinese["sentences"] += 1
                        english = english_outside_quotes(sentence, names, vocabulary)
                        if english:
                            tally.chinese["mixed"] += 1
                            tally.examples["zh sentence"].append(
                                f"{repo} {week.week}: {sentence}   [{'; '.join(english)}]"
                            )
        for analysed in week.pulls:
            kind, rendered = title_rendering(analysed.pull.title, names, vocabulary)
            tally.titles[kind] += 1
            tally.examples[f"title {kind}"].append(f"{analysed.pull.title!r} -> {rendered}")


def key_line(change) -> str:
    """The key PR's line as the page shows it (a quoted original, where there is one, after its lead)."""
    quote = getattr(change, "quote", "")
    return f"{change.summary} {quote}".strip() if quote else change.summary


def view_texts(view) -> list[str]:
    """Every generated text a reader sees on the week's page, as plain text."""
    texts = [view.summary.text]
    texts += [t.sentence.text for t in view.themes]
    texts += [item.text for group in view.highlights for item in group.items]
    texts += [c.summary for c in view.key_changes]
    texts += [r.sentence.text for r in view.risks]
    texts += [c.text for c in view.recommendations]
    texts += [c.text for c in view.trends]
    return texts


def report(tally: Tally, weeks: int, vocabulary: frozenset[str], examples: int) -> None:
    print(
        f"{weeks} weeks of {', '.join(REPOS)}; {len(vocabulary)} common English words learned from their titles and descriptions"
    )
    print()
    faults = ("file list", "template", "title again", "cut", "empty")
    print(
        f"{'key PR lines':14} {'lines':>7} "
        + " ".join(f"{fault:>11}" for fault in faults)
        + f" {'bad':>6} {'share':>7}"
    )
    for code in (*LANGUAGES, "both"):
        counts = Counter()
        for (language, fault), n in tally.key_lines.items():
            if code in (language, "both"):
                counts[fault] += n
        total = sum(counts.values())
        bad = total - counts["good"]
        print(
            f"{code:14} {total:7} "
            + " ".join(f"{counts[fault]:11}" for fault in faults)
            + f" {bad:6} {bad / total if total else 0:7.1%}"
        )
    print()
    sentences, mixed = tally.chinese["sentences"], tally.chinese["mixed"]
    print(
        f"Chinese sentences: {sentences}; with English outside quotations: {mixed} ({mixed / sentences if sentences else 0:.1%})"
    )
    total = sum(tally.titles.values())
    print(
        f"Titles in Chinese: {total}; "
        + ", ".join(
            f"{kind} {tally.titles[kind]} ({tally.titles[kind] / total:.1%})"
            for kind in ("translated", "quoted", "mixed")
        )
    )
    if examples:
        for kind, found in sorted(tally.examples.items()):
            print(f"\n## {kind} ({len(found)})")
            step = max(1, len(found) // examples)
            for line in found[::step][:examples]:
                print("  " + line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--examples",
        type=int,
        default=0,
        metavar="N",
        help="print up to N offending texts of each kind",
    )
    parser.add_argument(
        "--repo", choices=sorted(REPOS), action="append", help="only this repository (repeatable)"
    )
    args = parser.parse_args()
    missing = [name for name in REPOS.values() if not (DATA / name).exists()]
    if missing:
        sys.exit(f"The real data is absent: {DATA} should hold {', '.join(missing)}.")
    started = time.perf_counter()
    tally, histories = Tally(), {}
    with tempfile.TemporaryDirectory(prefix="measure-words-") as folder:
        settings_file = import_store(Path(folder))
        store = Store(settings_file.parent / "data")
        for repo in REPOS:
            histories[repo] = load_weeks(
                store,
                repo,
                analysis_options(DigestSettings(data_path=store.root)),
                store.data_time([repo]),
            )
    vocabulary = prose_vocabulary(
        {
            repo: [f"{p.pull.title}\n{p.pull.body}" for w in weeks for p in w.pulls]
            for repo, weeks in histories.items()
        }
    )
    for repo in args.repo or REPOS:
        read_repo(repo, histories[repo], tally, vocabulary)
    weeks = sum(len(histories[repo]) for repo in args.repo or REPOS)
    report(tally, weeks, vocabulary, args.examples)
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
