"""A stranger's PR or an outage never stops the weekly site: each way issue 30 found to stop it for
good, or to show something wrong without a word, tried the way a user meets it.

Every test here is a probe: `repo-digest` run as a command against the local GitHub
(tests/github_server, over real HTTP), the language-model writer against the local model server
(tests/llm_server, through the real `openai` client), a real build. A probe that sees a traceback
where a sentence is due raises `TracebackSeen`; one that sees a wrong result (an assertion) failed
silently. `bench/probe_robustness.py` runs this module and prints the table of both.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import shutil
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from digest_plugin.llm import language_model_writer
from digest_plugin.narrate import narrate
from digest_plugin.narrate.wording import Language
from digest_plugin.settings import DigestSettings, LLMConfig
from digest_plugin.store.folder import Store
from tests.github_server import LEFT_OUT, GitHubServer, NodeFault, handmade_pull
from tests.llm_server import GOOD_KEY, ChatServer, Reply, answers
from tests.narrate_fixtures import busy_week, previous_week, week_of
from tests.site_builder import build_site

ROOT = Path(__file__).resolve().parents[2]
CLI = str(Path(sys.executable).with_name("repo-digest"))
REPO = "octo-org/widgets"
MONDAY = datetime(2026, 3, 2, 9, tzinfo=UTC)  # three weeks of PRs from here: 2026-W10 to W12
SINCE, UNTIL = "2026-03-02", "2026-03-22"


class TracebackSeen(Exception):
    """A traceback (or Pelican's "unexpected error") where one sentence is due."""


def run(folder: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """`repo-digest ARGS` in `folder` (its pelicanconf.py), as a user runs it."""
    settings = folder / "pelicanconf.py"
    if not settings.exists():
        settings.write_text('DIGEST_DATA_PATH = "data"\n')
    done = subprocess.run(
        [CLI, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **{
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("GITHUB_", "GH_", "DIGEST_"))
            },
            **(env or {}),
        },
    )
    said = done.stdout + done.stderr
    if "Traceback (most recent call last)" in said or "unexpected error" in said:
        raise TracebackSeen(said[-3000:])
    return done


def errors(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith("repo-digest:")]


def pulls(count: int = 12, repo: str = REPO, first: int = 100) -> list[dict]:
    """`count` ordinary merged PRs of `repo` over three weeks from MONDAY."""
    return [
        handmade_pull(first + i, MONDAY + timedelta(hours=37 * i), repo=repo) for i in range(count)
    ]


def fetch(
    folder: Path,
    server: GitHubServer,
    *repos: str,
    since: str | None = SINCE,
    until: str = UNTIL,
    env: dict | None = None,
):
    dates = ["--since", since] if since else []
    return run(
        folder,
        "fetch",
        *(repos or (REPO,)),
        *dates,
        "--until",
        until,
        env={**server.env(), **(env or {})},
    )


def stored(folder: Path, repo: str = REPO) -> dict:
    return {p.number: p for p in Store(folder / "data").read_pulls(repo)}


def show(folder: Path, week: str, repo: str = REPO, fmt: str = "json"):
    done = run(folder, "show", repo, "--week", week, "--format", fmt)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if fmt == "json" else done.stdout


def week_of_pull(pull: dict) -> str:
    merged = datetime.fromisoformat(pull["merged_at"].replace("Z", "+00:00"))
    return "{}-W{:02d}".format(*merged.isocalendar()[:2])


# -- 1. fetched data goes through the gate, and what it refuses is repaired or set aside -------


ODD = {  # legal on GitHub, blank once cleaned: kept, and shown spelled out
    201: (
        dict(files=[{"filename": " ", "status": "added", "additions": 1, "deletions": 0}]),
        "U+0020",
    ),
    202: (
        dict(files=[{"filename": "\x1b", "status": "added", "additions": 1, "deletions": 0}]),
        "U+001B",
    ),
    203: (dict(labels=[{"name": "\u202e"}]), "U+202E"),
}


def odd_pulls() -> list[dict]:
    """The odd PRs, each file name twice (201 and 204, 202 and 205): a page lists a file that several PRs touch."""
    odd = {**ODD, 204: ODD[201], 205: ODD[202]}
    return [
        *pulls(),
        *(
            handmade_pull(n, MONDAY + timedelta(days=1, hours=n - 200), repo=REPO, **change)
            for n, (change, _) in odd.items()
        ),
    ]


@pytest.mark.parametrize("number", ODD)
def test_a_blank_file_name_or_a_bidi_only_label_is_fetched_and_kept_spelled_out(tmp_path, number):
    with GitHubServer(
        {REPO: [p for p in odd_pulls() if p["number"] < 200 or p["number"] == number]}
    ) as server:
        done = fetch(tmp_path, server)
    assert done.returncode == 0, done.stderr
    pull = stored(tmp_path)[number]
    assert ODD[number][1] in [*pull.labels, *(f.path for f in pull.files)]
    assert len(stored(tmp_path)) == 13


def pdf_text(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed"
)
def test_the_spelled_out_names_show_as_written_on_the_page_the_markdown_the_feeds_and_the_pdf(
    tmp_path,
):
    pytest.importorskip("weasyprint")
    with GitHubServer({REPO: odd_pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
    output = build_site(
        tmp_path,
        DIGEST_PDF=True,
        DIGEST_KEY_THRESHOLD=0,
        SITEURL="https://example.org",
        FEED_DOMAIN="https://example.org",
    )
    week = output / REPO / "2026-W10"
    every = [spelled for _, spelled in ODD.values()]
    surfaces = {  # what each shows: a week's page, Markdown and PDF its most-touched files and labels, a feed its labels
        "page": ((week / "index.html").read_text(), every),
        "markdown": ((week / "digest.md").read_text(), every),
        "pdf": (pdf_text(week / "digest.pdf"), every),
        "feed": ((output / "feeds" / f"{REPO}.atom.xml").read_text(), ["U+202E"]),
        "label feed": ((output / "feeds/labels/u202e.atom.xml").read_text(), ["U+202E"]),
    }
    for surface, (text, names) in surfaces.items():
        assert [name for name in names if name not in text.replace("\n", " ")] == [], surface
        assert not any(c in text for c in "\x1b\u202e"), surface


def test_a_pr_the_gate_refuses_is_set_aside_by_number_and_the_rest_is_fetched(tmp_path):
    broken = handmade_pull(
        250, MONDAY + timedelta(days=2), repo=REPO, additions=2_000_000_000
    )  # past the record's range
    with GitHubServer({REPO: [*pulls(), broken]}) as server:
        done = fetch(tmp_path, server)
    assert done.returncode == 0, done.stderr
    assert f"{REPO}: PR #250 could not be read: its additions cannot be read" in done.stderr
    assert sorted(stored(tmp_path)) == list(range(100, 112))
    assert show(tmp_path, "2026-W10")["complete"] is False  # missing a PR, and saying so


# -- 2. each repository on its own; a PR that keeps failing is skipped and named ---------------


def test_one_repository_that_fails_does_not_stop_the_others_and_the_summary_names_it(tmp_path):
    summary = tmp_path / "summary.md"
    with GitHubServer(
        {"a-org/one": pulls(repo="a-org/one"), "c-org/three": pulls(repo="c-org/three")}
    ) as server:
        done = fetch(
            tmp_path,
            server,
            "a-org/one",
            "nobody/nothing",
            "c-org/three",
            env={"GITHUB_STEP_SUMMARY": str(summary)},
        )
    assert done.returncode == 1
    assert len(stored(tmp_path, "a-org/one")) == len(stored(tmp_path, "c-org/three")) == 12
    assert errors(done) == [
        "repo-digest: GitHub has no repository nobody/nothing, or the token cannot see it; check the name and the token's access."
    ]
    assert "nobody/nothing" in summary.read_text() and "c-org/three" in summary.read_text()


def test_an_error_on_one_prs_node_beside_the_rest_is_made_up_for_through_rest(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        server.node_faults[(REPO, 104)] = NodeFault(
            "files"
        )  # GitHub: the node's files null, an error beside
        server.node_faults[(REPO, 106)] = NodeFault(
            "body", type="SERVICE_UNAVAILABLE"
        )  # a required field: the whole node null
        done = fetch(tmp_path, server)
    assert done.returncode == 0, done.stderr
    by_number = stored(tmp_path)
    assert sorted(by_number) == list(range(100, 112))
    assert (
        by_number[104].files[0].path == "src/module_4.py"
        and by_number[106].title == "feat: change number 106"
    )
    assert show(tmp_path, "2026-W10")["complete"] is True


def test_files_null_without_an_error_is_read_through_rest(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        server.node_faults[(REPO, 105)] = NodeFault(
            "files", message=None
        )  # GitHub's answer for a diff too large to list
        done = fetch(tmp_path, server)
    assert done.returncode == 0, done.stderr
    assert [f.path for f in stored(tmp_path)[105].files] == ["src/module_0.py"]


def test_a_pr_that_fails_the_same_way_twice_is_skipped_and_its_week_names_it(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        server.node_faults[(REPO, 101)] = NodeFault("files")
        server.failing_files.add((REPO, 101))  # and REST will not list them either
        first = fetch(tmp_path, server)
        assert first.returncode == 0, first.stderr
        assert (
            "PR #101 could not be read" in first.stderr
            and "the next fetch tries it again" in first.stderr
        )
        assert show(tmp_path, "2026-W10")["complete"] is False
        second = fetch(tmp_path, server, since=None)
    assert second.returncode == 0, second.stderr
    assert "it failed the same way in the fetch before, so it is skipped" in second.stderr
    week = show(tmp_path, "2026-W10")
    assert week["complete"] is True and week["fetch"]["skipped"] == [101]
    assert 101 not in stored(tmp_path) and week["merged_count"] == 4  # 100, 102, 103 and 104
    assert "Complete but for \\#101" in show(tmp_path, "2026-W10", fmt="markdown")
    assert show(tmp_path, "2026-W11")["complete"] is True  # the other weeks are not touched


# -- 3. an incomplete window is fetched again ------------------------------------------------------


def test_an_incomplete_window_is_fetched_again_by_the_next_fetch_until_complete(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        server.hidden.add((REPO, 103))  # counted by search, not listed: the index lags
        assert fetch(tmp_path, server).returncode == 0
        assert show(tmp_path, "2026-W10")["complete"] is False
        server.hidden.clear()
        done = fetch(tmp_path, server, since=None)
    assert done.returncode == 0, done.stderr
    assert 103 in stored(tmp_path)
    assert Store(tmp_path / "data").read_state(REPO).incomplete == ()
    assert show(tmp_path, "2026-W10")["complete"] is True


# -- 4. numbers in every script are numbers --------------------------------------------------------


def writer_for(server: ChatServer, data: Path, timeout: float = 20, base_url: str | None = None):
    llm = LLMConfig(base_url or server.url, "local-model", timeout=timeout)
    settings = DigestSettings(data_path=data, writer="llm", llm=llm)
    return language_model_writer(
        settings, environ={"OPENAI_API_KEY": GOOD_KEY}, sleep=lambda seconds: None
    )


def saying(text: str, **figures):
    """A model whose summary is `text`, claiming `figures`; the rest of its answer grounded."""

    def script(request):
        answer = answers.grounded(request.document)
        answer["summary"] = [answers.sentence(text, [101], **figures)]
        return Reply.answer(answer)

    return script


WRONG_NUMBERS = {  # a week of 6 merged PRs and 3 key ones; none of these numbers is one of its figures
    "circled": ("en", "#101 changed ⑨⑨⑨ files this week.", {}),
    "superscript": ("en", "#101 added ⁹⁹⁹⁹⁹⁹ lines this week.", {}),
    "English words": ("en", "#101 took ninety percent of the week.", {}),
    "fullwidth": ("en", "#101 changed ９９９ files this week.", {}),
    "mixed styles": ("en", "#101 changed 10² files, 6 PRs merged.", {"merged": 6}),
    "Chinese numerals": ("zh", "本周合并了九十个拉取请求，#101 最重要。", {"merged": 6}),
    "Chinese percent": ("zh", "本周 #101 占了百分之九十的工作。", {}),
}


@pytest.mark.parametrize("case", WRONG_NUMBERS)
def test_a_number_the_figures_do_not_hold_is_rejected_whatever_it_is_written_in(tmp_path, case):
    language, text, figures = WRONG_NUMBERS[case]
    with ChatServer(script=saying(text, **figures)) as server:
        narrative = narrate(
            busy_week(), [previous_week()], Language.of(language), writer_for(server, tmp_path)
        )
    assert narrative.writer == "llm"  # the rest of the answer is used
    assert [r.text for r in narrative.check.rejected if r.part == "summary"] == [text]
    assert text not in narrative.summary.text


def test_numbers_written_otherwise_that_are_the_figures_are_kept(tmp_path):
    text = "#101 leads the ⑥ pull requests, three of them key."
    with ChatServer(script=saying(text, merged=6, key=3)) as server:
        narrative = narrate(
            busy_week(), [previous_week()], Language.of("en"), writer_for(server, tmp_path)
        )
    assert narrative.summary.text == text


# -- 5. a model that does not answer is asked once a build -------------------------------------


def three_weeks():
    week = busy_week()
    return [
        week,
        week_of(week.pulls[:3], week="2026-W22", monday=date(2026, 5, 25)),
        week_of(week.pulls[3:], week="2026-W23", monday=date(2026, 6, 1)),
    ]


def test_a_model_that_hangs_is_asked_once_in_a_build_with_one_warning(tmp_path, caplog):
    with ChatServer() as server:
        server.replies.extend([Reply.stall()] * 3)
        writer = writer_for(server, tmp_path, timeout=0.5)
        with caplog.at_level(logging.WARNING):
            narratives = [
                narrate(week, [previous_week()], Language.of("en"), writer)
                for week in three_weeks()
            ]
        assert len(server.requests) == 1
    assert all(n.writer == "builtin" for n in narratives)
    assert len([r for r in caplog.records if "no answer within" in r.getMessage()]) == 1


def test_a_model_that_cannot_be_reached_is_tried_for_one_week_only(tmp_path, caplog):
    with ChatServer() as closed:
        url = closed.url  # a port nothing listens on once the server is gone
    writer = writer_for(None, tmp_path, base_url=url)
    with caplog.at_level(logging.WARNING):
        narratives = [
            narrate(week, [previous_week()], Language.of("en"), writer) for week in three_weeks()
        ]
    assert all(n.writer == "builtin" for n in narratives)
    assert writer.endpoint.budget.used == 4  # one week's tries; the later weeks were not asked
    assert len([r for r in caplog.records if "could not be reached" in r.getMessage()]) == 1


# -- 6. duplicates in one import -----------------------------------------------------------------


def rest_pull(number: int, merged_at: str, title: str) -> dict:
    return {
        "number": number,
        "title": title,
        "html_url": f"https://github.com/acme/widget/pull/{number}",
        "user": {"login": "alice"},
        "merged_at": merged_at,
        "labels": [],
        "additions": 1,
        "deletions": 0,
        "changed_files": 1,
    }


def test_a_pr_twice_in_one_import_is_stored_once_the_later_record_winning(tmp_path):
    export = tmp_path / "export.jsonl"
    lines = [
        rest_pull(5, "2026-04-20T09:00:00Z", "feat: the later record"),
        rest_pull(6, "2026-03-10T09:00:00Z", "fix: other"),
    ]
    lines.insert(0, rest_pull(5, "2026-03-09T09:00:00Z", "feat: the earlier record"))
    export.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert run(tmp_path, "import", str(export), "--repo", "acme/widget").returncode == 0
    assert stored(tmp_path, "acme/widget")[5].title == "feat: the later record"
    month_files = sorted((tmp_path / "data/acme/widget").glob("*.jsonl"))
    assert (
        sum(
            json.loads(line)["number"] == 5
            for path in month_files
            for line in path.read_text().splitlines()
        )
        == 1
    )


# -- 7. one sentence where a traceback was --------------------------------------------------------


def test_a_truncated_gzip_export_is_one_sentence_naming_it(tmp_path):
    data = gzip.compress(
        b"".join(
            json.dumps(rest_pull(n, "2026-03-10T09:00:00Z", "x" * 300)).encode() + b"\n"
            for n in range(1, 300)
        )
    )
    export = tmp_path / "export.jsonl.gz"
    export.write_bytes(data[: len(data) // 2])
    done = run(tmp_path, "import", str(export), "--repo", "acme/widget")
    assert done.returncode == 1 and len(errors(done)) == 1
    assert errors(done)[0].startswith(
        f"repo-digest: {export} could not be read (Compressed file ended before the end-of-stream"
    )
    assert not (tmp_path / "data").exists()


SITE_PATHS = [
    "pages/about",
    "authors/x",
    "labels/x",
    "feeds/all.atom.xml",
    "search/x",
    "archives/x",
    "repositories/x",
    "./.",
]


@pytest.mark.parametrize("name", SITE_PATHS)
def test_a_repository_name_that_is_a_site_path_is_refused_at_import_and_fetch(tmp_path, name):
    export = tmp_path / "export.jsonl"
    export.write_text(json.dumps(rest_pull(1, "2026-03-10T09:00:00Z", "feat: x")) + "\n")
    imported = run(tmp_path, "import", str(export), "--repo", name)
    with GitHubServer({}) as server:
        fetched = fetch(tmp_path, server, name)
        assert server.count() == 0
    for done in (imported, fetched):
        assert done.returncode != 0 and len(errors(done)) == 1 and repr(name) in errors(done)[0]
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.jsonl"))


def test_a_listing_item_without_a_name_is_left_out_with_a_sentence_and_the_rest_is_fetched(
    tmp_path,
):
    with GitHubServer(
        {"octo-org/one": pulls(repo="octo-org/one"), "octo-org/two": pulls(repo="octo-org/two")},
        repo_fields={"octo-org/two": {"full_name": LEFT_OUT}},
    ) as server:
        done = fetch(tmp_path, server, "octo-org/*")
    assert done.returncode == 0, done.stderr
    assert (
        "GitHub's list of octo-org's repositories has an item 2 that names no repository of octo-org"
        in done.stderr
    )
    assert len(stored(tmp_path, "octo-org/one")) == 12


def unshare_available() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


full_disk = pytest.mark.skipif(
    not unshare_available(), reason="a small tmpfs needs `unshare -rm` (user namespaces) to mount"
)


def on_full_disk(
    disk: Path, command: list[str], cwd: Path, size: str = "200k"
) -> subprocess.CompletedProcess:
    """`command` with a tmpfs of `size` mounted on `disk`, in a mount namespace of its own: a real full disk."""
    disk.mkdir(parents=True, exist_ok=True)
    script = f'mount -t tmpfs -o size={size} tmpfs "$0" && exec "$@"'
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "DIGEST_"))}
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, str(disk), *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    if "Traceback (most recent call last)" in done.stdout + done.stderr:
        raise TracebackSeen((done.stdout + done.stderr)[-3000:])
    return done


def small_site(folder: Path) -> None:
    export = folder / "export.jsonl"
    export.write_text(
        "".join(json.dumps({**p, "files": p["files"]}) + "\n" for p in pulls(repo="acme/widget"))
    )
    (folder / "pelicanconf.py").write_text(
        (ROOT / "pelicanconf.py").read_text() + f"THEME = {str(ROOT / 'theme')!r}\n"
        'DIGEST_PDF = False\nDIGEST_REPOS = ["acme/widget"]\nDIGEST_FETCH = "never"\n'
    )
    (folder / "content").mkdir()
    assert run(folder, "import", str(export), "--repo", "acme/widget").returncode == 0


def build(folder: Path, output: str, disk: Path, size: str) -> subprocess.CompletedProcess:
    command = [
        sys.executable,
        "-m",
        "digest_plugin.build.locked_output",
        output,
        "--",
        str(Path(sys.executable).with_name("pelican")),
        "content",
        "-s",
        "pelicanconf.py",
    ]
    return on_full_disk(disk, command, folder, size)


@full_disk
@pytest.mark.parametrize("where", ["output", "cache"])
def test_a_full_disk_under_the_output_or_the_cache_is_one_sentence_naming_the_file(tmp_path, where):
    small_site(tmp_path)
    disk = tmp_path / "disk"
    output = str(disk / "output") if where == "output" else "output"
    if where == "cache":
        with (tmp_path / "pelicanconf.py").open("a") as settings:
            settings.write(f"CACHE_PATH = {str(disk / 'cache')!r}\n")
    done = build(tmp_path, output, disk, size="200k" if where == "output" else "16k")
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert said.count("CRITICAL") == 1 and 'File "' not in said, said  # one sentence, no traceback
    lines = [line[20:].strip() for line in said.splitlines()]  # Pelican's log wraps a long line
    assert str(disk / where) in "".join(lines).replace(" ", "") and "the disk is full" in " ".join(
        lines
    ), said


# -- 8. smaller ------------------------------------------------------------------------------------


@full_disk
def test_a_full_disk_under_the_store_names_the_file(tmp_path):
    export = tmp_path / "export.jsonl"
    export.write_text(
        "".join(
            json.dumps(rest_pull(n, f"2026-03-{n % 28 + 1:02d}T09:00:00Z", "x" * 200)) + "\n"
            for n in range(1, 2000)
        )
    )
    (tmp_path / "pelicanconf.py").write_text(f"DIGEST_DATA_PATH = {str(tmp_path / 'data')!r}\n")
    done = on_full_disk(
        tmp_path / "data",
        [CLI, "import", str(export), "--repo", "acme/widget"],
        tmp_path,
        size="64k",
    )
    assert done.returncode == 1
    assert len(errors(done)) == 1 and str(tmp_path / "data" / "acme" / "widget") in errors(done)[0]


def test_a_data_path_that_is_a_file_is_named_a_file(tmp_path):
    (tmp_path / "data").write_text("not a folder\n")
    done = run(tmp_path, "show", "acme/widget", "--week", "2026-W10")
    assert done.returncode == 1 and "is a file, not a folder" in errors(done)[0]


def test_an_import_without_a_merged_pr_adds_no_repository(tmp_path):
    export = tmp_path / "empty.jsonl"
    export.write_text("\n")
    done = run(tmp_path, "import", str(export), "--repo", "acme/widget")
    assert done.returncode == 1 and "holds no merged pull request" in errors(done)[0]
    assert Store(tmp_path / "data").repos() == []


def test_a_killed_writers_temporary_file_is_removed_by_the_next_fetch_and_never_committed(tmp_path):
    with GitHubServer({REPO: pulls()}) as server:
        assert fetch(tmp_path, server).returncode == 0
        folder = tmp_path / "data" / REPO
        leftover = (
            folder / ".2026-03.jsonl.k7f3x9q1.tmp"
        )  # what a fetch killed while writing leaves
        leftover.write_text('{"number": 1')
        assert fetch(tmp_path, server, since=None).returncode == 0
    assert not leftover.exists()

    # the workflow's store step, on a store that a fetch is writing to as it runs
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    for args in (
        ["init", "--quiet", "--bare", "-b", "main", str(origin)],
        ["clone", "--quiet", str(origin), str(work)],
    ):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)
    shutil.copytree(tmp_path / "data", work / "data")
    (work / ".ci").mkdir()
    shutil.copy2(ROOT / ".ci/store", work / ".ci/store")
    writing = work / "data" / REPO / f".2026-03.jsonl.{os.getpid()}.a1b2c3d4.tmp"
    writing.write_text('{"number": 1')
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "DIGEST_"))},
        "GITHUB_REF_NAME": "main",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    saved = subprocess.run(
        [str(work / ".ci/store"), "save"], cwd=work, capture_output=True, text=True, env=env
    )
    assert saved.returncode == 0, saved.stderr
    committed = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "main"], cwd=origin, capture_output=True, text=True
    ).stdout.split()
    assert f"data/{REPO}/2026-03.jsonl" in committed and not [
        name for name in committed if name.endswith(".tmp")
    ]


def test_a_first_fetch_stopped_part_way_does_not_show_its_last_week_in_progress(tmp_path):
    many = [
        handmade_pull(300 + i, MONDAY + timedelta(hours=3 * i), repo=REPO) for i in range(160)
    ]  # two pages of PRs
    with GitHubServer({REPO: many}) as server:
        server.faults.add(
            "primary", on="graphql", skip=1, reset_in=86_400
        )  # the second page: the limit is spent for a day
        done = fetch(tmp_path, server)
    assert done.returncode == 1 and "rate limit is used up" in errors(done)[0]
    saved = stored(tmp_path)
    assert 0 < len(saved) < len(many)
    last = max(saved.values(), key=lambda p: p.merged_at)
    week = show(tmp_path, "{}-W{:02d}".format(*last.merged_at.isocalendar()[:2]))
    assert week["in_progress"] is False and week["complete"] is False
