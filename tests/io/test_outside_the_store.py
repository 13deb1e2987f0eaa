"""Nothing from outside the store gets in: links and pipes in its place, the machine's clock, a
repository's other spelling, hand-edited state and settings, and odd answers of GitHub (issue 37).

Each test is run as a user meets it: `repo-digest` as a command against the local GitHub
(tests/github_server, over real HTTP), real symbolic links and named pipes, a real build.
"""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from digest_plugin.store.folder import Store
from tests.github_server import GitHubServer
from tests.io.test_robustness import REPO, UNTIL, errors, fetch, pulls, run, show, stored

MONTH = "2026-03.jsonl"  # the month of every PR of `pulls()`


def _month(folder: Path, name: str = MONTH, repo: str = REPO) -> Path:
    path = folder / "data" / repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _grep(folder: Path, marker: str) -> list[str]:
    """The files under `folder` that hold `marker`, links not followed."""
    return [str(p) for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and marker.encode() in p.read_bytes()]


# -- 1. a link where a month file belongs --------------------------------------------------------


@pytest.mark.parametrize("target", ["/proc/self/environ", "a file of the machine"])
def test_a_month_file_that_is_a_link_is_refused_and_nothing_it_points_at_is_kept(tmp_path, target):
    marker = "marker-" + os.urandom(8).hex()
    if target != "/proc/self/environ":
        secret = tmp_path.parent / f"{tmp_path.name}-secret.txt"
        secret.write_text(f'{{"token": "{marker}"}}\nGITHUB_TOKEN={marker}\n')
        target = str(secret)
    month = _month(tmp_path)
    month.symlink_to(target)
    with GitHubServer({REPO: pulls()}) as server:
        done = fetch(tmp_path, server, env={"A_SECRET_OF_THE_RUNNER": marker})
    assert done.returncode == 0, done.stderr
    assert f"{month} is a symbolic link where a month file should be; it is skipped and nothing of it is read, so remove it." in done.stderr
    assert _grep(tmp_path, marker) == [] and marker not in done.stdout + done.stderr
    assert not month.is_symlink() and len(stored(tmp_path)) == 12  # the fetched month took its place


def test_an_import_over_a_linked_month_file_keeps_nothing_of_what_it_points_at(tmp_path):
    marker = "marker-" + os.urandom(8).hex()
    month = _month(tmp_path)
    month.symlink_to("/proc/self/environ")
    export = tmp_path / "export.jsonl"
    with GitHubServer({REPO: pulls()}) as server:
        export.write_text("".join(json.dumps(p) + "\n" for p in server.repos[REPO]))
    done = run(tmp_path, "import", str(export), "--repo", REPO, env={"A_SECRET_OF_THE_RUNNER": marker})
    assert done.returncode == 0, done.stderr
    assert _grep(tmp_path, marker) == [] and len(stored(tmp_path)) == 12


def test_a_state_file_that_is_a_link_is_one_sentence_and_is_not_read(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
    state = tmp_path / "data" / REPO / "state.json"
    (tmp_path / "elsewhere.json").write_bytes(state.read_bytes())
    state.unlink()
    state.symlink_to(tmp_path / "elsewhere.json")
    done = run(tmp_path, "show", REPO, "--week", "2026-W10")
    assert done.returncode != 0
    assert errors(done) == [f"repo-digest: {state} is a symbolic link, not a state file; nothing of it is read, so remove it "
                            "(the next fetch writes a new one)."]


def test_a_repository_folder_that_is_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
    (tmp_path / "data" / REPO).rename(elsewhere)
    (tmp_path / "data" / REPO).symlink_to(elsewhere)
    done = run(tmp_path, "show", REPO, "--week", "2026-W10")
    assert done.returncode != 0
    assert errors(done) == [f"repo-digest: {tmp_path / 'data' / REPO} is a symbolic link, not a folder of the store; nothing is "
                            "read through it, so remove it (a fetch makes the folder again)."]


def test_a_month_file_that_is_a_named_pipe_is_named_so_and_the_fetch_does_not_wait_on_it(tmp_path):
    month = _month(tmp_path, "2026-02.jsonl")
    os.mkfifo(month)
    with GitHubServer({REPO: pulls()}) as server:
        done = fetch(tmp_path, server)
    assert done.returncode == 0, done.stderr
    assert f"{month} is a named pipe where a month file should be" in done.stderr
    assert "is a folder" not in done.stderr and len(stored(tmp_path)) == 12


# -- 10. a byte order mark ------------------------------------------------------------------------


def test_a_month_file_with_a_byte_order_mark_keeps_its_first_record(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
    before = show(tmp_path, "2026-W10")
    month = _month(tmp_path)
    month.write_bytes(b"\xef\xbb\xbf" + month.read_bytes())  # saved again by an editor on Windows
    done = run(tmp_path, "show", REPO, "--week", "2026-W10", "--format", "json")
    assert done.returncode == 0 and "not a JSON object" not in done.stderr, done.stderr
    assert json.loads(done.stdout) == before and before["merged_count"] == 5 and len(stored(tmp_path)) == 12


def test_an_export_with_a_byte_order_mark_keeps_its_first_record(tmp_path):
    export = tmp_path / "export.jsonl"
    with GitHubServer({REPO: pulls()}) as server:
        export.write_bytes(b"\xef\xbb\xbf" + "".join(json.dumps(p) + "\n" for p in server.repos[REPO]).encode())
    done = run(tmp_path, "import", str(export), "--repo", REPO)
    assert done.returncode == 0 and "not a JSON object" not in done.stderr, done.stderr
    assert len(stored(tmp_path)) == 12
