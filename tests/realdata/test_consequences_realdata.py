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
    # what breaks leads: the layout v1 checkpoints no longer load in, before the rename, which
    # may keep the old flag working
    assert (
        "The main risk: #6014, in the author's words: “Loading a v1 checkpoint raises"
        in narrative.summary.text
    )
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


def _verl_week(week_id: str):
    week, previous = real_week("verl-W21")  # its window starts at 2026-W17
    return next(w for w in (*previous, week) if w.week == week_id)


def test_verl_2026_w18s_main_risk_is_the_largest_pr_marked_breaking_and_its_advice_names_all_three():
    """#6198 removes one debug option (−16 lines); #6200 [BREAKING] moves the Diffusion RL stack out
    (−7,713) and #6129 [BREAKING] moves a manager: the main risk is #6200, and the release note the
    row advises names every PR of the row, not only #6198."""
    week = _verl_week("2026-W18")
    risk = main_risk(week.risks)
    assert risk is not None and risk.evidence[0].pull == 6200
    narrative = narrate(week, [], Language.of("en"))
    row = next(r for r in narrative.risks if r.kind == "breaking-change")
    assert row.mitigation is not None and set(row.mitigation.pulls) == {6200, 6129, 6198}


def test_verl_2026_w17s_breaking_prs_that_delete_what_they_deprecate_are_no_deprecation_risk():
    """#6067 "[BREAKING] … deprecate workers" deletes them (−7,751 lines); #6074 deletes
    verl/interactions: the breaking row says it, not a second row calling them deprecations."""
    week = _verl_week("2026-W17")
    assert {6067, 6074} <= set(next(r for r in week.risks if r.kind == "breaking-change").pulls)
    assert not [r for r in week.risks if r.kind == "deprecation" and {6067, 6074} & set(r.pulls)]
