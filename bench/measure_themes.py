"""Whether the weekly themes are strands of work, measured over every week of verl, ruff and pelican.

    .venv/bin/python bench/measure_themes.py                     # the figures and 20 themes to check by hand
    .venv/bin/python bench/measure_themes.py --against ../base   # the same, with the code of another checkout
    .venv/bin/python bench/measure_themes.py --store /tmp/x/data # a store the three are imported into already

Prints, per repository and in all:
- themes, and weeks with at least one;
- fragment names: a theme whose name none of its PRs says in its own title, labels or modules (a
  folder or file name only: "ascend" from `docker/ascend/`), or whose name, in its PRs' titles,
  is nearly always one word of the same longer phrase ("language" of "language server");
- module counts that disagree: a theme named as a module of the week's module table whose PR
  count is not the table's;
- members that say nothing of it: PRs of a theme whose own title, labels and modules name none of
  the theme's names (the parts of "npu/ascend" each count);
- members that say it only in English: of those whose title says it, the PRs whose labels and
  modules do not name it and whose title writes it only as an ordinary lower-case word ("a
  `SupportedPythonVersion` enum", "compact retained data"), never as a name (`Enum`, Ascend, NPU);
then `--sample N` themes (20 unless told), drawn with a fixed seed, each with its PRs' titles and
modules, to be judged by hand.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "github"
REPOS = {
    "verl-project/verl": "verl-project__verl.pulls.jsonl.gz",
    "astral-sh/ruff": "astral-sh__ruff.pulls.jsonl.gz",
    "getpelican/pelican": "getpelican__pelican.pulls.jsonl.gz",
}
PHRASE_SHARE = 0.75  # of a word's occurrences in its theme's titles beside the same word, from which it is part of a phrase
# Words that make no phrase with a name: what was done to it, and the little words around it
_AROUND = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "for",
        "to",
        "in",
        "on",
        "at",
        "by",
        "with",
        "from",
        "into",
        "via",
        "as",
        "is",
        "are",
        "be",
        "not",
        "no",
        "new",
        "all",
        "this",
        "that",
        "it",
        "its",
        "when",
        "if",
        "add",
        "adds",
        "added",
        "adding",
        "support",
        "supports",
        "fix",
        "fixes",
        "fixed",
        "update",
        "updates",
        "updated",
        "remove",
        "removes",
        "removed",
        "use",
        "uses",
        "using",
        "make",
        "makes",
        "allow",
        "allows",
        "improve",
        "improves",
        "handle",
        "refactor",
        "rename",
        "move",
        "set",
        "get",
        "avoid",
        "ensure",
        "enable",
        "disable",
        "implement",
        "introduce",
        "test",
        "tests",
        "doc",
        "docs",
        "bump",
        "chore",
        "feat",
        "misc",
        "more",
        "better",
        "some",
        "also",
    ]
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--against", type=Path, help="measure the code of this checkout instead of this one"
    )
    parser.add_argument(
        "--store", type=Path, help="a store folder that holds the three repositories already"
    )
    parser.add_argument(
        "--sample", type=int, default=20, metavar="N", help="themes to print for a hand check"
    )
    parser.add_argument("--seed", type=int, default=39)
    args = parser.parse_args()
    sys.path.insert(0, str((args.against or ROOT).resolve()))
    print(f"code measured: {(args.against or ROOT).resolve()}\n")
    if args.store:
        found = {repo: _themes(args.store, repo, imported=True) for repo in REPOS}
    else:
        missing = [name for name in REPOS.values() if not (DATA / name).exists()]
        if missing:
            sys.exit(f"The real data is absent: {DATA} should hold {', '.join(missing)}.")
        with tempfile.TemporaryDirectory(prefix="measure-") as folder:
            found = {repo: _themes(Path(folder), repo, imported=False) for repo in REPOS}
    totals: Counter = Counter()
    print(
        f"{'repository':20} {'weeks':>6} {'themed':>7} {'themes':>7} {'fragment':>9} {'module≠':>8} {'members':>8} "
        f"{'unsaid':>7} {'english':>8}"
    )
    for repo, weeks in found.items():
        figures = _figures(weeks)
        totals.update(figures)
        print(
            f"{repo:20} {figures['weeks']:6} {figures['themed']:7} {figures['themes']:7} {figures['fragment']:9} "
            f"{figures['module_disagrees']:8} {figures['members']:8} {figures['unsaid']:7} {figures['english']:8}"
        )
    print(
        f"{'all':20} {totals['weeks']:6} {totals['themed']:7} {totals['themes']:7} {totals['fragment']:9} "
        f"{totals['module_disagrees']:8} {totals['members']:8} {totals['unsaid']:7} {totals['english']:8}"
    )
    for repo, weeks in found.items():
        for week, theme, _ in weeks:
            for problem in _problems(theme, week):
                print(f"  {repo} {week['week']} {theme['name']!r}: {problem}")
    if args.sample:
        _sample(found, args.sample, random.Random(args.seed))


def _themes(folder: Path, repo: str, imported: bool) -> list[tuple[dict, dict, None]]:
    """(week, theme, None) of every theme of every week of `repo`; a week is its number, its module
    table and its PRs (number, title, labels, modules)."""
    from digest_plugin.publish.history import analysis_options, load_weeks
    from digest_plugin.settings import DigestSettings
    from digest_plugin.store.folder import Store

    store = Store(folder)
    if not imported:
        from digest_plugin.store.jsonl_import import import_file

        import_file(DATA / REPOS[repo], repo, store)
    weeks = load_weeks(
        store, repo, analysis_options(DigestSettings(data_path=folder)), store.data_time([repo])
    )
    found = []
    for analysis in weeks:
        week = {
            "week": analysis.week,
            "modules": dict(analysis.stats.modules),
            "pulls": {
                p.pull.number: {
                    "title": p.pull.title,
                    "labels": [str(label).lower() for label in p.pull.labels],
                    "modules": list(p.classification.modules),
                }
                for p in analysis.pulls
            },
            "themes": len(analysis.themes),
        }
        found.append((week, None, None))
        found.extend(
            (week, {"name": theme.name, "pulls": list(theme.pulls), "source": theme.source}, None)
            for theme in analysis.themes
        )
    return found


def _figures(weeks: list[tuple[dict, dict | None, None]]) -> Counter:
    figures: Counter = Counter()
    for week, theme, _ in weeks:
        if theme is None:
            figures["weeks"] += 1
            figures["themed"] += bool(week["themes"])
            continue
        figures["themes"] += 1
        problems = _problems(theme, week)
        figures["fragment"] += any(p.startswith("fragment") for p in problems)
        figures["module_disagrees"] += any(p.startswith("module") for p in problems)
        figures["members"] += len(theme["pulls"])
        figures["unsaid"] += sum(
            1 for n in theme["pulls"] if not _says(week["pulls"][n], theme["name"])
        )
        figures["english"] += sum(
            1
            for n in theme["pulls"]
            if _says(week["pulls"][n], theme["name"])
            and _only_in_english(week["pulls"][n], theme["name"])
        )
    return figures


def _problems(theme: dict | None, week: dict) -> list[str]:
    if theme is None:
        return []
    problems = []
    pulls = [week["pulls"][n] for n in theme["pulls"]]
    if not any(_says(pull, theme["name"]) for pull in pulls):
        problems.append("fragment: none of its PRs says it in a title, label or module")
    elif phrase := _phrase_of(theme["name"], pulls):
        problems.append(f"fragment: part of the phrase {phrase!r} in its PRs' titles")
    module = theme["name"] if theme["name"] in week["modules"] else None
    if module is not None and week["modules"][module] != len(theme["pulls"]):
        problems.append(
            f"module table says {week['modules'][module]}, the theme {len(theme['pulls'])}"
        )
    return problems


def _words(text: str) -> list[str]:
    """A text's words, lower case, identifiers split (`ascend_sglang_best_practices.rst` says ascend), version digits
    dropped ("qwen3" says qwen), plurals as singulars."""
    return [
        _singular(re.sub(r"(?<=[a-z])v?\d+[a-z]?$", "", word))
        for word in re.split(r"[^a-z0-9]+", text.lower())
        if word
    ]


def _singular(word: str) -> str:
    return (
        word[:-1]
        if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
        else word
    )


def _says(pull: dict, name: str) -> bool:
    """Whether a PR's own title, labels or modules say one of a theme's names ("npu/ascend": either)."""
    words = _words(pull["title"])
    own = {*pull["labels"], *pull["modules"]}
    for part in name.split("/"):
        wanted = _words(part)
        if part in own or (
            wanted and any(words[i : i + len(wanted)] == wanted for i in range(len(words)))
        ):
            return True
    return False


def _only_in_english(pull: dict, name: str) -> bool:
    """Whether a PR says none of a theme's names by a label, a module or a word its title writes as
    a name: as code, with capitals past its first word, digits or underscores."""
    own = {*pull["labels"], *pull["modules"]}
    scopes = re.match(r"^\s*(\[[^\]]*\]\s*)*", pull["title"]).group(
        0
    )  # "[ty]", "[`refurb`]": the authors' own names
    title = re.sub(
        r"^[a-z]+(\([^)]*\))?!?:\s*", "", pull["title"][len(scopes) :]
    )  # "feat: ", "fix(ci): "
    named = set(_words(scopes))
    for i, part in enumerate(re.split(r"(`[^`]*`)", title)):
        for position, word in enumerate(re.findall(r"[A-Za-z][A-Za-z0-9_.+-]*", part)):
            if (
                i % 2
                or any(c.isdigit() or c == "_" for c in word)
                or any(c.isupper() for c in word[1:])
                or (word[0].isupper() and (i or position))
            ):
                named.update(_words(word))
    return not any(part in own or set(_words(part)) & named for part in name.split("/"))


def _phrase_of(name: str, pulls: list[dict]) -> str | None:
    """The longer phrase a one-word theme name nearly always stands in, in its PRs' titles; None
    when it stands alone, as a module or a label of most of its PRs, or in no phrase in particular."""
    if (
        "/" in name
        or " " in name
        or sum(1 for p in pulls if name in {*p["labels"], *p["modules"]}) * 2 >= len(pulls)
    ):
        return None
    beside: Counter = Counter()
    seen = 0
    for pull in pulls:
        words = _words(re.sub(r"^\s*(\[[^\]]*\]\s*)+", "", pull["title"]))
        for i, word in enumerate(words):
            if word != name:
                continue
            seen += 1
            for phrase in (
                (words[i - 1], word) if i else None,
                (word, words[i + 1]) if i + 1 < len(words) else None,
            ):
                if (
                    phrase
                    and not set(phrase) & _AROUND
                    and all(len(w) >= 3 and not any(c.isdigit() for c in w) for w in phrase)
                ):
                    beside[" ".join(phrase)] += 1
    if seen < 2 or not beside:
        return None
    phrase, count = beside.most_common(1)[0]
    return phrase if count >= PHRASE_SHARE * seen else None


def _sample(found: dict, count: int, rng: random.Random) -> None:
    themes = [
        (repo, week, theme)
        for repo, weeks in found.items()
        for week, theme, _ in weeks
        if theme is not None
    ]
    print(f"\n{count} themes to check by hand (seed drawn from {len(themes)}):")
    for repo, week, theme in sorted(
        rng.sample(themes, min(count, len(themes))), key=lambda t: (t[0], t[1]["week"])
    ):
        counted = week["modules"].get(theme["name"])
        table = f", module table {counted}" if counted is not None else ""
        print(
            f"\n{repo} {week['week']} theme {theme['name']!r} ({len(theme['pulls'])} PRs, from {theme['source']}{table})"
        )
        for number in theme["pulls"][:8]:
            pull = week["pulls"][number]
            print(f"  #{number} {pull['title'][:100]}  [{', '.join(pull['modules'])}]")
        if len(theme["pulls"]) > 8:
            print(f"  … and {len(theme['pulls']) - 8} more")


if __name__ == "__main__":
    main()
