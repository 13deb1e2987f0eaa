"""How tall a busy week's key changes are on a phone: ruff's busiest week (2026-W26) built by Pelican
and measured in headless Chromium, 390 px wide, as tests/browser_harness.py drives it.

    .venv/bin/python bench/measure_key_section.py --store DATA                  # this checkout
    .venv/bin/python bench/measure_key_section.py --store DATA --tree OTHER     # another checkout's code, for before and after

DATA is a store holding astral-sh/ruff (`repo-digest import`); only the weeks from 2026-W26 are
built (DIGEST_SINCE; the weeks before still set the bar for key PRs), without PDFs, in English
and in Chinese. Needs Chromium and Playwright.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser_harness import chromium, open_page, serve_folder  # noqa: E402

REPO, WEEK, SINCE = "astral-sh/ruff", "2026-W26", "2026-06-22"
PHONE = 390
SETTINGS = """exec(open({conf!r}).read())
PATH = {content!r}
THEME = {theme!r}
CACHE_PATH = {cache!r}
DIGEST_REPOS = [{repo!r}]
DIGEST_DATA_PATH = {store!r}
DIGEST_SINCE = {since!r}
DIGEST_PDF = False
DIGEST_FETCH = "never"
DIGEST_LANGUAGE = {language!r}
"""
MEASURE = """[document.querySelector('section[aria-labelledby^="key-"]').getBoundingClientRect().height,
  document.querySelectorAll('ol.key-pulls > li').length, document.querySelectorAll('ul.brief-key-pulls > li').length,
  document.documentElement.scrollHeight]"""


def build(tree: Path, store: Path, language: str, folder: Path) -> Path:
    """The site of REPO from SINCE, built by `tree`'s code (run from it, so that its package is imported)."""
    settings = folder / f"conf-{language}.py"
    settings.write_text(
        SETTINGS.format(
            conf=str(tree / "pelicanconf.py"),
            content=str(tree / "content"),
            theme=str(tree / "theme"),
            cache=str(folder / f"cache-{language}"),
            repo=REPO,
            store=str(store),
            since=SINCE,
            language=language,
        ),
        encoding="utf-8",
    )
    output = folder / f"site-{language}"
    result = subprocess.run(
        [sys.executable, "-m", "pelican", "content", "-o", str(output), "-s", str(settings), "-q"],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if result.returncode:
        sys.exit(result.stdout + result.stderr)
    return output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True, help="a store holding astral-sh/ruff")
    parser.add_argument(
        "--tree",
        type=Path,
        default=ROOT,
        help="the checkout whose code builds the site (default: this one)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="measure-key-section-") as folder:
        sites = {
            language: build(args.tree.resolve(), args.store.resolve(), language, Path(folder))
            for language in ("en", "zh")
        }
        print(f"{REPO} {WEEK} on a phone ({PHONE} px wide), built by {args.tree.resolve()}:")
        with chromium() as browser:
            for language, site in sites.items():
                with serve_folder(site) as base:
                    page, errors, failed = open_page(browser, f"{base}/{REPO}/{WEEK}/", PHONE)
                    height, full, brief, whole = page.evaluate(MEASURE)
                    page.close()
                print(
                    f"  {language}: key changes {height:,.0f} px ({full} in full, {brief} in brief); the whole page {whole:,} px"
                    + (f"; errors {errors + failed}" if errors or failed else "")
                )


if __name__ == "__main__":
    main()
