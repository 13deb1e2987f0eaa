"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half of one.

Used by the store, the chart cache and the site's download files.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

TEMPORARY = ".tmp"
_TEMPORARY_NAME = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")  # .NAME.PID.RANDOM.tmp


def atomic_write(path: Path, text: str | bytes, durable: bool = True) -> None:
    """Write via a temporary file in the same folder, fsync (if `durable`), then rename over `path`."""
    with atomic_file(path, durable) as handle:
        handle.write(text.encode("utf-8") if isinstance(text, str) else text)


@contextmanager
def atomic_file(path: Path, durable: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write `path` through, which replaces `path` only once it is complete: for
    what is written piece by piece rather than held whole in memory first. Not `durable`, it is
    not flushed to the disk first: for pages a build makes by the thousand, which it can make again.

    A failure to write (a full disk) is an OSError naming `path`, which a write to an open file
    would not. The temporary file's name holds the writer's process id, so that what a killed
    writer left can be told from what a running one is writing (`remove_leftovers`)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=TEMPORARY
        )
    except OSError as error:
        raise _naming(error, path) from None
    try:
        # mkstemp makes owner-only files; the store and the site are meant to be shared
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as handle:
            yield handle
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise _naming(error, path) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def remove_leftovers(folder: Path) -> None:
    """Remove the temporary files under `folder` that writers killed before they finished left
    behind (those of running processes stay)."""
    for leftover in folder.rglob(f".*{TEMPORARY}"):
        match = _TEMPORARY_NAME.match(leftover.name)
        if (match and _running(int(match[1]))) or not leftover.is_file():
            continue
        leftover.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive
    return True


def _naming(error: OSError, path: Path) -> OSError:
    """`error` with `path` as its file name where it names none (what a write or fsync raises)."""
    if error.filename is not None:
        return error
    return OSError(error.errno, error.strerror or str(error), str(path))


def write_if_changed(path: Path, text: str | bytes, durable: bool = True) -> None:
    """`atomic_write` unless `path` holds these bytes already, so an unchanged file keeps its
    modification time (for rsync, browsers and `--autoreload`)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return
    except OSError:
        pass  # absent or unreadable: write it
    atomic_write(path, data, durable)
