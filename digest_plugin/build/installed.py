"""What the installed distribution says of itself."""

from __future__ import annotations

from importlib import metadata

# its name on the package index; the code's package is digest_plugin
DISTRIBUTION = "pelican-repo-digest"


def version() -> str:
    """The installed distribution's version (pyproject.toml's), as `repo-digest --version` and the build say it."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return "(not installed)"
