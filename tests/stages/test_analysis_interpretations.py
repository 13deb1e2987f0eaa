"""Issue 26: every interpretation the analysis makes is checked against the data, or not made.

Each class of mistake the issue lists is pinned twice: on small hand-made records, and on the real
PR behind it in ../shared/data (skipped when absent).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from digest_plugin.analysis import analyse_pull, analyse_repo, repo_context
from digest_plugin.analysis.claims import speaks
from digest_plugin.analysis.repository import analysed_weeks
from digest_plugin.analysis.risks import main_risk
from digest_plugin.build.cache import Memo, Stages
from digest_plugin.narrate import Language, narrate
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import FileChange
from digest_plugin.settings import DigestSettings
from tests.analysis_fixtures import real_week, real_weeks
from tests.conftest import make_pull

WHEN = "2026-05-19T10:00:00Z"
NOW = datetime(2026, 11, 30, tzinfo=UTC)
MONDAY = datetime(2026, 3, 2, 10, tzinfo=UTC)  # of 2026-W10
SRC = FileChange("widget/engine.py", 60, 20)
TEST = FileChange("tests/test_engine.py", 30, 0)


def analysed(title="feat: a change", files=(SRC, TEST), number=100, **fields):
    pull = make_pull(number, fields.pop("merged_at", WHEN), title, files=list(files), **fields)
    return analyse_pull(
        pull, repo_context("acme/widget", [pull], analysis_options(DigestSettings()))
    )


def test_ci_is_the_ci_configuration_and_developer_tooling_is_not():
    def ci(path):
        return "ci-change" in analysed("chore: tidy", files=[FileChange(path, 2, 1)]).risks

    assert [
        ci(p)
        for p in (
            ".github/workflows/tests.yml",
            ".travis.yml",
            ".readthedocs.yaml",
            ".github/actions/setup/action.yml",
        )
    ] == [True] * 4
    assert [
        ci(p)
        for p in (
            "tox.ini",
            ".pre-commit-config.yaml",
            ".github/ISSUE_TEMPLATE/bug.yml",
            ".github/CODEOWNERS",
            ".github/renovate.json5",
            ".flake8",
        )
    ] == [False] * 6


@pytest.mark.realdata
def test_tox_and_pre_commit_are_no_ci_change_in_the_real_data():
    tox = real_week("getpelican/pelican", "2014-W16")  # #1316 "Add python 3.4 to tox config."
    assert "ci-change" not in next(p for p in tox.pulls if p.pull.number == 1316).risks
    week = real_week(
        "astral-sh/ruff", "2026-W23"
    )  # #25569 "Update prek dependencies": .pre-commit-config.yaml
    ci = next(r for r in week.risks if r.kind == "ci-change")
    assert 25569 not in ci.pulls and 25708 in ci.pulls
    assert all(path.startswith(".github/workflows/") for e in ci.evidence for path in e.paths)


def test_a_deprecation_is_the_project_deprecating_its_own_api():
    def deprecation(title, files=(SRC, TEST), body=""):
        found = [e for e in analysed(title, files, body=body).evidence if e.kind == "deprecation"]
        return found[0].detail if found else None

    assert deprecation("[trainer] feat: deprecate main_ppo.py") == "deprecates"
    assert (
        deprecation("[`pandas-vet`] Deprecate `pandas-df-variable-name` (`PD901`)") == "deprecates"
    )
    assert deprecation("Add deprecation warning for `ruff-lsp` related settings") == "deprecates"
    assert (
        deprecation("[ty] Remove deprecated `src.root` setting in favor of `environment.root`")
        == "removes"
    )
    # about deprecated things elsewhere: a lint rule, an upstream warning, a library's API, a migration
    assert (
        deprecation(
            "[`airflow`] extend deprecated argument `concurrency` in `airflow..DAG` (`AIR301`)"
        )
        is None
    )
    assert (
        deprecation("[trainer] fix: `ray.state.available_resources_per_node` is deprecated") is None
    )
    assert deprecation("Fix DeprecationWarning in _get_summary") is None
    assert deprecation("replace deprecated `std::f64::EPSILON` with `f64::EPSILON`") is None
    assert (
        deprecation("[megatron] fix: Remove Deprecated Megatron Optimizer Args") is None
    )  # megatron: a runtime it is built on
    assert (
        deprecation(
            "fix: remove deprecated kwargs",
            body="Needed for compatibility with the latest torchdata.",
        )
        is None
    )
    # a deprecation lives in code: docs, examples and packaging metadata alone deprecate nothing
    assert (
        deprecation(
            "Drop deprecated license classifier", files=[FileChange("pyproject.toml", 0, 1)]
        )
        is None
    )
    assert (
        deprecation("[recipe] deprecate old examples", files=[FileChange("examples/run.sh", 0, 40)])
        is None
    )
    # the author's description decides: one that says what the PR does and never a deprecation is about something else
    part_two = "This PR continues the work started in #2733: it adds a `no_padding` option to the SFT dataset."
    assert deprecation("[misc] feat: prototype deprecate DataProto: part 2", body=part_two) is None
    assert (
        deprecation(
            "[misc] feat: prototype deprecate DataProto",
            body="Deprecates DataProto in favour of TensorDict.",
        )
        == "deprecates"
    )
    part_one = "- Add TensorDict utilities and tests.\n- Add nested tensor example to remove padding throughout the system"  # verl #2733
    assert (
        deprecation(
            "[misc] feat: prototype deprecate DataProto and replace with Tensordict: part 1",
            body=part_one,
        )
        is None
    )
    sharding = "There is no need to use sharding manager any longer. We will remove its usage gradually."  # verl #2912
    assert (
        deprecation("[misc] refactor: deprecate sharding manager (part 1)", body=sharding)
        == "deprecates"
    )
    assert (
        deprecation(
            "[reward] refactor: deprecate batch reward manager",
            body="Remove legacy implementation.",
        )
        == "deprecates"
    )


@pytest.mark.realdata
def test_a_lint_rule_about_another_librarys_deprecated_argument_is_no_deprecation_in_the_real_data():
    week = real_week(
        "astral-sh/ruff", "2025-W45"
    )  # #21220 extends AIR301 to Airflow's deprecated `concurrency` argument
    rule = next(p for p in week.pulls if p.pull.number == 21220)
    assert "deprecation" not in rule.risks and "deprecation" not in dict(rule.score.factors)
    own = next(
        p for p in real_week("astral-sh/ruff", "2025-W11").pulls if p.pull.number == 16681
    )  # "Deprecate `non-pep604-isinstance` (`UP038`)"
    assert "deprecation" in own.risks
    upstream = next(
        p for p in real_week("verl-project/verl", "2025-W50").pulls if p.pull.number == 4396
    )  # Megatron's deprecated args
    assert "deprecation" not in upstream.risks
    part_two = next(
        p for p in real_week("verl-project/verl", "2025-W39").pulls if p.pull.number == 3567
    )  # adds a no-padding mode
    assert "deprecation" not in part_two.risks


# -- versions ---------------------------------------------------------------------------------


REQUIREMENTS = FileChange("requirements.txt", 1, 1)


def moves(title, files=(REQUIREMENTS,), body=""):
    return [(u.package, u.old, u.new, u.move) for u in analysed(title, files, body=body).upgrades]


def test_the_projects_own_version_bumped_after_another_change_is_no_upgrade():
    release = analysed(
        "Add `pyproject.toml` to rooster config `version_files` and bump to 0.13.1",
        [FileChange("pyproject.toml", 2, 1)],
    )
    assert release.upgrades == () and "dependency-upgrade" not in release.risks  # ruff #20475
    assert moves(
        "Bump MSRV to Rust 1.88",
        [FileChange("Cargo.toml", 1, 1), FileChange("rust-toolchain.toml", 1, 1)],
    )


def test_a_minimum_supported_version_raised_alone_is_no_dependency_upgrade():
    assert (
        "dependency-upgrade"
        not in analysed("Update MSRV to 1.91", [FileChange("Cargo.toml", 1, 1), SRC]).risks
    )
    assert (
        "dependency-upgrade"
        not in analysed("Bump MSRV to Rust 1.89", [FileChange("Cargo.toml", 1, 1)]).risks
    )  # ruff #21180
    with_toolchain = analysed(
        "Update MSRV to 1.91",
        [FileChange("Cargo.toml", 1, 1), FileChange("rust-toolchain.toml", 1, 1)],
    )
    assert (
        "dependency-upgrade" in with_toolchain.risks
    )  # the compiler releases are built with moved too
    week = weeks_of(
        make_pull(
            1,
            MONDAY,
            "Update MSRV to 1.91",
            files=[FileChange("Cargo.toml", 1, 1), FileChange("rust-toolchain.toml", 1, 1)],
        )
    )
    text = next(
        line.sentence.text
        for line in narrate(week["2026-W10"], [], Language.of("en")).risks
        if line.kind == "dependency-upgrade"
    )
    if speaks("version.direction") and speaks("version.package"):
        assert (
            text.startswith("#1 raises the minimum supported Rust version to 1.91")
            and "core dependency" not in text
        )
    else:  # which package moved, and which way, are not told reliably: the files that say versions changed
        assert text == "#1 changes Cargo.toml and rust-toolchain.toml."


def test_a_toolchain_upgrade_names_the_languages_toolchain_and_calls_it_the_compiler():
    """ruff #20469 "Update rust toolchain to 1.90" read "upgrades toolchain to 1.90, a core dependency"."""
    week = weeks_of(
        make_pull(
            1,
            MONDAY,
            "Update rust toolchain to 1.90",
            files=[FileChange("rust-toolchain.toml", 1, 1), SRC],
        )
    )
    told = speaks("version.direction") and speaks("version.package")
    for language, expected in (
        (
            "en",
            "#1 upgrades the Rust toolchain to 1.90, the compiler the project is built with"
            if told
            else "#1 changes rust-toolchain.toml.",
        ),
        (
            "zh",
            "#1 将 Rust 工具链升级到 1.90，即项目构建所用的编译器"
            if told
            else "#1 修改了 rust-toolchain.toml。",
        ),
    ):
        risks = narrate(week["2026-W10"], [], Language.of(language)).risks
        assert next(
            line.sentence.text for line in risks if line.kind == "dependency-upgrade"
        ).startswith(expected)


def test_a_default_changed_in_the_tests_is_no_config_change():
    def default_change(title):
        return (
            "config-change"
            in analysed(title, files=[FileChange("widget/session.rs", 9, 1), TEST]).risks
        )

    assert default_change("[ty] Enable `pull-diagnostics` by default")
    assert not default_change(
        "[ty] Enable `pull-diagnostics` by default in E2E tests"
    )  # ruff #24516
    assert not default_change("Set the default timeout for unit tests to 60 s")


def test_a_default_change_names_the_setting_never_a_value():
    def setting(title):
        found = [
            e.detail
            for e in analysed(title, files=[FileChange("widget/contents.py", 3, 1), TEST]).evidence
            if e.kind == "config-change"
        ]
        return found[0] if found else "no default change"

    assert (
        setting("Set default content status to blank string instead of `None`") == "content status"
    )  # pelican #2610
    assert setting("[rollout] feat: change the default of max_num_seqs to 256") == "max_num_seqs"
    assert setting("Enable `pull-diagnostics` by default") == "pull-diagnostics"
    assert setting("Default `strict` to `true`") == "strict"
    assert setting("Change default value to `0`") is None


def test_a_default_named_in_english_words_is_quoted_in_chinese():
    """pelican #2610: "#2610 修改了 content status 的默认值" spliced English into a Chinese sentence."""
    week = weeks_of(
        make_pull(
            1,
            MONDAY,
            "Set default content status to blank string instead of `None`",
            files=[FileChange("widget/contents.py", 3, 1), TEST],
        )
    )
    texts = [
        line.sentence.text
        for line in narrate(week["2026-W10"], [], Language.of("zh")).risks
        if line.kind == "config-change"
    ]
    if not speaks(
        "config.default-changed"
    ):  # which setting a title names is not told reliably: that a default changes, or that it speaks of one
        assert texts == (
            ["#1 修改了一个默认值：依赖旧默认值、没有显式设置的用户，升级后行为会改变。"]
            if speaks("consequence.default-flip")
            else ["#1 的标题提到了默认值。"]
        )
        return
    assert texts and texts[0].startswith("#1 修改了「content status」的默认值")
    week = weeks_of(
        make_pull(
            1,
            MONDAY,
            "Enable `pull-diagnostics` by default",
            files=[FileChange("widget/session.rs", 9, 1), TEST],
        )
    )
    texts = [
        line.sentence.text
        for line in narrate(week["2026-W10"], [], Language.of("zh")).risks
        if line.kind == "config-change"
    ]
    assert texts and texts[0].startswith(
        "#1 修改了 pull-diagnostics 的默认值"
    )  # an identifier is code: not quoted


def test_a_dependency_row_counts_every_dependency_file_not_the_few_it_names():
    """ruff #27496 "Update Salsa to 0.28.2" changes four dependency files, and was said to change 3:
    the count was that of the paths listed."""
    locks = ["Cargo.lock", "Cargo.toml", "fuzz/Cargo.lock", "fuzz/Cargo.toml"]
    week = weeks_of(
        make_pull(
            1,
            MONDAY,
            "Update Salsa to 0.28.2",
            files=[FileChange(path, 3, 3) for path in locks],
        )
    )
    texts = [
        line.sentence.text
        for line in narrate(week["2026-W10"], [], Language.of("en")).risks
        if line.kind == "dependency-upgrade"
    ]
    if speaks("version.package"):
        return  # the package and its versions are said instead
    assert texts and texts[0].startswith("#1 changes 4 dependency files, among them Cargo.lock")


def test_a_configuration_row_counts_every_configuration_file_a_pull_changes_and_says_so():
    """verl #4211: "changes 7 files, among them …" for a PR of 36 files, 11 of them configuration:
    7 were the configuration files that lost lines, and the sentence said neither."""
    configs = [FileChange(f"widget/config/part{n}.yaml", 2, 1) for n in range(4)]
    added_only = [FileChange(f"widget/config/new{n}.yaml", 5, 0) for n in range(2)]
    week = weeks_of(
        make_pull(
            1,
            MONDAY,
            "Rework the widget settings",
            files=[*configs, *added_only, FileChange("widget/core.py", 40, 10), TEST],
        )
    )
    texts = [
        line.sentence.text
        for line in narrate(week["2026-W10"], [], Language.of("en")).risks
        if line.kind == "config-change"
    ]
    if speaks("config.user-changed"):
        assert texts and texts[0].startswith("#1 edits configuration")
        return
    said = (
        "#1 changes 6 configuration files, among them widget/config/part0.yaml and"
        " widget/config/part1.yaml (“Rework the widget settings”)."
    )
    assert texts == [said]


def test_configuration_files_that_only_lose_lines_are_not_said_to_be_changed():
    """verl #5454 emptied two trainer configurations (+0 −14 each) and the row said "修改了"
    (changes) them: they may be gone."""
    emptied = [FileChange(f"widget/config/queue_{n}.yaml", 0, 14) for n in range(2)]
    week = weeks_of(make_pull(1, MONDAY, "Retire the queue", files=[*emptied, SRC]))["2026-W10"]
    for code, said in (
        (
            "en",
            (
                "#1 takes lines out of widget/config/queue_0.yaml and widget/config/queue_1.yaml"
                " (“Retire the queue”)."
            ),
        ),
        (
            "zh",
            "#1 删去了 widget/config/queue_0.yaml 和 widget/config/queue_1.yaml 中的内容。",
        ),
    ):
        texts = [
            line.sentence.text
            for line in narrate(week, [], Language.of(code)).risks
            if line.kind == "config-change"
        ]
        assert texts == [said] or speaks("config.user-changed")


def test_every_pr_that_edits_a_configuration_file_is_in_the_row_that_names_it():
    """verl 2025-W06's row "Edits ppo_trainer.yaml" named #222 and left out #177, which added a
    wandb option to the same file: a file that only gains lines is edited too, and said so."""
    config = "widget/config/trainer.yaml"
    week = weeks_of(
        make_pull(1, MONDAY, "Rework the trainer", files=[FileChange(config, 3, 2), SRC]),
        make_pull(
            2, MONDAY + timedelta(hours=1), "Log validation", files=[FileChange(config, 4, 0), SRC]
        ),
    )["2026-W10"]
    risk = next(r for r in week.risks if r.kind == "config-change")
    assert set(risk.pulls) == {1, 2}
    for code, said in (
        # with what each says it does, which the file's name does not tell (pelican #862)
        (
            "en",
            f"#1 changes {config} (“Rework the trainer”). #2 adds lines to {config} (“Log validation”).",
        ),
        (
            "zh",
            f"#1 修改了 {config}（重做训练器）。#2 在 {config} 中增加了内容。",
        ),
    ):
        texts = [
            line.sentence.text
            for line in narrate(week, [], Language.of(code)).risks
            if line.kind == "config-change"
        ]
        assert texts == [said] or speaks("config.user-changed")


def test_versions_are_compared_newer_is_an_upgrade_older_a_downgrade():
    assert moves("chore: bump pydantic from 1.10 to 2.1") == [("pydantic", "1.10", "2.1", "major")]
    assert moves("chore: bump torch from 2.6.0 to 2.7.1") == [("torch", "2.6.0", "2.7.1", "minor")]
    assert moves("chore: bump sglang from 0.4.6.post1 to 0.4.6.post4") == [
        ("sglang", "0.4.6.post1", "0.4.6.post4", "patch")
    ]
    assert moves("[docker] feat: bump aarch64 vllm 0.17->0.18") == [
        ("vllm", "0.17", "0.18", "minor")
    ]
    assert moves("chore(deps): bump sglang[all] from 0.4.3.post3 to 0.4.4") == [
        ("sglang", "0.4.3.post3", "0.4.4", "patch")
    ]  # verl #646
    assert moves("chore: move numpy from 2.1 to 1.26") == [("numpy", "2.1", "1.26", "down")]
    assert moves(
        "Update Rust toolchain to 1.90", files=[FileChange("rust-toolchain.toml", 1, 1)]
    ) == [("rust toolchain", None, "1.90", "up")]
    toolchain = analysed(
        "Update Rust toolchain to 1.90", [FileChange("rust-toolchain.toml", 1, 1)]
    ).upgrades[0]
    assert not toolchain.major  # nothing says how far it moved: no "across a major version"


def test_dependency_files_without_versions_or_an_upgrade_word_move_nothing():
    """verl #4605 builds its Docker images for aarch64: Dockerfiles changed, no version named, no
    "update" or "bump" said; "changes dependency versions" would be a guess."""
    dockerfiles = [
        FileChange("docker/Dockerfile.stable.vllm", 6, 5),
        FileChange("docker/Dockerfile.stable.sglang", 8, 8),
    ]
    assert (
        moves(
            "[deployment] feat: support build docker image with aarch64 platform", files=dockerfiles
        )
        == []
    )
    assert moves("[trainer] fix: update TQ dependency", files=[REQUIREMENTS]) == [
        ("", None, None, "up")
    ]


def test_a_scripts_or_the_docs_own_dependency_is_none_of_the_projects():
    """ruff #26110 "Update benchmark Pyrefly to 1.1.0" changes scripts/ty_benchmark/pyproject.toml:
    a benchmark's tool, which no user runs, was the week's main risk."""
    benchmark = [
        FileChange("scripts/ty_benchmark/pyproject.toml", 1, 1),
        FileChange("scripts/ty_benchmark/uv.lock", 5, 5),
    ]
    assert moves("[ty] Update benchmark Pyrefly to 1.1.0", files=benchmark) == []
    assert (
        moves(
            "Update dependency mkdocs to v1.6.1", files=[FileChange("docs/requirements.txt", 1, 1)]
        )
        == []
    )
    assert moves("Update Rust crate clap to v4.5.47", files=[FileChange("Cargo.lock", 8, 8)]) == [
        ("clap", None, "4.5.47", "up")
    ]


def test_a_dependency_moved_for_its_advisories_is_no_security_sensitive_code():
    """verl #4543 lifts the Ray pin of requirements-npu.txt for Ray's advisories: it touches no code to review."""
    body = "`Ray==2.46.0` has security vulnerabilities: https://github.com/advisories/GHSA-gx77-xgc2-4888. This removes the pin."
    pull = analysed(
        "[ray] chore: Update Ray version dependency in requirements-npu.txt",
        [FileChange("requirements-npu.txt", 1, 1)],
        body=body,
    )
    assert "security" not in pull.risks
    assert (
        "security"
        in analysed(
            "feat: load plugins with pickle",
            [SRC],
            body="This adds a vulnerability surface: pickle loads.",
        ).risks
    )


def test_a_pin_back_is_no_upgrade_and_says_why():
    body = "foolib released v1.12.0 today with an apparent bug in its parser. We should pin to the previous version for now."
    (pin,) = analysed(
        "Pin foolib to 1.11.2", [FileChange("requirements.txt", 1, 1)], body=body
    ).upgrades
    assert (pin.package, pin.new, pin.move) == ("foolib", "1.11.2", "pin-back")
    assert pin.reason == "foolib released v1.12.0 today with an apparent bug in its parser."
    assert moves("[misc] chore: pin transformers under 4.53") == [
        ("transformers", None, "4.53", "cap")
    ]
    assert moves(
        'Revert "Update Rust crate clap to v4.5.35"', files=[FileChange("Cargo.lock", 9, 9)]
    ) == [("clap", "4.5.35", None, "down")]
    # a version only CI runs (an action, a runner, a CI tool) is CI's, no dependency of the project
    assert (
        moves("Pin to cargo-shear 1.11.2", files=[FileChange(".github/workflows/ci.yaml", 1, 1)])
        == []
    )
    # "Qwen3.5" is a model, no package at a version, and a Dockerfile added moves nothing it names
    assert (
        moves(
            "[ci] chore: qwen3.5 add docker file",
            files=[FileChange("docker/Dockerfile.qwen", 40, 0)],
        )
        == []
    )


@pytest.mark.realdata
def test_the_pin_back_of_cargo_shear_in_the_real_data_is_no_upgrade_to_read_the_changelog_of():
    week = real_week(
        "astral-sh/ruff", "2026-W20"
    )  # #25166 "Pin to cargo-shear 1.11.2": v1.12.0 came out broken
    pin = next(p for p in week.pulls if p.pull.number == 25166)
    assert pin.upgrades == () and "ci-change" in pin.risks
    assert not any(
        "cargo-shear" in (r.package or "") or (r.action == "lock-file" and 25166 in r.pulls)
        for r in week.recommendations
    )
    clap = next(
        p for p in real_week("astral-sh/ruff", "2025-W15").pulls if p.pull.number == 17265
    )  # Revert "Update Rust crate clap to v4.5.35"
    assert [(u.package, u.old, u.move) for u in clap.upgrades] == [("clap", "4.5.35", "down")]
    vllm = next(
        p for p in real_week("verl-project/verl", "2026-W19").pulls if p.pull.number == 6222
    )  # "bump aarch64 vllm 0.17->0.18"
    assert [(u.package, u.old, u.new, u.move) for u in vllm.upgrades] == [
        ("vllm", "0.17", "0.18", "minor")
    ]


def test_a_thing_called_the_default_is_no_changed_default():
    """ruff #23929 "Make the default database truly statically infallible" changes no default value."""
    assert (
        "config-change"
        not in analysed("[ty] Make the default database truly statically infallible").risks
    )
    assert "config-change" in analysed("Make the default backend to vllm").risks


def test_a_deprecation_that_deletes_the_code_is_a_removal():
    """verl #3885 "[model] chore: deprecated legacy code for GRM" deletes 597 lines and adds none: gone, not going."""
    files = [
        FileChange("widget/roles/reward_model.py", 0, 203, status="removed"),
        FileChange("widget/roles/engine.py", 0, 94),
    ]
    (evidence,) = [
        e
        for e in analysed("[model] chore: deprecated legacy code for GRM", files).evidence
        if e.fact == "deprecated"
    ]
    assert evidence.detail == "removes"


def test_a_deprecations_lines_are_said_to_be_of_core_code():
    """verl #6951 deprecates vanilla mBridge in 255 changed lines, most of them in 17 CI workflows:
    "(94 lines changed)" read as a wrong total; 94 is what it changed of the project's code."""
    files = [FileChange(".github/workflows/e2e.yml", 30, 10), FileChange("widget/bridge.py", 6, 3)]
    week = weeks_of(
        make_pull(1, MONDAY, "[megatron] chore: deprecate vanilla mBridge", files=files)
    )
    told = speaks("consequence.deprecates")
    for language, expected in (
        (
            "en",
            "#1 deprecates existing behaviour (9 lines of core code changed)"
            if told
            else "#1 changes 9 lines of core code.",
        ),
        ("zh", "#1 弃用了现有行为（改动 9 行核心代码）" if told else "#1 改动了 9 行核心代码"),
    ):
        risks = narrate(week["2026-W10"], [], Language.of(language)).risks
        assert next(line.sentence.text for line in risks if line.kind == "deprecation").startswith(
            expected
        )


def test_a_readme_beside_the_workflows_or_a_parked_workflow_is_no_ci_workflow():
    """verl #3849 touched .github/workflows/README.md and .github/workflows/.deprecate/e2e_prime.yml: neither runs in CI."""
    files = [
        FileChange(".github/workflows/README.md", 1, 1),
        FileChange(".github/workflows/.deprecate/e2e_prime.yml", 1, 1),
        FileChange(".github/workflows/vllm.yml", 1, 1),
        SRC,
    ]
    assert analysed("[megatron] fix: VLMs using fused kernels", files).footprint.workflows == (
        ".github/workflows/vllm.yml",
    )


def test_package_markers_are_no_untested_code():
    """verl #5209 adds nine `__init__.py` files of a licence header each: "nothing shows the new code works" would be empty."""
    markers = [
        FileChange(f"widget/{name}/__init__.py", 14, 0, status="added")
        for name in ("a", "b", "c", "d", "e", "f", "g", "h", "i")
    ]
    assert (
        "missing-tests"
        not in analysed(
            "[misc] fix: add missing __init__.py files to package directories", markers
        ).risks
    )
    assert (
        "missing-tests"
        in analysed(
            "feat: a new engine", [FileChange("widget/engine.py", 120, 0, status="added")]
        ).risks
    )
    # verl #1830's entropy_math/__init__.py holds 1,051 lines of code: no marker
    assert (
        "missing-tests"
        in analysed(
            "feat: a grader", [FileChange("widget/grader/__init__.py", 1051, 0, status="added")]
        ).risks
    )


# -- reverts ----------------------------------------------------------------------------------


def weeks_of(*pulls):
    return {
        w.week: w
        for w in analyse_repo(
            "acme/widget", list(pulls), None, analysis_options(DigestSettings()), NOW
        )
    }


def revert_evidence(week, number):
    return next(e for r in week.risks if r.kind == "revert" for e in r.evidence if e.pull == number)


def test_a_revert_replaced_the_same_day_asks_for_nothing_more():
    original = make_pull(1, MONDAY, "feat: fold block headers", files=[SRC, TEST])
    revert = make_pull(
        2,
        MONDAY + timedelta(days=1),
        'Revert "feat: fold block headers"',
        files=[SRC, TEST],
        body="This reverts #1, which broke folding in several clients. I will follow up with #3.",
    )
    replacement = make_pull(
        3, MONDAY + timedelta(days=1, hours=1), "feat: fold whole blocks", files=[SRC, TEST]
    )
    week = weeks_of(original, revert, replacement)["2026-W10"]
    evidence = revert_evidence(week, 2)
    assert (evidence.outcome, evidence.by) == ("replaced", 3)
    assert next(r for r in week.risks if r.kind == "revert").impact == "low"
    assert not [r for r in week.recommendations if r.action == "re-land-or-drop"]
    text = next(
        line.sentence.text
        for line in narrate(week, [], Language.of("en")).risks
        if line.kind == "revert"
    )
    then = (
        "replaced it" if speaks("revert.replaced") else "re-landed or replaced it"
    )  # the two are told apart less reliably
    assert text == f"#2 reverts #1, merged this same week; #3 {then} the same week."
    relanded = make_pull(
        3, MONDAY + timedelta(days=9), "feat: fold block headers", files=[SRC, TEST]
    )  # the same title, the next week
    assert (
        revert_evidence(weeks_of(original, revert, relanded)["2026-W10"], 2).outcome == "relanded"
    )


def test_a_revert_of_an_accidental_edit_needs_nothing_and_one_of_a_script_is_no_risk():
    accidental = make_pull(
        2,
        MONDAY,
        "Revert accidental release preview change",
        files=[FileChange("widget/release.py", 1, 1)],
        body="This was an accidental change for testing in #1.",
    )
    script = make_pull(
        3,
        MONDAY,
        "[misc] fix: revert run_qwen3_8b_fsdp_npu.sh",
        files=[FileChange("examples/run_qwen3_8b_fsdp_npu.sh", 10, 30)],
    )
    week = weeks_of(accidental, script)["2026-W10"]
    revert = next(r for r in week.risks if r.kind == "revert")
    assert revert_evidence(week, 2).outcome == "accidental" and revert.pulls == (2,)
    assert revert.impact == "low"
    assert week.recommendations == ()


def test_a_revert_nothing_followed_is_said_so_and_calls_for_a_decision():
    original = make_pull(1, MONDAY, "feat: async weight sync", files=[SRC, TEST])
    revert = make_pull(
        2,
        MONDAY + timedelta(days=1),
        'Revert "feat: async weight sync"',
        files=[SRC, TEST],
        body="It broke the nightly run.",
    )
    later = [
        make_pull(
            n,
            MONDAY + timedelta(weeks=n - 2),
            f"fix: unrelated {n}",
            files=[FileChange(f"widget/other{n}.py", 3, 1)],
        )
        for n in range(3, 9)
    ]
    week = weeks_of(original, revert, *later)["2026-W10"]
    assert (
        revert_evidence(week, 2).outcome == "none"
        and revert_evidence(week, 2).reason == "It broke the nightly run."
    )
    (decide,) = [r for r in week.recommendations if r.action == "re-land-or-drop"]
    assert decide.pulls == (2,) and decide.detail == "feat: async weight sync"
    assert (
        revert_evidence(weeks_of(original, revert)["2026-W10"], 2).outcome == "pending"
    )  # the store ends before four weeks are up


@pytest.mark.realdata
def test_the_folding_revert_replaced_the_same_day_in_the_real_data():
    week = real_week("astral-sh/ruff", "2026-W20")
    folding = revert_evidence(
        week, 25118
    )  # Revert "[ty] Emit folding ranges ...": #25113 replaced it 26 minutes later
    assert (folding.outcome, folding.by) == ("replaced", 25113)
    (reverts,) = [r for r in week.risks if r.kind == "revert"]
    assert 25159 not in reverts.pulls  # "Revert accidental release preview change": a script
    assert not [r for r in week.recommendations if r.risk == "revert"]
    relanded = revert_evidence(
        real_week("verl-project/verl", "2025-W43"), 3820
    )  # #3828 re-did it the same day, "a safer fix"
    assert relanded.outcome in ("relanded", "replaced") and relanded.by == 3828
    # #4258 reverts "support resource pool split method"; #4273 "support resource_pool split" brought it back the next day
    split = revert_evidence(real_week("verl-project/verl", "2025-W48"), 4258)
    assert split.outcome in ("relanded", "replaced") and split.by == 4273


def test_a_title_that_names_the_subject_as_an_identifier_is_on_the_same_subject():
    original = make_pull(
        1, MONDAY, "[single_controller] feat: support resource pool split method", files=[SRC, TEST]
    )
    revert = make_pull(
        2,
        MONDAY + timedelta(days=1),
        'Revert "[single_controller] feat: support resource pool split method"',
        files=[SRC, TEST],
    )
    again = make_pull(
        3,
        MONDAY + timedelta(days=2),
        "[single_controller] feat: support resource_pool split",
        files=[SRC, TEST],
    )
    assert revert_evidence(weeks_of(original, revert, again)["2026-W10"], 2).by == 3


# -- draft-time remarks and the main risk -----------------------------------------------------


@pytest.mark.realdata
def test_draft_time_remarks_are_not_the_merged_state():
    body = (
        "## Summary\n\nAdds the `too-many-try-statements` rule. At the time of opening, this compiles locally, "
        "but it's missing tests and docs.\n"
    )
    pull = analysed(
        "Implement `too-many-try-statements` (`W0717`)",
        [SRC, FileChange("widget/snapshots/w0717.snap", 40, 0)],
        body=body,
    )
    assert (
        pull.summary == "Adds the too-many-try-statements rule."
        and "missing-tests" not in pull.risks
    )
    real = next(
        p for p in real_week("astral-sh/ruff", "2026-W20").pulls if p.pull.number == 23970
    )  # merged with fixtures and snapshots
    assert "missing tests" not in real.summary and "missing-tests" not in real.risks


@pytest.mark.realdata
def test_an_example_script_is_never_the_main_risk():
    script = make_pull(
        2,
        MONDAY,
        "[misc] fix: revert run_qwen3_8b_fsdp_npu.sh",
        files=[FileChange("examples/run_qwen3_8b_fsdp_npu.sh", 10, 30)],
    )
    default = make_pull(
        3,
        MONDAY,
        "[rollout] feat: change the default of max_num_seqs to 256",
        files=[FileChange("widget/rollout.py", 2, 2), TEST],
    )
    week = weeks_of(script, default)["2026-W10"]
    # the default its title states is (consequence.stated); the script never is
    assert main_risk(week.risks) is not None and main_risk(week.risks).evidence[0].pull == 3
    assert main_risk(weeks_of(script)["2026-W10"].risks) is None
    real = real_week("verl-project/verl", "2026-W23")  # #6601 restores one example shell script
    assert 6601 not in (main_risk(real.risks).pulls if main_risk(real.risks) else ())
    summary = narrate(real, [], Language.of("en")).summary.text
    assert "#6601" not in summary.partition("The main risk")[2]


# -- recommendations --------------------------------------------------------------------------


def test_recommendations_come_from_findings_and_name_their_object():
    silent = make_pull(
        2,
        MONDAY,
        "[BREAKING][trainer] feat: a new config layout",
        files=[SRC, TEST],
        body="Reorganises the trainer.",
    )
    noted = make_pull(
        3,
        MONDAY,
        "[BREAKING][worker] feat: new pools",
        files=[SRC, TEST, FileChange("docs/upgrade.md", 20, 0)],
    )
    week = weeks_of(silent, noted)["2026-W10"]
    assert [(r.action, r.pulls) for r in week.recommendations] == [("migration-notes", (2,))]
    assert (
        weeks_of(make_pull(4, MONDAY, "feat: a parser", files=[SRC, TEST]))[
            "2026-W10"
        ].recommendations
        == ()
    )
    # a runtime dependency raised in a manifest whose lock file the PR leaves as it was
    lock = make_pull(
        5,
        MONDAY - timedelta(weeks=2),
        "chore: lock",
        files=[FileChange("uv.lock", 300, 0, "added"), FileChange("pyproject.toml", 5, 0)],
    )
    raised = make_pull(
        6, MONDAY, "chore: bump httpx to 0.28.1", files=[FileChange("pyproject.toml", 1, 1)]
    )
    updates = [
        r for r in weeks_of(lock, raised)["2026-W10"].recommendations if r.action == "lock-file"
    ]
    if not (speaks("version.package") and speaks("version.direction")):
        assert (
            updates == []
        )  # the package and its move are not told reliably: nothing to recommend by name
        return
    (update,) = updates
    assert (update.path, update.detail, update.package, update.new) == (
        "pyproject.toml",
        "uv.lock",
        "httpx",
        "0.28.1",
    )


def test_a_new_file_many_prs_change_without_tests_calls_for_tests():
    added = make_pull(
        1,
        MONDAY - timedelta(weeks=3),
        "feat: a scheduler",
        files=[FileChange("widget/scheduler.py", 300, 0, "added")],
    )
    busy = [
        make_pull(
            n,
            MONDAY + timedelta(hours=n),
            f"fix: scheduler {n}",
            files=[FileChange("widget/scheduler.py", 5, 2)],
        )
        for n in (2, 3, 4)
    ]
    (tests,) = [
        r for r in weeks_of(added, *busy)["2026-W10"].recommendations if r.action == "add-tests"
    ]
    assert tests.path == "widget/scheduler.py" and tests.pulls == (2, 3, 4)
    tested = [
        make_pull(
            n,
            MONDAY + timedelta(hours=n),
            f"fix: scheduler {n}",
            files=[FileChange("widget/scheduler.py", 5, 2), TEST],
        )
        for n in (2, 3, 4)
    ]
    assert not [
        r for r in weeks_of(added, *tested)["2026-W10"].recommendations if r.action == "add-tests"
    ]


@pytest.mark.realdata
def test_no_recommendation_of_the_real_data_is_a_stock_phrase():
    stock = (
        "an owner",
        "Watch the next CI runs",
        "changelog",
        "integration tests",
        "Land a fixed version",
    )
    for repo in ("verl-project/verl", "astral-sh/ruff"):
        weeks = real_weeks(repo)
        for index, week in enumerate(weeks):
            if not week.recommendations:
                continue
            for text in (
                r.text
                for r in narrate(
                    week, weeks[max(0, index - 1) : index], Language.of("en")
                ).recommendations
            ):
                assert not any(phrase in text for phrase in stock), (repo, week.week, text)


def test_a_revert_relanded_after_an_earlier_build_is_said_so_by_the_next_builds_narrative():
    """The week of a revert is remembered by a build that saw nothing after it; the next build's
    store holds the re-landing: the week's inputs are the same, what it looked up is not, so its
    analysis and its remembered narrative are made again and say what happened."""
    original = make_pull(1, MONDAY, "feat: fold block headers", files=[SRC, TEST])
    revert = make_pull(
        2,
        MONDAY + timedelta(days=1),
        'Revert "feat: fold block headers"',
        files=[SRC, TEST],
        body="It broke folding.",
    )
    relanded = make_pull(
        3, MONDAY + timedelta(days=9), "feat: fold block headers", files=[SRC, TEST]
    )
    options, english = analysis_options(DigestSettings()), Language.of("en")

    def build(memo, *pulls):
        weeks = analysed_weeks("acme/widget", list(pulls), None, options, NOW, Stages(memo))
        return {
            w.value.week: memo.made(
                ("narrative", w), lambda w=w: narrate(w.value, [], english)
            ).value
            for w in weeks
        }

    first = Memo("salt")
    said = build(first, original, revert)["2026-W10"]
    then = build(Memo("salt", first.kept()), original, revert, relanded)["2026-W10"]
    fresh = narrate(weeks_of(original, revert, relanded)["2026-W10"], [], english)
    assert then == fresh and then != said
    assert "re-landed" in next(line.sentence.text for line in then.risks if line.kind == "revert")


def test_the_main_risk_is_what_a_change_does_to_users_never_a_test_requirement_or_untested_code():
    """pelican 2024-W37's main risk was #3386 upgrading Pygments in the test requirements; verl
    2025-W50's was #4415's untested lines, beside its own end-to-end CI job."""
    tests_pin = make_pull(
        1, MONDAY, "Upgrade Pygments to 2.18.0", files=[FileChange("requirements/test.pip", 1, 1)]
    )
    untested = make_pull(
        2,
        MONDAY,
        "feat: a new engine",
        files=[FileChange("widget/engine.py", 900, 0, status="added")],
    )
    breaking = make_pull(
        3, MONDAY, "feat!: drop the v1 reader", files=[FileChange("widget/reader.py", 3, 40), TEST]
    )
    assert main_risk(weeks_of(tests_pin, untested)["2026-W10"].risks) is None
    week = weeks_of(tests_pin, untested, breaking)["2026-W10"]
    assert main_risk(week.risks).evidence[0].pull == 3
    summary = narrate(week, [], Language.of("en")).summary.text
    assert (
        "The main risk: #3 removes the v1 reader" in summary
    )  # what its title says it breaks, before its marker
    assert (
        "The main risk"
        not in narrate(
            weeks_of(tests_pin, untested)["2026-W10"], [], Language.of("en")
        ).summary.text
    )


@pytest.mark.realdata
def test_pelicans_pygments_upgrade_in_the_test_requirements_is_not_the_main_risk():
    week = real_week("getpelican/pelican", "2024-W37")
    main = main_risk(week.risks)
    assert main is None or 3386 not in main.pulls
    assert (
        "#3386"
        not in narrate(week, [], Language.of("en")).summary.text.partition("The main risk")[2]
    )


def test_a_breaking_marker_on_docs_or_ci_alone_is_no_breaking_change():
    """verl #1160 "[BREAKING] rewrite the multi-node guide" (an upstream Ray change) and #2126 (a CI
    channel and the PR template): nothing users run changes, so neither is the week's main risk."""
    docs = make_pull(
        1,
        MONDAY,
        "[BREAKING][doc] rewrite the multi-node guide",
        files=[FileChange("docs/multinode.rst", 80, 60)],
    )
    ci = make_pull(
        2,
        MONDAY,
        "[BREAKING][ci] a request channel",
        files=[
            FileChange(".github/PULL_REQUEST_TEMPLATE.md", 5, 1),
            FileChange(".github/workflows/request.yml", 20, 0),
        ],
    )
    code = make_pull(3, MONDAY, "[BREAKING][trainer] feat: a new config layout", files=[SRC, TEST])
    # a recipe is run (verl #4427, "[BREAKING][recipe, ckpt] feat: support parameter sync")
    recipe = make_pull(
        4,
        MONDAY,
        "[BREAKING][recipe] feat: parameter sync",
        files=[FileChange("recipe/fully_async_policy/checkpoint_engine.py", 522, 0)],
    )
    week = weeks_of(docs, ci, code, recipe)["2026-W10"]
    assert [set(r.pulls) for r in week.risks if r.kind == "breaking-change"] == [{3, 4}]
    assert main_risk(week.risks).evidence[0].pull == 3
    assert main_risk(weeks_of(docs, ci)["2026-W10"].risks) is None
