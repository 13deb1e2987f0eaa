"""What the reports say, measured over every week of verl, ruff and pelican, in English and Chinese.

    .venv/bin/python bench/measure_interpretations.py                     # the figures
    .venv/bin/python bench/measure_interpretations.py --sample 30         # and 30 interpretive sentences to check by hand
    .venv/bin/python bench/measure_interpretations.py --against ../base   # the same, with the code of another checkout

Imports the exports of ../shared/data into a temporary store (as `repo-digest import` does), reads
every week back as a build would, and writes it in both languages. It prints, per repository:
themes per busy week and their most frequent names; recommendations per week, how many name a
specific object (a file, a version, a setting, a PR's subject) and how many are stock phrases; the
classes of wrong interpretation that can be counted mechanically. `--sample N` prints N sentences
that interpret the data (versions, reverts, deprecations, CI, main risks, "tests" claims), drawn
from weeks the rules were not tuned on, each beside the facts of the PRs it cites, for a reader to
judge. `--against DIR` measures the code of another checkout (a scratch worktree of an older
commit), so that before and after are measured by the same script.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import statistics
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
BUSY = 10  # PRs by people from which a week is busy
# Weeks whose PRs the rules and tests were written against: the hand check draws from the others.
TUNED = {
    "verl-project/verl": {
        "2025-W09",
        "2025-W26",
        "2026-W08",
        "2026-W16",
        "2026-W17",
        "2026-W19",
        "2026-W20",
        "2026-W23",
        "2026-W29",
    },
    "astral-sh/ruff": {
        "2025-W15",
        "2025-W45",
        "2026-W07",
        "2026-W20",
        "2026-W33",
        "2025-W04",
        "2025-W08",
        "2026-W28",
        "2026-W12",
    },
    "getpelican/pelican": {"2016-W49", "2019-W40", "2023-W04", "2024-W37"},
}
# Phrases issue 26 names as stock recommendations
STOCK = re.compile(
    r"an owner|Watch the next CI runs|changelog .*integration tests|integration tests against the new version|"
    r"负责人|CI 运行|更新日志.*集成测试"
)
OBJECT = re.compile(
    r"`[^`]+`|“[^”]+”|「[^」]+」|\b[\w.-]+/[\w./-]+|\b[\w-]+\.(?:py|rs|toml|ya?ml|json|txt|lock|cfg|ini|sh|md)\b|\d+\.\d+"
)
PERIPHERAL = re.compile(
    r"(^|/)(docs?|examples?|recipes?|scripts?|tests?|benchmarks?|\.github)/|\.(md|rst|txt|sh)$"
)
CI_CONFIG = re.compile(
    r"^\.github/workflows/|^\.github/actions/|^\.gitlab-ci|^\.travis|^\.circleci/|azure-pipelines|^\.buildkite/|Jenkinsfile|appveyor|\.readthedocs|codecov"
)
CATEGORIES = ("versions", "reverts", "deprecations", "ci", "main risks", "tests")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--against", type=Path, help="measure the code of this checkout instead of this one"
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        metavar="N",
        help="print N interpretive sentences to check by hand",
    )
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--names", action="store_true", help="print every busy week's theme names")
    parser.add_argument(
        "--dump",
        type=Path,
        metavar="FILE",
        help="write every week's JSON, by repository and language, to FILE",
    )
    args = parser.parse_args()
    sys.path.insert(0, str((args.against or ROOT).resolve()))
    missing = [name for name in REPOS.values() if not (DATA / name).exists()]
    if missing:
        sys.exit(f"The real data is absent: {DATA} should hold {', '.join(missing)}.")
    with tempfile.TemporaryDirectory(prefix="measure-") as folder:
        reports = {repo: _reports(Path(folder), repo) for repo in REPOS}
    if args.dump:
        args.dump.write_text(json.dumps(reports, ensure_ascii=False, default=str), encoding="utf-8")
    print(f"code measured: {(args.against or ROOT).resolve()}\n")
    _themes(reports, args.names)
    _recommendations(reports)
    _mechanical(reports)
    if args.sample:
        _sample(reports, args.sample, random.Random(args.seed))


def _reports(folder: Path, repo: str) -> dict[str, dict[str, dict]]:
    """{language: {week: the week's JSON}} of every week with merged PRs, as `show --format json` prints it."""
    try:  # the layout of main since issue 25
        from digest_plugin.publish.history import analysis_options
        from digest_plugin.store.folder import Store
        from digest_plugin.store.jsonl_import import import_file
    except ImportError:  # the layout before it, to measure an older checkout with --against
        from digest_plugin.importer import import_file
        from digest_plugin.store import Store

        def analysis_options(settings):
            return settings

    from digest_plugin.narrate import Language, narrate
    from digest_plugin.publish.history import load_weeks
    from digest_plugin.publish.week_json import week_json
    from digest_plugin.settings import DigestSettings

    store = Store(folder)
    import_file(DATA / REPOS[repo], repo, store)
    settings = DigestSettings(data_path=folder)
    weeks = load_weeks(store, repo, analysis_options(settings), store.data_time([repo]))
    reports = {}
    for code in ("en", "zh"):
        language = Language.of(code)
        reports[code] = {
            week.week: week_json(week, narrate(week, weeks[:index], language), language)
            for index, week in enumerate(weeks)
            if week.pulls
        }
    return reports


def _people(week: dict) -> int:
    return sum(1 for p in week["pulls"] if not p["bot"])


def _themes(reports: dict, names: bool) -> None:
    print(f"Themes per busy week (at least {BUSY} PRs by people)")
    print(
        f"{'repository':20} {'busy weeks':>10} {'themes/week':>12} {'none':>5}  five most frequent names"
    )
    for repo, by_language in reports.items():
        busy = {w: r for w, r in by_language["en"].items() if _people(r) >= BUSY}
        counts = Counter(t["name"] for r in busy.values() for t in r["themes"])
        per_week = [len(r["themes"]) for r in busy.values()]
        mean = statistics.mean(per_week) if per_week else 0.0
        top = ", ".join(f"{name} ({n})" for name, n in counts.most_common(5))
        print(f"{repo:20} {len(busy):10} {mean:12.1f} {per_week.count(0):5}  {top}")
        if names:
            for week, report in busy.items():
                print(
                    f"    {week} ({_people(report)} PRs): "
                    + "; ".join(f"{t['name']} {len(t['pulls'])}" for t in report["themes"])
                )
    print()


def _recommendations(reports: dict) -> None:
    print("Recommendations per week with merged PRs")
    print(
        f"{'repository':20} {'lang':4} {'weeks':>6} {'recs':>6} {'per week':>9} {'none':>6} {'name an object':>15} {'stock phrases':>14}"
    )
    for repo, by_language in reports.items():
        for code, weeks in by_language.items():
            texts = [r["text"] for report in weeks.values() for r in report["recommendations"]]
            empty = sum(1 for report in weeks.values() if not report["recommendations"])
            named = sum(1 for t in texts if OBJECT.search(re.sub(r"#\d+", "", t)))
            stock = sum(1 for t in texts if STOCK.search(t))
            print(
                f"{repo:20} {code:4} {len(weeks):6} {len(texts):6} {len(texts) / len(weeks):9.2f} {empty:6} {named:15} {stock:14}"
            )
    print()


def _mechanical(reports: dict) -> None:
    """The classes of issue 26 that a pattern can count (the hand check judges the rest)."""
    print("Interpretations a pattern can count (English reports)")
    print(
        f"{'repository':20} {'deprecations':>12} {'CI risk on non-CI files':>24} {'main risk on docs/examples/scripts':>35} {'revert follow-ups asked':>24}"
    )
    for repo, by_language in reports.items():
        weeks = by_language["en"]
        deprecations = sum(
            len(r["pulls"])
            for report in weeks.values()
            for r in report["risks"]
            if r["kind"] == "deprecation"
        )
        ci = sum(
            1
            for report in weeks.values()
            for r in report["risks"]
            if r["kind"] == "ci-change"
            for e in r["evidence"]
            for path in e.get("paths", ())
            if not CI_CONFIG.search(path)
        )
        peripheral = 0
        for report in weeks.values():
            main = re.search(r"(?:The main risk|main risk)[^#]*#(\d+)", report.get("summary", ""))
            if main:
                pull = _pull(repo, int(main[1]))
                if (
                    pull
                    and pull["files"]
                    and all(PERIPHERAL.search(f["filename"]) for f in pull["files"])
                ):
                    peripheral += 1
        follow_ups = sum(
            1
            for report in weeks.values()
            for r in report["recommendations"]
            if re.search(r"revert", r["text"], re.I)
        )
        print(f"{repo:20} {deprecations:12} {ci:24} {peripheral:35} {follow_ups:24}")
    print()


_EXPORTS: dict[str, dict[int, dict]] = {}


def _pull(repo: str, number: int) -> dict | None:
    """The PR as the export holds it (title, body, files): what a hand check compares with."""
    if repo not in _EXPORTS:
        with gzip.open(DATA / REPOS[repo], "rt", encoding="utf-8") as lines:
            _EXPORTS[repo] = {p["number"]: p for p in map(json.loads, lines)}
    return _EXPORTS[repo].get(number)


def _interpretations(repo: str, week: str, report: dict) -> list[tuple[str, str]]:
    """(category, sentence) of every interpretive sentence of a week's English report."""
    found = []
    kinds = {
        "dependency-upgrade": "versions",
        "revert": "reverts",
        "deprecation": "deprecations",
        "ci-change": "ci",
        "missing-tests": "tests",
    }
    for risk in report["risks"]:
        if risk["kind"] in kinds:
            found.extend((kinds[risk["kind"]], s) for s in _sentences(risk.get("text", "")))
    for recommendation in report["recommendations"]:
        text = recommendation["text"]
        category = next(
            (
                c
                for c, p in (
                    ("versions", r"\d+\.\d+|changelog|upgrade|pin"),
                    ("reverts", r"revert|re-?land"),
                    ("deprecations", r"deprecat"),
                    ("ci", r"\bCI\b|workflow"),
                    ("tests", r"\btests?\b"),
                )
                if re.search(p, text)
            ),
            None,
        )
        if category:
            found.append((category, text))
    found.extend(
        ("main risks", s) for s in _sentences(report.get("summary", "")) if "main risk" in s
    )
    for pull in report["pulls"]:
        if re.search(r"\btests?\b", pull.get("text") or ""):
            found.append(("tests", f"#{pull['number']}: {pull['text']}"))
    return found


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z#])", text) if s]


def _sample(reports: dict, count: int, rng: random.Random) -> None:
    candidates: dict[str, list[tuple[str, str, str]]] = {c: [] for c in CATEGORIES}
    for repo, by_language in reports.items():
        for week, report in by_language["en"].items():
            if week in TUNED[repo]:
                continue
            for category, sentence in _interpretations(repo, week, report):
                candidates[category].append((repo, week, sentence))
    per_category = [
        count // len(CATEGORIES) + (1 if i < count % len(CATEGORIES) else 0)
        for i in range(len(CATEGORIES))
    ]
    print(f"{count} interpretive sentences from weeks not tuned on, each with the PRs it cites")
    index = 0
    for category, wanted in zip(CATEGORIES, per_category, strict=True):
        pool = sorted(set(candidates[category]))
        print(f"\n=== {category}: {wanted} of {len(pool)}")
        for repo, week, sentence in rng.sample(pool, min(wanted, len(pool))):
            index += 1
            print(f"\n[{index}] {repo} {week}: {sentence}")
            for number in dict.fromkeys(int(n) for n in re.findall(r"#(\d+)", sentence)):
                _show_pull(repo, number)


def _show_pull(repo: str, number: int) -> None:
    pull = _pull(repo, number)
    if pull is None:
        print(f"    #{number}: not in the export")
        return
    files = pull.get("files") or []
    listed = ", ".join(
        f"{f['status'][0]} {f['filename']} +{f['additions']}-{f['deletions']}" for f in files[:8]
    )
    body = " ".join((pull.get("body") or "").split())[:400]
    print(
        f"    #{number} {pull['merged_at'][:10]} “{pull['title']}” ({len(files)} files: {listed}{' …' if len(files) > 8 else ''})"
    )
    print(f"        body: {body}")


if __name__ == "__main__":
    main()
