"""`make publish`: SITEURL is required and comes from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _publishconf(siteurl: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "SITEURL"}
    if siteurl is not None:
        env["SITEURL"] = siteurl
    code = "from pelican.settings import read_settings; print(read_settings('publishconf.py')['FEED_DOMAIN'])"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_without_siteurl_publishing_stops_with_one_clear_sentence():
    for missing in (None, "", "example.github.io/site"):
        done = _publishconf(missing)
        assert done.returncode != 0
        assert done.stderr.strip().startswith("publishconf.py: set SITEURL to the address"), (
            done.stderr
        )
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_siteurl_from_the_environment_makes_feed_links_absolute():
    done = _publishconf("https://octo.github.io/widgets-digest/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "https://octo.github.io/widgets-digest"
