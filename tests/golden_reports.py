"""Golden reports: real weeks of verl, ruff and pelican as the site words them, kept under
tests/golden/{en,zh}/ so that every change to the words shows as a diff in the commit that makes it.

    make golden                                   # regenerate them (after a change to the words)
    .venv/bin/python -m tests.golden_reports      # compare only; exit 1 and list the weeks that differ

The three exports of ../shared/data are imported into a temporary store with `repo-digest import`,
and each week is printed as `repo-digest show OWNER/NAME --week W --format markdown` prints it
(the week's Markdown download without the link to its page). `tests/realdata/test_golden_reports.py`
compares them and skips when ../shared/data is absent.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from digest_plugin import cli
from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.history import analysis_options, load_weeks
from digest_plugin.publish.markdown import render_markdown
from digest_plugin.publish.site_digest import week_report_view
from digest_plugin.settings import DigestSettings
from digest_plugin.store.folder import Store

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "github"
GOLDEN = ROOT / "tests" / "golden"
LANGUAGES = ("en", "zh")
EXPORTS = {
    "verl-project/verl": "verl-project__verl.pulls.jsonl.gz",
    "astral-sh/ruff": "astral-sh__ruff.pulls.jsonl.gz",
    "getpelican/pelican": "getpelican__pelican.pulls.jsonl.gz",
}
# For each repository: its busiest week, a quiet one, a release week and a week with reverts.
WEEKS = {
    "verl-project/verl": {
        "2025-W23": "the busiest week (65 PRs), with the v0.4 release",
        "2025-W30": "the v0.5.0 release",
        "2025-W40": "a quiet week (4 PRs)",
        "2026-W05": "five reverts",
        "2026-W21": "#6324, whose author's summary the page used to replace with a file list",
    },
    "astral-sh/ruff": {
        "2026-W26": "the busiest week (171 PRs), releases 0.15.19 and 0.15.20, three reverts",
        "2026-W19": "the quietest week (42 PRs)",
        "2026-W30": "the 0.16.0 release",
        "2026-W20": "two reverts, and #25113, whose line used to start “Building on this”",
    },
    "getpelican/pelican": {
        "2023-W43": "the busiest week (25 PRs), merge-commit titles",
        "2025-W30": "a quiet week (2 PRs)",
        "2024-W48": "a release (#3427 adds RELEASE.md, which AutoPub publishes)",
        "2019-W04": "a revert",
    },
}


def golden_path(language: str, repo: str, week: str) -> Path:
    return GOLDEN / language / f"{repo.split('/')[1]}-{week}.md"


def missing_data() -> list[Path]:
    return [DATA / name for name in EXPORTS.values() if not (DATA / name).exists()]


@contextmanager
def imported_store() -> Iterator[Store]:
    """The three exports imported into a temporary store, by the command line."""
    with tempfile.TemporaryDirectory(prefix="golden-reports-") as folder:
        settings = Path(folder) / "pelicanconf.py"
        settings.write_text('DIGEST_DATA_PATH = "data"\n', encoding="utf-8")
        for repo, name in EXPORTS.items():
            if (
                cli.main(["import", str(DATA / name), "--repo", repo, "--settings", str(settings)])
                != 0
            ):
                raise RuntimeError(f"Importing {name} failed.")
        yield Store(Path(folder) / "data")


def reports() -> dict[Path, str]:
    """Every golden week's report in both languages, by the file it is kept in."""
    found: dict[Path, str] = {}
    with imported_store() as store:
        settings = DigestSettings(data_path=store.root)
        for repo, weeks in WEEKS.items():
            history = load_weeks(store, repo, analysis_options(settings), store.data_time([repo]))
            index = {week.week: i for i, week in enumerate(history)}
            for week_id in weeks:
                week, previous = history[index[week_id]], history[: index[week_id]]
                for code in LANGUAGES:
                    language = Language.of(code)
                    narrative = narrate(week, previous, language)
                    view = week_report_view(week, narrative, history, settings, language)
                    found[golden_path(code, repo, week_id)] = render_markdown(view, "", language)
    return found


def differences(found: dict[Path, str]) -> dict[Path, str]:
    """The golden files that differ from `found`, each with its unified diff."""
    differ = {}
    for path, text in found.items():
        kept = path.read_text(encoding="utf-8") if path.exists() else ""
        if kept != text:
            name = str(path.relative_to(ROOT))
            differ[path] = "".join(
                difflib.unified_diff(
                    kept.splitlines(True), text.splitlines(True), name, f"{name} (now)"
                )
            )
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Compare (or with --update, rewrite) the golden reports under tests/golden/."
    )
    parser.add_argument(
        "--update", action="store_true", help="write the reports as the code words them now"
    )
    args = parser.parse_args(argv)
    if missing_data():
        print(
            f"The real data is absent: {DATA} should hold {', '.join(EXPORTS.values())}.",
            file=sys.stderr,
        )
        return 1
    found = reports()
    differ = differences(found)
    if args.update:
        for path in differ:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(found[path], encoding="utf-8")
        print(f"{len(differ)} of {len(found)} golden reports rewritten.")
        return 0
    for path in differ:
        print(path.relative_to(ROOT))
    print(
        f"{len(differ)} of {len(found)} golden reports differ"
        + ("; `make golden` rewrites them." if differ else ".")
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
