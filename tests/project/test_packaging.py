"""What a new user installs: a distribution name of our own, and `make html` with what a build needs
and nothing more (the test tools come with `make test`)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
TEST_TOOLS = ("pytest", "playwright", "hypothesis", "ruff", "mypy", "radon", "openai")


def test_the_distribution_has_a_name_of_its_own_in_pelicans_convention():
    """`repo-digest` on the package index is an unrelated project (with a `repo-digest` command of
    its own): the README's install line must name ours."""
    name = PROJECT["name"]
    assert name == "pelican-repo-digest"
    section = README[README.index("## Add it to your Pelican site") :]
    first_command = shlex.split(re.search(r"```sh\n(.*?)\n", section)[1], comments=True)
    # Not released to PyPI yet: the line that works today installs it from its git repository.
    assert first_command[:2] == ["pip", "install"] and len(first_command) == 3
    requirement = Requirement(first_command[2])
    assert requirement.name == name and requirement.url.startswith("git+https://github.com/")
    for place in (
        README,
        *(p.read_text(encoding="utf-8") for p in (ROOT / "digest_plugin").rglob("*.py")),
    ):
        for extra in re.findall(r"pip install '([\w.-]+)\[", place):
            assert extra == name
    assert PROJECT["scripts"] == {
        "repo-digest": "digest_plugin.cli:main"
    }  # the command keeps its name


def _dry_run(target: str, venv: Path) -> str:
    """The commands `make TARGET` would run for a virtual environment at `venv` (make --dry-run)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", "EXTRAS")
    }
    done = subprocess.run(
        ["make", "--dry-run", f"VENV={venv}", target],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
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


def test_make_test_type_checks_the_package_before_running_the_tests(tmp_path):
    commands = _dry_run("test", tmp_path / "venv").splitlines()
    typecheck = [i for i, command in enumerate(commands) if command.endswith("python -m mypy")]
    tests = [i for i, command in enumerate(commands) if "python -m pytest" in command]
    assert typecheck and tests and typecheck[0] < tests[0], commands
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["packages"] == ["digest_plugin"]  # what `python -m mypy` checks, with no argument


def test_the_plugin_has_one_name_everywhere():
    """docs/architecture.md: the namespace plugin `pelican.plugins.repo_digest`, or PLUGINS = ["digest_plugin"]."""
    places = {
        "README.md": README,
        "pelicanconf.py": (ROOT / "pelicanconf.py").read_text(encoding="utf-8"),
        **{
            str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for p in (ROOT / "pelican").rglob("*.py")
        },
        "digest_plugin/__init__.py": (ROOT / "digest_plugin/__init__.py").read_text(
            encoding="utf-8"
        ),
    }
    for place, text in places.items():
        assert not re.search(r"""PLUGINS.{0,40}["']repo_digest["']|add `"repo_digest"`""", text), (
            place
        )
        assert "pip install repo-digest" not in text, place  # an unrelated project's name on PyPI
    assert 'PLUGINS = ["digest_plugin"]' in places["pelicanconf.py"]


def test_every_runtime_dependency_is_imported_by_the_code():
    imported = {
        "markdown"
    }  # not imported: Pelican reads the editor's notes (content/notes/*.md) with it
    for source in [*(ROOT / "digest_plugin").rglob("*.py"), ROOT / "Makefile"]:
        text = source.read_text(encoding="utf-8")
        imported |= set(re.findall(r"^\s*(?:from|import) (\w+)", text, re.M)) | set(
            re.findall(r"-m (\w+)", text)
        )
    providers = metadata.packages_distributions()
    unused = []
    for line in PROJECT["dependencies"]:
        name = Requirement(line).name.lower()
        modules = {
            module for module, dists in providers.items() if name in {d.lower() for d in dists}
        }
        if not modules & imported:
            unused.append(name)
    assert unused == []


def test_the_wheel_declares_its_licence_without_setuptools_deprecation_warnings(tmp_path):
    """`license = "MIT"` (an SPDX expression) and the LICENSE file: a table there printed
    setuptools' deprecation box, twice, on every fresh install."""
    env = {**os.environ, "PIP_CONSTRAINT": "", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0 and "No matching distribution" in done.stderr:
        pytest.skip(f"no package index to install setuptools from: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "deprecated" not in (done.stdout + done.stderr).lower(), done.stderr
    wheel = zipfile.ZipFile(next(tmp_path.glob("pelican_repo_digest-*.whl")))
    meta = wheel.read(
        next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    ).decode()
    assert "License-Expression: MIT" in meta and "License-File: LICENSE" in meta
    assert any(n.endswith("licenses/LICENSE") for n in wheel.namelist())
    assert "pelican/plugins/repo_digest/__init__.py" in wheel.namelist()


def test_repo_digest_says_its_version():
    command = Path(sys.executable).parent / "repo-digest"
    done = subprocess.run([str(command), "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == f"repo-digest {PROJECT['version']}"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_constraints_pin_every_package_the_workflows_install():
    """The workflows install with PIP_CONSTRAINT=constraints.txt: a package it leaves out (pagefind,
    the openai client) is whatever version the index has that day."""
    pinned = {
        _normal(line.split("==")[0])
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line
    }
    needed, waiting = set(), [(PROJECT["name"], {"test", "llm", "github"})]
    while waiting:
        name, extras = waiting.pop()
        for line in metadata.requires(name) or []:
            requirement = Requirement(line)
            environments = [{"extra": extra} for extra in extras or {""}]
            if requirement.marker and not any(
                requirement.marker.evaluate(env) for env in environments
            ):
                continue
            if _normal(requirement.name) not in needed:
                needed.add(_normal(requirement.name))
                waiting.append((requirement.name, set(requirement.extras)))
    assert (
        sorted(needed - pinned - {"setuptools"}) == []
    )  # pip freeze leaves setuptools out: build isolation brings its own
