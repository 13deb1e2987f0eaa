"""The user's settings file (`pelicanconf.py`), read as Pelican reads it, failing in one sentence.

Used by the command line and by `make html` (build/locked_output.py checks the file before Pelican runs,
where Pelican itself would print a traceback). Kept apart from settings.py, which the pure stages
import, because reading the file needs Pelican.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

from digest_plugin.errors import DigestError
from digest_plugin.settings import DigestSettings


def read_settings_file(path: Path) -> dict:
    """Pelican's settings from the user's file, or one sentence naming the file and what failed,
    for the command line and for `make html` (which checks the file before Pelican runs)."""
    from pelican.settings import read_settings

    if not path.is_file():
        raise DigestError(f"The settings file {path} does not exist.")
    pelican_log = logging.getLogger("pelican")
    # its hints are about building, not about us
    level, pelican_log.level = pelican_log.level, logging.ERROR
    try:
        return read_settings(str(path))
    except Exception as error:  # the settings file is the user's Python: anything may fail in it
        raise DigestError(_unreadable_settings(path, error)) from error
    finally:
        pelican_log.setLevel(level)


def _unreadable_settings(path: Path, error: Exception) -> str:
    """One sentence for a settings file that fails while Python runs it."""
    if isinstance(error, SyntaxError):
        return f"The settings file {path} is not valid Python: {error.msg} on line {error.lineno}."
    if isinstance(error, ImportError):
        return (
            f"The settings file {path} could not import {error.name or 'a module'} ({error}); a settings file that "
            "imports another, like `from pelicanconf import *`, needs that file's folder on sys.path."
        )
    lines = [
        frame.lineno
        for frame in traceback.extract_tb(error.__traceback__)
        if Path(frame.filename).resolve() == path.resolve()
    ]
    where = f" on line {lines[-1]}" if lines else ""
    return f"The settings file {path} failed{where}: {type(error).__name__}: {error}."


def load_settings(path: str) -> tuple[DigestSettings, dict]:
    """DigestSettings and the full Pelican settings from a settings file (defaults if it is absent)."""
    from pelican.settings import DEFAULT_CONFIG

    settings_file = Path(path)
    if path == "pelicanconf.py" and not settings_file.exists():
        pelican_settings, base = dict(DEFAULT_CONFIG), Path.cwd()
    else:
        pelican_settings, base = read_settings_file(settings_file), settings_file.resolve().parent
    return DigestSettings.from_pelican(pelican_settings, base), pelican_settings
