"""The PDF writer: a week's PDF is drawn once per content and taken from the cache after that."""

from __future__ import annotations

import pytest

from digest_plugin.publish.pdf import PDF_NAME, write_pdf

pytest.importorskip("weasyprint")

PAGE = "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>W21</title></head><body><h1>{}</h1></body></html>"


def test_a_pdf_is_redrawn_only_when_its_content_changes(tmp_path):
    week, cache = tmp_path / "output/acme/widget/2026-W21", tmp_path / "cache"
    week.mkdir(parents=True)
    assert write_pdf(PAGE.format("Week 21"), week, cache) is True
    first = (week / PDF_NAME).read_bytes()
    assert first.startswith(b"%PDF")
    assert write_pdf(PAGE.format("Week 21"), week, cache) is False  # a warm build: same content, from the cache
    assert (week / PDF_NAME).read_bytes() == first
    assert write_pdf(PAGE.format("Week 21, with a note"), week, cache) is True


def test_a_changed_chart_redraws_the_pdf_that_shows_it(tmp_path):
    week, cache = tmp_path / "week", tmp_path / "cache"
    week.mkdir()
    chart = week / "activity-trend.svg"
    chart.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='5' height='5'/></svg>")
    html = PAGE.format('Charts <img src="activity-trend.svg" alt="">')
    assert write_pdf(html, week, cache) is True
    assert write_pdf(html, week, cache) is False
    chart.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='9' height='9'/></svg>")
    assert write_pdf(html, week, cache) is True
