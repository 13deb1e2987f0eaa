"""Importance: bounded, explained by its factors, and ranked the way a maintainer would rank."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from digest_plugin.analysis import analyse_pull, analyse_repo, repo_context
from digest_plugin.analysis.classify import classify
from digest_plugin.analysis.importance import by_importance, importance, scaled
from digest_plugin.publish.history import analysis_options
from digest_plugin.records.pull import Author, FileChange, Pull
from digest_plugin.settings import DigestSettings
from tests.analysis_fixtures import load_rules, real_pulls
from tests.conftest import make_pull

RULES = load_rules(repo="acme/widget")
WHEN = "2026-05-19T10:00:00Z"


def score(title, files, **fields):
    pull = make_pull(1, WHEN, title, files=files, **fields)
    return importance(pull, classify(pull, RULES), RULES)


def test_rust_sources_of_a_pull_titled_as_tests_weigh_as_tests():
    # ruff #25829 "Anonymize vendored line numbers in IDE tests": 3,900 lines of inline snapshots
    # in crates/ty_ide/src/*.rs made it the week's main change
    sources = [FileChange(f"crates/widget_ide/src/{name}.rs", 400, 390) for name in "abcde"]
    tests_titled = score("Anonymize vendored line numbers in IDE tests", sources)
    assert (
        tests_titled.value < score("Anonymize vendored line numbers in IDE hovers", sources).value
    )
    # ty's flow snapshots are its own data, not tests' (ruff #26203)
    flow = score("Avoid cloning fallback condition flow snapshots", sources)
    assert flow.value == score("Avoid cloning fallback condition flow states", sources).value


paths = st.sampled_from(
    [
        "widget/core.py",
        "widget/api/http.py",
        "tests/test_core.py",
        "docs/index.md",
        "examples/run.sh",
        ".github/workflows/ci.yml",
        "Cargo.lock",
        "requirements.txt",
        "src/a/b.rs",
        "README.md",
    ]
)
lines = st.one_of(st.none(), st.integers(0, 10**6))
titles = st.one_of(
    st.text(max_size=120),
    st.sampled_from(
        [
            "[BREAKING][trainer] feat: new layout",
            "fix: crash and memory leak in the CVE-2024-1 sandbox eval(",
            'Revert "x (#12)"',
            "Update Rust crate clap to v5",
            "chore: deprecate old API",
            "docs: typo",
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    title=titles,
    files=st.lists(st.tuples(paths, lines, lines), max_size=40),
    bot=st.booleans(),
    comments=st.one_of(st.none(), st.integers(0, 10**4)),
    labels=st.lists(st.sampled_from(["bug", "security", "breaking", "docs", "x"]), max_size=3),
)
def test_scores_stay_within_bounds_and_are_the_sum_of_their_factors(
    title, files, bot, comments, labels
):
    changes = [FileChange(path, added, deleted) for path, added, deleted in files]
    pull = Pull(
        number=7,
        title=title,
        url="https://github.com/acme/widget/pull/7",
        author=Author("dependabot[bot]" if bot else "alice", "Bot" if bot else "User"),
        merged_at=datetime(2026, 5, 19, tzinfo=UTC),
        labels=tuple(labels),
        files=tuple(changes),
        additions=sum(c.additions or 0 for c in changes),
        deletions=sum(c.deletions or 0 for c in changes),
        changed_files=len(changes),
        comments=comments,
    )
    result = importance(pull, classify(pull, RULES), RULES)
    assert 0.0 <= result.value <= 10.0
    total = sum(points for _, points in result.factors)
    assert result.value == round(scaled(total), 1)
    assert len({name for name, _ in result.factors}) == len(result.factors)


def test_a_maintainer_ranks_breaking_features_and_crash_fixes_above_chores():
    core = [FileChange("widget/core.py", 150, 40), FileChange("tests/test_core.py", 60, 0)]
    breaking = score("[BREAKING][api] feat: new request pipeline", core)
    feature = score("feat: request pipeline", core)
    deadlock = score(
        "fix: deadlock when two workers load the same checkpoint",
        [FileChange("widget/core.py", 6, 1)],
    )
    small_fix = score("fix: wrong log message", [FileChange("widget/core.py", 6, 1)])
    typo = score("docs: fix typo", [FileChange("docs/index.md", 1, 1)])
    example = score(
        "feat: add an example launch script", [FileChange("examples/run_big_model.sh", 80, 0)]
    )
    bot_bump = score(
        "Update Rust crate serde to v1.0.200",
        [FileChange("Cargo.lock", 4, 4)],
        author=Author("renovate[bot]", "Bot"),
    )
    ci = score("ci: bump the runner image", [FileChange(".github/workflows/ci.yml", 2, 2)])
    assert breaking.value > feature.value > small_fix.value > typo.value
    assert deadlock.value > small_fix.value
    assert feature.value > example.value
    assert max(typo.value, bot_bump.value, ci.value, example.value) < 6.0 <= breaking.value
    assert dict(breaking.factors)["breaking"] > 0 and dict(deadlock.factors)["crash"] > 0
    assert dict(bot_bump.factors)["bot"] < 0


def test_major_upgrades_count_more_than_minor_ones():
    lock = [FileChange("Cargo.lock", 30, 30), FileChange("Cargo.toml", 1, 1)]
    assert (
        score("Update Rust crate clap to v5", lock).value
        > score("Update Rust crate clap to v4.5.35", lock).value
    )


def test_core_upgrades_ci_migrations_and_default_changes_outrank_a_few_line_deprecation():
    deprecation = score(
        "chore: deprecate the old launcher", [FileChange("widget/launcher.py", 6, 0)]
    )
    torch = score(
        "[docker] feat: upgrade to torch 2.7, sglang 0.4.8",
        [
            FileChange("docker/Dockerfile.vllm", 4, 4),
            *(FileChange(f".github/workflows/e2e_{i}.yml", 1, 1) for i in range(8)),
        ],
    )
    toolchain = score(
        "Update Rust toolchain to 1.91",
        [FileChange("rust-toolchain.toml", 1, 1), FileChange("widget/core.rs", 6, 6)],
    )
    migration = score(
        "ci: move every workflow to uv",
        [FileChange(f".github/workflows/job_{i}.yml", 12, 10) for i in range(14)],
    )
    default = score(
        "[rollout] feat: change the default of max_num_seqs to 256",
        [FileChange("widget/rollout.py", 2, 2)],
    )
    assert min(torch.value, toolchain.value, migration.value, default.value) > deprecation.value
    assert dict(torch.factors)["core_upgrade"] > 0 and "peripheral" not in dict(torch.factors)
    assert dict(migration.factors)["workflows"] > 0
    assert dict(default.factors)["default"] > 0
    assert dict(deprecation.factors)["deprecation"] < 0.1  # scaled by the six lines it changes


def test_equal_scores_are_ordered_by_substance_not_by_number():
    rules_context = repo_context("acme/widget", [], analysis_options(DigestSettings()))
    small = make_pull(1, "2026-05-19T10:00:00Z", "feat: a", files=[FileChange("widget/a.py", 5, 0)])
    large = make_pull(2, "2026-05-19T10:00:00Z", "feat: b", files=[FileChange("widget/b.py", 5, 0)])
    a, b = (analyse_pull(p, rules_context) for p in (small, large))
    b = replace(b, footprint=replace(b.footprint, core_lines=500))  # same score, more substance
    assert a.score.value == b.score.value
    assert sorted([a, b], key=by_importance)[0] is b


def test_discussion_only_counts_where_the_source_knows_it():
    files = [FileChange("widget/core.py", 20, 5)]
    unknown = score("fix: parser", files)
    discussed = score("fix: parser", files, comments=25, reviews=6)
    assert "discussion" not in dict(unknown.factors)
    assert discussed.value > unknown.value


@pytest.mark.realdata
def test_verl_2026_w21_key_prs_are_the_ones_a_maintainer_would_pick():
    """31 PRs merged that week; read them all and decided independently of the scores:
    the NCCL deadlock fix and the 1,159-line Megatron-Bridge refactor must be key, the README and
    docs-link chores and the CI test-model swap must not be."""
    pulls = real_pulls("verl-project/verl")
    weeks = analyse_repo(
        "verl-project/verl",
        pulls,
        None,
        analysis_options(DigestSettings()),
        datetime(2026, 11, 30, tzinfo=UTC),
    )
    week = next(w for w in weeks if w.week == "2026-W21")
    assert week.stats.merged_count == 31
    key = {p.pull.number for p in week.pulls if p.key}
    assert {6405, 6335} <= key
    assert not key & {6390, 6427, 6399, 6398}
    assert 3 <= len(key) <= 12
    assert week.pulls[0].classification.type in ("feat", "fix", "perf", "refactor", "chore")
    assert all(a.score.value >= b.score.value for a, b in zip(week.pulls, week.pulls[1:]))


def test_closed_issues_and_a_real_description_add_substance():
    files = [FileChange("widget/core.py", 40, 5)]
    bare = score("feat: parser", files)
    closing = score(
        "feat: parser",
        files,
        body="Fixes #12, closes acme/other#3 and https://github.com/acme/widget/issues/9",
    )
    assert dict(closing.factors)["issues"] == 1.0 and closing.value > bare.value
    explained = score(
        "feat: parser",
        files,
        body=" ".join(["The parser now reads nested blocks in one pass."] * 40),
    )
    short = score("feat: parser", files, body="Adds a parser.")
    assert "described" not in dict(short.factors) and dict(explained.factors)["described"] > 0.5


def test_a_cut_file_list_of_snapshots_is_not_scored_as_core_code():
    kept = [FileChange(f"crates/ruff_linter/snapshots/s{i}.snap", 60, 120) for i in range(298)]
    kept += [
        FileChange("crates/ruff_db/src/diff.rs", 100, 39),
        FileChange("crates/ruff_db/src/render.rs", 10, 5),
    ]
    bulk = score(
        "refactor: make rendering of fix diffs more concise",
        kept,
        files_truncated=True,
        changed_files=1094,
        additions=18846,
        deletions=34419,
    )
    assert "large" not in dict(bulk.factors)
    assert (
        bulk.value
        < score(
            "refactor: rework the renderer", [FileChange("crates/ruff_db/src/diff.rs", 900, 600)]
        ).value
    )


def test_a_reformat_of_every_file_is_no_standout():
    """verl #1280 "fix: linting errors in all files": thousands of balanced lines, no new behaviour."""
    files = [FileChange(f"widget/m{i}.py", 60, 58) for i in range(30)]
    lint = score("[Lint] fix: linting errors in all files", files)
    assert dict(lint.factors)["moved"] < 0
    assert lint.value < score("fix: a real bug across the engine", files).value


def test_code_moved_as_the_body_says_weighs_as_moved():
    """ruff #23681 "Introduce `types::bool`, …": "And move relevant methods to those submodules",
    +1,604 −1,559, was its week's most important change."""
    files = [FileChange(f"crates/widget/src/types/m{i}.rs", 160, 156) for i in range(10)]
    moved = score("Introduce `types::bool`", files, body="And move relevant methods there")
    assert dict(moved.factors)["moved"] < 0
    written = score("Introduce `types::bool`", files, body="A new module for booleans")
    assert "moved" not in dict(written.factors)
    assert moved.value < written.value


def test_a_formatter_run_over_the_code_is_no_standout():
    """ruff #27630 "Enable rustfmt on more files" (+2,017 −1,410) was its week's main change."""
    files = [FileChange(f"crates/widget/src/m{i}.rs", 60, 42) for i in range(30)]
    swept = score("Enable rustfmt on more files", files)
    assert dict(swept.factors)["moved"] < 0
    assert swept.value < score("Enable streaming on more files", files).value


def test_low_hanging_fruit_is_no_hang():
    """ruff #21548 "More low-hanging fruit for inlay hint goto-definition" was scored as a crash fix."""
    files = [FileChange("crates/widget/src/hints.rs", 80, 10)]
    fruit = score("[ty] More low-hanging fruit for inlay hint goto-definition", files)
    assert "crash" not in dict(fruit.factors)
    assert "crash" in dict(score("[ty] Fix a hang in inlay hints", files).factors)


def test_a_declared_minimum_raised_alone_is_no_core_upgrade():
    """ruff #16294 "Update MSRV to 1.83" (and clippy's fixes) was its week's main change: a minimum
    the project promises moves nothing it is built with, unless the toolchain file moves too."""
    sources = [FileChange(f"crates/widget/src/m{i}.rs", 5, 5) for i in range(10)]
    declared = score("Update MSRV to 1.83", [FileChange("Cargo.toml", 1, 1), *sources])
    assert "core_upgrade" not in dict(declared.factors)
    built = [FileChange("rust-toolchain.toml", 1, 1), FileChange("Cargo.toml", 1, 1), *sources]
    assert "core_upgrade" in dict(score("Update MSRV to 1.83", built).factors)
