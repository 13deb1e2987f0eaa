"""Summaries from PR bodies: template text, markup and checklists out; the right section in."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from digest_plugin.analysis.description import (
    SUMMARY_CHARS,
    template_lines,
    whole_sentence,
)
from digest_plugin.analysis.footprint import main_places
from tests.analysis_fixtures import real_pulls, summarise

VERL_LIKE = """### What does this PR do?

> Add **concise** overview of what this PR aims to achieve or accomplish.

Fix the `BatchMeta.concat` failure on the TransferQueue path. It broke when per-rank
metrics were added. A third sentence that should not be needed.

### Checklist Before Starting

- [x] Search for similar PRs. Paste at least one query link here: ...
- [ ] Format the PR title as `[{modules}] {type}: {description}`

### Test

> For changes that can not be tested by CI, validate by experiment(s).
"""


def verl_like(prose: str) -> str:
    return VERL_LIKE.replace(PROSE, prose)


PROSE = "Fix the `BatchMeta.concat` failure on the TransferQueue path. It broke when per-rank\nmetrics were added. A third sentence that should not be needed.\n"


def test_prefers_the_what_does_this_pr_do_section_and_keeps_two_sentences():
    template = template_lines([verl_like(f"Change number {i} of many.\n") for i in range(10)])
    assert any("overview of what this pr aims to achieve" in line for line in template)
    summary = summarise(VERL_LIKE, "[trainer] fix: concat", template)
    assert (
        summary
        == "Fix the BatchMeta.concat failure on the TransferQueue path. It broke when per-rank metrics were added."
    )


def test_template_lines_are_the_ones_that_recur_across_many_bodies():
    bodies = [
        f"## Summary\n\nChange {i} does thing {i}.\n\n## Checklist\n- [ ] Ran the tests\nPlease read CONTRIBUTING.md first."
        for i in range(20)
    ]
    template = template_lines(bodies, share=0.5, minimum=4)
    assert "please read contributing.md first." in template
    assert "summary" in template
    assert not any("change 3" in line for line in template)


def test_html_comments_images_details_and_tags_never_reach_the_summary():
    body = (
        "<!-- Thank you for contributing! Describe your change below. -->\n"
        "![screenshot](https://example.com/a.png)\n"
        "<details><summary>Logs</summary>secret traceback</details>\n"
        "<p>This <b>adds</b> a <script>alert(1)</script>dark theme.</p>"
    )
    summary = summarise(body, "Dark theme")
    assert summary == "This adds a dark theme."
    assert "<" not in summary and "Thank you" not in summary and "traceback" not in summary


def test_ruff_style_setext_summary_heading():
    body = "Summary\n--\n\nThis reverts #23845 since we are now prioritizing names.\n\nTest Plan\n--\n\ncargo test"
    assert (
        summarise(body, "Revert it") == "This reverts #23845 since we are now prioritizing names."
    )


def test_a_sentence_about_the_pr_it_follows_up_is_not_its_summary():
    """ruff #26683's key line said what #26681 did, the opposite of what it does."""
    body = (
        "## Summary\n\nThis is a follow-up to #26681. That PR conservatively treats a member as"
        " read-only. This PR models descriptor write capability separately, so writable protocols"
        " remain writable."
    )
    summary = summarise(body, "[ty] Derive descriptor setter domains for protocols")
    assert summary.startswith("This PR models descriptor write capability separately")


def test_falls_back_to_the_title_when_only_template_is_left():
    template = template_lines([verl_like(f"Change number {i} of many.\n") for i in range(10)])
    assert (
        summarise(verl_like(""), "fix: concat of `extra_info`", template)
        == "fix: concat of extra_info"
    )
    assert summarise("", "Add **dark** theme") == "Add dark theme"


def test_links_become_their_text_and_references_are_dropped():
    body = "Closes #12.\n\nSee [the guide](https://example.com/very/long\n/url) for the new `--fix` flag."
    assert summarise(body, "t") == "See the guide for the new --fix flag."


def test_bullet_lists_read_as_sentences():
    body = "## Summary\n\n- make the cache lazy\n- drop the old index\n"
    assert summarise(body, "t") == "Make the cache lazy; Drop the old index."


@given(st.text(max_size=3000), st.text(max_size=300))
def test_summaries_are_plain_single_line_and_capped(body, title):
    summary = summarise(body, title)
    assert len(summary) <= SUMMARY_CHARS
    assert "\n" not in summary
    assert not re.search(r"</?[A-Za-z][^>]*>", summary)  # no HTML tag survives


@pytest.mark.realdata
def test_verl_summaries_contain_no_checklist_or_template_text():
    pulls = real_pulls("verl-project/verl")
    template = template_lines(p.body for p in pulls)
    leaks = re.compile(
        r"\[[ xX]\]|checklist|search for similar|format the pr title|pre-commit install|"
        r"add / update \[?the documentation|ci-request|read the \[?contribute guide|demonstrate how the api",
        re.IGNORECASE,
    )
    for pull in pulls:
        summary = summarise(pull.body, pull.title, template)
        assert not leaks.search(summary) or leaks.search(pull.title), (pull.number, summary)
        assert len(summary) <= SUMMARY_CHARS
    with_prose = [
        summarise(p.body, "", template) for p in pulls if "### What does this PR do?" in p.body
    ]
    # most descriptions say something of their own, not only the title
    assert sum(1 for s in with_prose if s) / len(with_prose) > 0.85


def test_tables_link_definitions_and_checked_boxes_are_not_prose():
    body = (
        "This PR contains the following updates:\n\n"
        "| Package | Change |\n|---|---|\n| serde | `1.0.1` -> `1.0.2` |\n"
        "- [X] Read the [Contribute Guide](https://example.com/c).\n\n"
        "Bumps serde for the new [derive fix].\n\n[derive fix]: https://example.com/fix\n"
    )
    assert summarise(body, "Update serde") == "Bumps serde for the new derive fix."


def test_reference_lines_go_but_prose_that_starts_like_one_stays():
    body = "Closes #12\ncc @someone\nSee https://example.com/run/1\n\nRelated to performance, this makes the cache lazy."
    assert summarise(body, "t") == "Related to performance, this makes the cache lazy."


def test_chinese_sentences_end_at_full_stops_without_spaces():
    body = "修复了分布式训练中的死锁问题。现在加载检查点更快。第三句不需要。"
    assert summarise(body, "t") == "修复了分布式训练中的死锁问题。现在加载检查点更快。"


def test_where_a_pull_works_is_the_file_or_folder_holding_most_of_its_lines():
    assert main_places(
        [("verl/trainer/ppo/ray_trainer.py", 100), ("verl/trainer/main_ppo_sync.py", 30)]
    ) == ("verl/trainer/ppo/ray_trainer.py",)
    assert main_places(
        [("verl/trainer/ppo/a.py", 50), ("verl/trainer/b.py", 50), ("verl/workers/c.py", 10)]
    ) == ("verl/trainer",)
    assert main_places(
        [("crates/ty_ide/src/a.rs", 50), ("crates/ty_server/src/b.rs", 40), ("crates/ruff/c.rs", 5)]
    ) == ("crates/ty_ide", "crates/ty_server")
    assert main_places([(f"{d}/x/y.py", 10) for d in "abcde"]) == ()  # spread out: no place


def test_sentences_keep_names_in_lower_case_their_closing_brackets_and_numbered_lists_whole():
    assert summarise(
        "volcengine/verl#4280 broke one-step-off-policy. This PR adds a manager.", "t"
    ) == ("volcengine/verl#4280 broke one-step-off-policy. This PR adds a manager.")
    assert (
        summarise("The regression is fixed (isort is largely unchanged.)", "t")
        == "The regression is fixed (isort is largely unchanged.)"
    )
    long_list = (
        "Address gaps in rollout profiling by adding step awareness: 1. Global step info is passed. 2. More profile options. "
        + "x " * 120
    )
    assert (
        summarise(long_list, "t") == "Address gaps in rollout profiling by adding step awareness."
    )


def test_ticked_items_of_the_what_section_say_what_it_does_and_test_output_under_test_headings_never_does():
    # verl #6097: its "what" was a pointer to a removed link and a ticked list; its page showed test output
    body = """### What does this PR do?

For detailed feature descriptions and implementation schemes, please
refer to:
https://github.com/tardis-key/verl/blob/skip_everything/docs/advance/skip_manager.rst

- [x] Unified management of all skip debugging strategies via SkipManager.
- [ ] Support DAPO

### Test
#### rollout

1.SKIP_STEPES=[1,3,5], SKIP_ACTION=repeat, no data in the target directory.
"""
    assert (
        summarise(body, "Use SkipManager")
        == "Unified management of all skip debugging strategies via SkipManager."
    )
    elsewhere = "## Checklist\n\n- [x] I have read the contributing guide\n\n### Test\n#### rollout\n\nRan the rollout test 3 times.\n"
    assert summarise(elsewhere, "Use SkipManager") == "Use SkipManager"


def test_code_spans_of_pipes_and_dots_are_words_not_a_table_or_a_removed_block():
    # ruff #16044: "`|`" twice on a line made it a table row, dropped; ruff #24165: "or `...`." was
    # trimmed as the tail of a removed code block, halving the rule's scope
    pipes = (
        "This PR extends the fix to include Python versions <= 3.9 by using `typing.Optional` instead of\n"
        "the operator `|`. We also offer the fix with `|` for any target version\non stub files.\n"
    )
    assert summarise(pipes, "t").endswith(
        "instead of the operator |. We also offer the fix with | for any target version on stub files."
    )
    dots = "Implements the rule, which detects useless\n`finally` blocks that only contain `pass` or `...`.\n"
    assert summarise(dots, "t") == (
        "Implements the rule, which detects useless finally blocks that only contain pass or ...."
    )


def test_a_pointer_to_a_removed_address_goes_with_what_it_said_of_it():
    # verl #3522: "…Large MoE models. see <address> for official docs" once ended "see for official docs."
    body = (
        "### What does this PR do?\n\nEnable megatron-core's 1f1b overlap feature, enabling higher MFU when\n"
        "training Large MoE models. see\nhttps://docs.nvidia.com/megatron-core/moe.html#a2a\nfor official docs\n"
    )
    assert (
        summarise(body, "1f1b overlap")
        == "Enable megatron-core's 1f1b overlap feature, enabling higher MFU when training Large MoE models."
    )
    pointed = "Adds a `--watch` flag to the server, see https://example.org/watch for the design."
    assert summarise(pointed, "t") == "Adds a --watch flag to the server."


def test_an_aside_left_open_by_a_removed_address_is_not_a_sentence_and_an_address_keeps_the_full_stop_after_it():
    # verl #4931: the address on its own line held the closing bracket; the line once ended "(tested and support up to 0.16."
    opened = (
        "### What does this PR do?\n\nCurrent patch_v012.py should apply beyond mcore 0.12 (tested and support\nup to 0.16:\n"
        "https://github.com/NVIDIA/Megatron-LM/tree/5455f0a)\n\nWe should also apply the same patch.\n"
    )
    assert (
        summarise(opened, "[megatron] fix: patch mcore for MLA support")
        == "[megatron] fix: patch mcore for MLA support"
    )
    # ruff #17206: "in astral-sh/ruff#17101 Namely, …" ran two sentences together
    pointed = (
        "This PR fixes the issue pointed out by @JelleZijlstra in\nhttps://github.com/astral-sh/ruff/pull/17101#issuecomment-2777480204.\n"
        "Namely, I conflated two very different errors from CPython."
    )
    assert summarise(pointed, "x", repo="astral-sh/ruff") == (
        "This PR fixes the issue pointed out by @JelleZijlstra in #17101. "
        "Namely, I conflated two very different errors from CPython."
    )
    footnote = "This adjusts the starting character of block[^1] folding ranges emitted by the language server.\n\n[^1]: A block is a suite."
    assert (
        summarise(footnote, "x")
        == "This adjusts the starting character of block folding ranges emitted by the language server."
    )


def test_a_lead_in_that_only_shows_a_removed_image_is_not_the_summary():
    # ruff #25158: two screenshots, each introduced by a line that says nothing without it
    body = (
        "## Summary\n\nFixes https://github.com/astral-sh/ty/issues/1627.\n\n"
        "Here's an example diagnostic with the current release of ty:\n\n"
        '<img width="2286" alt="image" src="https://example.org/a.png" />\n\n'
        "On this branch, this diagnostic becomes:\n\n"
        '<img width="1464" alt="image" src="https://example.org/b.png" />\n\n'
        "The exact span of the node that creates the syntax error is now retained and highlighted"
        " in the diagnostic.\n\n## Implementation\n\nPropagating the range is trivial.\n"
    )
    assert summarise(body, "[ty] Improve diagnostics for syntax errors in forward annotations") == (
        "The exact span of the node that creates the syntax error is now retained and highlighted"
        " in the diagnostic."
    )


@pytest.mark.parametrize(
    "body, summary",
    [
        (  # verl #4507: the lead-in's last line only says who does the list's items
            (
                "### What does this PR do?\n\nDue to fused worker design and ActorRolloutRef is a async"
                " Ray Actor, we\nhave to temporarily implement `train_mini_batch` API for TrainingWorker"
                " and use it to implement update_actor and update_critic\nIn this PR, we\n"
                "- Completely remove CriticWorker in engine and directly use\nTrainingWorker\n"
                "- Implement e2e ppo process using model engine\n"
                "- Results on char count task matches with legacy worker implementation\n"
                "- Note that currently megatron backend for model engine value model is\nnot supported"
                " until mbridge officially supports value model save/load\n"
            ),
            (
                "Due to fused worker design and ActorRolloutRef is a async Ray Actor, we have to"
                " temporarily implement train_mini_batch API for TrainingWorker and use it to implement"
                " update_actor and update_critic; Completely remove CriticWorker in engine and directly"
                " use TrainingWorker."
            ),
        ),
        (  # ruff #19177
            (
                "## Summary\n\nThis PR addresses the post-merge review comments from astral-sh/ruff#19041,"
                " specifically it:\n\n* Rename `WorkspaceSnapshot` to `SessionSnapshot`\n"
                "* Rename `take_workspace_snapshot` to `take_session_snapshot`\n"
                "* Rename `take_snapshot` to `take_document_snapshot`\n"
                "* Move `AssertUnwindSafe` closer to the `catch_unwind` call which requires the"
                " assertion\n"
            ),
            "This PR addresses the post-merge review comments from astral-sh/ruff#19041.",
        ),
    ],
)
def test_a_lead_in_never_ends_on_the_subject_its_list_was_to_follow(body, summary):
    assert summarise(body, "A title") == summary


def test_a_short_sentence_whose_examples_were_removed_says_nothing():
    """ruff #16407's key line read "This PR fixes errors." (its examples, in a code block, gone)."""
    assert whole_sentence("This PR fixes errors like") is None
    assert whole_sentence("This PR makes the reader stream large files, like") == (
        "This PR makes the reader stream large files."
    )


def test_a_squashed_prs_list_of_commit_messages_is_no_description():
    """verl #52: the first of its commits said "to verl/trainer directory", a later one moved the
    workers out of the trainer; the title says what the PR did."""
    body = "* [refact] move workers to verl/trainer directory\n\n* fix import\n\n* move workers out"
    assert (
        summarise(body, "move workers out of ppo directory") == "move workers out of ppo directory"
    )
    written = "* Adds a reader\n* Fixes the writer"  # a list its author wrote is one
    assert summarise(written, "Reader") != "Reader"
