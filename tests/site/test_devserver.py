"""`make devserver` as a user runs it: it builds and serves the site, and an import into the store
while it runs builds the site again, the new week included."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.tiny_project import REPO, make, tiny_project

WAIT = 240  # seconds: a cold build of the tiny project takes a few, on a busy machine many more


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _served(url: str, server: subprocess.Popen) -> str:
    """The page at `url` once the server has it; fails if the server stops or it never comes."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the server stopped (exit {server.returncode})"
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode("utf-8")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(1)
    raise AssertionError(f"{url} was not served within {WAIT} s")


def test_an_import_while_the_devserver_runs_builds_the_new_week(tmp_path):
    project = tiny_project(tmp_path / "project")
    port = _free_port()
    log = (tmp_path / "devserver.log").open(
        "w"
    )  # read when the test fails; a pipe nobody reads would stop the server
    server = make(
        project,
        "devserver",
        f"PORT={port}",
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        assert "2026-W11" in _served(f"{base}/{REPO}/", server)
        export = tmp_path / "export.jsonl"
        export.write_text(
            json.dumps(
                {
                    "number": 900,
                    "title": "feat: a change made while the server runs",
                    "html_url": f"https://github.com/{REPO}/pull/900",
                    "user": {"login": "carol"},
                    "merged_at": "2026-04-08T10:00:00Z",
                }
            )
            + "\n"
        )
        repo_digest = Path(sys.executable).with_name("repo-digest")
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "DIGEST_"))
        }
        done = subprocess.run(
            [
                str(repo_digest),
                "import",
                str(export),
                "--repo",
                REPO,
                "--settings",
                "pelicanconf.py",
            ],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert "a change made while the server runs" in _served(f"{base}/{REPO}/2026-W15/", server)
    finally:
        os.killpg(server.pid, signal.SIGINT)  # Ctrl-C, to make and the server in its process group
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()
        print((tmp_path / "devserver.log").read_text())


def test_make_serve_answers_a_missing_address_with_the_sites_404_page(tmp_path):
    """Pelican's server closed the connection on a missing address, with no reply: the 404 page never showed."""
    project = tiny_project(tmp_path / "project")
    built = make(project, "html")
    _out, err = built.communicate(timeout=600)
    assert built.returncode == 0, err
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    server = make(
        project,
        "serve",
        f"PORT={port}",
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        assert "2026-W11" in _served(f"{base}/{REPO}/", server)
        try:
            urllib.request.urlopen(f"{base}/{REPO}/2019-W01/", timeout=10)
            raise AssertionError("a missing week was served")
        except urllib.error.HTTPError as error:
            assert error.code == 404
            page = error.read().decode("utf-8")
        assert (
            page == (project / "output/404.html").read_text(encoding="utf-8") and "<title>" in page
        )
    finally:
        os.killpg(server.pid, signal.SIGINT)
