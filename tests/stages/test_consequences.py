"""Consequences a PR states (a renamed setting, a flipped default, a removal, its own "Breaking
changes" section), and what its description tells users to do: found on hand-made PRs, said in the
key line, the "Breaking and user-facing changes" section, the main risk and the risk table (page,
Markdown, JSON), and never made up where the PR says nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.consequences import consequences_of, mitigation_of
from digest_plugin.analysis.risks import main_risk
from digest_plugin.narrate import narrate
from digest_plugin.narrate.consequences import breaking_changes
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.history import analysis_options
from digest_plugin.publish.markdown import render_markdown
from digest_plugin.publish.week_json import week_json
from digest_plugin.publish.week_view import week_view
from digest_plugin.records.pull import FileChange
from digest_plugin.settings import DigestSettings
from tests.conftest import make_pull

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
MONDAY = datetime(2026, 5, 19, 10, tzinfo=UTC)
SRC = FileChange("widget/settings.py", 40, 12)
DOCS = FileChange("docs/settings.rst", 10, 2)


def said(title: str, body: str = "", files=(SRC,)):
    pull = make_pull(1, MONDAY, title, body=body, files=files)
    kinds = tuple(
        frozenset({"docs"}) if f.path.startswith("docs/") else frozenset({"source"})
        for f in pull.files
    )
    return [(c.kind, c.what, c.old, c.new) for c in consequences_of(pull, title, kinds)]


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        (
            "Rename setting SUMMARY_END_MARKER → SUMMARY_END_SUFFIX",
            ("rename", "SUMMARY_END_MARKER", "SUMMARY_END_MARKER", "SUMMARY_END_SUFFIX"),
        ),
        (
            "Rename `src.root` setting to `environment.root`",
            ("rename", "the src.root setting", "the src.root setting", "environment.root"),
        ),
        (
            "Change default REVERSE_ARCHIVE_ORDER to true",
            ("default-flip", "REVERSE_ARCHIVE_ORDER", None, "true"),
        ),
        (
            "set the default value of actor.entropy_coeff to 0",
            ("default-flip", "actor.entropy_coeff", None, "0"),
        ),
        (
            "Remove `--reference-links` parameter from pelican-import",
            ("removal", "`--reference-links` parameter from pelican-import", None, None),
        ),
        (
            "Remove WITH_PAGINATION, only have a DEFAULT_PAGINATION setting",
            ("removal", "WITH_PAGINATION", None, None),
        ),
        ("Drop Python 3.3 support", ("removal", "Python 3.3 support", None, None)),
        # pelican #840 deleted the plugins it bundled: sites that listed them break
        (
            "remove plugins, update docs and adjust dependencies",
            ("removal", "plugins", None, None),
        ),
        # ruff #18220: which way it went is the title's word
        ("disable division-by-zero by default", ("default-flip", "division-by-zero", None, "off")),
        ("Enable `pull-diagnostics` by default", ("default-flip", "pull-diagnostics", None, "on")),
        (
            "Ignore `possibly-unresolved-reference` by default",
            ("default-flip", "possibly-unresolved-reference", None, "off"),
        ),
    ],
)
def test_a_title_that_leads_with_a_user_facing_change_says_what_changed(title, expected):
    assert said(title) == [expected]


@pytest.mark.parametrize(
    "title",
    [
        "Rename summary references to formatted_fields",  # no name a user sets
        "Remove `Message::to_rule`",  # code of the project's insides
        "Remove redundant `settings` field from `Checker`",
        "Remove a parameter from the `symbol_by_id()` query",
        "Remove rust-toolchain.toml from sdist",  # a file, not a setting
        "Removed `PDF_GENERATOR=False`",  # a value in a sample, not a setting removed
        "Remove unnecessary call when removing final argument from `format`",  # what a fix writes
        "Set `--preview` and `--default-index` for the `uv-lock` hook",  # "default" only inside a name
        "Add a retry to the fetcher",
    ],
)
def test_a_title_that_names_nothing_users_set_says_no_consequence(title):
    assert said(title) == []


def test_a_default_changed_only_in_preview_or_before_any_release_is_no_consequence():
    assert (
        said(
            "Include `.pyw` files by default",
            "In global preview mode, default configuration selects `*.pyw`.",
        )
        == []
    )
    assert (
        said(
            "Default `ty.inlayHints.*` server settings to true",
            "This is marked as `internal` because it's not yet released.",
        )
        == []
    )


def test_stabilising_a_rule_takes_it_out_of_preview():
    assert said("Stabilize `dataclass-enum` (`RUF049`)") == [
        ("default-flip", "`dataclass-enum` (`RUF049`)", "preview", None)
    ]
    assert (
        said("Stabilize the nightly e2e test") == []
    )  # nothing named, no preview: a fix of flakiness


def test_a_change_of_docs_alone_has_no_consequence():
    assert said("Change default REVERSE_ARCHIVE_ORDER to true", files=(DOCS,)) == []


def test_the_bodys_breaking_section_is_quoted_and_a_section_saying_none_is_not():
    body = "## Summary\n\nReworks the reward config.\n\n## Breaking changes\n\n`use_reward_loop` is removed; set `reward.loop` instead.\n"
    pull = make_pull(1, MONDAY, "[BREAKING] refactor reward config", body=body, files=(SRC,))
    found = consequences_of(pull, "refactor reward config", (frozenset({"source"}),))
    assert [(c.kind, c.source, c.quote) for c in found] == [
        (None, "body", "use_reward_loop is removed; set reward.loop instead.")
    ]
    quiet = make_pull(
        2, MONDAY, "refactor reward config", body="## Breaking changes\n\nNone.\n", files=(SRC,)
    )
    assert consequences_of(quiet, "refactor reward config", (frozenset({"source"}),)) == ()


def test_a_mitigation_is_the_authors_own_migration_step_or_nothing():
    migration = make_pull(
        1,
        MONDAY,
        "x",
        body="## Summary\n\nNew checkpoint layout.\n\n## Migration\n\nRun scripts/convert_ckpt.py on v1 checkpoints before loading them.\n",
    )
    assert (
        mitigation_of(migration)
        == "Run scripts/convert_ckpt.py on v1 checkpoints before loading them."
    )
    told = make_pull(
        2,
        MONDAY,
        "x",
        body="The old flag is gone. Users should set `use_mbridge=True` to keep the previous behaviour.",
    )
    assert (
        mitigation_of(told) == "Users should set use_mbridge=True to keep the previous behaviour."
    )
    assert (
        mitigation_of(make_pull(3, MONDAY, "x", body="Adds a faster sampler for long prompts."))
        == ""
    )
    # what the code should use is the author's reason, not a step for users (verl #2130, #2521)
    for reason in (
        "In principle, all actors should use the same strategy.",
        "Instead, we should use the public API ray.util.get_node_ip_address().",
    ):
        assert mitigation_of(make_pull(4, MONDAY, "x", body=reason)) == ""


def _week():
    pulls = [
        make_pull(
            10,
            MONDAY,
            "Rename setting SUMMARY_END_MARKER → SUMMARY_END_SUFFIX",
            files=(SRC, DOCS),
            body="Users should set SUMMARY_END_SUFFIX in their pelicanconf.py instead.",
        ),
        make_pull(
            11,
            MONDAY,
            "Add a retry to the fetcher",
            files=(FileChange("widget/fetch.py", 900, 10),),
        ),
    ]
    settings = DigestSettings.from_pelican({}, ".")
    weeks = analyse_repo("acme/widget", pulls, None, analysis_options(settings), NOW)
    return next(w for w in weeks if w.pulls)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_week_says_the_consequence_in_its_section_main_risk_and_risk_table(language):
    week = _week()
    risk = main_risk(week.risks)
    assert (
        risk.kind == "breaking-change"
        and risk.evidence[0].fact == "consequence"
        and risk.evidence[0].pull == 10
    )
    lang = Language.of(language)
    narrative = narrate(week, [], lang)
    assert [c.pulls for c in narrative.breaking] == [(10,)]
    assert (
        "SUMMARY_END_MARKER" in narrative.breaking[0].text
        and "SUMMARY_END_SUFFIX" in narrative.breaking[0].text
    )
    line = next(r for r in narrative.risks if r.kind == "breaking-change")
    assert (
        line.mitigation is not None
        and "Users should set SUMMARY_END_SUFFIX" in line.mitigation.text
        and line.mitigation.pulls == (10,)
    )
    assert all(
        r.mitigation is None for r in narrative.risks if 10 not in r.pulls
    )  # #11 says nothing to do: nothing is made up

    view = week_view(week, narrative, (), lang, "https://github.com/acme/widget", "")
    assert "breaking" in view.sections and view.sections.index("breaking") < view.sections.index(
        "risks"
    )
    markdown = render_markdown(view, "https://example.org/acme/widget/2026-W21/", lang)
    assert view.headings["breaking"] in markdown
    table = markdown.split("| " + lang.gettext("Risk"))[1].split("\n\n")[0]
    assert (
        lang.gettext("What to do") in table and "Users should set SUMMARY\\_END\\_SUFFIX" in table
    )

    data = week_json(week, narrative, lang)
    assert data["breaking"] == [{"text": narrative.breaking[0].text, "pulls": [10]}]
    breaking = next(r for r in data["risks"] if r["kind"] == "breaking-change")
    assert (
        breaking["mitigation"]["pulls"] == [10]
        and "SUMMARY_END_SUFFIX" in breaking["mitigation"]["text"]
    )
    assert {"kind", "pulls", "impact", "text", "evidence"} <= set(
        breaking
    )  # the JSON contract's fields stay


def test_a_key_line_ends_with_what_its_pr_changes_for_users():
    week = _week()
    week = replace(
        week, pulls=tuple(replace(p, key=True) if p.pull.number == 10 else p for p in week.pulls)
    )
    change = next(c for c in narrate(week, [], Language.of("en")).key_changes if c.number == 10)
    assert change.summary.endswith("Renames SUMMARY_END_MARKER to SUMMARY_END_SUFFIX.")


def test_what_a_pr_says_users_can_see_is_no_advice():
    assert (
        mitigation_of(
            make_pull(
                4,
                MONDAY,
                "x",
                body="I'll stack another PR on this, but you can see the issue in a snapshot.",
            )
        )
        == ""
    )


def test_a_removal_from_scripts_or_examples_alone_removes_nothing_users_have():
    assert said("remove the old model.enable_gradient_checkpointing flags in the script") == []
    example = FileChange("examples/run_ppo.sh", 0, 4)
    pull = make_pull(5, MONDAY, "Remove `--legacy` flag", files=(example,))
    assert consequences_of(pull, "Remove `--legacy` flag", (frozenset({"examples"}),)) == ()


def test_a_feature_moved_to_a_plugin_leaves_the_core():
    """pelican #1010 "Move PDF generation to a plugin": a site that made PDFs needs the plugin."""
    title = "Move PDF generation to a plugin (Fixes #1009)"
    pull = make_pull(6, MONDAY, title, files=(FileChange("pelican/generators.py", 0, 46),))
    (moved,) = consequences_of(pull, title, (frozenset({"source"}),))
    assert (moved.kind, moved.what) == ("removal", "PDF generation")
    # code moved into a crate of the project's own is no consequence (ruff #22106)
    crate = "[ty] Move module resolver code into its own crate"
    assert consequences_of(make_pull(7, MONDAY, crate, files=(SRC,)), crate, ()) == ()


def _analysed_week(pulls):
    weeks = analyse_repo(
        "acme/widget", pulls, None, analysis_options(DigestSettings.from_pelican({}, ".")), NOW
    )
    return next(w for w in weeks if w.pulls)


def test_what_breaks_is_the_main_risk_before_a_default_flipped():
    week = _analysed_week(
        [
            make_pull(20, MONDAY, "Change default REVERSE_ARCHIVE_ORDER to true", files=(SRC,)),
            make_pull(
                21,
                MONDAY,
                "Remove the WRITE_SELECTED setting",
                files=(FileChange("widget/writers.py", 3, 40),),
            ),
        ]
    )
    risk = main_risk(week.risks)
    assert (
        risk.impact == "high"
        and risk.evidence[0].pull == 21
        and risk.evidence[0].detail == "removal"
    )


def test_a_rename_alone_is_a_medium_risk_as_the_old_name_may_still_work():
    """ruff #18760 renamed `src.root` to `environment.root` and kept the old key with a warning:
    "High" said it breaks, which neither its title nor its files can tell."""
    rename = make_pull(
        22,
        MONDAY,
        "Rename `src.root` to `environment.root`",
        files=(FileChange("widget/cfg.py", 9, 3),),
    )
    risk = next(r for r in _analysed_week([rename]).risks if r.kind == "breaking-change")
    assert [e.detail for e in risk.evidence] == ["rename"] and risk.impact == "medium"


def test_many_rules_out_of_preview_are_one_line_of_the_section():
    rules = [
        make_pull(
            30 + i,
            MONDAY,
            f"Stabilize `rule-{i}` (`RUF10{i}`)",
            files=(FileChange(f"crates/rules/rule_{i}.rs", 5, 5),),
        )
        for i in range(5)
    ]
    narrative = narrate(_analysed_week(rules), [], Language.of("en"))
    assert len(narrative.breaking) == 1 and sorted(narrative.breaking[0].pulls) == [
        30,
        31,
        32,
        33,
        34,
    ]
    assert (
        narrative.breaking[0].text.startswith("Out of preview: `rule-")
        and "(#34)" in narrative.breaking[0].text
    )
    line = next(r for r in narrative.risks if r.kind == "breaking-change")
    assert (
        line.level == "medium"
    )  # taken out of preview: what users get changes, nothing of theirs breaks


def test_a_renamed_argument_is_said_as_one_not_as_everything_of_its_name():
    """verl #6724 renamed the `trainer` argument of its checkpoint engine, and the advice said
    "update what refers to trainer", the name of its top-level trainer too."""
    rename = make_pull(
        23,
        MONDAY,
        "[BREAKING][ckpt] refactor: rename misleading `trainer` arg to `actor_wg`",
        files=(FileChange("widget/ckpt.py", 9, 9),),
    )
    risk = next(r for r in _analysed_week([rename]).risks if r.kind == "breaking-change")
    renamed = next(e for e in risk.evidence if e.detail == "rename")
    assert (renamed.old, renamed.new) == ("the trainer arg", "actor_wg")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_stated_rename_is_a_recommendation_that_names_it_with_the_authors_step(language):
    week = _week()
    assert [
        (r.action, r.pulls, r.old, r.new)
        for r in week.recommendations
        if r.action == "release-notes"
    ] == [("release-notes", (10,), "SUMMARY_END_MARKER", "SUMMARY_END_SUFFIX")]
    told = narrate(week, [], Language.of(language)).recommendations
    said = next(c for c in told if 10 in c.pulls)
    assert "SUMMARY_END_MARKER" in said.text and "SUMMARY_END_SUFFIX" in said.text
    assert "Users should set SUMMARY_END_SUFFIX in their pelicanconf.py instead." in said.text


def test_a_default_flipped_or_a_rule_out_of_preview_calls_for_no_release_note():
    week = _analysed_week(
        [
            make_pull(
                40,
                MONDAY,
                "Stabilize `rule-x` (`RUF200`)",
                files=(FileChange("crates/rules/x.rs", 5, 5),),
            ),
            make_pull(41, MONDAY, "Change default REVERSE_ARCHIVE_ORDER to true", files=(SRC,)),
        ]
    )
    assert not [r for r in week.recommendations if r.action == "release-notes"]


def test_a_revert_re_landed_the_same_week_asks_nothing_of_the_maintainer():
    # the two are no alternatives to choose between: both stay on main (verl #3820 and #3828)
    code = (FileChange("widget/engine.py", 60, 5),)
    week = _analysed_week(
        [
            make_pull(50, MONDAY, "Add async engine", files=code),
            make_pull(
                51,
                MONDAY.replace(hour=12),
                'Revert "Add async engine"',
                body="Reverts acme/widget#50",
                files=code,
            ),
            make_pull(
                52,
                MONDAY.replace(hour=14),
                "Add async engine",
                body="Re-lands #50 with the deadlock fixed.",
                files=code,
            ),
        ]
    )
    narrative = narrate(week, [], Language.of("en"))
    line = next(r for r in narrative.risks if r.kind == "revert")
    assert line.pulls == (51,) and line.mitigation is None


def test_a_pr_marked_breaking_that_states_nothing_is_listed_as_marked():
    """verl 2026-W13: #5604 "[BREAKING] … deprecate legacy workers" was the main risk, and the
    section of breaking changes listed only #5705's default."""
    week = _analysed_week(
        [
            make_pull(
                70, MONDAY, "[BREAKING][trainer] feat: deprecate legacy workers", files=(SRC,)
            ),
            make_pull(71, MONDAY, "Change default REVERSE_ARCHIVE_ORDER to true", files=(SRC,)),
        ]
    )
    lines = [c.text for c in breaking_changes(week, Language.of("en"))]
    assert "#70 is marked as a breaking change (in its title)." in lines
    assert any(line.startswith("#71") for line in lines)


def test_a_key_line_that_says_the_removal_already_does_not_say_it_again():
    week = _analysed_week(
        [
            make_pull(
                60,
                MONDAY,
                "Remove workspace support",
                files=(FileChange("widget/workspace.py", 0, 300, "removed"), SRC),
            )
        ]
    )
    week = replace(week, pulls=tuple(replace(p, key=True) for p in week.pulls))
    change = narrate(week, [], Language.of("en")).key_changes[0]
    assert change.summary.lower().count("removes workspace support") == 1


def test_what_a_pr_did_with_instead_is_no_step_for_users():
    assert (
        mitigation_of(
            make_pull(
                6,
                MONDAY,
                "x",
                body="Updates the sampling tests to use true_cfg_scale instead of guidance_scale.",
            )
        )
        == ""
    )
    assert (
        mitigation_of(make_pull(7, MONDAY, "x", body="Use `reward.loop` instead."))
        == "Use reward.loop instead."
    )


# --- the body's prose ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "## What does this PR do?\n\n- Backend flag renamed: `use_dist_checkpointing` → `use_mbridge`.\n",
            ("rename", "use_dist_checkpointing", "use_dist_checkpointing", "use_mbridge"),
        ),
        (
            "## Summary\n\nThis PR renames TID254 to `lazy-import-mismatch` and adds two settings.\n",
            ("rename", "TID254", "TID254", "lazy-import-mismatch"),
        ),
        (
            "### What does this PR do?\n\nThe `trainer.save_freq` option has been renamed to `trainer.save_interval`.\n",
            ("rename", "trainer.save_freq", "trainer.save_freq", "trainer.save_interval"),
        ),
        (
            "## Summary\n\n`rollout.calculate_log_probs` now defaults to `true`.\n",
            ("default-flip", "rollout.calculate_log_probs", None, "true"),
        ),
    ],
)
def test_a_plain_statement_in_the_bodys_prose_is_a_consequence(body, expected):
    assert said("Refactor the checkpoint manager", body) == [expected]


@pytest.mark.parametrize(
    "body",
    [
        "## Summary\n\nThis renames an internal helper function `foo_bar` to `foo_baz`.\n",  # the code's insides
        "## Summary\n\nRename `Diagnostic::primary_message` to `headline_message`.\n",
        "## Summary\n\n`apply_vllm_fp8_patches` is renamed to `apply_vllm_quant_patches`.\n",  # a function: no user word
        "## Summary\n\n`airflow.datasets.DatasetEvent` has been removed in Airflow 3 and the rule now flags it.\n",  # another project's
        "## Summary\n\nvLLM removed the `vllm_config` argument upstream; we adapt.\n",
        "## Test Plan\n\nThe `x.y` option has been renamed to `x.z` in the fixture.\n",  # a test section says nothing of users
        "## Design & Code Changes\n\n- Backend flag renamed: `a_b` → `a_c`.\n",  # how it was built
        "## Summary\n\nRenames `old-name` to `new-name` in the docs.\n",
    ],
)
def test_prose_about_the_code_another_project_tests_or_design_is_no_consequence(body):
    assert [c for c in said("Refactor the checkpoint manager", body) if c[0] != "removal"] == []


def test_a_format_change_names_the_migration_script_the_pr_adds_and_the_risk_row_says_to_run_it():
    body = (
        "## What does this PR do?\n\nNew checkpoint layout.\n\n## New input behavior\n\n"
        "- Loading a v1 checkpoint raises a clear error with a pointer to the migration script.\n\n"
        "## Converter\n\n`scripts/migrate_layout.py`:\n"
    )
    files = (SRC, FileChange("scripts/migrate_layout.py", 200, 0))
    assert said("Refactor the checkpoint manager", body, files) == [
        ("format-change", None, None, "scripts/migrate_layout.py")
    ]
    pull = make_pull(7, MONDAY, "Refactor the checkpoint manager", body=body, files=files)
    week = _analysed_week([pull])
    risk = main_risk(week.risks)
    assert risk is not None and risk.kind == "breaking-change" and risk.pulls == (7,)
    lang = Language.of("en")
    view = week_view(week, narrate(week, [], lang), (), lang, "https://github.com/acme/widget", "")
    markdown = render_markdown(view, "https://example.org/acme/widget/2026-W21/", lang)
    assert "Run scripts/migrate\\_layout.py, the migration script [#7]" in markdown
    assert (
        "“Loading a v1 checkpoint raises a clear error with a pointer to the migration script”."
        in markdown
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "turns division-by-zero off by default"), ("zh", "默认禁用 division-by-zero")],
)
def test_a_default_switched_off_says_so_in_the_breaking_section_and_the_configuration_risk(
    language, words
):
    week = _analysed_week(
        [make_pull(42, MONDAY, "[ty] disable division-by-zero by default", files=(SRC,))]
    )
    narrative = narrate(week, [], Language.of(language))
    assert [c.text for c in narrative.breaking] == [
        Language.of(language).gettext("{evidence}.").format(evidence=f"#42 {words}")
    ]
    config = next(r for r in narrative.risks if r.kind == "config-change")
    # ruff #18220: not "changes a default", which says no direction
    assert words in config.sentence.text


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "#44 reverts preview changes to displayed diagnostic severity"),
        ("zh", "#44 回退「preview changes to displayed diagnostic severity」"),
    ],
)
def test_a_revert_of_an_unknown_change_says_what_its_title_undoes(language, expected):
    """ruff #24789: "Revert preview changes to …" was "reverts an earlier change", which says nothing."""
    title = "Revert preview changes to displayed diagnostic severity"
    assert _revert_sentence(title, language).startswith(expected)


def test_a_revert_says_what_it_undoes_up_to_a_second_change():
    """verl #59, "revert pyproj.toml and fix tensordict req", reverted no PR of that title."""
    sentence = _revert_sentence("revert pyproj.toml and fix tensordict req", "en")
    assert sentence.startswith("#44 reverts pyproj.toml") and "tensordict" not in sentence


def test_a_revert_of_a_pr_not_in_the_store_names_the_title_it_quotes():
    """'Revert "X"' whose PR is older than the store said "reverts an earlier change"; in Chinese
    it still does, as X may hold another title of the page (verl #3820's holds #3839's)."""
    title = 'Revert "Display output severity in preview"'
    assert _revert_sentence(title, "en").startswith(
        "#44 reverts “Display output severity in preview”"
    )
    assert "Display output" not in _revert_sentence(title, "zh")


def _revert_sentence(title: str, language: str) -> str:
    """The revert risk's sentence of a week of one revert, #44, of a Rust file."""
    week = _analysed_week(
        [make_pull(44, MONDAY, title, files=(FileChange("crates/server/src/lib.rs", 2, 7),))]
    )
    return next(
        r for r in narrate(week, [], Language.of(language)).risks if r.kind == "revert"
    ).sentence.text
