"""The PDF writer: a week's PDF is drawn once per content and taken from the cache after that."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from digest_plugin.build.cache import PdfCache
from digest_plugin.publish import pdf
from digest_plugin.publish.pdf import PARALLEL_FROM, PDF_NAME, PdfJob, write_pdfs
from tests.conftest import make_pull
from tests.tiny_project import tiny_project

pytest.importorskip("weasyprint")

PAGE = "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>W21</title></head><body><h1>{}</h1></body></html>"


def job(html: str, folder) -> PdfJob:
    """A job whose fingerprint is its HTML, as a site's week page is for its PDF."""
    return PdfJob(html.encode(), lambda: html, folder)


def test_a_pdf_is_redrawn_only_when_its_content_changes(tmp_path):
    week, cache = tmp_path / "output/acme/widget/2026-W21", PdfCache(tmp_path / "cache")
    week.mkdir(parents=True)
    assert write_pdfs([job(PAGE.format("Week 21"), week)], cache) == 1
    first = (week / PDF_NAME).read_bytes()
    assert first.startswith(b"%PDF")
    assert (
        write_pdfs([job(PAGE.format("Week 21"), week)], cache) == 0
    )  # a warm build: same content, from the cache
    assert (week / PDF_NAME).read_bytes() == first
    assert write_pdfs([job(PAGE.format("Week 21, with a note"), week)], cache) == 1


def test_a_changed_chart_redraws_the_pdf_that_shows_it(tmp_path):
    week, cache = tmp_path / "week", PdfCache(tmp_path / "cache")
    week.mkdir()
    chart = week / "activity-trend.svg"
    chart.write_text(
        "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='5' height='5'/></svg>"
    )
    html = PAGE.format('Charts <img src="activity-trend.svg" alt="">')
    assert write_pdfs([job(html, week)], cache) == 1
    assert write_pdfs([job(html, week)], cache) == 0
    chart.write_text(
        "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='9' height='9'/></svg>"
    )
    assert write_pdfs([job(html, week)], cache) == 1


def test_pdfs_drawn_together_on_every_core_are_those_drawn_one_by_one(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf, "WINDOW", 2)  # fewer pages held than there are to draw
    weeks = [tmp_path / "together" / f"2026-W{n}" for n in range(10, 10 + PARALLEL_FROM + 1)]
    for week in weeks:
        week.mkdir(parents=True)
    pages = [(PAGE.format(f"Week {week.name}"), week) for week in weeks]
    assert write_pdfs(
        [job(html, week) for html, week in pages], PdfCache(tmp_path / "cache-together")
    ) == len(weeks)  # enough to start worker processes
    for html, week in pages:
        alone = tmp_path / "alone" / week.name
        alone.mkdir(parents=True)
        assert write_pdfs([job(html, alone)], PdfCache(tmp_path / "cache-alone")) == 1
        assert (alone / PDF_NAME).read_bytes() == (week / PDF_NAME).read_bytes()


FONTS_WITHOUT_EMOJI = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{cache}</cachedir></fontconfig>
"""


def test_emoji_no_font_has_are_one_warning_for_the_whole_build(tmp_path):
    """A label such as "🚀" in a PDF, built where no font has emoji (fontconfig told of DejaVu
    alone): WeasyPrint draws an empty box and says nothing, so the build says it, once."""
    if not Path("/usr/share/fonts/truetype/dejavu").is_dir():
        pytest.skip("DejaVu is not installed (Debian: fonts-dejavu-core)")
    monday = datetime(2026, 3, 2, 9, tzinfo=UTC)
    pulls = [
        make_pull(
            n,
            monday + timedelta(days=n * 3),
            f"feat: launch {n}",
            labels=("🚀",),
            files=[("src/a.py", 3, 1, "modified")],
        )
        for n in range(1, 5)
    ]
    project = tiny_project(tmp_path / "project", pulls=pulls, DIGEST_PDF=True)
    fonts = tmp_path / "fonts.conf"
    fonts.write_text(FONTS_WITHOUT_EMOJI.format(cache=tmp_path / "fontconfig-cache"))
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GITHUB_", "GH_", "DIGEST_", "SITEURL"))
    }
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("pelican")),
            "content",
            "-o",
            "output",
            "-s",
            "pelicanconf.py",
        ],
        cwd=project,
        env={**env, "FONTCONFIG_FILE": str(fonts), "COLUMNS": "400"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert (
        len(list((project / "output").rglob("digest.pdf"))) >= 2
    )  # several PDFs with the label, one warning
    said = [
        line for line in log.splitlines() if "font" in line
    ]  # the charts' SVG text is set by the reader's browser: not a word
    assert (
        len(said) == 1
        and "emoji such as 🚀, which no font here has" in said[0]
        and "fonts-noto-color-emoji" in said[0]
    ), log
