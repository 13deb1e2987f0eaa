"""Consequences on a real week (../shared/data): verl 2026-W23, whose #6014 states in its body's
prose (not its title, nor a Breaking heading) a renamed checkpoint flag and a v2 checkpoint layout
that v1 checkpoints need a migration script for."""

from __future__ import annotations

import pytest

from digest_plugin.analysis.risks import main_risk
from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from tests.narrate_fixtures import real_week

pytestmark = pytest.mark.realdata


def test_verl_2026_w23_says_6014s_rename_and_layout_change_as_the_main_risk_with_its_migration_script():
    week, previous = real_week("verl-W23")
    risk = main_risk(week.risks)
    assert risk is not None and risk.kind == "breaking-change" and risk.pulls[0] == 6014
    narrative = narrate(week, previous, Language.of("en"))
    assert "#6014 renames use_dist_checkpointing to use_mbridge" in narrative.summary.text
    breaking = [c.text for c in narrative.breaking]
    assert "#6014 renames use_dist_checkpointing to use_mbridge." in breaking
    assert any(
        t.startswith("#6014, in the author's words: “Loading a v1 checkpoint raises")
        for t in breaking
    )
    assert "#6616 changes the default of calculate_log_probs to True." in breaking
    row = next(r for r in narrative.risks if r.kind == "breaking-change")
    assert row.mitigation is not None
    assert (
        row.mitigation.text
        == "Run scripts/migrate_megatron_checkpoint_layout.py, the migration script #6014 adds, on what was saved before it."
    )
