"""Each risk kind fires where it should, and not where it should not, on hand-made records."""

from __future__ import annotations

from datetime import UTC, datetime

from digest_plugin.analysis import analyse_pull, analyse_week, repo_context
from digest_plugin.analysis.model import GOOD_NEWS_KINDS, RISK_KINDS
from digest_plugin.analysis.risks import IMPACT_RULES, PULL_CHECKS, hotspots
from digest_plugin.analysis.rules import load_rules
from digest_plugin.records import FileChange
from digest_plugin.settings import DigestSettings
from digest_plugin.weeks import Week

from .conftest import make_pull

RULES = load_rules(repo="acme/widget")
WHEN = "2026-05-19T10:00:00Z"
NOW = datetime(2026, 11, 30, tzinfo=UTC)
SRC = FileChange("widget/engine.py", 60, 20)
TEST = FileChange("tests/test_engine.py", 30, 0)


def analysed(title="feat: a change", files=(SRC, TEST), **fields):
    pull = make_pull(100, WHEN, title, files=list(files), **fields)
    return analyse_pull(pull, repo_context("acme/widget", [pull], DigestSettings()))


def kinds(title="feat: a change", files=(SRC, TEST), **fields):
    return analysed(title, files, **fields).risks


def good_news(title="feat: a change", files=(SRC, TEST), **fields):
    return {e.kind for e in analysed(title, files, **fields).evidence if e.kind in GOOD_NEWS_KINDS}


def test_every_kind_has_a_check_and_an_impact_rule():
    assert set(PULL_CHECKS) | {"hotspot"} == set(RISK_KINDS) | set(GOOD_NEWS_KINDS)
    assert set(IMPACT_RULES) == set(RISK_KINDS) | set(GOOD_NEWS_KINDS)


def test_missing_tests():
    assert "missing-tests" in kinds(files=[SRC])
    assert "missing-tests" not in kinds(files=[SRC, TEST])
    assert "missing-tests" not in kinds(files=[FileChange("widget/engine.py", 3, 1)])  # a one-liner
    assert "missing-tests" not in kinds("docs: reword", files=[FileChange("docs/guide.md", 80, 10)])
    assert "missing-tests" not in kinds(files=[SRC], files_truncated=True)  # tests may be among the dropped files


def test_breaking_change():
    assert "breaking-change" in kinds("[BREAKING][trainer] feat: new config layout")
    assert "breaking-change" in kinds("feat(api)!: drop the v1 endpoints")
    assert "breaking-change" in kinds("feat: drop v1", body="BREAKING CHANGE: v1 is gone")
    assert "breaking-change" not in kinds("feat: not breaking anything")


def test_dependency_upgrade():
    assert "dependency-upgrade" in kinds("Update Rust crate clap to v4.5.35", files=[FileChange("Cargo.lock", 8, 8)])
    assert "dependency-upgrade" in kinds("[docker] chore: update vllm 0.20.2 image", files=[FileChange("docker/Dockerfile.vllm", 5, 5)])
    assert "dependency-upgrade" in kinds("Update MSRV to 1.90", files=[FileChange("rust-toolchain.toml", 1, 1), FileChange("Cargo.toml", 1, 1)])
    assert "dependency-upgrade" not in kinds("feat: add a parser")
    assert "dependency-upgrade" not in kinds("Bump 0.11.11", files=[FileChange("pyproject.toml", 1, 1)])  # the project's own release


def test_security_fixes_are_good_news_and_other_security_changes_a_risk():
    assert good_news("fix: sanitize archive paths") == {"security-fix"}
    assert good_news("fix: loader", body="Avoids arbitrary code execution: the loader called eval(user_input).") == {"security-fix"}
    assert good_news("fix: bump jinja2 for CVE-2024-22195") == {"security-fix"}
    assert good_news("fix: loader", labels=("security",)) == {"security-fix"}
    for title in ("fix: sanitize archive paths", "fix: bump jinja2 for CVE-2024-22195"):
        assert "security" not in kinds(title)
    assert "security" in kinds("feat: run user plugins with shell=True", body="Plugins now run through a shell.")
    assert "security" not in kinds("feat: add an eval script for GSM8K")  # ML "eval" is evaluation
    advisory = [e for e in analysed("fix: bump jinja2 for CVE-2024-22195").evidence if e.kind == "security-fix"]
    assert advisory[0].detail == "CVE-2024-22195"


def test_revert():
    assert "revert" in kinds('Revert "feat: async rollout (#41)"')
    assert "revert" in kinds("[megatron] fix: revert megatron actor refactor")
    assert "revert" not in kinds("fix: restore the reverted-by-mistake docs link")


def test_deprecation():
    assert "deprecation" in kinds("[trainer] feat: deprecate main_ppo.py")
    assert "deprecation" not in kinds("feat: add main_ppo_sync.py")


def test_large_change():
    big = FileChange("widget/engine.py", 900, 300)
    assert "large-change" in kinds(files=[big, TEST])
    assert "large-change" in kinds(files=[FileChange(f"widget/m{i}.py", 1, 0) for i in range(45)])
    assert "large-change" not in kinds(files=[FileChange("docs/guide.md", 5000, 0)])  # docs are not core
    assert "large-change" not in kinds("Update deps", files=[FileChange("uv.lock", 3000, 2000)])  # lock files are generated


def test_config_change():
    assert "config-change" in kinds(files=[FileChange("widget/config/defaults.yaml", 2, 2), TEST])
    assert "config-change" in kinds("[rollout] feat: change the default of max_num_seqs to 256")
    assert "config-change" in kinds("feat: enable caching by default")
    assert "config-change" not in kinds(files=[FileChange("widget/config/defaults.yaml", 12, 0), TEST])  # only new keys
    assert "config-change" not in kinds("feat: add a parser")


def test_ci_change():
    assert "ci-change" in kinds("ci: cache wheels", files=[FileChange(".github/workflows/ci.yml", 3, 1)])
    assert "ci-change" not in kinds()


def test_hotspot_is_a_source_file_changed_by_three_prs_of_the_week():
    pulls = [make_pull(n, WHEN, f"fix: engine {n}", files=[FileChange("widget/engine.py", 3, 1), FileChange("README.md", 1, 1)]) for n in (1, 2, 3)]
    assert hotspots(pulls, RULES) == {"widget/engine.py": (1, 2, 3)}  # README.md is no source file
    assert hotspots(pulls[:2], RULES) == {}


def test_week_risks_name_their_prs_and_reverted_titles():
    settings = DigestSettings()
    original = make_pull(41, "2026-05-12T10:00:00Z", "feat: async rollout", files=[SRC, TEST])
    revert = make_pull(50, WHEN, 'Revert "feat: async rollout"', files=[SRC, TEST])
    breaking = make_pull(51, WHEN, "feat!: new layout", files=[SRC, TEST])
    hot = [make_pull(n, WHEN, f"fix: engine {n}", files=[SRC, TEST]) for n in (52, 53)]
    context = repo_context("acme/widget", [original, revert, breaking, *hot], settings)
    analysed = [analyse_pull(p, context) for p in (revert, breaking, *hot)]
    week = analyse_week("acme/widget", Week(2026, 21), analysed, context, settings, None, NOW)
    risks = {r.kind: r for r in week.risks}
    assert risks["revert"].pulls == (50,)
    assert [(e.fact, e.pull, e.pulls) for e in risks["revert"].evidence] == [("reverted", 50, (41,))]
    assert risks["breaking-change"].pulls == (51,) and risks["breaking-change"].impact == "high"
    assert risks["hotspot"].pulls == (50, 51, 52, 53) and risks["hotspot"].paths == ("widget/engine.py",)
    assert week.risks[0].impact == "high"
    for pull in week.pulls:  # every PR carries the kinds it shows
        assert all(pull.pull.number in risks[kind].pulls for kind in pull.risks)

