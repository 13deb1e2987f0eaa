"""What a key PR does in one line, and titles said in English and Chinese: pure functions on hand-made records."""

from __future__ import annotations

import pytest

from digest_plugin.analysis.description import summarise
from digest_plugin.analysis.model import Footprint
from digest_plugin.narrate.describe import body_sentences, chinese_sentence, what_it_does
from digest_plugin.narrate.titles import chinese_title, display_title, english_predicate
from digest_plugin.narrate.wording import Language
from digest_plugin.store.records import FileChange
from tests.narrate_fixtures import analysed

EN, ZH = Language.of("en"), Language.of("zh")

VERL_TEMPLATE = """### What does this PR do?

{what}

> Add **concise** overview of what this PR aims to achieve or
accomplish. Reference related GitHub issues and PRs that help with the
review.

### Checklist Before Starting

- [x] Search for similar PRs. Paste at least one query link here: ...
- [x] Format the PR title as `[{{modules}}] {{type}}: {{description}}` (This
will be checked by the CI)

### Test

> For changes that can not be tested by CI, validate by experiment(s).

### Checklist Before Submitting

- [ ] Read the [Contribute Guide](https://github.com/volcengine/verl/blob/main/CONTRIBUTING.md).
"""
# the lines every verl PR leaves in, as the analysis finds them across the repository
TEMPLATE = frozenset({
    "add **concise** overview of what this pr aims to achieve or", "accomplish. reference related github issues and prs that help with the",
    "review.", "for changes that can not be tested by ci, validate by experiment(s).",
})


def said(title, body, **fields):
    """The one line a key PR gets, from its body as the analysis reads it."""
    return what_it_does(analysed(1, title, summary=summarise(body, title, TEMPLATE), **fields), EN).text


def test_a_link_that_ended_a_sentence_leaves_no_dangling_words():
    body = VERL_TEMPLATE.format(what="To run qwen35 with mtp, you should use mbridge with pr:\nhttps://github.com/ISEEKYAN/mbridge/pull/98")
    assert said("[model] feat: support qwen35 mtp sft/rl", body) == "To run qwen35 with mtp, you should use mbridge."


def test_the_what_section_wins_over_checklists_comments_test_plans_and_signatures():
    body = """<!-- Thank you for contributing! Please describe your change. -->
## Checklist
- [x] I have read the contributing guide

## Summary
Moves the cache into its own crate so that the language server can share it.

## Test plan
Ran `cargo test` locally.

Co-authored-by: Someone <someone@example.com>
https://github.com/acme/widget/issues/12
"""
    assert said("Share the cache", body) == "Moves the cache into its own crate so that the language server can share it."


def test_a_capped_description_keeps_only_its_whole_sentences():
    whole = analysed(1, "Rework the scheduler", summary="The scheduler now runs jobs in priority order. It also retries failed jobs with a backo…")
    assert body_sentences(whole) == "The scheduler now runs jobs in priority order."
    fragment = analysed(1, "Rework the scheduler", summary="The scheduler now runs jobs in priority order and retries failed jobs with…")
    assert body_sentences(fragment) is None


def test_a_description_that_says_the_title_again_is_not_a_summary_and_the_files_speak_instead():
    files = (FileChange("src/io/reader.py", 40, 10), FileChange("tests/test_reader.py", 20, 0))
    pull = analysed(1, "[io] fix: crash when path is empty", summary="Fix crash when path is empty.", files=files)
    assert body_sentences(pull) is None
    assert what_it_does(pull, EN).text == "Mostly changes src/io/reader.py, with tests."
    assert what_it_does(pull, ZH).text == "主要修改 src/io/reader.py，并附带测试。"


def test_files_say_what_was_removed_added_or_changed_in_ci_with_their_figures():
    removed = analysed(2, "Drop the old reader", additions=3, files=(FileChange("src/old.py", 0, 450, "removed"), FileChange("src/util.py", 0, 150, "removed")),
                       footprint=Footprint(removed_files=("src/old.py", "src/util.py"), removed_count=2, removed_lines=600))
    cited = what_it_does(removed, EN)
    assert cited.text == "Removes 2 files with 600 lines."
    assert {f.what for f in cited.figures} == {"pull:2:removed_files", "pull:2:removed_lines"}
    workflows = tuple(f".github/workflows/w{i}.yml" for i in range(8))
    ci = analysed(3, "Move CI to uv", files=workflows, footprint=Footprint(workflows=workflows))
    assert what_it_does(ci, EN).text == "Changes 8 CI workflows."
    assert what_it_does(ci, ZH).text == "修改了 8 个 CI workflow。"
    added = ("src/plugins/__init__.py", "src/plugins/loader.py", "src/plugins/registry.py")
    module = analysed(4, "Plugins", files=(*(FileChange(p, 50, 0, "added") for p in added), FileChange("src/app.py", 5, 1)),
                      footprint=Footprint(added_files=added, added_count=3))
    assert what_it_does(module, EN).text == "Adds src/plugins, a new folder of 3 files."


def test_list_descriptions_lose_housekeeping_items_and_their_labels():
    pull = analysed(1, "[feat] Add support for FSDP2 in GRPO-LoRA",
                    summary="Add: Add support for FSDP2 in GRPO-LoRa; Format: Automatic code formatting changes initiated by the pre-commit tool; "
                            "Add: Integrate the end-to-end (e2e) testing of GRPO-LoRA + fsdp2 into the CI pipeline.")
    assert body_sentences(pull) == ("Add support for FSDP2 in GRPO-LoRa; "
                                    "Integrate the end-to-end (e2e) testing of GRPO-LoRA + fsdp2 into the CI pipeline.")


def test_a_sentence_that_introduced_a_removed_code_block_is_dropped_and_a_body_finishing_the_title_joins_it():
    pull = analysed(1, "Fix panic when inserting text at a notebook cell boundary",
                    summary="By preferring the cell boundary marker before the inserted text. The code in question looks like this: where each line is a cell.")
    assert what_it_does(pull, EN).text == "Fixes panic when inserting text at a notebook cell boundary by preferring the cell boundary marker before the inserted text."


@pytest.mark.parametrize(("title", "chinese"), [
    ("[rollout] feat: add async weight sync", "新增 async weight sync"),
    ("fix: crash when `path` is empty", "修复：crash when `path` is empty"),
    ("[ty] Fix narrowing of `TypedDict` unions", "修复 narrowing of `TypedDict` unions"),
    ("Deprecate `--format` in favour of `--output-format`", "弃用 `--format` in favour of `--output-format`"),
    ("Remove the Python 3.8 shims", "移除 the Python 3.8 shims"),
    ("[feat] Add support for FSDP2 in GRPO-LoRA", "新增对 FSDP2 in GRPO-LoRA 的支持"),
    ("DAPO npu support", "支持 DAPO npu"),
    ("Bump requests from 2.31.0 to 2.32.3", "将 requests 从 2.31.0 升级到 2.32.3"),
    ("chore(deps): update rust crate clap to v4.5.40", "将 rust crate clap 升级到 v4.5.40"),
    ("[feat][BREAKING] Megatron: Support learning rate scheduler", "Megatron：支持 learning rate scheduler"),
    ("[misc] refactor: deprecate workers, migrate to engines", "弃用 workers，迁移到 engines"),
    ("Migrate CI to uv", "将 CI 迁移到 uv"),
    ("Deprecate and delete verl/interaction related codes", "弃用并删除 verl/interaction related codes"),
    ("Merge pull request #3151 from someone/feature/watchfiles", "合入分支 feature/watchfiles"),
    ("ChatScheduler requests sglang fully async", "ChatScheduler requests sglang fully async"),
])
def test_titles_in_chinese_put_the_leading_verb_in_chinese_and_leave_code_names_alone(title, chinese):
    assert chinese_title(title) == chinese


def test_titles_in_english_prose_agree_with_the_pull_as_subject_and_lists_keep_them_as_written():
    assert english_predicate("[rollout] feat: add async weight sync") == "adds async weight sync"
    assert english_predicate("Revert #3 and pin numpy to 1.26") == "reverts #3 and pins numpy to 1.26"
    assert english_predicate("Megatron: Support learning rate scheduler") == "supports learning rate scheduler (Megatron)"
    assert english_predicate("ChatScheduler requests sglang fully async") is None
    assert display_title("[core] feat: Add *streaming* support") == "Add *streaming* support"


def test_only_short_sentences_that_start_with_a_verb_are_said_in_chinese():
    assert chinese_sentence("Adds a retry to the fetcher.") == "新增 a retry to the fetcher。"
    long = "Adds a retry to the fetcher, so that a flaky network does not fail the whole build."
    assert chinese_sentence(long) == long


def test_on_a_chinese_page_prose_rules_cannot_translate_is_quoted_as_the_authors_words():
    body = "The parser used to stop at the first error. It now recovers and reports every error in the file."
    fixed = analysed(1, "Fix parser stopping at the first error", summary=summarise(body, "Fix parser stopping at the first error"))
    assert what_it_does(fixed, ZH).text == ("修复 parser stopping at the first error。作者的说明：“The parser used to stop at the first error. "
                                            "It now recovers and reports every error in the file”。")
    untitled = analysed(2, "Parser errors", summary=summarise(body, "Parser errors"))
    assert what_it_does(untitled, ZH).text.startswith("作者的说明：“The parser used to stop")
