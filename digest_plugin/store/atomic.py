"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half of one.

Used by the store, the chart cache and the site's download files.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


def atomic_write(path: Path, text: str | bytes, durable: bool = True) -> None:
    """Write via a temporary file in the same folder, fsync (if `durable`), then rename over `path`."""
    with atomic_file(path, durable) as handle:
        handle.write(text.encode("utf-8") if isinstance(text, str) else text)


@contextmanager
def atomic_file(path: Path, durable: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write `path` through, which replaces `path` only once it is complete: for
    what is written piece by piece rather than held whole in memory first. Not `durable`, it is
    not flushed to the disk first: for pages a build makes by the thousand, which it can make again."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes owner-only files; the store and the site are meant to be shared
        with os.fdopen(fd, "wb") as handle:
            yield handle
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, text: str | bytes, durable: bool = True) -> bool:
    """`atomic_write` unless `path` holds these bytes already, so an unchanged file keeps its
    modification time (for rsync, browsers and `--autoreload`); True when written."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass  # absent or unreadable: write it
    atomic_write(path, data, durable)
    return True
