"""Two busy real weeks written on an endpoint capped as a free tier is (tests/io/test_llm_caps.py's CAPS),
against the local stand-in: every request inside the input cap (as the stand-in counts, more densely than the writer),
no 413, every key PR asked for once, in English and in Chinese."""

from __future__ import annotations

import pytest

from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from tests.io.test_llm_caps import capped_writer, free_tier
from tests.io.test_llm_writer import FakeClock
from tests.narrate_fixtures import real_week

pytestmark = pytest.mark.realdata


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("name", ["verl-2025-W23", "ruff-2026-W20"])
def test_a_busy_real_week_is_written_with_every_request_inside_the_cap(name, language, tmp_path):
    week, previous = real_week(name)
    clock = FakeClock()
    with free_tier(clock) as server:
        narrative = narrate(
            week, previous, Language.of(language), capped_writer(server, tmp_path, clock)
        )
    tokens = [r.tokens for r in server.requests]
    print(
        f"{name} {language}: {len(week.pulls)} PRs, {sum(p.key for p in week.pulls)} key; {len(tokens)} requests of "
        f"{min(tokens)} to {max(tokens)} tokens as the stand-in counts them; {narrative.check.kept} of {narrative.check.checked} sentences kept"
    )
    assert (
        len(week.pulls) >= 40
        and not [r for r in server.requests if r.refused]
        and max(tokens) <= 8000
    )
    asked = sorted(
        n for r in server.requests if "key_changes" in r.sections for n in r.document["key_pulls"]
    )
    assert asked == sorted(p.pull.number for p in week.pulls if p.key)
    assert narrative.writer == "llm" and len(narrative.check.parts) > 3
