"""Each risk kind fires where it should, and not where it should not, on hand-made records."""

from __future__ import annotations

from datetime import UTC, datetime

from digest_plugin.analysis import analyse_pull, analyse_week, repo_context
from digest_plugin.analysis.claims import speaks
from digest_plugin.analysis.model import GOOD_NEWS_KINDS, RISK_KINDS
from digest_plugin.analysis.risks import IMPACT_RULES, PULL_CHECKS, hotspots
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import Author, FileChange
from digest_plugin.settings import DigestSettings
from digest_plugin.weeks import Week
from tests.analysis_fixtures import load_rules
from tests.conftest import make_pull

RULES = load_rules(repo="acme/widget")
WHEN = "2026-05-19T10:00:00Z"
NOW = datetime(2026, 11, 30, tzinfo=UTC)
SRC = FileChange("widget/engine.py", 60, 20)
TEST = FileChange("tests/test_engine.py", 30, 0)


def analysed(title="feat: a change", files=(SRC, TEST), **fields):
    pull = make_pull(100, WHEN, title, files=list(files), **fields)
    return analyse_pull(
        pull, repo_context("acme/widget", [pull], analysis_options(DigestSettings()))
    )


def kinds(title="feat: a change", files=(SRC, TEST), **fields):
    return analysed(title, files, **fields).risks


def good_news(title="feat: a change", files=(SRC, TEST), **fields):
    return {e.kind for e in analysed(title, files, **fields).evidence if e.kind in GOOD_NEWS_KINDS}


def large_change_facts(title, files) -> dict:
    """The large-change evidence of a PR, by its fact."""
    return {e.fact: e for e in analysed(title, files=files).evidence if e.kind == "large-change"}


def test_every_kind_has_a_check_and_an_impact_rule():
    assert set(PULL_CHECKS) | {"hotspot"} == set(RISK_KINDS) | set(GOOD_NEWS_KINDS)
    assert set(IMPACT_RULES) == set(RISK_KINDS) | set(GOOD_NEWS_KINDS)


def test_missing_tests():
    # the lines test files gained, less those they lost, tell tests written from tests trimmed
    trimmed = FileChange("tests/test_engine.py", 1, 4)
    assert analysed(files=[SRC, TEST, trimmed]).footprint.test_lines_gained == 27
    assert analysed(files=[SRC, trimmed]).footprint.test_lines_gained == -3
    # an end-to-end job's new trigger is no test written (verl #1157, "enable push tests")
    # Rust beside it may hold its tests, which a file list cannot see (ruff #25998)
    rust = FileChange("crates/widget/src/parsed.rs", 331, 34)
    assert "missing-tests" not in kinds(files=[FileChange("widget/generate.py", 89, 0), rust])
    e2e = FileChange(".github/workflows/e2e_sft.yml", 19, 1)
    assert analysed(files=[SRC, trimmed, e2e]).footprint.test_lines_gained == -3
    assert "missing-tests" in kinds(files=[SRC])
    assert "missing-tests" not in kinds(files=[SRC, TEST])
    assert "missing-tests" not in kinds(files=[FileChange("widget/engine.py", 3, 1)])  # a one-liner
    assert "missing-tests" not in kinds("docs: reword", files=[FileChange("docs/guide.md", 80, 10)])
    assert "missing-tests" not in kinds(
        files=[SRC], files_truncated=True
    )  # tests may be among the dropped files
    # verl #3138 (+31 −53, "remove unused padding") added no code that nothing shows to work
    assert "missing-tests" not in kinds(files=[FileChange("widget/engine.py", 31, 53)])
    assert "missing-tests" not in kinds(files=[FileChange("widget/engine.py", 146, 146)])
    # nor a PR that removes two thirds as much as it adds: a rewrite (verl #1248, +27 −24)
    assert "missing-tests" not in kinds(files=[FileChange("widget/engine.py", 27, 24)])
    assert "missing-tests" not in kinds(files=[FileChange("widget/engine.py", 60, 40)])
    assert "missing-tests" in kinds(files=[FileChange("widget/engine.py", 60, 30)])


def test_breaking_change():
    assert "breaking-change" in kinds("[BREAKING][trainer] feat: new config layout")
    assert "breaking-change" in kinds("feat(api)!: drop the v1 endpoints")
    assert "breaking-change" in kinds("feat: drop v1", body="BREAKING CHANGE: v1 is gone")
    assert "breaking-change" not in kinds("feat: not breaking anything")


def test_dependency_upgrade():
    assert "dependency-upgrade" in kinds(
        "Update Rust crate clap to v4.5.35", files=[FileChange("Cargo.lock", 8, 8)]
    )
    assert "dependency-upgrade" in kinds(
        "[docker] chore: update vllm 0.20.2 image",
        files=[FileChange("docker/Dockerfile.vllm", 5, 5)],
    )
    assert "dependency-upgrade" in kinds(
        "Update MSRV to 1.90",
        files=[FileChange("rust-toolchain.toml", 1, 1), FileChange("Cargo.toml", 1, 1)],
    )
    assert "dependency-upgrade" not in kinds("feat: add a parser")
    # one name and no version (ruff #16794, #17179)
    lock = [FileChange("Cargo.lock", 3, 3), FileChange("Cargo.toml", 1, 1)]
    assert "dependency-upgrade" in kinds("[internal]: Upgrade salsa", files=lock)
    assert "dependency-upgrade" in kinds("update to latest Salsa with a caching fix", files=lock)
    assert "dependency-upgrade" in kinds("[ty] Update salsa to fix query validation", files=lock)
    # a removal that also adjusts the requirements removes (pelican #840)
    assert "dependency-upgrade" not in kinds(
        "remove plugins, update docs and adjust dependencies",
        files=[FileChange("widget/plugins/sitemap.py", 0, 300), FileChange("setup.py", 1, 1)],
    )
    assert "dependency-upgrade" not in kinds(
        "Bump 0.11.11", files=[FileChange("pyproject.toml", 1, 1)]
    )  # the project's own release


def test_security_fixes_are_good_news_and_other_security_changes_a_risk():
    assert good_news("fix: sanitize archive paths") == {"security-fix"}
    assert good_news(
        "fix: loader", body="Avoids arbitrary code execution: the loader called eval(user_input)."
    ) == {"security-fix"}
    assert good_news("fix: bump jinja2 for CVE-2024-22195") == {"security-fix"}
    assert good_news("fix: loader", labels=("security",)) == {"security-fix"}
    for title in ("fix: sanitize archive paths", "fix: bump jinja2 for CVE-2024-22195"):
        assert "security" not in kinds(title)
    assert "security" in kinds(
        "feat: run user plugins with shell=True", body="Plugins now run through a shell."
    )
    assert "security" not in kinds("feat: add an eval script for GSM8K")  # ML "eval" is evaluation
    # names made valid for a metrics service are no security (verl #3736), nor a traceback cleaned
    assert good_news("fix: Sanitize MLFlow metric names") == set()
    assert (
        good_news("fix: guard profiling", body="Sanitized traceback from the failed run.") == set()
    )
    advisory = [
        e
        for e in analysed("fix: bump jinja2 for CVE-2024-22195").evidence
        if e.kind == "security-fix"
    ]
    assert advisory[0].detail == "CVE-2024-22195"
    # ruff #23894 fixed a shell injection in its own dev scripts: nothing a user runs changed
    scripts = [FileChange("scripts/setup_primer_project.py", 10, 4)]
    assert good_news("fix: avoid shell injection when cloning", files=scripts) == set()
    [injection] = [
        e
        for e in analysed("fix: avoid shell injection when cloning").evidence
        if e.kind == "security-fix"
    ]
    assert injection.detail == "shell injection"  # the PR's own words, before a topic's name


def test_revert():
    assert "revert" in kinds('Revert "feat: async rollout (#41)"')
    assert "revert" in kinds("[megatron] fix: revert megatron actor refactor")
    assert "revert" not in kinds("fix: restore the reverted-by-mistake docs link")
    # a return to an old behaviour reverts no PR (ruff #20878)
    assert "revert" not in kinds(
        "[`pyflakes`] Revert to stable behavior if imports lie in branches"
    )
    # one of the ecosystem check's script is no user's risk (ruff #26044)
    script = FileChange("python/widget-ecosystem/widget_ecosystem/check.py", 0, 32)
    assert "revert" not in kinds("Revert rule name normalization changes", files=[script])


def test_deprecation():
    assert "deprecation" in kinds("[trainer] feat: deprecate main_ppo.py")
    assert "deprecation" not in kinds("feat: add main_ppo_sync.py")


def test_a_scripts_own_lock_file_is_tooling_not_what_the_project_runs_on():
    # ruff #24533 updated the lock file of its Markdown test runner's script (uv's `mdtest.py.lock`)
    # and led the week's risks as a Medium dependency upgrade
    script_lock = [FileChange("crates/widget/mdtest.py.lock", 30, 30)]
    assert "dependency-upgrade" not in kinds("mdtest.py: upgrade watchfiles to 1.1.0", script_lock)
    project_lock = [FileChange("uv.lock", 30, 30)]
    assert "dependency-upgrade" in kinds("upgrade watchfiles to 1.1.0", project_lock)
    # ruff #17993 edited its ecosystem check's defaults.py: no default of ruff's changed
    ecosystem = [FileChange("python/ruff-ecosystem/ruff_ecosystem/defaults.py", 7, 1)]
    assert "config-change" not in kinds("Exclude broken symlinks from ecosystem check", ecosystem)


def test_large_change():
    big = FileChange("widget/engine.py", 900, 300)
    assert "large-change" in kinds(files=[big, TEST])
    assert "large-change" in kinds(files=[FileChange(f"widget/m{i}.py", 6, 0) for i in range(45)])
    # many files by a few lines each is a sweep (ruff #16364 normalised 43 docstrings, +43 −43)
    assert "large-change" not in kinds(
        files=[FileChange(f"widget/m{i}.py", 1, 1) for i in range(43)]
    )
    assert "large-change" not in kinds(
        files=[FileChange("docs/guide.md", 5000, 0)]
    )  # docs are not core
    assert "large-change" not in kinds(
        "Update deps", files=[FileChange("uv.lock", 3000, 2000)]
    )  # lock files are generated
    # Dockerfiles pin what the project runs on, they are not its code (verl #4037 moved 14 of
    # them, 2,578 lines, and was said to change "2,600 lines of core code")
    images = [
        *(FileChange(f"docker/rocm/Dockerfile.{i}", 100, 90) for i in range(14)),
        FileChange("widget/engine.py", 15, 5),
    ]
    assert "large-change" not in kinds("ci: move the Dockerfiles", files=images)
    # a rename is reviewed as a rename, whatever its size (ruff #21680); a rewrite of the same size is not
    renamed = [
        FileChange("widget/find_references.py", 1659, 0, "added"),
        FileChange("widget/goto_references.py", 0, 1659, "removed"),
    ]
    assert "large-change" not in kinds(
        "Rename `ReferenceRequestHandler` file", files=renamed, additions=1659, deletions=1659
    )
    # so is code extracted into a module or crate of its own (ruff #22622, +2,526 −2,601)
    assert "large-change" not in kinds(
        "[ty] Extract `ty_site_packages` crate", files=renamed, additions=1659, deletions=1659
    )
    assert "large-change" in kinds(
        "feat: rewrite the reader", files=[big, TEST], additions=930, deletions=300
    )
    # files moved whole, whatever the title (ruff #26122: formats/rst.rs as document/rst.rs)
    moved_whole = [
        FileChange("crates/ty_ide/src/formats/rst.rs", 0, 1069),
        FileChange("crates/ty_ide/src/document/rst.rs", 1069, 0),
        FileChange("crates/ty_ide/src/lib.rs", 12, 9),
    ]
    assert "large-change" not in kinds("[ty] Reorganize docstring parsing", files=moved_whole)
    # flattened import paths (ruff #15616), or a move the body's opening says (ruff #23681)
    assert "large-change" not in kinds(
        "Flatten `widget` import paths", files=renamed, additions=1659, deletions=1659
    )
    assert "large-change" not in kinds(
        "[ty] Introduce `types::bool`",
        files=renamed,
        additions=1659,
        deletions=1659,
        body="## Summary\n\nAnd move relevant methods to those submodules",
    )
    # a sweep of lint fixes is mechanical (verl #1280, 2,752 lines); a formatter's new style is not
    swept = [FileChange(f"widget/m{i}.py", 30, 80) for i in range(30)]
    assert "large-change" not in kinds("[Lint] fix: linting errors in all files", files=swept)
    assert "large-change" in kinds("Ruff 2025 style guide", files=swept)
    # a formatter run by its name (ruff #27630, "Enable rustfmt on more files", 103 files)
    assert "large-change" not in kinds("Enable rustfmt on more files", files=swept)
    # a release's version strings and changelog (ruff #26884, 85 files)
    release = [FileChange(f"crates/c{i}/Cargo.toml", 4, 4) for i in range(45)]
    assert "large-change" not in kinds("Bump 0.15.2", files=release)
    assert "large-change" in kinds("Bump everything", files=release)
    # a generated.rs in any folder is generated (ruff #15544's 8,790 lines of it)
    generator = [
        FileChange("crates/ast/src/generated.rs", 8790, 0),
        FileChange("crates/ast/generate.py", 300, 0),
        TEST,
    ]
    assert "large-change" not in kinds("Auto-generate AST boilerplate", files=generator)


def test_config_change():
    assert "config-change" in kinds(files=[FileChange("widget/config/defaults.yaml", 2, 2), TEST])
    assert "config-change" in kinds("[rollout] feat: change the default of max_num_seqs to 256")
    assert "config-change" in kinds("feat: enable caching by default")
    # only new keys: edited too, and said so (verl #177), a low risk
    only_added = analysed(files=[FileChange("widget/config/defaults.yaml", 12, 0), TEST])
    assert [e.detail for e in only_added.evidence if e.kind == "config-change"] == ["adds"]
    assert "config-change" not in kinds("feat: add a parser")


def test_ci_change():
    assert "ci-change" in kinds(
        "ci: cache wheels", files=[FileChange(".github/workflows/ci.yml", 3, 1)]
    )
    assert "ci-change" not in kinds()


def test_hotspot_is_a_source_file_changed_by_three_prs_of_the_week():
    pulls = [
        make_pull(
            n,
            WHEN,
            f"fix: engine {n}",
            files=[FileChange("widget/engine.py", 3, 1), FileChange("README.md", 1, 1)],
        )
        for n in (1, 2, 3)
    ]
    assert hotspots(pulls, RULES) == {"widget/engine.py": (1, 2, 3)}  # README.md is no source file
    assert hotspots(pulls[:2], RULES) == {}


def test_week_risks_name_their_prs_and_reverted_titles():
    settings = analysis_options(DigestSettings())
    original = make_pull(41, "2026-05-12T10:00:00Z", "feat: async rollout", files=[SRC, TEST])
    revert = make_pull(50, WHEN, 'Revert "feat: async rollout"', files=[SRC, TEST])
    breaking = make_pull(51, WHEN, "feat!: new layout", files=[SRC, TEST])
    hot = [make_pull(n, WHEN, f"fix: engine {n}", files=[SRC, TEST]) for n in (52, 53)]
    context = repo_context("acme/widget", [original, revert, breaking, *hot], settings)
    analysed = [analyse_pull(p, context) for p in (revert, breaking, *hot)]
    week = analyse_week(Week(2026, 21), analysed, context, None, NOW)
    risks = {r.kind: r for r in week.risks}
    assert risks["revert"].pulls == (50,)
    assert [(e.fact, e.pull, e.pulls) for e in risks["revert"].evidence] == [
        ("reverted", 50, (41,))
    ]
    assert risks["breaking-change"].pulls == (51,) and risks["breaking-change"].impact == "high"
    assert risks["hotspot"].pulls == (50, 51, 52, 53) and risks["hotspot"].paths == (
        "widget/engine.py",
    )
    assert week.risks[0].impact == "high"
    for pull in week.pulls:  # every PR carries the kinds it shows
        assert all(pull.pull.number in risks[kind].pulls for kind in pull.risks)


def test_missing_tests_does_not_depend_on_the_title_type_word():
    refactor = [FileChange(f"widget/part{i}.py", 120, 60) for i in range(6)]
    assert "missing-tests" in kinds("chore: reorganise the engine", files=refactor)
    assert "missing-tests" in kinds("Reorganise the engine", files=refactor)
    evidence = next(
        e
        for e in analysed("chore: reorganise the engine", files=refactor).evidence
        if e.kind == "missing-tests"
    )
    assert (evidence.fact, evidence.lines, evidence.files) == ("untested-code", 720, 6)


def test_tests_as_projects_write_them_count_as_tests():
    src = FileChange("crates/ruff_linter/src/rules/b008.rs", 80, 5)
    for test in (
        "crates/ruff_linter/src/rules/snapshots/b008.snap",
        "crates/ty_python_semantic/resources/mdtest/narrow.md",
        "crates/ruff_linter/resources/test/fixtures/b008.py",
        "pkg/parser_test.go",
        "tests/test_parser.py",
        "widget/__tests__/engine.spec.ts",
        "crates/ruff/tests/cli.rs",
    ):
        assert "missing-tests" not in kinds("feat: a rule", files=[src, FileChange(test, 10, 0)]), (
            test
        )


def test_code_moved_between_files_is_no_untested_code():
    # verl #4187 renamed sglang_router.py (+74 −74), said as 74 lines of untested source code
    title = "fix: Rename router.py to avoid circular imports"
    renamed = [
        FileChange("widget/router/inner_router.py", 73, 0),
        FileChange("widget/router/router.py", 0, 73),
        FileChange("widget/reward.py", 1, 1),
    ]
    assert "missing-tests" not in kinds(title, files=renamed)
    shrunk = [*renamed[:1], FileChange("widget/router/router.py", 0, 20), renamed[2]]
    assert "missing-tests" in kinds(title, files=shrunk)
    # pelican #2629 moved the deprecated settings' handling into settings.py (+61 −61)
    moved = [FileChange("widget/settings.py", 61, 0), FileChange("widget/__init__.py", 0, 61)]
    assert "missing-tests" not in kinds(
        "Place all deprecated settings handling together", files=moved
    )
    # verl #599 took metric utils out of the trainer (−152, +8) into a file of their own (+168)
    split = [FileChange("widget/metric_utils.py", 168, 0), FileChange("widget/trainer.py", 8, 152)]
    assert "missing-tests" not in kinds("misc: separate metric utils from the trainer", files=split)
    # verl #2782 split vllm_utils.py (−203) into a package of three files (+242)
    package = [
        FileChange("widget/vllm/__init__.py", 26, 0),
        FileChange("widget/vllm/patch.py", 94, 0),
        FileChange("widget/vllm/utils.py", 122, 0),
        FileChange("widget/vllm_utils.py", 0, 203),
    ]
    assert "missing-tests" not in kinds("fix: running on vllm-ascend 0.9.1 failed", files=package)


def test_source_holding_its_own_tests_is_test_code_where_the_title_says_so():
    # ruff #21915, "Reduce size of ty-ide snapshots": 4,149 lines of .rs files were said to be core code
    snapshots = [FileChange(f"crates/ty_ide/src/{name}.rs", 400, 700) for name in "abcde"]
    assert "size" in large_change_facts("[ty] Go to definition for imports", files=snapshots)
    assert "size" not in large_change_facts("Reduce size of ty-ide snapshots", files=snapshots)


def test_large_change_cites_removed_files_and_their_size():
    files = [
        FileChange("widget/legacy/old.py", 0, 900, "removed"),
        FileChange("widget/legacy/older.py", 0, 400, "removed"),
        FileChange("widget/new.py", 50, 0),
        TEST,
    ]
    facts = large_change_facts("refactor: drop the legacy engine", files=files)
    assert facts["files-removed"].paths == ("widget/legacy/old.py", "widget/legacy/older.py")
    assert (facts["files-removed"].files, facts["files-removed"].lines) == (2, 1300)
    assert facts["size"].lines == 1350 and facts["size"].detail is None
    # lines only taken out are removed, not changed (verl #6445, +0 −1,618)
    gone = [FileChange("widget/legacy/old.py", 0, 1300, "removed"), TEST]
    assert large_change_facts("drop the legacy engine", files=gone)["size"].detail == "removes"
    # ruff #17553 split a 481-line test fixture in two dozen and removed its snapshot: no user imports either
    split = [
        FileChange("widget/rules/air302.rs", 700, 600),
        FileChange("widget/rules/air303.rs", 500, 400),
        FileChange("tests/fixtures/AIR302.py", 0, 481, "removed"),
        FileChange("tests/snapshots/AIR302.snap", 0, 1646, "removed"),
    ]
    facts = large_change_facts("[`airflow`] Apply auto fixes (`AIR302`)", files=split)
    assert "size" in facts and "files-removed" not in facts


def test_a_file_moved_is_not_a_file_removed():
    # ruff #17950 moved options_base.rs (434 lines) into a new crate's lib.rs (440)
    moved = [
        FileChange("crates/ruff_workspace/src/options_base.rs", 0, 434, "removed"),
        FileChange("crates/ruff_options_metadata/src/lib.rs", 440, 0, "added"),
        FileChange("crates/ruff_workspace/src/legacy.rs", 0, 1300, "removed"),
        FileChange("crates/ruff_linter/src/rules/mod.rs", 0, 120, "removed"),
        FileChange("crates/ruff_linter/src/rules/pylint/mod.rs", 125, 0, "added"),  # moved too
        # too small to tell by its size
        FileChange("crates/ruff_workspace/src/small.rs", 0, 20, "removed"),
        FileChange("crates/ruff_workspace/src/tiny.rs", 21, 0, "added"),
    ]
    facts = large_change_facts("Document configuration schema", files=moved)
    assert facts["files-removed"].paths == (
        "crates/ruff_workspace/src/legacy.rs",
        "crates/ruff_workspace/src/small.rs",
    )
    assert (facts["files-removed"].files, facts["files-removed"].lines) == (2, 1320)
    # ruff #15616 flattened a crate's modules (+1,872 −1,885): project.rs went into other files
    flattened = [
        FileChange("crates/red_knot_project/src/project.rs", 0, 460, "removed"),
        FileChange("crates/red_knot_project/src/project/package_name.rs", 0, 140, "removed"),
        FileChange("crates/red_knot_project/src/lib.rs", 330, 5),
        FileChange("crates/red_knot_project/src/metadata.rs", 280, 0, "added"),
    ]
    facts = large_change_facts("Flatten `red_knot_project` import paths", files=flattened)
    assert facts == {}  # a move, reviewed as one: no large change either (hand check 20)


def test_dependency_files_edited_without_a_version_named_are_in_the_row_by_their_files():
    """ruff #21038, "Fix rare multithreaded related hang", took a new Salsa: Cargo.toml and
    fuzz/Cargo.toml +1 -1 each and Cargo.lock; verl #6374 bumped an image in docker/. The
    dependency row lists them by their files, after the upgrades titles name, and they are no
    medium risk by themselves. The project's own release, which sets its version, is not."""
    pin = [FileChange("Cargo.toml", 1, 1), FileChange("fuzz/Cargo.toml", 1, 1)]
    lock = FileChange("Cargo.lock", 6, 6)
    fix = make_pull(21038, WHEN, "Fix rare multithreaded related hang", files=[SRC, *pin, lock])
    bump = make_pull(21039, WHEN, "Update Rust crate clap to v4.5.35", files=[lock])
    alone = next(r for r in _week([fix]).risks if r.kind == "dependency-upgrade")
    assert alone.impact == "low"
    assert alone.evidence[0].paths == ("Cargo.toml", "fuzz/Cargo.toml", "Cargo.lock")
    risk = next(r for r in _week([fix, bump]).risks if r.kind == "dependency-upgrade")
    assert risk.pulls == (21039, 21038)
    image = FileChange("docker/ascend/Dockerfile.a2", 20, 8)
    assert "dependency-upgrade" in kinds(
        "[megatron] feat: ascend bump into megatron 016", files=[SRC, image]
    )
    assert "dependency-upgrade" not in kinds("feat: a parser", files=[SRC, *pin])  # no pinning file
    release = [FileChange("crates/widget/Cargo.toml", 1, 1), lock]
    assert "dependency-upgrade" not in kinds("Bump 0.14.4", files=release)


def test_upgrades_name_package_and_versions_and_core_runtimes_are_high():
    docker = [
        FileChange("docker/Dockerfile.vllm", 4, 4),
        FileChange(".github/workflows/e2e.yml", 1, 1),
    ]
    pull = analysed("[docker] feat: upgrade to torch 2.7, sglang 0.4.8", files=docker)
    versions = [(u.package, u.new, u.core) for u in pull.upgrades]
    assert versions == [("torch", "2.7", True), ("sglang", "0.4.8", True)]
    renovate = analysed(
        "Update Rust crate clap from 4.5.1 to v5.0.0", files=[FileChange("Cargo.lock", 8, 8)]
    )
    assert [(u.package, u.old, u.new, u.major) for u in renovate.upgrades] == [
        ("clap", "4.5.1", "5.0.0", True)
    ]
    body = "| [serde](https://x) | dependencies | patch | `1.0.200` → `1.0.201` |"
    assert [
        (u.package, u.old, u.new)
        for u in analysed(
            "Update Rust crates", body=body, files=[FileChange("Cargo.lock", 4, 4)]
        ).upgrades
    ] == [("serde", "1.0.200", "1.0.201")]


def _week(pulls):
    settings = analysis_options(DigestSettings())
    context = repo_context("acme/widget", pulls, settings)
    return analyse_week(
        Week(2026, 21), [analyse_pull(p, context) for p in pulls], context, None, NOW
    )


def test_routine_bot_bumps_are_one_fact_and_a_core_upgrade_is_high_only_where_versions_are_said():
    bot = Author("renovate[bot]", "Bot")
    bumps = [
        make_pull(
            n,
            WHEN,
            f"Update Rust crate lib{n} to v1.{n}.1",
            files=[FileChange("Cargo.lock", 4, 4)],
            author=bot,
        )
        for n in range(60, 66)
    ]
    torch = make_pull(
        70,
        WHEN,
        "[docker] feat: upgrade to torch 2.7",
        files=[FileChange("docker/Dockerfile", 3, 3)],
    )
    risk = next(r for r in _week([*bumps, torch]).risks if r.kind == "dependency-upgrade")
    # which package moved, and which way, is what makes it high; while unsure, a person's edit of
    # dependency files is medium
    said = speaks("version.package") and speaks("version.direction")
    assert risk.impact == ("high" if said else "medium")
    assert [e.fact for e in risk.evidence] == ["version", "routine-bumps"]
    grouped = risk.evidence[1]
    assert sorted(grouped.pulls) == list(range(60, 66)) and len(grouped.packages) == 6
    only_bots = next(r for r in _week(bumps).risks if r.kind == "dependency-upgrade")
    assert only_bots.impact == "low" and len(only_bots.evidence) == 1
    # a git dependency moved to another commit is a bump too (ruff #21486), counted with the rest
    digest = make_pull(
        66,
        WHEN,
        "Update salsa digest to a885bb4",
        files=[FileChange("Cargo.lock", 3, 3), FileChange("Cargo.toml", 1, 1)],
        author=bot,
    )
    with_digest = next(r for r in _week([*bumps, digest]).risks if r.kind == "dependency-upgrade")
    assert 66 in with_digest.evidence[0].pulls and "salsa" in with_digest.evidence[0].packages


def test_grouped_bumps_name_one_package_of_each_pr_first_and_say_when_there_are_more():
    """A PR that bumps four pre-commit hooks before three crate bumps (ruff #19162 and its week):
    the names a sentence shows are one of each PR, and a longer list ends in "and others"."""
    from digest_plugin.narrate import narrate
    from digest_plugin.narrate.wording import Language

    bot = Author("renovate[bot]", "Bot")
    rows = "".join(
        f"| [{name}](https://x) | repository | minor | `v1.0.0` -> `v1.1.0` |\n"
        for name in ("hook-a", "hook-b", "hook-c", "hook-d")
    )
    table = "| Package | Type | Update | Change |\n|---|---|---|---|\n" + rows
    hook_files = [
        FileChange(".pre-commit-config.yaml", 4, 4),
        FileChange("crates/a/src/lib.rs", 2, 2),
    ]  # and what the new hooks asked
    hooks = make_pull(
        80, WHEN, "Update pre-commit dependencies", body=table, files=hook_files, author=bot
    )
    crates = [
        make_pull(
            n,
            WHEN,
            f"Update Rust crate crate{n} to v2.{n}.0",
            files=[FileChange("Cargo.lock", 4, 4)],
            author=bot,
        )
        for n in (81, 82, 83)
    ]
    week = _week([hooks, *crates])
    grouped = next(e for r in week.risks for e in r.evidence if e.fact == "routine-bumps")
    assert grouped.packages[:4] == ("hook-a", "crate81", "crate82", "crate83")
    assert len(grouped.packages) == 7
    sentences = [r.sentence.text for r in narrate(week, [], Language.of("en")).risks]
    assert any(
        "(hook-a, crate81, crate82, crate83 and others; #80, #81, #82, #83)" in text
        for text in sentences
    ), sentences
    chinese = [r.sentence.text for r in narrate(week, [], Language.of("zh")).risks]
    assert any("hook-a、crate81、crate82、crate83 等" in text for text in chinese), chinese


def test_hot_file_names_who_else_touched_it():
    hot = [
        make_pull(n, WHEN, f"fix: engine {n}", files=[SRC, TEST], author=f"dev{n % 2}")
        for n in (1, 2, 3)
    ]
    risk = next(r for r in _week(hot).risks if r.kind == "hotspot")
    (evidence,) = risk.evidence
    assert (evidence.fact, evidence.paths, evidence.pulls, evidence.authors) == (
        "hot-file",
        ("widget/engine.py",),
        (1, 2, 3),
        ("dev1", "dev0"),
    )


def test_what_tests_and_developers_install_is_tooling_not_what_the_project_runs_on():
    """pelican #3386 bumped Pygments in requirements/test.pip and was the week's only risk, Medium."""
    for path in ("requirements/test.pip", "requirements-dev.txt", "dev_requirements.txt"):
        tests_pin = [FileChange(path, 2, 2)]
        assert "dependency-upgrade" not in kinds("Bump Pygments to 2.16.1", tests_pin)
    for path in ("requirements/base.pip", "requirements.txt", "requirements-npu.txt"):
        runtime_pin = [FileChange(path, 2, 2)]
        assert "dependency-upgrade" in kinds("Bump Pygments to 2.16.1", runtime_pin)


def test_tests_wired_into_many_workflows_are_a_low_ci_change():
    """verl #1042 added tests and a path to the triggers of nine workflows: a Medium "CI change"
    pointed the maintainer at the week's tests. A person's edit of five workflows stays Medium."""
    workflows = [FileChange(f".github/workflows/e2e_{n}.yml", 2, 1) for n in range(9)]
    wired = make_pull(
        1042,
        WHEN,
        "tests: add import utils tests",
        files=[*workflows, FileChange("tests/utils/test_import_utils.py", 97, 0)],
    )
    risk = next(r for r in _week([wired]).risks if r.kind == "ci-change")
    assert risk.impact == "low"
    migrated = make_pull(1043, WHEN, "ci: run on uv", files=workflows)
    risk = next(r for r in _week([migrated]).risks if r.kind == "ci-change")
    assert risk.impact == "medium"


def test_a_prs_own_end_to_end_job_is_in_the_ci_row_as_a_low_risk():
    """verl #58 added the workflow that runs its FIRE sampling end to end: the CI row, which says
    how many PRs changed CI files "in all", lists it, and one or two jobs are a low risk."""
    job = FileChange(".github/workflows/e2e_fire_sampling.yml", 46, 0)
    pull = make_pull(58, WHEN, "[rollout] feat: FIRE sampling", files=[SRC, job])
    risk = next(r for r in _week([pull]).risks if r.kind == "ci-change")
    assert risk.pulls == (58,) and risk.impact == "low"


def test_a_ci_change_names_its_most_changed_workflows_first():
    """verl #1037 named two one-line trigger edits, not the two new jobs of 65 and 66 lines."""
    triggers = [FileChange(f".github/workflows/a{n}.yml", 1, 0) for n in range(3)]
    jobs = [
        FileChange(".github/workflows/sgl.yml", 65, 0),
        FileChange(".github/workflows/e2e.yml", 66, 0),
    ]
    pull = make_pull(1037, WHEN, "feat: sglang rollout", files=[*triggers, *jobs, SRC, TEST])
    risk = next(r for r in _week([pull]).risks if r.kind == "ci-change")
    assert risk.evidence[0].paths[:2] == (".github/workflows/e2e.yml", ".github/workflows/sgl.yml")
    assert risk.evidence[0].files == 5


def test_a_few_line_deprecation_is_low_impact():
    small = make_pull(
        80,
        WHEN,
        "chore: deprecate the old launcher",
        files=[FileChange("widget/launcher.py", 6, 0), TEST],
    )
    risk = next(r for r in _week([small]).risks if r.kind == "deprecation")
    assert risk.impact == "low" and risk.evidence[0].lines == 6


def test_rust_source_alone_is_not_claimed_untested():
    """Rust's unit tests may sit in the changed file itself (`#[cfg(test)]`): a file list cannot show
    they are missing, nor that the Python beside it is untested (ruff #25998)."""
    rust = FileChange("crates/ruff_linter/src/rules/b008.rs", 400, 20)
    assert "missing-tests" not in kinds("feat: a rule", files=[rust])
    python = FileChange("python/ruff/__main__.py", 60, 0)
    assert "missing-tests" not in kinds("feat: a rule", files=[rust, python])
    assert "missing-tests" in kinds("feat: a rule", files=[python])


def test_a_cut_file_list_of_snapshots_is_no_large_change():
    """ruff #26161: 1,094 files, the kept 300 nearly all snapshots; the dropped ones are taken to be
    like them, not core code."""
    kept = [FileChange(f"crates/ruff_linter/snapshots/s{i}.snap", 60, 120) for i in range(298)]
    kept += [
        FileChange("crates/ruff_db/src/diff.rs", 100, 39),
        FileChange("crates/ruff_db/src/render.rs", 10, 5),
    ]
    bulk = analysed(
        "Make rendering of fix diffs more concise",
        files=kept,
        files_truncated=True,
        changed_files=1094,
        additions=18846,
        deletions=34419,
    )
    assert "large-change" not in bulk.risks
    assert (
        bulk.footprint.generated_lines == 0
    )  # snapshots are the tests' expected output, not vendored code
    vendored = [
        FileChange(f"crates/ty_vendored/vendor/typeshed/stdlib/m{i}.pyi", 100, 50)
        for i in range(300)
    ]
    sync = analysed(
        "Sync vendored typeshed stubs",
        files=vendored,
        files_truncated=True,
        changed_files=900,
        additions=90000,
        deletions=45000,
    )
    assert "large-change" not in sync.risks and sync.footprint.generated_lines == 135000
    core = [FileChange(f"widget/m{i}.py", 40, 20) for i in range(300)]
    cut = analysed(
        files=core, files_truncated=True, changed_files=600, additions=36000, deletions=18000
    )
    assert "large-change" in cut.risks
    # its size is the PR's own, tests and vendored files among it: not said to be core code
    (size,) = [e for e in cut.evidence if e.fact == "size"]
    assert (size.lines, size.files, size.detail) == (54000, 600, "whole")
