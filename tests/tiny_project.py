"""A small project folder (settings, content, store, the project's Makefile) for build tests that
run `make` or Pelican as a user would, without the bundled sample's weight."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from digest_plugin.records.state import RepoState
from digest_plugin.store.folder import Store
from tests.conftest import make_pull

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
REPO = "acme/widget"


def tiny_project(folder: Path, pulls=None, state: RepoState | None = None, **settings) -> Path:
    """`folder` with pelicanconf.py (the project's, with its theme and no fetch), content/ and a store."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "content").mkdir(exist_ok=True)
    overrides = {"THEME": str(ROOT / "theme"), "DIGEST_FETCH": "never", **settings}
    lines = [f"exec(open({str(ROOT / 'pelicanconf.py')!r}, encoding='utf-8').read())"]
    lines += [f"{name} = {value!r}" for name, value in overrides.items()]
    (folder / "pelicanconf.py").write_text("\n".join(lines) + "\n")
    shutil.copy(ROOT / "Makefile", folder / "Makefile")
    (folder / "pyproject.toml").symlink_to(ROOT / "pyproject.toml")
    store = Store(folder / "data")
    store.upsert(REPO, pulls if pulls is not None else small_history())
    store.write_state(
        state or RepoState(REPO, "import", fetched_at=datetime(2026, 3, 30, 8, tzinfo=UTC))
    )
    return folder


def small_history(start: datetime = datetime(2026, 3, 2, 9, tzinfo=UTC), count: int = 8) -> list:
    return [
        make_pull(
            100 + i,
            start + timedelta(hours=31 * i),
            f"feat: change {i}",
            labels=("area/api",),
            files=((f"src/m{i % 3}.py", 5 + i, i, "modified"),),
        )
        for i in range(count)
    ]


def make(folder: Path, *arguments: str, **popen) -> subprocess.Popen:
    """`make ARGUMENTS` in `folder` with the project's virtual environment, as a running process."""
    command = ["make", "-s", "-o", f"{VENV}/.installed", f"VENV={VENV}", *arguments]
    # as a user types it: not a sub-make of the `make test` running the suite (which would say "make[1]:")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")
    }
    env.update(GITHUB_TOKEN="", GH_TOKEN="")
    return subprocess.Popen(
        command,
        cwd=folder,
        env=env,
        text=True,
        **{"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **popen},
    )


def site_files(output: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(output)): p.read_bytes() for p in sorted(output.rglob("*")) if p.is_file()
    }
