"""What a key PR does in one line, and titles said in English and Chinese: pure functions on hand-made records."""

from __future__ import annotations

import pytest

from digest_plugin.analysis.model import Footprint
from digest_plugin.narrate.describe import (
    body_sentences,
    chinese_mention,
    chinese_sentence,
    predicate_of,
    what_it_does,
    whole_translation,
)
from digest_plugin.narrate.titles import (
    chinese_title,
    display_title,
    english_predicate,
    framed_title,
    translated_title,
)
from digest_plugin.narrate.wording import Language
from digest_plugin.records.pull import FileChange
from tests.analysis_fixtures import summarise
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
TEMPLATE = frozenset(
    {
        "add **concise** overview of what this pr aims to achieve or",
        "accomplish. reference related github issues and prs that help with the",
        "review.",
        "for changes that can not be tested by ci, validate by experiment(s).",
    }
)


def said(title, body, **fields):
    """The one line a key PR gets, from its body as the analysis reads it."""
    return what_it_does(
        analysed(1, title, summary=summarise(body, title, TEMPLATE), **fields), EN
    ).text.text


def test_a_link_that_ended_a_sentence_leaves_no_dangling_words():
    body = VERL_TEMPLATE.format(
        what="To run qwen35 with mtp, you should use mbridge with pr:\nhttps://github.com/ISEEKYAN/mbridge/pull/98"
    )
    assert (
        said("[model] feat: support qwen35 mtp sft/rl", body)
        == "To run qwen35 with mtp, you should use mbridge."
    )


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
    assert (
        said("Share the cache", body)
        == "Moves the cache into its own crate so that the language server can share it."
    )


def test_a_long_lead_in_is_said_without_its_list_rather_than_cut_and_thrown_away():
    # verl #6324: the author's summary once ended "…disk full and other…", and the page showed a file list
    body = """## Summary

Fixes #6338

Make generation dump in `RayPPOTrainer` asynchronous with exception
propagation and streaming writes, resolving:

1. **Synchronous I/O blocks the training loop** — dump runs on the main
thread, blocking rollout with large batches
2. **I/O errors silently dropped** — disk full and other exceptions go
unnoticed
3. **High peak memory** — `"\\n".join(lines)` builds a large string
before writing

## Changes

- **Async dump**: Submit write tasks via `ThreadPoolExecutor(max_workers=1)`.
"""
    files = (
        FileChange("verl/trainer/ppo/ray_trainer.py", 100, 20),
        FileChange("verl/trainer/main_ppo_sync.py", 8, 2),
    )
    line = said(
        "[trainer] feat: async generation dump with exception propagation and streaming write",
        body,
        files=files,
    )
    assert (
        line
        == "Make generation dump in RayPPOTrainer asynchronous with exception propagation and streaming writes."
    )


def test_addresses_of_github_issues_read_as_references_and_a_sentence_pointing_at_a_removed_link_goes():
    body = """## Summary

Building on https://github.com/astral-sh/ruff/pull/25118, this adds a
folding range to every block.

For detailed descriptions, please refer to:
https://example.com/docs/skip_manager.rst
"""
    pull = analysed(
        1,
        "[ty] Emit folding ranges for an entire block",
        summary=summarise(body, "Emit folding ranges", repo="astral-sh/ruff"),
    )
    assert (
        what_it_does(pull, EN).text.text
        == "Building on #25118, this adds a folding range to every block."
    )
    pointer = "### What does this PR do?\n\nFor detailed feature descriptions and implementation schemes, please\nrefer to:\nhttps://example.com/a.rst\n"
    assert (
        summarise(pointer, "Use SkipManager to manage the skipping schemes")
        == "Use SkipManager to manage the skipping schemes"
    )


def test_without_a_description_the_line_is_the_title_as_a_sentence_where_it_works_and_whether_tests_came():
    files = (FileChange("src/io/reader.py", 40, 10), FileChange("tests/test_reader.py", 20, 0))
    pull = analysed(
        1,
        "[io] fix: crash when path is empty",
        summary="Fix crash when path is empty.",
        files=files,
        footprint=Footprint(places=("src/io/reader.py",), test_files=1, test_lines_gained=20),
    )
    assert body_sentences(pull) is None
    assert (
        what_it_does(pull, EN).text.text
        == "Fixes crash when path is empty, mainly changing src/io/reader.py, with tests."
    )
    # tests only trimmed show nothing of the change (ruff #18960 deleted five lines of two tests)
    trimmed = analysed(
        5,
        "[ty] Resolve python environment in `Options::to_program_settings`",
        files=(
            FileChange("crates/ty/src/lib.rs", 90, 40),
            FileChange("crates/ty/tests/cli.rs", 0, 3),
        ),
        footprint=Footprint(places=("crates/ty/src",), test_files=1, test_lines_gained=-3),
    )
    assert what_it_does(trimmed, EN).text.text == (
        "Resolves python environment in `Options::to_program_settings`, mainly changing crates/ty/src."
    )
    # nor a test adjusted to a large change (ruff #18627: 9 lines of a test for 2,100 of code)
    adjusted = analysed(
        18627,
        "Support cancellation requests",
        footprint=Footprint(
            places=("crates/ruff_server/src",), core_lines=2_100, test_files=1, test_lines_gained=9
        ),
    )
    assert what_it_does(adjusted, EN).text.text == (
        "Supports cancellation requests, mainly changing crates/ruff_server/src."
    )
    # reformatted test files grew, and show nothing (ruff #27630, "Enable rustfmt on more files")
    reformatted = analysed(
        27630,
        "Enable rustfmt on more files",
        files=files,
        footprint=Footprint(places=("src/io/reader.py",), test_files=1, test_lines_gained=20),
    )
    assert what_it_does(reformatted, EN).text.text.endswith("mainly changing src/io/reader.py.")
    # nor do the import fixes of tests after code moved (ruff #24471, 16,000 lines into a crate)
    moved = analysed(
        24471,
        "Move the reader into a crate of its own",
        additions=8_000,
        deletions=7_990,
        files=files,
        footprint=Footprint(places=("src/io/reader.py",), test_files=1, test_lines_gained=2),
    )
    assert what_it_does(moved, EN).text.text.endswith("mainly changing src/io/reader.py.")
    # a PR mostly of tests says so, not where its few lines of code are (ruff #24490)
    e2e = analysed(
        6,
        "Add E2E testing framework to ruff-server",
        files=(
            FileChange("crates/server/src/lib.rs", 59, 241),
            FileChange("crates/server/tests/e2e.rs", 3000, 500),
        ),
        footprint=Footprint(
            places=("crates/server/src",),
            core_lines=300,
            test_files=1,
            test_lines=3500,
            test_lines_gained=2500,
        ),
    )
    assert (
        what_it_does(e2e, EN).text.text
        == "Adds E2E testing framework to ruff-server, most of it in tests."
    )
    assert (
        what_it_does(e2e, ZH).text.text
        == "新增「E2E testing framework to ruff-server」，改动大多在测试中。"
    )
    # not where docs and examples are more of it (verl #7362: 338 of its 1,458 lines in tests)
    mixed = analysed(
        7,
        "Add fsdpturbo backend engine support",
        additions=1_440,
        deletions=18,
        footprint=Footprint(places=("verl",), core_lines=120, test_lines=338, test_files=1),
    )
    assert what_it_does(mixed, EN).text.text == "Adds fsdpturbo backend engine support."
    # a description of names is no sentence of the author's (verl #4037's whole body: an image tag)
    for names in ("verlai/verl:sgl054p3.dev", "astral-sh/ruff-pre-commit rbubley/mirrors-prettier"):
        assert body_sentences(analysed(2, "feat: update images", summary=names)) is None
    untested = analysed(
        2, "A faster reader", files=files[:1], footprint=Footprint(places=("src/io",))
    )
    assert (
        what_it_does(untested, EN).text.text
        == "A faster reader, mainly changing src/io; no test changed."
    )
    rust = analysed(
        3,
        "Switch the workspace to Rust 2024",
        files=(FileChange("crates/a/src/lib.rs", 5, 5),),
        footprint=Footprint(places=("crates/a/src/lib.rs",), inline_test_files=1),
    )
    assert (
        what_it_does(rust, EN).text.text
        == "Switches the workspace to Rust 2024, mainly changing crates/a/src/lib.rs."
    )  # its tests may sit in the file
    spread = (FileChange("src/a.py", 40, 10), FileChange("src/b.py", 20, 0))
    assert (
        what_it_does(
            analysed(
                4, "Add retries to the readers", files=spread, footprint=Footprint(core_lines=70)
            ),
            EN,
        ).text.text
        == "Adds retries to the readers, across several files; no test changed."
    )
    moved = analysed(
        5, "refactor: move 250 files", files=spread, footprint=Footprint(core_lines=70)
    )
    assert (
        what_it_does(moved, EN).text.text == "Moves 250 files; no test changed."
    )  # not "Moves 250 files, across several files"


def test_files_say_what_was_removed_added_or_changed_in_ci_with_their_figures():
    removed = analysed(
        2,
        "Drop the old reader",
        additions=3,
        files=(
            FileChange("src/old.py", 0, 450, "removed"),
            FileChange("src/util.py", 0, 150, "removed"),
        ),
        footprint=Footprint(
            removed_files=("src/old.py", "src/util.py"), removed_count=2, removed_lines=600
        ),
    )
    cited = what_it_does(removed, EN).text
    assert cited.text == "Drops the old reader. Removes 2 files with 600 lines."
    assert {f.what for f in cited.figures} == {"pull:2:removed_files", "pull:2:removed_lines"}
    workflows = tuple(f".github/workflows/w{i}.yml" for i in range(8))
    ci = analysed(3, "Move CI to uv", files=workflows, footprint=Footprint(workflows=workflows))
    assert what_it_does(ci, EN).text.text == "Moves CI to uv. Changes 8 CI files."
    assert (
        what_it_does(ci, ZH).text.text == "将「CI」移到「uv」。修改了 8 个 CI 文件。"
    )  # "uv" is not a word the rules know: the facts, the title being above
    # verl #7127's files at the repository's root: a place in Chinese, not the table's "(root)"
    rooted = analysed(5, "Uv integration", modules=("(root)", "build"), files=("manage_envs.py",))
    assert what_it_does(rooted, ZH).text.text.startswith("根目录、build 模块的改动")
    added = ("src/plugins/__init__.py", "src/plugins/loader.py", "src/plugins/registry.py")
    module = analysed(
        4,
        "Plugins",
        files=(*(FileChange(p, 50, 0, "added") for p in added), FileChange("src/app.py", 5, 1)),
        footprint=Footprint(added_files=added, added_count=3),
    )
    assert what_it_does(module, EN).text.text == "Plugins. Adds 3 files, all in src/plugins."


def test_list_descriptions_lose_housekeeping_items_and_their_labels():
    pull = analysed(
        1,
        "[feat] Add support for FSDP2 in GRPO-LoRA",
        summary="Add: Add support for FSDP2 in GRPO-LoRa; Format: Automatic code formatting changes initiated by the pre-commit tool; "
        "Add: Integrate the end-to-end (e2e) testing of GRPO-LoRA + fsdp2 into the CI pipeline.",
    )
    assert body_sentences(pull) == (
        "Add support for FSDP2 in GRPO-LoRa; "
        "Integrate the end-to-end (e2e) testing of GRPO-LoRA + fsdp2 into the CI pipeline."
    )


def test_a_sentence_that_introduced_a_removed_code_block_is_dropped_and_a_body_finishing_the_title_joins_it():
    body = (
        "## Summary\n\nBy preferring the cell boundary marker before the inserted text. The code in question looks like this:\n\n"
        "```py\n# %%\nx = 1\n```\n\nwhere each line is a cell.\n"
    )
    title = "Fix panic when inserting text at a notebook cell boundary"
    assert (
        said(title, body)
        == "Fixes panic when inserting text at a notebook cell boundary by preferring the cell boundary marker before the inserted text."
    )
    example = "## Summary\n\nAdds support for generic PEP695 type aliases, e.g.,\n\n```py\ntype A[T] = list[T]\n```\n"
    assert said("[ty] Generic aliases", example) == "Adds support for generic PEP695 type aliases."


@pytest.mark.parametrize(
    ("title", "chinese"),
    [
        ("[rollout] feat: add async weight sync", "新增异步权重同步"),
        ("Fix typo in the README", "在 README 中修复拼写错误"),
        ("[ty] add tests for workspaces", "为工作区新增测试"),
        ("Remove unused APIs from ruff_linter", "从 ruff_linter 中移除未使用的 API"),
        (
            "[`flake8-blind-except`] Stabilize support for more logging methods (`BLE001`)",
            "稳定化对更多日志方法的支持（`BLE001`）",
        ),
        ("Bump requests from 2.31.0 to 2.32.3", "将 requests 从 2.31.0 升级到 2.32.3"),
        ("chore(deps): update rust crate clap to v4.5.40", "将 Rust 包 clap 更新到 v4.5.40"),
        (  # "update" says no direction, "bump" and "upgrade" do
            "Update actions/checkout action to v5",
            "将 actions/checkout 操作更新到 v5",
        ),
        ("Upgrade actions/checkout action to v5", "将 actions/checkout 操作升级到 v5"),
        (
            "Update Rust crate log to v0.4.25",
            "将 Rust 包 log 更新到 v0.4.25",
        ),  # the crate's name, not 日志
        ("Added a new metadata tag", "新增元数据标签"),
        ("docs: fix broken news rendering", "修复失效的新闻渲染"),  # "news" is no plural of "new"
        (
            'Revert "[ruff]: Build loongarch64 binaries in CI"',
            "回退「Build loongarch64 binaries in CI」",
        ),
        (
            "Use `DisplayDiagnosticsConfig::program` for Ruff's GitHub output",
            "为 Ruff 的 GitHub 输出使用 `DisplayDiagnosticsConfig::program`",
        ),
        (
            "[feat][BREAKING] Megatron: Support learning rate scheduler",
            "Megatron：支持学习率调度器",
        ),
        (
            "Rename `red_knot_workspace` to `red_knot_project`",
            "将 `red_knot_workspace` 重命名为 `red_knot_project`",
        ),
        (
            "[rollout, vllm] fix: use engine.sleep() instead of collective_rpc",
            "改用 engine.sleep() 代替 collective_rpc",
        ),
        ("fix reward model and add CI test", "修复奖励模型，并新增 CI 测试"),
        (
            "[ty] Defer all parameter and return type annotations",
            "推迟所有参数和返回类型注解",
        ),  # "and return type" is no second verb
        ('Revert "[ty] Add tests for protocols"', "回退为协议新增测试"),
        ("[ty] Complete support for `ParamSpec`", "完善对 `ParamSpec` 的支持"),  # ruff #21445
        ("Merge pull request #3151 from someone/feature/watchfiles", "合入分支 feature/watchfiles"),
        # a fork's default branch with its owner: "main" alone is the project's own (pelican #3473)
        ("Merge pull request #3473 from clockback/main", "合入分支 clockback/main"),
    ],
)
def test_titles_whose_every_word_the_rules_know_are_translated_with_names_and_code_as_written(
    title, chinese
):
    assert translated_title(title) == chinese == chinese_title(title)


@pytest.mark.parametrize(
    "title",
    [
        "Use SkipManager to uniformly manage the skipping schemes",  # "use X to …" is not "改用 …"
        "Add platform abstraction layer and plugin-based engine override system",
        "fix: crash when `path` is empty",  # a clause
        "[ty] Use `Type::string_literal()` more",  # an adjective does not end a phrase
        "Expand Semantic Syntax Coverage",  # Title Case: no capital tells a name
        "Add Weblate to Who's Using Ruff",
        "ArticlesGenerator: Set blog=True consistently. Fixes #1631.",
        "Migrate CI to uv",  # "uv" could be a word: the rules do not guess
        "Added a new ''modified:' metadata tag",  # a quotation left open is no name
        "Stabilize `non-pep604-annotation-optional` (`UP045`) and preview behavior for `non-pep604-annotation-union` (`UP007`)",  # each code names a part
        "[rollout] fix: set repetition_penalty=1.0 to AsyncLLM",  # a value passed to AsyncLLM, not set to it
    ],
)
def test_titles_with_a_word_the_rules_do_not_know_are_quoted_whole_never_half_translated(title):
    assert translated_title(title) is None
    assert translated_title(f'Revert "{title}"') == f"回退「{display_title(title)}」"
    assert chinese_title(title) == f"「{display_title(title)}」"


@pytest.mark.parametrize(
    ("title", "framed"),
    [
        # real titles of the three repositories the rules cannot translate whole
        (
            "[ty] Initial implementation of signature help provider",
            "初步实现「signature help provider」",
        ),
        ("[ty] Initial support for workspace diagnostics", "初步支持「workspace diagnostics」"),
        ("[misc] refactor: clean up unused sharding manager", "清理「unused sharding manager」"),
        ("[ty] Speed up large-union narrowing", "加速「large-union narrowing」"),
        ("Switch to Rust 2024 edition", "切换到「Rust 2024 edition」"),
        ("[rollout] feat: support for the new sampler", "支持「new sampler」"),
        ("[red-knot] mypy_primer: switch to depot runners", "mypy_primer：切换到「depot runners」"),
        (  # verl #5802: a scope before a dash, as before a colon
            "[4/n][trainer] feat: flowgrpo - add diffusers + fsdp engine support",
            "「flowgrpo」：新增「diffusers + fsdp engine support」",
        ),
        (
            "Don't store a RichHandler object in the `argparse` namespace",
            "不再「store a RichHandler object in the `argparse` namespace」",
        ),
        (
            "[ty] Add support for functional `Enum(...)` syntax",
            "新增对「functional `Enum(...)` syntax」的支持",
        ),
        (  # each verb over its own words
            "[misc] feat: support logging rollout prob and fix the timer",
            "支持「logging rollout prob」，并修复「timer」",
        ),
        (  # verl #6951 once read 弃用「vanilla mBridge and make Megatron Bridge default」
            "[megatron] chore: deprecate vanilla mBridge and make Megatron Bridge default",
            "弃用「vanilla mBridge」，并使「Megatron Bridge default」",
        ),
        (  # the first "and" a verb follows splits the title
            "[docker] feat: upgrade vllm and megatron version, add packages to support DeepSeek-V4",
            "升级「vllm and megatron version」，并新增「packages to support DeepSeek-V4」",
        ),
        (
            "[ty] Make constraint solver outcomes explicit",
            "使「constraint solver outcomes explicit」",
        ),
        ("Make sure the output dir exists", "确保「output dir exists」"),
        (
            "[ty] Document file-watcher sandbox limitations",
            "为「file-watcher sandbox limitations」补充文档",
        ),
        ("[misc] feat: upgrade to torch 2.7, sglang 0.4.8", "升级到「torch 2.7, sglang 0.4.8」"),
        (  # a scope's words in Chinese, as a translated title's (pelican #125)
            "Theme documentation: update english + new french",
            "主题文档：更新「english + new french」",
        ),
        (
            "[ty] Treat generator-expression exceptions as eagerly evaluated",
            "将「generator-expression exceptions」视为「eagerly evaluated」",
        ),
        (
            "[pylint] Consider `__new__` methods as special function type",
            "将「`__new__` methods」视为「special function type」",
        ),
        (  # ruff #17183 read 'red-knot 模块的改动'; verl #894's "to help" is no new value
            "[red-knot] Default `python-platform` to current platform",
            "将「`python-platform`」的默认值改为「current platform」",
        ),
        (
            "[ty] Default to latest supported python version",
            "默认使用「latest supported python version」",
        ),
        ("[dev] feat: default VSCode repo settings to help consistency with CI", None),
        (
            "[ty] Lazily infer function parameter default types",
            "惰性推断「function parameter default types」",
        ),
        # "resolve": a problem is solved, a name or a type looked up; "narrow" is type narrowing
        (
            "[ci] fix: resolve oom when allocating weight transfer buffer",
            "解决「oom when allocating weight transfer buffer」",
        ),
        (
            "[ty] Resolve PEP 695 aliases in type[...] annotations",
            "解析「PEP 695 aliases in type[...] annotations」",
        ),
        ("[ty] Narrow walrus expression values", "收窄「walrus expression values」"),
        # a revert whose title quotes none: what it undoes, framed (ruff #24789)
        (
            "Revert preview changes to displayed diagnostic severity in LSP",
            "回退「preview changes to displayed diagnostic severity in LSP」",
        ),
        (
            "[ty] Synthesize precise `__getitem__` overloads for tuple subclasses",
            "生成「precise `__getitem__` overloads for tuple subclasses」",
        ),
        ("[sglang] upgrade to 0.4.5.post3 & fix ipv6", "升级到「0.4.5.post3」，并修复「ipv6」"),
        (
            "[parser] Recover from unclosed brackets in f-strings",
            "从「unclosed brackets in f-strings」中恢复",
        ),
        (
            "Translate documentation into Simplified Chinese",
            "翻译「documentation into Simplified Chinese」",
        ),
        (
            "Parenthesize `yield` arguments in the `FURB192` fixer",
            "为「`yield` arguments in the `FURB192` fixer」加括号",
        ),
        (
            "Only set CUDA_DEVICE_MAX_CONNECTIONS=1 for megatron in Hopper/Ampere",
            "仅设置「CUDA_DEVICE_MAX_CONNECTIONS=1 for megatron in Hopper/Ampere」",
        ),
        (  # ruff #21767: 104 characters after its verb
            (
                "[ty] Improve `@override`, `@final` and Liskov checks in cases where there are multiple"
                " reachable definitions"
            ),
            (
                "改进「`@override`, `@final` and Liskov checks in cases where there are multiple"
                " reachable definitions」"
            ),
        ),
        (
            "[ty] Gracefully handle salsa cancellations and panics in background request handlers",
            "妥善处理「salsa cancellations and panics in background request handlers」",
        ),
        ("[ty] Better class def completions", "改进「class def completions」"),
        (
            "Fallback to metaclass `__getattr__` or `__getattribute__`",
            "回退到「metaclass `__getattr__` or `__getattribute__`」",
        ),
        ("New rule float-comparison (`RUF069`)", "新增「rule float-comparison (`RUF069`)」"),
        ("New engine saves megatron LoRA adapters checkpoints", None),  # a clause: no new engine
        ("Rm future plans, almost all completed", "移除「future plans, almost all completed」"),
        # a title that ends in the noun of what it does (verl's "X fix", "X support")
        ("Qwen3.5 LoRA & MTP support", "支持「Qwen3.5 LoRA & MTP」"),
        (
            "[vllm] VLLM Lora sync index misalignment fix",
            "修复「VLLM Lora sync index misalignment」",
        ),
        (
            "Bug fixes for the qwen3-235b model in 256k scenarios",
            "修复「qwen3-235b model in 256k scenarios」",
        ),
        (  # two changes, each over its own words: the second is no target (verl #1392)
            "move recipe.dapo.src to recipe.dapo; move test files to their own namespaces",
            "将「recipe.dapo.src」移到「recipe.dapo」；将「test files」移到「their own namespaces」",
        ),
        (  # "to" opens a verb: no move to a place (pelican #605)
            "Change the way to compute relative paths",
            "修改「way to compute relative paths」",
        ),
        # no verb to say, the title again, a sense Chinese would get wrong, or too long a rest
        # ("合入分支 X" is true of every merge commit: `chinese_mention` says its facts and branch)
        ("Merge pull request #3321 from boxydog/warn_about_markdown", None),
        (
            "[megatron] chore: refactor to use Megatron-Bridge new APIs",
            None,
        ),  # not 重构「to use …」
        ("[ty] Return statements in finally block point to end block", None),  # a noun, not 返回
        ("Merge pull request #2963 from geoffff/master", None),
        ("fix: crash when `path` is empty", None),
        ('Revert "[ty] Better control flow for boolean expressions"', None),
        ("[ty] Follow aliases when resolving stub mappings", None),
        ("[ty] Homogeneous and mixed tuples", None),
        (  # a rest of 147 characters
            (
                "Fix typo in the message emitted by ruff when a user types `ruff: enable[<rules>]` or"
                " `ruff: disable[<rules>]` where `ruff: ignore[<rules>]` is expected"
            ),
            None,
        ),
    ],
)
def test_a_title_the_rules_cannot_translate_is_framed_by_its_leading_verb_or_not_at_all(
    title, framed
):
    assert whole_translation(title) is None
    assert framed_title(title) == framed
    if framed:  # never the English title whole
        assert display_title(title) not in framed


def test_a_merge_commit_is_said_in_chinese_by_its_facts_and_the_words_of_its_branch():
    """pelican #3240 read "合入分支 remove-icons", true of every merge; its facts and its branch."""
    merge = analysed(
        3240,
        "Merge pull request #3240 from avaris/remove-icons",
        modules=("themes",),
        additions=372,
        deletions=132,
    )
    assert chinese_mention(merge, ZH) == "themes 模块的改动，+372 −132 行，来自分支 remove-icons"
    default = analysed(12, "Merge pull request #12 from someone/master", modules=("themes",))
    assert chinese_mention(default, ZH, sized=False) == "themes 模块的改动"


def test_titles_in_english_prose_agree_with_the_pull_as_subject_and_lists_keep_them_as_written():
    assert english_predicate("[rollout] feat: add async weight sync") == "adds async weight sync"
    assert (
        english_predicate("Revert #3 and pin numpy to 1.26") == "reverts #3 and pins numpy to 1.26"
    )
    assert (
        english_predicate("Megatron: Support learning rate scheduler")
        == "supports learning rate scheduler (Megatron)"
    )
    assert english_predicate("ChatScheduler requests sglang fully async") is None
    # verl #2125 read "supports of dist checkpoint": "support" before "of" or "for" is a noun
    assert english_predicate("[ckpt] feat: Support of dist checkpoint") == (
        "adds support for dist checkpoint"
    )
    assert framed_title("[ckpt] feat: Support of dist checkpoint") == "支持「dist checkpoint」"
    assert display_title("[core] feat: Add *streaming* support") == "Add *streaming* support"


def test_only_short_sentences_the_rules_translate_fully_are_said_in_chinese():
    assert chinese_sentence("Adds tests for the parser.") == "为解析器新增测试。"
    assert chinese_sentence("Adds a retry to the fetcher.") is None
    assert (
        chinese_sentence(
            "Adds a retry to the fetcher, so that a flaky network does not fail the whole build."
        )
        is None
    )


def test_on_a_chinese_page_prose_rules_cannot_translate_is_quoted_apart_as_the_authors_words():
    body = "The parser used to stop at the first error. It now recovers and reports every error in the file."
    fixed = analysed(
        1,
        "Fix parser stopping at the first error",
        summary=summarise(body, "Fix parser stopping at the first error"),
    )
    line = what_it_does(fixed, ZH)
    assert (
        line.text.text == "作者的说明："
    )  # the title does not translate: it stays above, as written
    assert (
        line.quote
        == "The parser used to stop at the first error. It now recovers and reports every error in the file."
    )
    untitled = what_it_does(
        analysed(2, "Parser errors", summary=summarise(body, "Parser errors")), ZH
    )
    assert (untitled.text.text, untitled.quote) == ("作者的说明：", line.quote)


def test_a_sentence_that_ends_inside_its_closing_bracket_gets_no_second_full_stop():
    body = "## Summary\n\nThis fixes the regression we have seen on PyTorch since the Beta. (isort, the other project, is largely unchanged.)\n"
    assert said("[ty] Project reachability constraints before narrowing", body) == (
        "This fixes the regression we have seen on PyTorch since the Beta. (isort, the other project, is largely unchanged.)"
    )
    ellipsis = "## Summary\n\nWe compute it at the type level and so wrap it in `Literal[...]`.\n"  # ruff #22010: "..." ends no sentence
    assert (
        said("[ty] Improve rendering of default values", ellipsis)
        == "We compute it at the type level and so wrap it in Literal[...]."
    )
    # ruff #24165: the rule's scope ends in "..."; the key line once ended "only contain pass or."
    ended = "Implements the rule, which detects useless\n`finally` blocks that only contain `pass` or `...`.\n"
    assert said("Implement useless-finally (RUF-072)", ended) == (
        "Implements the rule, which detects useless finally blocks that only contain pass or ...."
    )


def test_a_title_said_by_its_facts_names_the_file_it_adds_or_changes_most():
    """ruff #21441 "new module for parsing ranged suppressions" read "ruff_linter 模块的改动" as the
    week's second change: the file it adds says what it is about."""
    adds = analysed(
        21441,
        "new module for parsing ranged suppressions",
        modules=("ruff_linter",),
        footprint=Footprint(
            added_files=("crates/ruff_linter/src/suppression.rs",),
            added_count=1,
            main_files=("crates/ruff_linter/src/suppression.rs", "crates/ruff_linter/src/lib.rs"),
            core_lines=12,
        ),
    )
    assert chinese_mention(adds, ZH, sized=False) == (
        "ruff_linter 模块的改动，新增 crates/ruff_linter/src/suppression.rs"
    )
    changes = analysed(
        7181,
        "delta_sharded on Megatron-Bridge param mappings",
        modules=("megatron",),
        footprint=Footprint(main_files=("verl/workers/engine/megatron/delta.py",), core_lines=12),
    )
    assert chinese_mention(changes, ZH) == (
        "megatron 模块的改动，主要改动 verl/workers/engine/megatron/delta.py，+10 −2 行"
    )
    # a key line says where the PR works after it: not twice
    assert chinese_mention(changes, ZH, sized=False, located=False) == "megatron 模块的改动"
    # mostly docs: no code file speaks for it
    docs = analysed(
        3346,
        "Simplified Chinese documentation",
        modules=("docs",),
        additions=10_274,
        deletions=0,
        footprint=Footprint(main_files=("docs/conf.py",), core_lines=2),
    )
    assert chinese_mention(docs, ZH, sized=False) == "docs 模块的改动"
    assert chinese_mention(docs, ZH) == "docs 模块的改动，+10,274 −0 行"  # docs: not said as tests


def test_a_pr_of_mostly_tests_said_by_its_facts_says_so_not_only_its_module():
    """pelican #623 read "pelican 模块的改动，+288 −59 行": 4 of its lines are in contents.py, most
    of the rest regenerated test output."""
    pull = analysed(
        623,
        "Override page 'url' and 'save_as' directly from the page metadata. Fixes #400.",
        modules=("pelican",),
        additions=288,
        deletions=59,
        footprint=Footprint(core_lines=4, test_lines=300),
    )
    assert chinese_mention(pull, ZH) == "pelican 模块的改动，+288 −59 行，多数行在测试文件中"


def test_a_title_is_capitalised_for_a_list_unless_it_starts_with_code():
    # ruff #25608 read "Sys.implementation.version is not sys.version_info"
    assert display_title("[ty] sys.implementation.version is not sys.version_info") == (
        "sys.implementation.version is not sys.version_info"
    )
    assert display_title("[ty] ty_extensions: add foo") == "ty_extensions: add foo"
    assert display_title("fix: crash when `path` is empty") == "Crash when `path` is empty"


@pytest.mark.parametrize(
    "title, body, said",
    [
        # ruff #19919: the stable output is as it was
        (
            "Show fixes by default",
            "this is added to the `full` output format in preview for now.",
            "shows fixes by default (in preview, its description says)",
        ),
        ("Show fixes by default", "Fixes #7352.", "shows fixes by default"),
        # out of preview: on for everyone (ruff #27035)
        (
            "Stabilize new default rules",
            "This PR stabilizes the expanded default rule set currently in preview.",
            "stabilizes new default rules",
        ),
        # a type's default is no default behaviour (ruff #21045)
        (
            "Fix false positive for `TypeVar` with default",
            "Only in preview.",
            "fixes false positive for `TypeVar` with default",
        ),
    ],
)
def test_a_default_its_description_keeps_in_preview_is_said_so(title, body, said):
    pull = analysed(19919, title, body=body)
    assert predicate_of(pull) == said
    chinese = chinese_mention(pull, Language.of("zh"))
    assert chinese.endswith("（其描述称仅在预览模式中）") == ("in preview" in said)
