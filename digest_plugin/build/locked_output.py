"""`make html` and `make publish`: one build at a time into a fresh folder, published by an atomic swap.

    python -m digest_plugin.build.locked_output OUTPUT [--wait SECONDS] -- pelican content -s pelicanconf.py [--then INDEXER ...]

runs the command with `-o OUTPUT.new` while holding a lock on `OUTPUT.lock`, then the command after
`--then` (the search indexer) with `OUTPUT.new` as its last argument, then swaps `OUTPUT.new` into
place. A second build started meanwhile waits for the first, for at most `--wait` seconds (default
LOCK_WAIT, or the environment's LOCK_WAIT, which the Makefile passes on), then stops with a
sentence naming the lock file. A build that fails
or is killed leaves the previous site as it was; readers of OUTPUT see the old site or the new one,
never a mixture (the swap is one `renameat2(RENAME_EXCHANGE)` on Linux, two renames elsewhere).

The lock belongs to the build's whole process group: the commands run in a group of their own that
holds the lock too, so that a wrapper killed alone leaves it held while Pelican runs on. SIGTERM,
SIGINT (Ctrl-C) or SIGHUP to the wrapper is passed to the whole group (Pelican, its fork server and
chart workers), and the lock is released only when every one of them has exited; the wrapper then
says "interrupted; the previous site is unchanged" and exits with 128 + the signal's number.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import itertools
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from digest_plugin.build.settings_file import read_settings_file
from digest_plugin.errors import DigestError

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
# A build of a few large repositories takes minutes; a wait far longer than that means the other
# build is stuck (a lock held by a dead process is released by the system, so it is never stale).
LOCK_WAIT = 1800
_LOCK_POLL = 0.25
GROUP_GRACE = 10.0  # seconds the build's processes have to exit after SIGTERM before SIGKILL
_PR_SET_CHILD_SUBREAPER = 36
INTERRUPTED = "interrupted; the previous site is unchanged"


class Interrupted(Exception):
    """The build was stopped by a signal; its processes have all exited, and the previous site stands."""

    def __init__(self, signum: int):
        super().__init__(INTERRUPTED)
        self.signum = signum


def locked_build(
    output: Path,
    command: list[str],
    announce=print,
    then: list[str] | None = None,
    wait: float = LOCK_WAIT,
) -> int:
    """Run `command` (plus `-o OUTPUT.new`), then `then` (plus `OUTPUT.new`), under the lock, and swap
    the result in; the first non-zero exit status, or 0. DigestError when another build holds the
    lock for longer than `wait` seconds."""
    output = check_output_folder(output)
    staging = output.with_name(output.name + ".new")
    lock_path = output.with_name(output.name + ".lock")
    with lock_path.open("a") as lock:
        if not _try_lock(lock):
            announce(f"Another build is writing {output}; waiting for it to finish.")
            _wait_for_lock(lock, lock_path, wait)
        _remove(staging)  # what a killed build left behind
        try:
            status = run_as_group([*command, "-o", str(staging)], lock.fileno())
            if status == 0 and then:
                status = run_as_group([*then, str(staging)], lock.fileno())
        except Interrupted:
            _remove(staging)
            raise
        if status != 0:
            _remove(staging)
            return status
        swap(staging, output)
        _remove(staging)  # now the previous site
    return 0


def run_as_group(command: list[str], lock_fd: int) -> int:
    """Run `command` in a process group of its own that holds the lock (`lock_fd`) too, and wait
    until every process of it has exited; its exit status. Interrupted when a signal stopped it."""
    _adopt_orphans()
    received: list[int] = []
    child: subprocess.Popen | None = None

    def forward(signum, _frame) -> None:
        received.append(signum)
        if child is not None:  # SIGTERM, not SIGINT: Pelican would print a traceback for it
            _signal_group(child.pid, signal.SIGTERM)

    stops = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
    previous = {stop: signal.signal(stop, forward) for stop in stops}
    try:
        child = subprocess.Popen(
            command, process_group=0, pass_fds=(lock_fd,), env=_quiet_tracker(os.environ)
        )
        if received:  # a signal came while it was starting
            _signal_group(child.pid, signal.SIGTERM)
        status = child.wait()
        _wait_for_group(child.pid)
    finally:
        for stop, handler in previous.items():
            signal.signal(stop, handler)
    if received:
        raise Interrupted(received[0])
    return status


def _quiet_tracker(env) -> dict[str, str]:
    """`env` with multiprocessing's resource tracker quiet about the semaphores of workers that a
    signal stopped: it frees them all the same, and its warning would be the build's last words."""
    quiet = "ignore::UserWarning:multiprocessing.resource_tracker"
    return {**env, "PYTHONWARNINGS": ",".join(filter(None, (env.get("PYTHONWARNINGS"), quiet)))}


def _adopt_orphans() -> None:
    """Become the subreaper of the build's processes (Linux), so that workers whose parent died are
    handed to this process, which can tell when they are gone; elsewhere their group is watched."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _signal_group(group: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signum)


def _wait_for_group(group: int) -> None:
    """Until no process of `group` is left: SIGKILL for those still there after GROUP_GRACE seconds."""
    deadline, killed = time.monotonic() + GROUP_GRACE, False
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass  # an orphan handed to this process, gone now
        except ChildProcessError:
            pass
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return
        if time.monotonic() > deadline:
            if killed:
                return  # what is left cannot be stopped from here (a zombie no one reaps)
            _signal_group(group, signal.SIGKILL)
            deadline, killed = time.monotonic() + 2.0, True
        time.sleep(0.02)


def _try_lock(lock) -> bool:
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _wait_for_lock(lock, lock_path: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    while not _try_lock(lock):
        if time.monotonic() >= deadline:
            raise DigestError(
                f"Another build still holds {lock_path} after {wait:g} seconds; let it finish or stop it, "
                "then build again (LOCK_WAIT=SECONDS waits longer)."
            )
        time.sleep(_LOCK_POLL)


def wait_from(value: str | None) -> float:
    """The lock wait in seconds from `--wait` or LOCK_WAIT; DigestError for anything but a number >= 0."""
    if value is None or not value.strip():
        return LOCK_WAIT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise DigestError(
            f"LOCK_WAIT is {value!r}; give the seconds to wait for another build, for example LOCK_WAIT=600."
        )
    return seconds


def check_output_folder(output: Path) -> Path:
    """The output folder as an absolute path; refuses one that holds the project or is not a folder."""
    if not str(output).strip():
        raise DigestError(
            "OUTPUTDIR is empty; name the folder to build into, for example OUTPUTDIR=output."
        )
    resolved = output.resolve()
    here = Path.cwd().resolve()
    if resolved == here or resolved in here.parents or resolved == Path.home().resolve():
        raise DigestError(
            f"OUTPUTDIR {output} holds the project itself; name a folder of its own, for example OUTPUTDIR=output."
        )
    if resolved.exists() and not resolved.is_dir():
        raise DigestError(
            f"OUTPUTDIR {output} is a file, not a folder; move it away or name another folder."
        )
    if not resolved.parent.is_dir():  # the build and its lock go beside the output folder
        raise DigestError(
            f"OUTPUTDIR {output} is in a folder that does not exist ({resolved.parent}); create it first, "
            "or name another folder."
        )
    return resolved


def swap(new: Path, current: Path) -> None:
    """Put `new` where `current` is in one step; afterwards `new` holds the previous `current`."""
    if not current.exists():
        os.rename(new, current)
        return
    if _exchange(new, current):
        return
    previous = current.with_name(current.name + ".old")
    _remove(previous)
    os.rename(current, previous)
    os.rename(new, current)
    os.rename(previous, new)


def _exchange(a: Path, b: Path) -> bool:
    """renameat2(RENAME_EXCHANGE) where the system has it; False where it does not."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False  # an old kernel or a file system without it
    raise OSError(error, os.strerror(error), str(b))


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def check_settings_file(command: list[str]) -> None:
    """The settings file Pelican will read (`-s FILE`), run once first: a file that fails is one
    sentence naming it, where Pelican itself would print a traceback."""
    for flag, value in itertools.pairwise(command):
        if flag in ("-s", "--settings"):
            read_settings_file(Path(value))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    wait = os.environ.get("LOCK_WAIT")
    if argv[1:2] == ["--wait"]:
        wait, argv = argv[2] if len(argv) > 2 else "", [argv[0], *argv[3:]]
    if len(argv) < 3 or argv[1] != "--":
        print(
            "usage: python -m digest_plugin.build.locked_output OUTPUT [--wait SECONDS] -- COMMAND ... [--then COMMAND ...]",
            file=sys.stderr,
        )
        return 2
    command, then = argv[2:], None
    if "--then" in command:
        at = command.index("--then")
        command, then = command[:at], command[at + 1 :]
    try:
        check_settings_file(command)
        return locked_build(
            Path(argv[0]),
            command,
            announce=lambda text: print(text, file=sys.stderr, flush=True),
            then=then,
            wait=wait_from(wait),
        )
    except DigestError as error:
        print(f"make: {error}", file=sys.stderr)
        return 1
    except Interrupted as stop:
        print(INTERRUPTED, file=sys.stderr)
        return 128 + stop.signum
    except KeyboardInterrupt:  # Ctrl-C while waiting for another build's lock: nothing was started
        print(INTERRUPTED, file=sys.stderr)
        return 128 + signal.SIGINT


if __name__ == "__main__":
    sys.exit(main())
