"""A risk row's name is a claim too: "Dependency upgrade", "Configuration change", "Deprecation" and
"Breaking or user-facing change" name a row only where the claims behind its evidence speak
(analysis/claims.py); elsewhere the row is named by what its PRs do ("Edits requirements.txt"), and
a version's sentence says which files changed, not that a package moved. The week is analysed from
PR records as a build analyses it, and read in the Markdown a user downloads."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from digest_plugin.analysis import analyse_repo
from digest_plugin.analysis.claims import speaks
from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.publish.history import analysis_options
from digest_plugin.publish.markdown import render_markdown
from digest_plugin.publish.week_view import week_view
from digest_plugin.settings import DigestSettings
from tests.conftest import make_pull
from tests.stages.test_type_claims import _table

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _report(pulls, language: str = "en") -> tuple[dict[str, list[str]], str]:
    weeks = analyse_repo("acme/widget", pulls, None, analysis_options(DigestSettings()), NOW)
    week = next(w for w in weeks if w.pulls)
    lang = Language.of(language)
    view = week_view(week, narrate(week, [], lang), (), lang, "https://github.com/acme/widget", "")
    markdown = render_markdown(view, "https://example.org/acme/widget/2026-W21/", lang)
    return {
        row[0]: row for row in _table(markdown, "Risk" if language == "en" else "风险")
    }, markdown


@pytest.mark.skipif(
    speaks("version.package"), reason="the version claims are precise: the upgrade is said"
)
def test_a_version_change_is_named_by_the_file_it_edits():
    rows, markdown = _report(
        [
            make_pull(
                1, "2026-05-19T10:00:00Z", "Bump numpy to 2.1", files=[("requirements.txt", 1, 1)]
            ),
            make_pull(
                2,
                "2026-05-19T11:00:00Z",
                "Add a parser",
                files=[("src/widget/parser.py", 80, 0), ("tests/test_parser.py", 20, 0)],
            ),
        ]
    )
    assert "Edits requirements.txt" in rows, rows
    assert "Dependency upgrade" not in rows
    assert (
        "/pull/1>) changes requirements.txt." in markdown
    )  # the sentence: the file, no package, no direction
    assert "dependency versions" not in markdown and "upgrades numpy" not in markdown


@pytest.mark.skipif(
    speaks("version.package"), reason="the version claims are precise: each move is said"
)
def test_two_versions_one_pull_moves_are_one_sentence_of_its_files():
    # ruff #25443: the toolchain and the minimum Rust version, both in the same two files
    _, markdown = _report(
        [
            make_pull(
                1,
                "2026-05-19T10:00:00Z",
                "Update Rust toolchain to 1.96 and MSRV to 1.94",
                body="- Update the pinned Rust toolchain from 1.95 to 1.96.\n"
                "- Raise the minimum supported Rust version from 1.93 to 1.94.",
                files=[("Cargo.toml", 1, 1), ("rust-toolchain.toml", 1, 1)],
            )
        ]
    )
    assert markdown.count("changes Cargo.toml and rust-toolchain.toml") == 1, markdown


@pytest.mark.skipif(
    speaks("config.user-changed"), reason="the configuration claim is precise: the change is said"
)
def test_a_configuration_file_edit_is_named_by_its_files_in_english_and_chinese():
    pulls = [
        make_pull(
            1,
            "2026-05-19T10:00:00Z",
            "Tune the trainer",
            files=[
                ("src/widget/config/trainer.yaml", 6, 2),
                ("src/widget/config/actor.yaml", 3, 1),
                ("src/widget/config/critic.yaml", 3, 1),
                ("src/widget/trainer.py", 30, 4),
            ],
        )
    ]
    rows, _ = _report(pulls)
    named = [name for name in rows if name.startswith("Edits ")]
    assert named and "Configuration change" not in rows, rows
    assert named[0].endswith(" and other files") and "src/widget/config/" in named[0]
    rows_zh, _ = _report(pulls, "zh")
    assert any(name.startswith("修改 ") and name.endswith("等文件") for name in rows_zh), rows_zh


def test_a_large_change_is_said_by_its_size_alone():
    # verl #5454 retires legacy code (+4 −2,904); ruff #20871 renames a type across 16 files: what a
    # size means depends on what the PR does, which no rule tells, so the row states the size
    retire = make_pull(
        1,
        "2026-05-19T10:00:00Z",
        "Retire the legacy queue integration",
        files=[(f"src/widget/queue/part{n}.py", 1 if n == 0 else 0, 300) for n in range(10)],
    )
    grow = make_pull(
        2,
        "2026-05-19T11:00:00Z",
        "Add a planner",
        files=[(f"src/widget/planner/part{n}.py", 300, 10) for n in range(10)],
    )
    _, markdown = _report([retire])
    assert "/pull/1>) changes 3,001 lines of core code in 10 files." in markdown, markdown
    _, markdown = _report([grow])
    assert "/pull/2>) changes 3,100 lines of core code in 10 files." in markdown, markdown
    assert "regressions can hide" not in markdown


def test_a_large_change_whose_file_list_was_cut_is_not_said_to_be_core_code():
    # ruff #27033 vendors a library: +21,019 −10,781 in 1,774 files, 300 of them stored, most of
    # those tests and examples; its totals are all the PR's lines
    cut = make_pull(
        1,
        "2026-05-19T10:00:00Z",
        "Vendor a renderer",
        files=[(f"src/widget/render/m{n}.py", 40, 20) for n in range(300)],
        files_truncated=True,
        changed_files=1774,
        additions=21019,
        deletions=10781,
    )
    _, markdown = _report([cut])
    assert "/pull/1>) changes 31,800 lines in 1,774 files." in markdown, markdown
    _, markdown = _report([cut], "zh")
    assert "/pull/1>) 改动了 1,774 个文件中的 31,800 行" in markdown, markdown


def test_bumps_named_only_by_their_titles_are_versions_not_defaults():
    # ruff 2026-W09: updates whose file lists the store does not hold, said by their titles alone
    bumps = [
        make_pull(n, f"2026-05-19T1{n}:00:00Z", title)
        for n, title in enumerate(
            ["Update Rust crate toml to v1", "Update Rust crate argfile to v1"], start=1
        )
    ]
    rows, _ = _report(bumps)
    assert list(rows) == ["Versions named in their titles"], rows
    rows_zh, _ = _report(bumps, "zh")
    assert list(rows_zh) == ["标题提到版本"], rows_zh


def test_untested_code_is_said_as_the_fact_and_words_in_code_are_not_untested():
    # verl #6432's body shows its code working by experiment; verl #4732 adds 360 lines of docstrings:
    # "nothing shows the new code works" was wrong of both, so untested code is said as the fact
    grow = make_pull(
        1,
        "2026-05-19T11:00:00Z",
        "Add a planner",
        files=[("src/widget/planner.py", 300, 20)],
    )
    _, markdown = _report([grow])
    assert "(src/widget/planner.py) and changes no test." in markdown, markdown
    assert "nothing shows" not in markdown
    for title in ("[docs] feat: improve docstrings in planner.py", "Add type hints to the planner"):
        words = make_pull(
            2, "2026-05-19T11:00:00Z", title, files=[("src/widget/planner.py", 300, 20)]
        )
        weeks = analyse_repo("acme/widget", [words], None, analysis_options(DigestSettings()), NOW)
        week = next(w for w in weeks if w.pulls)
        assert "missing-tests" not in {risk.kind for risk in week.risks}, title
