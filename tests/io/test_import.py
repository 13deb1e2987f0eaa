"""`repo-digest import`: real exports load completely; bad files change nothing."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime

import pytest

from digest_plugin.cli import main
from digest_plugin.records.pull import TITLE_LIMIT, clean_text
from digest_plugin.records.state import RepoState
from digest_plugin.settings import check_timezone as timezone
from digest_plugin.store.folder import Store
from digest_plugin.store.jsonl_import import read_export
from digest_plugin.weeks import week_of
from tests.conftest import real_data

REAL_FILES = {
    "verl-project__verl.pulls.jsonl.gz": 2883,
    "astral-sh__ruff.pulls.jsonl.gz": 7554,
    "getpelican__pelican.pulls.jsonl.gz": 887,
}


@pytest.mark.parametrize("name, merged", REAL_FILES.items())
def test_each_real_file_imports_completely(tmp_path, name, merged, capsys):
    path = real_data(name)
    repo = name.split(".")[0].replace("__", "/")
    store = Store(tmp_path / "data")
    assert main(["import", str(path), "--repo", repo, "--settings", str(_settings(tmp_path))]) == 0
    stored = store.read_pulls(repo)
    with gzip.open(path, "rt") as lines:
        source = {json.loads(line)["number"]: json.loads(line) for line in lines}
    assert len(stored) == merged == len(source)
    for pull in stored[
        :: max(1, len(stored) // 200)
    ]:  # every field we keep, on a spread of records
        raw = source[pull.number]
        assert pull.title == clean_text(
            raw["title"], TITLE_LIMIT, one_line=True
        )  # a title is one line
        assert pull.url == raw["html_url"]
        assert pull.author.login == raw["user"]["login"]
        assert pull.additions == raw["additions"] and pull.deletions == raw["deletions"]
        assert pull.changed_files == raw["changed_files"]
        assert [f.path for f in pull.files] == [f["filename"] for f in raw["files"]][:300]
        assert pull.merged_at.strftime("%Y-%m-%dT%H:%M:%SZ") == raw["merged_at"]
    assert "Imported" in capsys.readouterr().out


def test_verl_week_21_has_31_merged_pulls():
    pulls = list(read_export(real_data("verl-project__verl.pulls.jsonl.gz")))
    utc = timezone("UTC")
    assert sum(1 for p in pulls if str(week_of(p.merged_at, utc)) == "2026-W21") == 31


def test_reimport_changes_nothing(tmp_path):
    path = real_data("getpelican__pelican.pulls.jsonl.gz")
    settings = str(_settings(tmp_path))
    assert main(["import", str(path), "--repo", "getpelican/pelican", "--settings", settings]) == 0
    before = {
        p.name: p.read_bytes() for p in (tmp_path / "data/getpelican/pelican").glob("*.jsonl")
    }
    assert main(["import", str(path), "--repo", "getpelican/pelican", "--settings", settings]) == 0
    after = {p.name: p.read_bytes() for p in (tmp_path / "data/getpelican/pelican").glob("*.jsonl")}
    assert before == after


def test_a_bad_line_is_named_and_the_rest_is_imported(tmp_path, capsys, caplog):
    export = tmp_path / "bad.jsonl"
    good = {
        "number": 1,
        "title": "ok",
        "html_url": "https://github.com/a/b/pull/1",
        "user": {"login": "x"},
        "merged_at": "2026-05-01T00:00:00Z",
    }
    export.write_text(
        json.dumps(good)
        + "\n{not json\n"
        + json.dumps({**good, "number": 2, "labels": "bug"})
        + "\n"
    )
    assert (
        main(
            ["import", str(export), "--repo", "acme/widget", "--settings", str(_settings(tmp_path))]
        )
        == 0
    )
    assert "bad.jsonl, line 2, is not a JSON object; that line was not imported" in caplog.text
    assert (
        "bad.jsonl, line 3, has a bad value in labels: expected a list of names, found text"
        in caplog.text
    )
    assert "Imported 1 merged pull requests" in capsys.readouterr().out
    assert [p.number for p in Store(tmp_path / "data").read_pulls("acme/widget")] == [1]


def test_a_file_without_one_good_line_writes_nothing(tmp_path, capsys):
    export = tmp_path / "bad.jsonl"
    export.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\n{not json\n")
    assert (
        main(
            ["import", str(export), "--repo", "acme/widget", "--settings", str(_settings(tmp_path))]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert (
        "bad.jsonl has no line that is a GitHub pull request object" in err
        and "Traceback" not in err
    )
    assert not (tmp_path / "data").exists()


def test_missing_file_and_bad_repo_name(tmp_path, capsys):
    settings = str(_settings(tmp_path))
    assert (
        main(
            [
                "import",
                str(tmp_path / "nope.jsonl"),
                "--repo",
                "acme/widget",
                "--settings",
                settings,
            ]
        )
        == 1
    )
    assert "does not exist" in capsys.readouterr().err
    assert (
        main(
            ["import", str(tmp_path / "nope.jsonl"), "--repo", "not-a-repo", "--settings", settings]
        )
        == 1
    )
    assert "is not a repository name" in capsys.readouterr().err


def _settings(folder):
    path = (
        folder / "importconf.py"
    )  # not "pelicanconf": a module of that name would shadow the project's
    path.write_text('DIGEST_DATA_PATH = "data"\n')
    return path


def test_the_head_branch_is_imported_and_a_bad_head_is_named(tmp_path, caplog):
    export = tmp_path / "heads.jsonl"
    good = {
        "number": 1,
        "title": "ok",
        "html_url": "https://github.com/a/b/pull/1",
        "user": {"login": "x"},
        "merged_at": "2026-05-01T00:00:00Z",
        "head": {"ref": "feature/<b>x</b>", "label": "x:feature/<b>x</b>"},
    }
    lines = [good, {**good, "number": 2, "head": None}, {**good, "number": 3, "head": "main"}]
    export.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert (
        main(
            ["import", str(export), "--repo", "acme/widget", "--settings", str(_settings(tmp_path))]
        )
        == 0
    )
    assert "heads.jsonl, line 3, has a bad value in head: expected an object" in caplog.text
    stored = {p.number: p.branch for p in Store(tmp_path / "data").read_pulls("acme/widget")}
    assert stored == {1: "feature/<b>x</b>", 2: ""}  # stored as written; escaped where shown


def test_a_line_merged_before_the_repository_was_created_is_named_and_the_rest_is_imported(
    tmp_path, caplog
):
    store = Store(tmp_path / "data")
    store.write_state(
        RepoState("acme/widget", "github", created_at=datetime(2026, 1, 1, tzinfo=UTC))
    )  # an earlier fetch knew it
    export = tmp_path / "old.jsonl"
    good = {
        "number": 1,
        "title": "ok",
        "html_url": "https://github.com/a/b/pull/1",
        "user": {"login": "x"},
        "merged_at": "2026-05-01T00:00:00Z",
    }
    export.write_text(
        json.dumps(good)
        + "\n"
        + json.dumps({**good, "number": 2, "merged_at": "2019-05-01T00:00:00Z"})
        + "\n"
    )
    assert (
        main(
            ["import", str(export), "--repo", "acme/widget", "--settings", str(_settings(tmp_path))]
        )
        == 0
    )
    assert (
        "old.jsonl, line 2, has a bad value in merged_at: 2019-05-01T00:00:00Z is before the repository was created "
        "(2026-01-01T00:00:00Z); that line was not imported"
    ) in caplog.text
    assert [p.number for p in store.read_pulls("acme/widget")] == [1]
    assert store.read_state("acme/widget").created_at == datetime(2026, 1, 1, tzinfo=UTC)
