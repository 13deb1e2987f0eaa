"""Nothing from outside the store gets in: links and pipes in its place, the machine's clock, a
repository's other spelling, hand-edited state and settings, and odd answers of GitHub (issue 37).

Each test is run as a user meets it: `repo-digest` as a command against the local GitHub
(tests/github_server, over real HTTP), real symbolic links and named pipes, a real build.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.github_server import GitHubServer
from tests.io.test_robustness import REPO, SINCE, errors, fetch, pulls, run, show, stored

MONTH = "2026-03.jsonl"  # the month of every PR of `pulls()`


def _month(folder: Path, name: str = MONTH, repo: str = REPO) -> Path:
    path = folder / "data" / repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _grep(folder: Path, marker: str) -> list[str]:
    """The files under `folder` that hold `marker`, links not followed."""
    return [
        str(p)
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink() and marker.encode() in p.read_bytes()
    ]


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
    assert (
        f"{month} is a symbolic link where a month file should be; it is skipped and nothing of it is read, so remove it."
        in done.stderr
    )
    assert _grep(tmp_path, marker) == [] and marker not in done.stdout + done.stderr
    assert (
        not month.is_symlink() and len(stored(tmp_path)) == 12
    )  # the fetched month took its place


def test_an_import_over_a_linked_month_file_keeps_nothing_of_what_it_points_at(tmp_path):
    marker = "marker-" + os.urandom(8).hex()
    month = _month(tmp_path)
    month.symlink_to("/proc/self/environ")
    export = tmp_path / "export.jsonl"
    with GitHubServer({REPO: pulls()}) as server:
        export.write_text("".join(json.dumps(p) + "\n" for p in server.repos[REPO]))
    done = run(
        tmp_path, "import", str(export), "--repo", REPO, env={"A_SECRET_OF_THE_RUNNER": marker}
    )
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
    assert errors(done) == [
        (
            f"repo-digest: {state} is a symbolic link, not a state file; nothing of it is read, so remove it "
            "(the next fetch writes a new one)."
        )
    ]


def test_a_repository_folder_that_is_a_link_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
    (tmp_path / "data" / REPO).rename(elsewhere)
    (tmp_path / "data" / REPO).symlink_to(elsewhere)
    done = run(tmp_path, "show", REPO, "--week", "2026-W10")
    assert done.returncode != 0
    assert errors(done) == [
        (
            f"repo-digest: {tmp_path / 'data' / REPO} is a symbolic link, not a folder of the store; nothing is "
            "read through it, so remove it (a fetch makes the folder again)."
        )
    ]


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
    assert (
        json.loads(done.stdout) == before
        and before["merged_count"] == 5
        and len(stored(tmp_path)) == 12
    )


def test_an_export_with_a_byte_order_mark_keeps_its_first_record(tmp_path):
    export = tmp_path / "export.jsonl"
    with GitHubServer({REPO: pulls()}) as server:
        export.write_bytes(
            b"\xef\xbb\xbf" + "".join(json.dumps(p) + "\n" for p in server.repos[REPO]).encode()
        )
    done = run(tmp_path, "import", str(export), "--repo", REPO)
    assert done.returncode == 0 and "not a JSON object" not in done.stderr, done.stderr
    assert len(stored(tmp_path)) == 12


# -- 2. the watermark is GitHub's time, not this machine's ---------------------------------------


def _state(folder: Path, repo: str = REPO) -> dict:
    return json.loads((folder / "data" / repo / "state.json").read_text())


def _fetch_to_now(folder: Path, server: GitHubServer, since: str | None = SINCE):
    """`repo-digest fetch` up to the present, whichever that is."""
    return run(folder, "fetch", REPO, *(["--since", since] if since else []), env=server.env())


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_clock_that_runs_ahead_of_githubs_does_not_move_the_watermark_past_githubs_present(
    tmp_path,
):
    behind = timedelta(days=100)  # GitHub's Date is 100 days before this machine's clock
    with GitHubServer({REPO: pulls()}) as server:
        server.date_offset = -behind.total_seconds()
        done = _fetch_to_now(tmp_path, server)
        github_now = datetime.now(UTC) - behind
    assert done.returncode == 0, done.stderr
    state = _state(tmp_path)
    assert _time(state["watermark"]) <= github_now and _time(
        state["fetched_at"]
    ) <= github_now + timedelta(minutes=1)


def test_a_watermark_ahead_of_the_present_is_set_back_with_one_warning_and_the_merges_in_between_are_fetched(
    tmp_path,
):
    with GitHubServer({REPO: pulls()}) as server:
        assert _fetch_to_now(tmp_path, server).returncode == 0
        state_file = tmp_path / "data" / REPO / "state.json"
        state = _state(tmp_path)
        state_file.write_text(
            json.dumps({**state, "watermark": "2030-01-01T00:00:00Z"})
        )  # a clock that ran ahead, or a hand edit
        later = datetime.now(UTC) - timedelta(days=2)
        server.add_pulls(
            REPO,
            [dict(p, merged_at=later.strftime("%Y-%m-%dT%H:%M:%SZ")) for p in pulls(2, first=300)],
        )
        done = _fetch_to_now(tmp_path, server, since=None)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "is ahead of the present" in line]
    assert len(warnings) == 1 and warnings[0].startswith(
        f"fetch: {state_file}: the watermark 2030-01-01T00:00:00Z is ahead"
    ), done.stderr
    assert {300, 301} <= set(stored(tmp_path)) and _time(
        _state(tmp_path)["watermark"]
    ) < datetime.now(UTC)
    assert "2030" not in done.stdout


# -- 7. one odd node costs that node ---------------------------------------------------------------


@pytest.mark.parametrize("number", [None, "abc"])
def test_a_node_without_a_readable_number_on_a_pr_of_many_files_costs_that_pr_not_the_window(
    tmp_path, number
):
    from tests.github_server import handmade_pull

    many = [
        {"filename": f"src/f{i}.py", "status": "modified", "additions": 1, "deletions": 0}
        for i in range(150)
    ]
    big = handmade_pull(150, datetime(2026, 3, 4, 9, tzinfo=UTC), repo=REPO, files=many)

    def spoil(answer: dict) -> dict:
        for node in ((answer.get("data") or {}).get("search") or {}).get("nodes") or ():
            if isinstance(node, dict) and node.get("number") == 150:
                node.pop("number") if number is None else node.update(number=number)
        return answer

    with GitHubServer({REPO: [*pulls(), big]}) as server:
        server.graphql_rewrite = spoil
        done = fetch(tmp_path, server)
    assert done.returncode == 0, done.stderr
    assert sorted(stored(tmp_path)) == list(range(100, 112))  # every other PR of the window is kept
    assert "only 12 of 13 PRs merged" in done.stderr and "Traceback" not in done.stderr
    assert show(tmp_path, "2026-W10")["complete"] is False  # and the week says it lacks one


# -- 9 and 11. GitHub somewhere else, and answers that are not GitHub's -----------------------------


def test_graphql_on_another_host_than_the_rest_api_is_fetched_from_there(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        other_host = server.url.replace("127.0.0.1", "localhost") + "/graphql"
        done = fetch(tmp_path, server, env={"GITHUB_GRAPHQL_URL": other_host})
    assert done.returncode == 0, done.stderr
    assert len(stored(tmp_path)) == 12 and "AssertionError" not in done.stderr


def test_a_graphql_url_that_is_not_a_web_address_is_one_sentence_naming_it(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        done = fetch(tmp_path, server, env={"GITHUB_GRAPHQL_URL": "ftp://example.org/graphql"})
    assert done.returncode != 0
    assert errors(done) == [
        (
            "repo-digest: GITHUB_GRAPHQL_URL must be an http(s) URL such as https://api.github.com/graphql, "
            "not 'ftp://example.org/graphql'."
        )
    ]


def test_a_web_page_in_place_of_graphqls_answer_is_named_a_web_page_not_a_truncated_answer(
    tmp_path,
):
    with GitHubServer({REPO: pulls()}) as server:
        server.faults.add("html", on="graphql", times=100)
        done = fetch(tmp_path, server)
        asked = server.count("graphql")
    assert done.returncode != 0
    assert errors(done) == [
        (
            f"repo-digest: {server.url}/graphql answered with a web page, not GitHub's JSON, while fetching {REPO}; "
            "check GITHUB_GRAPHQL_URL and GITHUB_API_URL."
        )
    ]
    assert asked == 1  # asking again changes nothing


def test_a_redirect_to_another_host_is_named_a_redirect(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        server.faults.add("redirect", on="graphql", times=100)
        done = fetch(tmp_path, server)
    assert done.returncode != 0
    assert errors(done) == [
        (
            f"repo-digest: GitHub's API at {server.url} redirected the request for {REPO} (host 127.0.0.1 to localhost), "
            "which is not followed; set GITHUB_API_URL (and GITHUB_GRAPHQL_URL) to where the API is now."
        )
    ]


# -- 3 and 5. settings that would publish nothing, or fail deep in the build ------------------------


def _plain(log: str) -> str:
    """Pelican's log as words, without the columns its terminal layout wraps them in."""
    return " ".join(re.sub(r"\S+\.py:\d+|\[\d\d:\d\d:\d\d\]", "", log).split())


def _settings(folder: Path, **values) -> None:
    (folder / "pelicanconf.py").write_text(
        'DIGEST_DATA_PATH = "data"\n' + "".join(f"{k} = {v!r}\n" for k, v in values.items())
    )


def test_a_digest_since_after_today_is_one_sentence_and_no_fetch(tmp_path):
    later = (datetime.now(UTC) + timedelta(days=40)).date().isoformat()
    _settings(tmp_path, DIGEST_SINCE=later)
    with GitHubServer({REPO: pulls()}) as server:
        done = run(tmp_path, "fetch", REPO, env=server.env())
        asked = server.count()
    assert done.returncode != 0 and asked == 0
    assert errors(done) == [
        (
            f"repo-digest: DIGEST_SINCE is {later}, which is after today: nothing would be fetched or published; "
            "set a date in the past, or none."
        )
    ]


def test_a_digest_since_after_today_stops_the_build_so_nothing_is_deployed(tmp_path):
    from tests.tiny_project import make, tiny_project

    later = (datetime.now(UTC) + timedelta(days=40)).date().isoformat()
    project = tiny_project(tmp_path / "project", DIGEST_SINCE=later)
    build = make(project, "html", "OUTPUTDIR=out")
    out, err = build.communicate()
    assert build.returncode != 0 and not (project / "out").exists()
    assert (
        f"DIGEST_SINCE is {later}, which is after today: nothing would be fetched or published"
        in _plain(out + err)
    )
    assert "Traceback" not in out + err


def test_a_timezone_that_is_a_folder_of_the_timezone_data_is_one_sentence_naming_the_setting(
    tmp_path,
):
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
    _settings(tmp_path, DIGEST_TIMEZONE="America")
    done = run(tmp_path, "show", REPO, "--week", "2026-W10")
    assert done.returncode != 0
    assert errors(done) == [
        "repo-digest: DIGEST_TIMEZONE 'America' is not a known timezone name, such as UTC or Asia/Shanghai."
    ]


def test_a_timezone_that_is_a_folder_stops_the_build_with_the_sentence(tmp_path):
    from tests.tiny_project import make, tiny_project

    project = tiny_project(tmp_path / "project", DIGEST_TIMEZONE="America")
    build = make(project, "html", "OUTPUTDIR=out")
    out, err = build.communicate()
    assert build.returncode != 0 and not (project / "out").exists()
    assert "DIGEST_TIMEZONE 'America' is not a known timezone name" in _plain(out + err)
    assert "Traceback" not in out + err and "IsADirectoryError" not in out + err


# -- 6. a hand-edited state file ------------------------------------------------------------------


EDITS = {  # field: (value written by hand, what the sentence says of it)
    "progress": ("abc", "progress: 'abc' is not an object"),
    "progress ": (["since"], "progress: \"['since']\" is not an object"),
    "fetched_at": (
        "9999-12-31T23:59:59Z",
        "fetched_at: 9999-12-31T23:59:59Z is before 2008 or in the future",
    ),
    "fetched_at ": (
        "0001-01-01T00:00:00Z",
        "fetched_at: 0001-01-01T00:00:00Z is before 2008 or in the future",
    ),
    "created_at": (
        "2031-01-01T00:00:00Z",
        "created_at: 2031-01-01T00:00:00Z is before 2008 or in the future",
    ),
}


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("command", ["fetch", "show"])
def test_a_hand_edited_state_field_is_one_sentence_naming_the_file_the_field_and_the_value(
    tmp_path, edit, command
):
    value, said = EDITS[edit]
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
        state_file = tmp_path / "data" / REPO / "state.json"
        state_file.write_text(json.dumps({**_state(tmp_path), edit.strip(): value}, indent=2))
        done = (
            fetch(tmp_path, server, since=None)
            if command == "fetch"
            else run(tmp_path, "show", REPO, "--week", "2026-W10")
        )
    assert done.returncode != 0
    assert errors(done) == [
        (
            f"repo-digest: {state_file} has a bad value in {said}; correct it, restore it from version control, "
            "or delete it to refetch."
        )
    ]


# -- 11. a week that is not on the calendar --------------------------------------------------------


@pytest.mark.parametrize("week", ["0000-W01", "9999-W52"])
def test_a_week_outside_the_calendar_is_one_sentence(tmp_path, week):
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
    done = run(tmp_path, "show", REPO, "--week", week)
    assert done.returncode != 0
    assert errors(done) == [
        f"repo-digest: '{week}' is not a week: its year is outside 0001 to 9998."
    ]


# -- 8. one repository, two spellings --------------------------------------------------------------


def _folders(folder: Path) -> list[str]:
    return sorted(f"{p.parent.name}/{p.name}" for p in (folder / "data").glob("*/*") if p.is_dir())


def test_a_repository_fetched_under_another_spelling_keeps_one_folder_spelled_as_github_spells_it(
    tmp_path,
):
    with GitHubServer({REPO: pulls()}) as server:
        first = fetch(tmp_path, server, REPO.upper())  # as a user may type it
        second = fetch(tmp_path, server, "Octo-Org/Widgets", since=None)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert _folders(tmp_path) == [REPO] and _state(tmp_path)["repo"] == REPO
    assert (
        len(stored(tmp_path)) == 12
        and show(tmp_path, "2026-W10", repo="OCTO-ORG/widgets")["merged_count"] == 5
    )


def test_a_second_folder_of_one_repository_is_merged_with_a_warning(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
        twin = (
            tmp_path / "data/Octo-Org/Widgets"
        )  # what an earlier repo-digest made of `fetch Octo-Org/Widgets`
        twin.parent.mkdir()
        shutil.copytree(tmp_path / "data" / REPO, twin)
        (twin / "state.json").write_text(
            json.dumps(
                {
                    **_state(tmp_path),
                    "repo": "Octo-Org/Widgets",
                    "fetched_at": "2026-01-01T00:00:00Z",
                }
            )
        )
        done = fetch(tmp_path, server, since=None)
    assert done.returncode == 0, done.stderr
    assert _folders(tmp_path) == [REPO] and len(stored(tmp_path)) == 12
    assert (
        f"{twin} and {tmp_path / 'data' / REPO} held one repository under two spellings (GitHub's names ignore case); "
        f"{twin} was merged into {tmp_path / 'data' / REPO} and removed."
    ) in done.stderr
