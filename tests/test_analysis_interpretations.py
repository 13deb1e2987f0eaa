"""Issue 26: every interpretation the analysis makes is checked against the data, or not made.

Each class of mistake the issue lists is pinned twice: on small hand-made records, and on the real
PR behind it in ../shared/data (skipped when absent).
"""

from __future__ import annotations

from digest_plugin.analysis import analyse_pull, repo_context
from digest_plugin.records import FileChange
from digest_plugin.settings import DigestSettings

from .analysis_fixtures import real_week
from .conftest import make_pull

WHEN = "2026-05-19T10:00:00Z"
SRC = FileChange("widget/engine.py", 60, 20)
TEST = FileChange("tests/test_engine.py", 30, 0)


def analysed(title="feat: a change", files=(SRC, TEST), number=100, **fields):
    pull = make_pull(number, fields.pop("merged_at", WHEN), title, files=list(files), **fields)
    return analyse_pull(pull, repo_context("acme/widget", [pull], DigestSettings()))


def test_ci_is_the_ci_configuration_and_developer_tooling_is_not():
    def ci(path):
        return "ci-change" in analysed("chore: tidy", files=[FileChange(path, 2, 1)]).risks

    assert [ci(p) for p in (".github/workflows/tests.yml", ".travis.yml", ".readthedocs.yaml", ".github/actions/setup/action.yml")] == [True] * 4
    assert [ci(p) for p in ("tox.ini", ".pre-commit-config.yaml", ".github/ISSUE_TEMPLATE/bug.yml", ".github/CODEOWNERS",
                            ".github/renovate.json5", ".flake8")] == [False] * 6


def test_tox_and_pre_commit_are_no_ci_change_in_the_real_data():
    tox = real_week("getpelican/pelican", "2014-W16")  # #1316 "Add python 3.4 to tox config."
    assert "ci-change" not in next(p for p in tox.pulls if p.pull.number == 1316).risks
    week = real_week("astral-sh/ruff", "2026-W23")  # #25569 "Update prek dependencies": .pre-commit-config.yaml
    ci = next(r for r in week.risks if r.kind == "ci-change")
    assert 25569 not in ci.pulls and 25708 in ci.pulls
    assert all(path.startswith(".github/workflows/") for e in ci.evidence for path in e.paths)
