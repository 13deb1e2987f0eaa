"""The PDF writer: a week's PDF is drawn once per content and taken from the cache after that."""

from __future__ import annotations

import pytest

from digest_plugin.build.cache import PdfCache
from digest_plugin.publish import pdf
from digest_plugin.publish.pdf import PARALLEL_FROM, PDF_NAME, PdfJob, write_pdfs

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
    assert write_pdfs([job(PAGE.format("Week 21"), week)], cache) == 0  # a warm build: same content, from the cache
    assert (week / PDF_NAME).read_bytes() == first
    assert write_pdfs([job(PAGE.format("Week 21, with a note"), week)], cache) == 1


def test_a_changed_chart_redraws_the_pdf_that_shows_it(tmp_path):
    week, cache = tmp_path / "week", PdfCache(tmp_path / "cache")
    week.mkdir()
    chart = week / "activity-trend.svg"
    chart.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='5' height='5'/></svg>")
    html = PAGE.format('Charts <img src="activity-trend.svg" alt="">')
    assert write_pdfs([job(html, week)], cache) == 1
    assert write_pdfs([job(html, week)], cache) == 0
    chart.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='9' height='9'/></svg>")
    assert write_pdfs([job(html, week)], cache) == 1


def test_pdfs_drawn_together_on_every_core_are_those_drawn_one_by_one(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf, "WINDOW", 2)  # fewer pages held than there are to draw
    weeks = [tmp_path / "together" / f"2026-W{n}" for n in range(10, 10 + PARALLEL_FROM + 1)]
    for week in weeks:
        week.mkdir(parents=True)
    pages = [(PAGE.format(f"Week {week.name}"), week) for week in weeks]
    assert write_pdfs([job(html, week) for html, week in pages], PdfCache(tmp_path / "cache-together")) == len(weeks)  # enough to start worker processes
    for html, week in pages:
        alone = tmp_path / "alone" / week.name
        alone.mkdir(parents=True)
        assert write_pdfs([job(html, alone)], PdfCache(tmp_path / "cache-alone")) == 1
        assert (alone / PDF_NAME).read_bytes() == (week / PDF_NAME).read_bytes()
