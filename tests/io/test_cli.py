"""`repo-digest` as a user runs it: import then show, and one clear sentence for each kind of bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import real_data

CLI = str(Path(sys.executable).with_name("repo-digest"))


def run(*args, cwd):
    return subprocess.run([CLI, *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def verl_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("verl")
    (folder / "pelicanconf.py").write_text(
        'DIGEST_DATA_PATH = "data"\nSITEURL = "https://digest.example"\n'
    )
    result = run(
        "import",
        str(real_data("verl-project__verl.pulls.jsonl.gz")),
        "--repo",
        "verl-project/verl",
        cwd=folder,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Imported 2883 merged pull requests")
    return folder


def test_show_json_follows_the_design_schema(verl_site):
    result = run(
        "show", "verl-project/verl", "--week", "2026-W21", "--format", "json", cwd=verl_site
    )
    assert result.returncode == 0, result.stderr
    week = json.loads(result.stdout)
    assert (week["repo"], week["week"], week["start"], week["end"]) == (
        "verl-project/verl",
        "2026-W21",
        "2026-05-18",
        "2026-05-24",
    )
    assert week["merged_count"] == 31 == len(week["pulls"])
    assert week["key_count"] == sum(p["key"] for p in week["pulls"])
    scores = [p["importance"] for p in week["pulls"]]
    assert scores == sorted(scores, reverse=True)
    assert all("2026-05-18" <= p["merged_at"][:10] <= "2026-05-24" for p in week["pulls"])
    assert sum(a["count"] for a in week["authors"]) == 31
    numbers = {p["number"] for p in week["pulls"]}
    for item in week["risks"] + week["highlights"] + week["recommendations"]:
        assert set(item["pulls"]) <= numbers
    assert "merged 31 PRs" in week["summary"]
    assert week["fetch"]["source"] == "import"


def test_show_json_and_markdown_give_each_key_change_the_same_line(verl_site):
    week = json.loads(
        run(
            "show", "verl-project/verl", "--week", "2026-W21", "--format", "json", cwd=verl_site
        ).stdout
    )
    markdown = run(
        "show", "verl-project/verl", "--week", "2026-W21", "--format", "markdown", cwd=verl_site
    ).stdout
    key = [p for p in week["pulls"] if p["key"]]
    assert key and all(p["text"] for p in key)
    assert not any("text" in p for p in week["pulls"] if not p["key"])
    for pull in key:  # Markdown escapes its specials; compare the words
        assert re.sub(r"\\(.)", r"\1", pull["text"]) in re.sub(r"\\(.)", r"\1", markdown), pull[
            "number"
        ]


def test_show_markdown_links_to_the_published_page(verl_site):
    result = run(
        "show", "verl-project/verl", "--week", "2026-W21", "--format", "markdown", cwd=verl_site
    )
    assert result.returncode == 0, result.stderr
    assert "https://digest.example/verl-project/verl/2026-W21/" in result.stdout
    assert "https://github.com/verl-project/verl/pull/" in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["show", "verl-project/verl", "--week", "2026-21"], "is not a week"),
        (["show", "verl-project/verl", "--week", "2019-W05"], "has no data for 2019-W05"),
        (["show", "acme/nothing", "--week", "2026-W21"], "acme/nothing is not in the store"),
        (
            ["show", "verl-project/verl", "--week", "2026-W21", "--settings", "missing.py"],
            "does not exist",
        ),
    ],
)
def test_bad_input_is_one_sentence_and_a_nonzero_exit(verl_site, args, message):
    result = run(*args, cwd=verl_site)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_missing_data_folder(tmp_path):
    result = run("show", "acme/widget", "--week", "2026-W21", cwd=tmp_path)
    assert result.returncode == 1
    assert "does not exist" in result.stderr and "Traceback" not in result.stderr


def test_debug_shows_the_traceback(tmp_path):
    result = run("show", "acme/widget", "--week", "2026-W21", "--debug", cwd=tmp_path)
    assert result.returncode != 0 and "Traceback" in result.stderr


# -- fetch, against the local GitHub ------------------------------------------------------------


@pytest.fixture(scope="module")
def github():
    from tests.github_server import HANDMADE_REPO, GitHubServer, handmade_pulls

    with GitHubServer({HANDMADE_REPO: handmade_pulls()}) as server:
        yield server, HANDMADE_REPO, handmade_pulls()


def run_with(env, *args, cwd):
    import os

    return subprocess.run(
        [CLI, *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **env}
    )


def test_fetch_then_show_then_build_says_where_the_data_came_from(github, tmp_path):
    server, repo, pulls = github
    (tmp_path / "pelicanconf.py").write_text(
        f'DIGEST_DATA_PATH = "data"\nDIGEST_REPOS = ["{repo}"]\n'
    )
    result = run_with(server.env(), "fetch", "--since", "2026-01-01", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"{repo}: {len(pulls)} PRs fetched" in result.stdout
    week = max(p["merged_at"] for p in pulls)
    from digest_plugin.records.pull import parse_time
    from digest_plugin.settings import check_timezone as timezone
    from digest_plugin.weeks import week_of

    week_id = str(week_of(parse_time(week), timezone("UTC")))
    shown = run_with(server.env(), "show", repo, "--week", week_id, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["fetch"]["source"] == "github" and data["complete"] in (True, False)
    assert server.env()["GITHUB_TOKEN"] not in result.stdout + result.stderr + shown.stdout
    stored = "".join(p.read_text() for p in (tmp_path / "data").rglob("*") if p.is_file())
    assert server.env()["GITHUB_TOKEN"] not in stored


def test_fetch_with_a_bad_token_is_one_sentence_and_keeps_the_store(github, tmp_path):
    server, repo, _ = github
    (tmp_path / "pelicanconf.py").write_text('DIGEST_DATA_PATH = "data"\n')
    bad = "ghp_wrongToken0000000000000000000000000"
    result = run_with(server.env(token=bad), "fetch", repo, "--since", "2026-01-01", cwd=tmp_path)
    assert result.returncode == 1
    assert bad not in result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("repo-digest:")]
    assert "Traceback" not in result.stderr and len(errors) == 1  # the other lines are progress
    assert "rejected the token" in errors[0]
    assert not (tmp_path / "data" / repo).exists()


def test_the_sample_is_never_fetched(github):
    server, _, _ = github
    root = Path(__file__).resolve().parents[2]
    result = run_with(server.env(), "fetch", "quillmoss/fernwheel", cwd=root)
    assert result.returncode == 0
    assert "sample" in result.stdout
    assert server.count() == 0 or all("quillmoss" not in str(e) for e in server.log)
