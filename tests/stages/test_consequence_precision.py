"""What the consequence rules leave out to stay precise, and what they read that they once missed,
each case the form of a real PR of ../shared/data (tests/corpora/consequences.jsonl labels them):
a default of examples or the playground is no user's, a title's later clause is read, a bold
"BREAKING CHANGE" paragraph is the author's statement, a removal is of something users had, a
dotted name said alone is code, a breaking marker says what breaks only in the PR's words, and the
main risk of a PR marked breaking says what it changes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from digest_plugin.analysis.consequences import consequences_of
from digest_plugin.analysis.risks import main_risk
from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.records.pull import FileChange
from tests.conftest import make_pull
from tests.stages.test_consequences import _analysed_week

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
MONDAY = datetime(2026, 5, 19, 10, tzinfo=UTC)
SRC = FileChange("widget/trainer.py", 40, 12)
EXAMPLE = FileChange("examples/run_megatron.sh", 4, 4)
PLAYGROUND = FileChange("playground/src/Editor.tsx", 20, 4)


def said(title: str, description: str, body: str = "", files=(SRC,), kinds=None):
    pull = make_pull(1, MONDAY, title, body=body, files=files)
    kinds = kinds or tuple(frozenset({"source"}) for _ in files)
    return [
        (c.kind, c.source, c.what or c.quote) for c in consequences_of(pull, description, kinds)
    ]


def test_a_default_of_examples_or_the_playground_is_no_users():
    # verl #210 "example: switch the default model ckpt for Megatron"
    assert said("example: switch the default model ckpt", "switch the default model ckpt") == []
    assert said("[example, doc] feat: change the default model", "change the default model") == []
    # ruff #16952 "Default playground to Python 3.13": the playground's editor only
    assert (
        said(
            "Default playground to Python 3.13",
            "Default playground to Python 3.13",
            files=(PLAYGROUND,),
            kinds=(frozenset({"examples", "source"}),),
        )
        == []
    )
    # the same title of code users run is said
    assert said(
        "[rollout] feat: change default max_num_seqs to 256", "change default max_num_seqs to 256"
    ) == [("default-flip", "title", "max_num_seqs")]


def test_a_default_flipped_in_a_later_clause_of_the_title_is_said():
    # verl #6951
    title = "deprecate vanilla mBridge and make Megatron Bridge default"
    assert said(f"[BREAKING][megatron] chore: {title}", title) == [
        ("default-flip", "title", "make Megatron Bridge default")
    ]


def test_a_bold_breaking_change_paragraph_is_the_authors_statement_however_wrapped():
    # verl #3984
    body = (
        "## Summary\n\nAn overhaul of rollout correction.\n\n"
        "**⚠️ BREAKING CHANGE**: Removes backward compatibility. Users must\n"
        "migrate to typed config.\n\n---\n\n## What's New\n"
    )
    assert said("[BREAKING][algo] feat: Rollout Correction", "Rollout Correction", body) == [
        (None, "body", "Removes backward compatibility. Users must migrate to typed config.")
    ]


def test_notes_on_the_prs_own_earlier_revisions_are_no_consequence():
    # verl #6974: a new backend whose migration notes speak of the PR's drafts
    body = (
        "## What does this PR do?\n\nAdds a sharded delta weight sync.\n\n"
        "## Breaking / migration notes\n\n- The delta loader moved to `verl.x.apply_delta`.\n"
        "- The `delta` backend from earlier revisions of this PR no longer exists.\n"
    )
    assert said("[ckpt] feat: sharded delta weight sync", "sharded delta weight sync", body) == []


def test_a_removal_the_body_says_nothing_used_is_no_consequence():
    # verl #4396: arguments of Megatron's optimizer builder
    body = "This PR removes the deprecated arguments. These arguments are never used by verl so they can be safely removed."
    assert (
        said(
            "[megatron] fix: Remove Deprecated Megatron Optimizer Args",
            "Remove Deprecated Megatron Optimizer Args",
            body,
        )
        == []
    )
    assert said(
        "[megatron] fix: Remove Deprecated Megatron Optimizer Args",
        "Remove Deprecated Megatron Optimizer Args",
    ) == [("removal", "title", "Deprecated Megatron Optimizer Args")]


@pytest.mark.parametrize(
    "sentence",
    [
        # ruff #18621, #20802: diagnostics a run no longer emits, not rules users select
        "As one example, this removes the `division-by-zero` diagnostic because we now infer Never.",
        "2961 removed `unsupported-operator` diagnostics on sympy, one of the motivations.",
        # ruff #24773, #22124: a limit and a call path of the code, named by what they qualify
        "This allows us to safely remove the MAX_RECURSION_DEPTH limit of the cycle detector.",
        "Delete the legacy constructor call path.",
        # ruff #17852: a name a rule's list no longer holds
        "Remove `airflow.utils.get_parsing_context` from AIR301 as it moved to AIR311.",
    ],
)
def test_a_removal_in_the_prose_is_of_something_users_could_have_used(sentence):
    body = f"## Summary\n\n{sentence}\n"
    assert [
        c for c in said("Improve inference", "Improve inference", body) if c[0] == "removal"
    ] == []


def test_a_removed_parameter_or_a_legacy_class_in_the_prose_is_said():
    # verl #3694, #6097
    assert said(
        "Rework importance sampling",
        "Rework importance sampling",
        "## Summary\n\n- Removed deprecated `tis_imp_ratio_cap` parameter\n",
    ) == [("removal", "prose", "tis_imp_ratio_cap")]
    assert said(
        "Use SkipManager",
        "Use SkipManager",
        "### What does this PR do?\n\n- [x] remove legacy rolloutSkip\n",
    ) == [("removal", "prose", "rolloutSkip")]


def test_the_main_risk_of_a_pr_marked_breaking_says_what_it_states_it_changes():
    week = _analysed_week(
        [
            make_pull(
                30,
                MONDAY,
                "[BREAKING][megatron] chore: deprecate vanilla mBridge and make Megatron Bridge default",
                files=(FileChange("widget/megatron/bridge.py", 60, 20),),
            )
        ]
    )
    risk = main_risk(week.risks)
    assert risk.evidence[0].fact == "consequence" and risk.evidence[0].pull == 30
    text = narrate(week, [], Language.of("en")).summary.text
    assert "The main risk: #30, in the author's words: “make Megatron Bridge default”." in text, (
        text
    )


def test_a_flipped_default_is_said_as_one_in_the_risk_table():
    week = _analysed_week(
        [make_pull(40, MONDAY, "[ty] Make error-on-warning the default", files=(SRC,))]
    )
    texts = [
        line.sentence.text
        for line in narrate(week, [], Language.of("en")).risks
        if line.kind == "config-change"
    ]
    assert texts == [
        "#40 changes a default: everyone who relies on the old value without setting it gets the new behaviour on upgrade."
    ]


def test_a_dotted_name_renamed_in_the_prose_is_a_setting_only_when_said_as_one():
    # pelican #2128: a method the PR itself had just added, renamed in its squashed commit list
    body = "* Consolidate validation of content\n\n* rename content.valid to content.is_valid\n"
    assert (
        said("Consolidate validation of content", "Consolidate validation of content", body) == []
    )
    body = "## Summary\n\n- rename the `rollout.mode` option to `rollout.backend`\n"
    assert said("Rework rollout", "Rework rollout", body) == [("rename", "prose", "rollout.mode")]


def _marker(title: str, body: str = "", files=(SRC,)):
    """The breaking-marker evidence of one PR as a build analyses it."""
    week = _analysed_week([make_pull(50, MONDAY, title, body=body, files=files)])
    return next(e for e in week.pulls[0].evidence if e.fact == "breaking-marker")


TEMPLATE_ONLY = (
    "### What does this PR do?\n\nAdds FP8 refit support for the trtllm rollout.\n\n"
    "- **Rollout config**: New config `moe_tensor_parallel_size` for TRT-LLM MoE parallelism.\n\n"
    "### Test\n\nA new E2E job runs DAPO with FP8.\n"
)


def test_a_feature_marked_breaking_that_says_nothing_of_what_breaks_is_the_authors_caution():
    # verl #5374, #3152: opt-in options added under a [BREAKING] title
    marker = _marker(
        "[BREAKING][trtllm] feat: Add FP8 refit support for trtllm rollout", TEMPLATE_ONLY
    )
    assert marker.reason is None


@pytest.mark.parametrize(
    ("title", "body", "reason"),
    [
        # verl #832: the body says what breaks
        (
            "[BREAKING] feat: support custom datasets for SFT trainer",
            "### What does this PR do?\n\nThis PR breaks the SFTDataset interface, but provides more flexibility.\n",
            "This PR breaks the SFTDataset interface, but provides more flexibility.",
        ),
        # verl #2895: the title leads with what it takes away
        (
            "[BREAKING] [ray, megatron] feat: remove RayMegatronWorker",
            "",
            "remove RayMegatronWorker",
        ),
        # verl #6804: a sentence led by "No" still says what goes
        (
            "[BREAKING][rollout] feat: Add Multimodal Continuous Token",
            "### API and Usage Example\n\nNo config toggle is required (the former `data.ct.enable` field has been removed).\n",
            "No config toggle is required (the former data.ct.enable field has been removed).",
        ),
    ],
)
def test_a_breaking_marker_says_what_breaks_in_the_prs_own_words(title, body, reason):
    assert _marker(title, body).reason == reason


def test_a_marker_alone_is_the_main_risk_only_after_a_default_flipped():
    week = _analysed_week(
        [
            make_pull(
                60,
                MONDAY,
                "[BREAKING][trtllm] feat: Add FP8 refit support for trtllm rollout",
                body=TEMPLATE_ONLY,
                files=(FileChange("widget/rollout/trtllm.py", 400, 120),),
            ),
            make_pull(
                61, MONDAY, "[rollout] feat: change default max_num_seqs to 256", files=(SRC,)
            ),
        ]
    )
    risk = main_risk(week.risks)
    assert risk is not None and risk.evidence[0].pull == 61, risk
