"""`make html` and `make publish`: quoted paths, one build at a time, an atomic swap, and a killed
or failed build that leaves the previous site whole."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from digest_plugin.build.locked_output import check_output_folder, swap
from digest_plugin.errors import DigestError
from tests.tiny_project import make, site_files, tiny_project


def _finish(process) -> tuple[int, str, str]:
    out, err = process.communicate()
    return process.returncode, out, err


def _whole(output: Path) -> None:
    files = site_files(output)
    assert "index.html" in files and "feeds/all.atom.xml" in files
    assert "acme/widget/2026-W10/index.html" in files and "acme/widget/2026-W11/index.html" in files


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return tiny_project(tmp_path_factory.mktemp("make") / "project")


def test_an_output_folder_with_a_space_is_one_folder_and_its_neighbours_are_untouched(project):
    neighbour = project / "my"
    neighbour.mkdir()
    (neighbour / "keep.txt").write_text("mine")
    status, _, err = _finish(make(project, "html", "OUTPUTDIR=my site"))
    assert status == 0, err
    _whole(project / "my site")
    assert (neighbour / "keep.txt").read_text() == "mine" and os.listdir(neighbour) == ["keep.txt"]
    assert not (project / "site").exists() and not (project / "my site.new").exists()


def test_a_second_build_waits_for_the_first_and_the_site_is_whole(project):
    output = project / "out"
    with open(project / "out.lock", "a") as lock:  # the first build, still running
        fcntl.flock(lock, fcntl.LOCK_EX)
        second = make(project, "html", "OUTPUTDIR=out")
        assert (
            second.stderr.readline().strip()
            == f"Another build is writing {output}; waiting for it to finish."
        )
        assert (
            not output.exists() and not (project / "out.new").exists()
        )  # it did not start writing
    status, _, err = _finish(second)
    assert status == 0, err
    _whole(output)


def test_two_builds_at_once_both_succeed_and_leave_one_whole_site(project):
    first, second = make(project, "html", "OUTPUTDIR=both"), make(project, "html", "OUTPUTDIR=both")
    assert _finish(first)[0] == 0 and _finish(second)[0] == 0
    _whole(project / "both")
    assert not (project / "both.new").exists()


def test_a_failed_build_leaves_the_previous_site_as_it_was(project):
    assert _finish(make(project, "html", "OUTPUTDIR=kept"))[0] == 0
    before = site_files(project / "kept")
    (project / "broken.py").write_text(
        (project / "pelicanconf.py").read_text() + "DIGEST_LANGUAGE = 'xx'\n"
    )
    status, out, err = _finish(make(project, "html", "OUTPUTDIR=kept", "CONFFILE=broken.py"))
    assert status != 0 and "DIGEST_LANGUAGE" in out + err
    assert site_files(project / "kept") == before and not (project / "kept.new").exists()


@pytest.mark.parametrize("seed", range(1, 1 + int(os.environ.get("HOSTILE_SEEDS", "3"))))
def test_a_build_killed_at_a_random_point_leaves_the_previous_site_and_the_next_build_succeeds(
    project, seed
):
    import random

    output = project / f"killed{seed}"
    assert _finish(make(project, "html", f"OUTPUTDIR={output.name}"))[0] == 0
    before = site_files(output)
    staging = project / f"{output.name}.new"
    files_before_kill = random.Random(seed).randrange(1, len(before))
    build = make(project, "html", f"OUTPUTDIR={output.name}", start_new_session=True)
    while sum(1 for p in staging.rglob("*") if p.is_file()) < files_before_kill:
        try:  # watching the build's own files, not the clock
            build.wait(timeout=0.02)
            break
        except subprocess.TimeoutExpired:
            continue
    os.killpg(build.pid, signal.SIGKILL)  # make, the lock holder and Pelican, as a runner dies
    build.communicate()
    assert site_files(output) == before
    status, _, err = _finish(make(project, "html", f"OUTPUTDIR={output.name}"))
    assert status == 0, err
    assert (
        site_files(output) == before and not staging.exists()
    )  # builds are reproducible: byte for byte


def test_an_output_folder_that_holds_the_project_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in (".", "..", "", str(Path.home())):
        with pytest.raises(DigestError):
            check_output_folder(Path(name))
    (tmp_path / "file").write_text("x")
    with pytest.raises(DigestError, match="is a file, not a folder"):
        check_output_folder(Path("file"))


def test_the_swap_exchanges_two_folders_in_place(tmp_path):
    old, new = tmp_path / "site", tmp_path / "site.new"
    old.mkdir(), new.mkdir()
    (old / "a").write_text("old"), (new / "a").write_text("new")
    swap(new, old)
    assert (old / "a").read_text() == "new" and (new / "a").read_text() == "old"


def test_a_second_build_stops_after_its_wait_with_one_sentence_naming_the_lock(project):
    output = project / "held"
    # the first build, a real process holding the lock until its input closes
    first = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "digest_plugin.build.locked_output",
            str(output),
            "--",
            sys.executable,
            "-c",
            "import os, sys; os.makedirs(sys.argv[-1]); print('started', flush=True); sys.stdin.read()",
        ],
        cwd=project,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert first.stdout.readline().strip() == "started"
    status, out, err = _finish(make(project, "html", "OUTPUTDIR=held", "LOCK_WAIT=0.5"))
    lines = [line for line in (out + err).splitlines() if not line.startswith("make: ***")]
    assert status != 0
    assert lines[0] == f"Another build is writing {output}; waiting for it to finish."
    assert lines[1:] == [
        (
            f"make: Another build still holds {project / 'held.lock'} after 0.5 seconds; let it finish or "
            "stop it, then build again (LOCK_WAIT=SECONDS waits longer)."
        )
    ]
    assert "Traceback" not in err and not output.exists()  # the second one wrote nothing
    first.stdin.close()
    assert first.wait() == 0 and output.is_dir()  # the first one finished and swapped its site in


def test_a_lock_wait_that_is_not_a_number_is_one_sentence():
    from digest_plugin.build.locked_output import LOCK_WAIT, wait_from

    assert wait_from("") == LOCK_WAIT and wait_from("2.5") == 2.5
    for bad in ("soon", "-1", "inf", "nan"):
        with pytest.raises(DigestError, match=r"LOCK_WAIT is .*give the seconds"):
            wait_from(bad)


@pytest.mark.parametrize("target", ["html", "publish"])
def test_an_output_folder_in_a_missing_folder_is_one_sentence(project, target):
    env = (
        ("PUBLISHCONF=pelicanconf.py",) if target == "publish" else ()
    )  # the tiny project has no publishconf.py
    status, out, err = _finish(make(project, target, "OUTPUTDIR=missing/site", *env))
    lines = [line for line in (out + err).splitlines() if not line.startswith("make: ***")]
    assert status != 0 and "Traceback" not in err
    assert lines == [
        (
            f"make: OUTPUTDIR missing/site is in a folder that does not exist ({project / 'missing'}); create it first, "
            "or name another folder."
        )
    ]
    assert not (project / "missing").exists()


# -- a build stopped by a signal: the lock is the whole build's, and nothing is left running ---------


def _processes_in(folder: Path) -> dict[int, str]:
    """The processes working in `folder` (make, the wrapper, Pelican, its fork server and workers)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/cwd") == str(folder):
                    found[int(entry)] = (
                        Path(f"/proc/{entry}/cmdline")
                        .read_bytes()
                        .replace(b"\0", b" ")
                        .decode()[:400]
                    )
            except OSError:
                pass  # gone meanwhile, or another user's
    return found


def _cold_build_with_workers(project: Path, build: subprocess.Popen) -> dict[int, str]:
    """Wait until the build's chart workers run (the fork server and the workers it forked)."""
    while build.poll() is None:
        running = _processes_in(project)
        if sum("multiprocessing.forkserver" in command for command in running.values()) >= 2:
            return running
        time.sleep(0.05)
    pytest.fail("the build finished before its workers were seen")


@pytest.fixture
def busy_project(tmp_path) -> Path:
    from tests.tiny_project import small_history

    project = tiny_project(
        tmp_path / "busy", pulls=small_history(count=60)
    )  # charts enough for worker processes
    assert _finish(make(project, "html", "OUTPUTDIR=out"))[0] == 0
    shutil.rmtree(project / "cache")  # the next build is cold: it starts the workers again
    return project


@pytest.mark.parametrize("how", ["SIGTERM to the wrapper alone", "Ctrl-C"])
def test_a_build_stopped_by_a_signal_stops_whole_says_one_line_and_then_releases_the_lock(
    busy_project, how
):
    project = busy_project
    before = site_files(project / "out")
    build = make(project, "html", "OUTPUTDIR=out", start_new_session=True)
    running = _cold_build_with_workers(project, build)
    if how == "Ctrl-C":
        os.killpg(build.pid, signal.SIGINT)  # what the terminal does: make's whole foreground group
    else:
        wrapper = next(
            pid
            for pid, command in running.items()
            if "digest_plugin.build.locked_output" in command and "/bin/sh" not in command
        )
        os.kill(wrapper, signal.SIGTERM)
    _, err = build.communicate(timeout=60)
    lines = [line for line in err.splitlines() if not line.startswith("make: ***")]
    assert lines == ["interrupted; the previous site is unchanged"], err
    assert (
        _processes_in(project) == {}
    )  # not Pelican, its fork server, its workers nor the resource tracker
    with open(project / "out.lock", "a") as lock:  # released, now that nothing of the build runs
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    assert site_files(project / "out") == before and not (project / "out.new").exists()


def test_a_wrapper_killed_alone_leaves_the_lock_held_while_its_build_runs(busy_project):
    project = busy_project
    build = make(project, "html", "OUTPUTDIR=out", start_new_session=True)
    running = _cold_build_with_workers(project, build)
    wrapper = next(
        pid
        for pid, command in running.items()
        if "digest_plugin.build.locked_output" in command and "/bin/sh" not in command
    )
    os.kill(wrapper, signal.SIGKILL)  # it cannot pass this one on
    build.wait(timeout=60)  # make, whose pipes Pelican still holds
    with open(project / "out.lock", "a") as lock:
        assert any(
            "pelican" in command for command in _processes_in(project).values()
        )  # Pelican runs on...
        with pytest.raises(BlockingIOError):  # ...and the lock is still the build's
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    build.communicate()
    second = make(
        project, "html", "OUTPUTDIR=out"
    )  # waits for the orphaned build, then builds whole
    status, _, err = _finish(second)
    assert status == 0, err
    _whole(project / "out")
