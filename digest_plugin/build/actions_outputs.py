"""What the GitHub Pages workflow asks before it builds: is this copy configured, which fonts it needs.

    python -m digest_plugin.build.actions_outputs [--settings pelicanconf.py]

Writes `configured=true|false`, `packages=<Debian packages>` and `data=<the store's folder>` to $GITHUB_OUTPUT (or stdout) and a
short note to $GITHUB_STEP_SUMMARY. A copy with no DIGEST_REPOS is not an error: the note says
what to set, and the workflow neither fetches nor deploys the bundled fictional sample.

`repo-digest fetch` adds its own section to $GITHUB_STEP_SUMMARY (cli.fetch_summary) through
`append_to`: which repositories were fetched, which failed and why.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from digest_plugin.build.settings_file import load_settings
from digest_plugin.errors import DigestError
from digest_plugin.settings import DigestSettings

# Debian packages a bare runner lacks: fonts for a language's charts and PDFs (Latin scripts come
# with matplotlib), and the Pango that WeasyPrint draws PDFs with, with an emoji font for labels
# such as "🚀" (WeasyPrint draws its colour glyphs; without it they are empty boxes).
FONTS = {"zh": ["fonts-noto-cjk"]}
PDF = ["libpango-1.0-0", "libpangoft2-1.0-0", "fonts-noto-color-emoji"]

UNCONFIGURED = """\
## repo-digest is not configured yet

Nothing was fetched or deployed: this copy has no repositories to digest, and the bundled sample
is fictional. To publish your own digest:

1. In **Settings → Secrets and variables → Actions → Variables**, add a repository variable
   `DIGEST_REPOS` with the repositories to follow, separated by spaces: `owner/name` or `owner/*`
   (or set `DIGEST_REPOS` in `pelicanconf.py`).
2. In **Settings → Pages**, choose **GitHub Actions** as the source.
3. Run this workflow again (**Actions → digest → Run workflow**).
"""


def workflow_outputs(settings: DigestSettings) -> dict[str, str]:
    return {
        "configured": "true" if settings.repos else "false",
        "packages": " ".join(FONTS.get(settings.language, []) + (PDF if settings.pdf else [])),
        "data": os.path.relpath(settings.data_path),
    }


def summary(settings: DigestSettings) -> str:
    if not settings.repos:
        return UNCONFIGURED
    return "## repo-digest\n\nRepositories: " + ", ".join(f"`{r}`" for r in settings.repos) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m digest_plugin.build.actions_outputs", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--settings", default="pelicanconf.py", metavar="FILE")
    args = parser.parse_args(argv)
    try:
        settings, _ = load_settings(args.settings)
    except DigestError as error:
        print(f"::error::{error}", file=sys.stderr)
        return 1
    append_to(
        os.environ.get("GITHUB_OUTPUT"),
        "".join(f"{k}={v}\n" for k, v in workflow_outputs(settings).items()),
    )
    append_to(os.environ.get("GITHUB_STEP_SUMMARY"), summary(settings))
    if not settings.repos:
        print(
            "::notice::DIGEST_REPOS is not set: nothing to fetch or deploy (see the job summary)."
        )
    return 0


def append_to(path: str | None, text: str) -> None:
    """Append `text` to one of the files GitHub Actions gives a step ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY); stdout without one."""
    if path:
        with Path(path).open("a", encoding="utf-8") as file:
            file.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    sys.exit(main())
