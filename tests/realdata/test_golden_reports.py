"""The golden reports (tests/golden/) are what the code writes for those weeks today.

A difference is either a regression or an intended change of the words: then `make golden`
rewrites them, and the diff goes into the commit that changed the words.
"""

from __future__ import annotations

import pytest

from tests.golden_reports import (
    DATA,
    GOLDEN,
    LANGUAGES,
    WEEKS,
    differences,
    golden_path,
    missing_data,
    reports,
)

pytestmark = pytest.mark.realdata


def test_every_golden_week_has_its_report_in_both_languages():
    expected = {
        golden_path(code, repo, week)
        for repo, weeks in WEEKS.items()
        for week in weeks
        for code in LANGUAGES
    }
    assert set(GOLDEN.glob("*/*.md")) == expected


def test_the_golden_reports_are_what_the_code_writes():
    if missing_data():
        pytest.skip(
            f"real data is absent ({DATA} should hold the three exports; it lives in ../shared, beside the checkout)"
        )
    differ = differences(reports())
    shown = "\n".join(diff[:3000] for diff in list(differ.values())[:3])
    assert not differ, (
        f"{len(differ)} golden reports differ (`make golden` rewrites them if the change is intended):\n{shown}"
    )
