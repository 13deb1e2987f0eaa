"""Build a real Pelican site in a temporary folder, the way `make html` does, for end-to-end tests."""

from __future__ import annotations

import logging
from pathlib import Path

from pelican.settings import read_settings

from pelican import Pelican

ROOT = Path(__file__).resolve().parents[1]


def build_site(folder: Path, **overrides) -> Path:
    """Run Pelican once with the project's theme and plugin; returns the output folder.
    Files in `folder`/content (pages, editor's notes) are part of the site."""
    (folder / "content").mkdir(parents=True, exist_ok=True)
    settings = read_settings(
        str(ROOT / "pelicanconf.py"),
        override={
            "PATH": str(folder / "content"),
            "OUTPUT_PATH": str(folder / "output"),
            "CACHE_PATH": str(folder / "cache"),
            "THEME": str(ROOT / "theme"),
            "DIGEST_DATA_PATH": str(folder / "data"),
            "DIGEST_FETCH": "never",
            "DIGEST_PDF": False,  # drawing PDFs takes a second a week: only the tests of PDFs ask for them
            **overrides,
        },
    )
    Pelican(settings).run()
    logging.getLogger().handlers.clear()  # Pelican's log handlers would otherwise pile up across builds
    return folder / "output"
