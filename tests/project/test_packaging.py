"""What a new user installs: a distribution name of our own, and `make html` with what a build needs
and nothing more (the test tools come with `make test`)."""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
TEST_TOOLS = ("pytest", "playwright", "hypothesis", "ruff", "radon", "openai")


def test_the_distribution_has_a_name_of_its_own_in_pelicans_convention():
    """`repo-digest` on the package index is an unrelated project (with a `repo-digest` command of
    its own): the README's install line must name ours."""
    name = PROJECT["name"]
    assert name == "pelican-repo-digest"
    section = README[README.index("## Add it to your Pelican site"):]
    first_command = re.search(r"```sh\n(.*?)\n", section)[1]
    assert first_command.split("#")[0].split() == ["pip", "install", name]
    for place in (README, *(p.read_text(encoding="utf-8") for p in (ROOT / "digest_plugin").rglob("*.py"))):
        for extra in re.findall(r"pip install '([\w.-]+)\[", place):
            assert extra == name
    assert PROJECT["scripts"] == {"repo-digest": "digest_plugin.cli:main"}  # the command keeps its name


def _dry_run(target: str, venv: Path) -> str:
    """The commands `make TARGET` would run for a virtual environment at `venv` (make --dry-run)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", "EXTRAS")}
    done = subprocess.run(["make", "--dry-run", f"VENV={venv}", target], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _installs(commands: str) -> list[str]:
    return re.findall(r"pip install --quiet (-e \S+)", commands)


def test_make_html_installs_what_a_build_needs_and_make_test_adds_the_test_tools(tmp_path):
    fresh = tmp_path / "venv"
    assert _installs(_dry_run("html", fresh)) == ["-e '.'"]
    assert _installs(_dry_run("test", fresh)) == ["-e '.'", "-e '.[test]'"]
    # After `make html`, `make test` installs the test extra on top, and only that.
    fresh.mkdir()
    (fresh / ".installed").touch()
    assert _installs(_dry_run("test", fresh)) == ["-e '.[test]'"]
    assert _installs(_dry_run("html", fresh)) == []
    runtime = " ".join(PROJECT["dependencies"]).lower()
    assert not [tool for tool in TEST_TOOLS if tool in runtime]
