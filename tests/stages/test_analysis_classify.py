"""Classification: titles, labels, paths, bots and topics, on hand-made and real records."""

from __future__ import annotations

import re

import pytest

from digest_plugin.analysis.classify import (
    PATH_SCHEME,
    ModuleScheme,
    classify,
    module_scheme,
    parse_title,
    says_default_change,
)
from digest_plugin.analysis.model import TYPES
from digest_plugin.analysis.upgrades import own_release, upgrades
from digest_plugin.records.pull import Author, FileChange
from tests.analysis_fixtures import by_week, load_rules, real_pulls
from tests.conftest import make_pull

RULES = load_rules(repo="acme/widget")
SRC = FileChange("widget/core/engine.py", 40, 10)
TEST = FileChange("tests/test_engine.py", 20, 0)


def test_verl_style_title_gives_modules_type_and_breaking_marker():
    title = parse_title("[BREAKING][fsdp, megatron] feat: dynamic batching", RULES)
    assert title.modules == ("fsdp", "megatron")
    assert title.explicit_type == "feat"
    assert title.breaking
    assert title.description == "dynamic batching"
    # a marker before a module in one bracket (verl #822), or written as a type (verl #1282)
    config = parse_title("[BREAKING config] feat: add mlflow val generation log", RULES)
    assert (config.modules, config.breaking) == (("config",), True)
    typed = parse_title("[trainer] breaking: pass dataset as required args", RULES)
    assert (typed.modules, typed.breaking, typed.description) == (
        ("trainer",),
        True,
        "pass dataset as required args",
    )


@pytest.mark.parametrize(
    ("title", "modules"),
    [  # verl #5802, #3530, #5723: the place in a series is no module ("4/n 模块的改动")
        ("[4/n][trainer] feat: flowgrpo - add diffusers + fsdp engine support", ("trainer",)),
        ("[2/N][rollout] feat: support vllm/sglang DP+EP in server mode", ("rollout",)),
        ("[1/2][rollout,trainer] refactor: Teacher colocate mode", ("rollout", "trainer")),
        ("[trainer, part 2] fix: resume", ("trainer",)),
    ],
)
def test_a_title_s_place_in_a_series_is_no_module(title, modules):
    assert parse_title(title, RULES).modules == modules


@pytest.mark.parametrize(
    ("title", "crash"),
    [
        (
            "[red-knot] Include salsa backtrace in check and mdtest panic messages",
            False,
        ),  # ruff #17732
        ("Always include panic payload in panic diagnostic message", False),
        ("Fall back on previous panic hook when not in `catch_unwind` wrapper", False),
        ("[ty] ecosystem-analyzer: Fail on newly panicking projects", False),
        ("[ty] Fix panic for unclosed string literal in type annotation position", True),
        ("[ty] Hotfix for `expression_scope_id` panics", True),
    ],
)
def test_a_panic_is_a_crash_where_it_happens_not_where_its_message_is_reported(title, crash):
    found = classify(make_pull(1, "2026-05-01T10:00:00Z", title, files=[SRC]), RULES)
    assert ("crash" in found.topics) is crash
    if "messages" in title:  # nor is a PR that reports panics better a fix
        assert found.type != "fix"


@pytest.mark.parametrize(
    "title",
    [
        "[ty] Force-update all insta snapshots",  # ruff #23343, scored as a feature and key
        "[ty] Refresh benchmark snapshots",
        "Update the parser's snapshots",
    ],
)
def test_a_title_that_updates_snapshots_is_a_test_change(title):
    snapshot = FileChange("crates/ty/src/lib.rs", 120, 80)  # Rust keeps its inline snapshots here
    assert (
        classify(make_pull(1, "2026-05-01T10:00:00Z", title, files=[snapshot]), RULES).type
        == "test"
    )


def test_a_pr_of_vendored_code_alone_is_its_folders_module_and_one_of_lock_files_is_build():
    # ruff #16762 "Sync vendored typeshed stubs" was "build 模块的改动"
    stubs = FileChange("crates/red_knot_vendored/vendor/typeshed/stdlib/tarfile.pyi", 181, 162)
    synced = make_pull(1, "2026-05-01T10:00:00Z", "Sync vendored typeshed stubs", files=[stubs])
    assert classify(synced, RULES).modules == ("red_knot_vendored",)
    locked = make_pull(
        2, "2026-05-01T10:00:00Z", "Update lock", files=[FileChange("uv.lock", 9, 9)]
    )
    assert classify(locked, RULES).modules == ("build",)


def test_conventional_commit_with_scope_and_bang():
    pull = make_pull(
        1, "2026-05-18T10:00:00Z", "fix(parser)!: reject tabs in indentation", files=[SRC]
    )
    result = classify(pull, RULES, ModuleScheme("scope", frozenset({"parser"})))
    assert result.type == "fix"
    assert result.modules == ("parser",)
    assert result.breaking
    assert classify(pull, RULES).modules == ("core",)  # a repository that names modules by path


def test_ruff_rule_prefix_is_a_topic_and_modules_come_from_paths():
    pull = make_pull(
        2,
        "2026-05-18T10:00:00Z",
        "[`flake8-bugbear`] Fix false positive in `B008`",
        files=[FileChange("crates/ruff_linter/src/rules/b008.rs", 30, 3)],
    )
    result = classify(pull, load_rules(repo="astral-sh/ruff"))
    assert result.type == "fix"
    assert "flake8-bugbear" in result.topics
    assert result.modules == ("ruff_linter",)


def test_plain_bracket_prefix_is_a_module_where_the_project_names_modules_so():
    scopes = ModuleScheme("scope", frozenset({"ty", "formatter"}))
    result = classify(
        make_pull(
            3,
            "2026-05-18T10:00:00Z",
            "[ty] Support class and static protocol methods",
            files=[SRC, TEST],
        ),
        RULES,
        scopes,
    )
    assert result.modules == ("ty",)
    assert result.type == "feat"
    # one scheme: a PR without a scope is named by the scope its paths belong to
    unscoped = make_pull(
        5,
        "2026-05-18T10:00:00Z",
        "Support protocols",
        files=[
            FileChange("crates/ty_python_semantic/src/types.rs", 50, 5),
            FileChange("crates/ruff_python_formatter/src/lib.rs", 5, 1),
        ],
    )
    assert classify(unscoped, load_rules(repo="astral-sh/ruff"), scopes).modules == (
        "ty",
        "formatter",
    )
    # a scope of two words is the crate named after it (ruff 2025-W07: `red_knot_python_semantic`
    # was a theme of 9 PRs beside 11 "[red-knot]" PRs in the same crate)
    knot = make_pull(
        6,
        "2025-02-12T10:00:00Z",
        "Infer more types",
        files=[FileChange("crates/red_knot_python_semantic/src/types.rs", 50, 5)],
    )
    two_words = ModuleScheme("scope", frozenset({"red-knot", "python"}))
    assert classify(knot, load_rules(repo="astral-sh/ruff"), two_words).modules == ("red-knot",)


def test_the_scheme_follows_what_most_of_a_repositorys_titles_do():
    scoped = [
        make_pull(n, "2026-05-18T10:00:00Z", f"[trainer] feat: step {n}") for n in range(1, 5)
    ]
    plain = [make_pull(n, "2026-05-18T10:00:00Z", f"Add step {n}") for n in range(5, 9)]
    assert module_scheme(scoped + plain[:1], RULES) == ModuleScheme("scope", frozenset({"trainer"}))
    assert module_scheme(scoped[:1] + plain, RULES) == PATH_SCHEME


def test_revert_title_names_the_reverted_pr():
    pull = make_pull(
        4,
        "2026-05-18T10:00:00Z",
        'Revert "[red-knot] Type narrowing for assertions (#17149)"',
        files=[SRC],
    )
    result = classify(pull, RULES)
    assert result.type == "revert" and result.is_revert
    assert result.reverts == 17149


def test_revert_body_reference_is_used_when_the_title_has_none():
    pull = make_pull(
        5,
        "2026-05-18T10:00:00Z",
        'Revert "fix: bind the port with IP address"',
        body="Reverts volcengine/verl#314",
        files=[SRC],
    )
    assert classify(pull, RULES).reverts == 314


def test_explicitly_typed_revert_keeps_its_type_but_is_a_revert():
    result = classify(
        make_pull(
            6, "2026-05-18T10:00:00Z", "[megatron] fix: revert megatron actor refactor", files=[SRC]
        ),
        RULES,
    )
    assert result.type == "fix"
    assert result.is_revert


def test_merge_commit_is_described_by_its_branch_and_typed_by_words_or_paths():
    title = parse_title("Merge pull request #3510 from nkr0/fixTests", RULES)
    assert title.merge_commit
    assert title.description == "Fix Tests"
    docs_only = make_pull(
        7,
        "2026-05-18T10:00:00Z",
        "Merge pull request #3488 from someone/chinese-translation",
        files=[FileChange("docs/locale/zh_CN/LC_MESSAGES/install.po", 50, 10)],
    )
    assert classify(docs_only, RULES).type == "docs"


def test_a_body_that_says_nothing_functional_changes_makes_a_refactor_of_an_untyped_title():
    def typed(body):
        pull = make_pull(9, "2026-05-18T10:00:00Z", "Improve API exposed on nodes", body=body)
        return classify(pull, RULES).type

    assert typed("") == "feat"  # "improve" reads as a feature
    assert typed("There is no functional change here, but it helps the next PR.") == "refactor"
    assert typed("This is a pure refactoring, with no intended behaviour change.") == "refactor"
    # ruff #24950: the change users see comes after the "but"
    assert typed("No functional changes, but we now surface the error context.") == "feat"
    assert typed("This is not a pure refactor: the cache moves.") == "feat"


def test_an_example_is_docs_unless_an_example_file_changes():
    rule = FileChange("crates/widget/src/rules/furb180.rs", 6, 4)
    example = FileChange("examples/grpo/run_671b.sh", 40, 0)

    def typed(title, files):
        return classify(make_pull(9, "2026-05-18T10:00:00Z", title, files=files), RULES).type

    # ruff #19672: the example of a rule's documentation, in the rule's source
    assert typed("[`refurb`] Make example error out-of-the-box (`FURB180`)", [rule]) == "docs"
    assert typed("Add DeepSeek 671B GRPO example", [example]) != "docs"  # verl #1771: a script


def test_a_return_to_an_old_behaviour_is_no_revert():
    title = "[`pyflakes`] Revert to stable behavior if imports lie in alternate branches (`F401`)"
    kind = classify(make_pull(9, "2026-05-18T10:00:00Z", title, files=[SRC]), RULES)
    assert kind.type != "revert" and not kind.is_revert


def test_labels_are_trusted_over_the_title():
    pull = make_pull(
        8,
        "2026-05-18T10:00:00Z",
        "feat: new thing",
        labels=("bug", "breaking change", "security"),
        files=[SRC],
    )
    result = classify(pull, RULES)
    assert result.type == "fix"
    assert result.breaking
    assert "security" in result.topics
    assert result.labels == ("bug", "breaking change", "security")


def test_paths_decide_when_every_file_says_the_same():
    docs = make_pull(
        9,
        "2026-05-18T10:00:00Z",
        "Update installation page",
        files=[FileChange("docs/install.rst", 5, 5)],
    )
    tests = make_pull(10, "2026-05-18T10:00:00Z", "Add coverage for the parser", files=[TEST])
    ci = make_pull(
        11,
        "2026-05-18T10:00:00Z",
        "Cache wheels",
        files=[FileChange(".github/workflows/ci.yml", 3, 1)],
    )
    assert [classify(p, RULES).type for p in (docs, tests, ci)] == ["docs", "test", "ci"]


def test_path_modules_use_two_levels_under_source_roots_and_the_repository_name():
    pull = make_pull(
        12,
        "2026-05-18T10:00:00Z",
        "Speed up the engine",
        files=[
            FileChange("widget/core/engine.py", 100, 0),
            FileChange("src/api/http.py", 10, 0),
            FileChange("docs/index.md", 500, 0),
            FileChange("setup.py", 1, 1),
        ],
    )
    assert classify(pull, RULES).modules == ("core", "api", "build")


def test_files_at_the_root_are_named_by_what_they_are():
    def modules(path):
        return classify(
            make_pull(20, "2026-05-18T10:00:00Z", "Tidy", files=[FileChange(path, 3, 1)]), RULES
        ).modules

    assert [
        modules(p)
        for p in (
            "README.md",
            "pyproject.toml",
            "requirements.txt",
            ".travis.yml",
            ".pre-commit-config.yaml",
            "Makefile",
        )
    ] == [
        ("docs",),
        ("build",),
        ("build",),
        ("ci",),
        ("tooling",),
        ("(root)",),
    ]


def test_bots_are_recognised_by_type_login_and_setting():
    by_type = make_pull(13, "2026-05-18T10:00:00Z", "Update deps", author=Author("helper", "Bot"))
    by_login = make_pull(14, "2026-05-18T10:00:00Z", "Update deps", author="dependabot[bot]")
    by_name = make_pull(15, "2026-05-18T10:00:00Z", "Update deps", author="renovate")
    by_setting = make_pull(16, "2026-05-18T10:00:00Z", "Update deps", author="release-robot")
    person = make_pull(17, "2026-05-18T10:00:00Z", "Update deps", author="robert")
    rules = load_rules(bots=("release-robot",))
    assert [classify(p, rules).bot for p in (by_type, by_login, by_name, by_setting, person)] == [
        True,
        True,
        True,
        True,
        False,
    ]


def test_keyword_topics_from_the_default_rules_and_from_settings():
    pull = make_pull(
        18, "2026-05-18T10:00:00Z", "[trainer] fix: deadlock on Ascend NPU", files=[SRC]
    )
    assert (
        "crash" in classify(pull, RULES).topics and "npu" not in classify(pull, RULES).topics
    )  # platforms are learned, not listed
    assert "npu" in classify(pull, load_rules({"topics": {"npu": r"\b(npu|ascend)\b"}})).topics
    rules = load_rules({"topics": {"moe": r"\bmoe\b"}})
    assert (
        "moe"
        in classify(make_pull(19, "2026-05-18T10:00:00Z", "feat: faster MoE routing"), rules).topics
    )


def test_dependency_upgrades_tell_major_from_minor():
    lock = [FileChange("Cargo.lock", 10, 10)]
    major = make_pull(20, "2026-05-18T10:00:00Z", "Update Rust crate clap to v5", files=lock)
    minor = make_pull(21, "2026-05-18T10:00:00Z", "Update Rust crate clap to v4.5.35", files=lock)
    across = make_pull(
        22,
        "2026-05-18T10:00:00Z",
        "chore: bump pydantic from 1.10 to 2.1",
        files=[FileChange("requirements.txt", 1, 1)],
    )
    release = make_pull(
        23,
        "2026-05-18T10:00:00Z",
        "Bump 0.11.11",
        files=[FileChange("pyproject.toml", 1, 1), FileChange("CHANGELOG.md", 30, 0)],
    )
    feature = make_pull(24, "2026-05-18T10:00:00Z", "feat: add a parser", files=[SRC])
    own_version = make_pull(
        25,
        "2026-05-18T10:00:00Z",
        "[misc] chore: bump version to v0.5.0",
        files=[FileChange("verl/version/version", 1, 1)],
    )
    image = make_pull(
        26,
        "2026-05-18T10:00:00Z",
        "[docker] feat: upgrade to torch 2.7, sglang 0.4.8",
        files=[FileChange("docker/Dockerfile.sglang", 5, 5)],
    )
    manifest_only = make_pull(
        27,
        "2026-05-18T10:00:00Z",
        "Enable optimizations for salsa in debug profile",
        files=[FileChange("Cargo.toml", 3, 0)],
    )
    pulls = (major, minor, across, release, feature, own_version, image, manifest_only)
    found = [upgrades(p, classify(p, RULES), RULES) for p in pulls]
    assert [(u[0].major, u[0].core) if u else None for u in found] == [
        (True, False),
        (False, False),
        (True, True),
        None,
        None,
        None,
        (False, True),
        None,
    ]  # pydantic, torch: core runtimes
    assert [(u.package, u.old, u.new) for u in found[2]] == [("pydantic", "1.10", "2.1")]


# -- the real repositories ------------------------------------------------------------------


@pytest.mark.realdata
def test_every_verl_title_with_a_bracket_prefix_parses():
    rules = load_rules(repo="verl-project/verl")
    bracketed = [p for p in real_pulls("verl-project/verl") if p.title.lstrip().startswith("[")]
    assert len(bracketed) > 2000
    for pull in bracketed:
        title = parse_title(pull.title, rules)
        # every bracket item became a module, a type or a marker, and the rest is the description
        assert title.modules or title.explicit_type or title.breaking or title.rule_prefixes, (
            pull.title
        )
        prefix = re.match(r"\s*((?:\[[^\]]*\]\s*)+)", pull.title)[1].strip()
        assert title.description and not title.description.startswith(prefix), pull.title
        assert all(m and "[" not in m and "]" not in m for m in title.modules), pull.title


@pytest.mark.realdata
def test_verl_modules_are_the_ones_its_pr_template_lists():
    """verl's PR template (quoted in every body) lists the module names a title may use; since
    2026 a CI check enforces the format, so nearly every parsed module must be one of them."""
    listed = {
        "fsdp",
        "megatron",
        "veomni",
        "sglang",
        "vllm",
        "rollout",
        "trainer",
        "ci",
        "training_utils",
        "recipe",
        "hardware",
        "deployment",
        "ray",
        "worker",
        "single_controller",
        "misc",
        "perf",
        "model",
        "algo",
        "env",
        "tool",
        "ckpt",
        "doc",
        "data",
        "cfg",
        "reward",
        "fully_async",
        "one_step_off",
        "vllm_omni",
    }
    rules = load_rules(repo="verl-project/verl")
    convention = re.compile(r"^\[[^\]]+\]\s*(feat|fix|refactor|chore|test)\s*:", re.IGNORECASE)
    modules = [
        m
        for p in real_pulls("verl-project/verl")
        if p.merged_at.year >= 2026 and convention.match(p.title)
        for m in parse_title(p.title, rules).modules
    ]
    assert len(modules) > 1000
    assert sum(1 for m in modules if m in listed) / len(modules) > 0.95


@pytest.mark.realdata
def test_verl_titles_in_the_documented_format_give_that_type():
    rules = load_rules(repo="verl-project/verl")
    convention = re.compile(
        r"^\[[^\]]+\]\s*(feat|fix|refactor|chore|test|doc|docs|perf)\s*:", re.IGNORECASE
    )
    checked = 0
    for pull in real_pulls("verl-project/verl"):
        match = convention.match(pull.title)
        if match:
            expected = {"doc": "docs"}.get(match[1].lower(), match[1].lower())
            assert classify(pull, rules).type == expected, pull.title
            checked += 1
    assert checked > 1500


@pytest.mark.realdata
def test_every_ruff_week_types_more_than_90_percent_of_its_prs():
    rules = load_rules(repo="astral-sh/ruff")
    for week, pulls in by_week(real_pulls("astral-sh/ruff")).items():
        typed = sum(1 for p in pulls if classify(p, rules).type in TYPES)
        assert typed / len(pulls) > 0.9, f"{week}: {typed} of {len(pulls)} typed"


@pytest.mark.realdata
def test_pelican_merge_commits_classify():
    rules = load_rules(repo="getpelican/pelican")
    merges = [
        p for p in real_pulls("getpelican/pelican") if p.title.startswith("Merge pull request")
    ]
    assert len(merges) > 90
    results = [classify(p, rules) for p in merges]
    assert all(r.modules for r in results)
    assert all(not parse_title(p.title, rules).description.startswith("Merge") for p in merges)
    assert sum(1 for r in results if r.type) / len(results) >= 0.8


@pytest.mark.realdata
@pytest.mark.parametrize("repo", ["verl-project/verl", "astral-sh/ruff", "getpelican/pelican"])
def test_bots_in_the_real_data_are_the_bot_accounts(repo):
    rules = load_rules(repo=repo)
    bots = {p.author.login for p in real_pulls(repo) if classify(p, rules).bot}
    assert all(login.endswith("[bot]") or login.lower() in rules.bots for login in bots)


@pytest.mark.parametrize(
    "title, changes",
    [
        ("Change the default of max_num_seqs to 256", True),
        ("Set default python version to 3.12", True),
        ("Enable preview rules by default", True),
        # verl #1838: a default given to an argument that had none changes nothing anyone relied on
        ("Adding a default value for `RayWorkerGroup.from_detached(name_prefix=None)`", False),
        # verl #1823: a CI test's own default, not the users'
        ("Add NPU CI action and fallback SFT's e2e test defaults to FSDP1", False),
        # ruff #16664, #22368: a lint rule about other code's defaults, a default container of an internal type
        ("Detect invalid default value type for `os.environ.get` (`PLW1508`)", False),
        ("Use default `HashSet` for `TypeCollector`", False),
        ("Default to latest supported Python version for version-related syntax errors", True),
    ],
)
def test_a_default_change_is_a_default_users_relied_on_that_moves(title, changes):
    assert says_default_change(title) is changes


@pytest.mark.parametrize(
    "title, version",
    [
        ("Ruff 0.9.1", "0.9.1"),  # the project's name and a version
        ("Prepare for 0.15.1", "0.15.1"),
        ("Prepare release v0.14.14", "v0.14.14"),
        ("Bump version to 0.15.19", "0.15.19"),
        ("Ruff 2025 style guide", None),  # a year, not a version
        ("Salsa 0.19 support", None),  # another project's name
        ("[ty] Prepare test files for reachability changes", None),
    ],
)
def test_the_projects_own_release_is_read_from_its_title(title, version):
    rules = load_rules(repo="astral-sh/ruff")
    pull = make_pull(1, "2026-05-18T10:00:00Z", title, files=[("CHANGELOG.md", 20, 0, "modified")])
    assert own_release(pull, rules) == version
