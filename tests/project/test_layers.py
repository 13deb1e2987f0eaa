"""The package is laid out as the pipeline, and the code keeps to it: stages import downwards only,
and the analysis and the words touch no disk, network or Pelican.

Read from the source with `ast` (every import, at any depth, lazy ones included) and followed
through the package, so a module that reaches the store through a third one is caught too.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "digest_plugin"
PURE_STAGES = ("analysis", "narrate")
# What a pure stage may not reach: the store and what fills it, file writes, the build machinery,
# the settings, the network, Pelican and PyGithub. The data model (records/) is allowed, and the
# language's catalogue (i18n.py), which the caller loads and hands over.
FORBIDDEN = (
    "digest_plugin.store",
    "digest_plugin.atomic",
    "digest_plugin.build",
    "digest_plugin.fetch",
    "digest_plugin.llm",
    "digest_plugin.charts",
    "digest_plugin.publish",
    "digest_plugin.cli",
    "digest_plugin.settings",
    "pelican",
    "github",
    "openai",
    "yaml",
    "socket",
    "http",
    "urllib",
    "subprocess",
)
# What a pure stage's own modules may not import or call: the means to read and write files.
FILE_MODULES = ("pathlib", "shutil", "tempfile", "glob", "yaml", "importlib.resources", "io", "os")
FILE_CALLS = {
    "open",
    "read_text",
    "read_bytes",
    "write_text",
    "write_bytes",
    "iterdir",
    "glob",
    "rglob",
    "load",
    "dump",
    "safe_load",
    "listdir",
    "scandir",
    "walk",
    "stat",
    "exists",
    "is_file",
    "is_dir",
    "mkdir",
    "unlink",
    "remove",
}
# The pipeline, bottom up: a package may import from its own layer and the layers before it.
LAYERS = (
    ("errors", "weeks", "i18n", "urls", "stages", "atomic"),  # shared by every stage
    ("records",),  # the data model
    ("settings",),
    ("store",),
    ("build",),  # the machinery every stage may use (workers, the cache), and what runs a build
    ("fetch",),
    ("analysis",),
    ("narrate",),
    ("llm",),
    ("charts",),
    ("publish",),
    ("cli", "__init__"),
)
ROOT_MODULES = {
    "__init__",
    "atomic",
    "cli",
    "errors",
    "i18n",
    "settings",
    "stages",
    "urls",
    "weeks",
}
PAIRS = {"analysis", "narrate"}  # analysis/X.py holds X's facts, narrate/X.py its words


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_path(name: str) -> Path | None:
    base = PACKAGE.parent.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imports_of(path: Path) -> set[str]:
    """Absolute names of every module `path` imports; `from a import b` counts as both `a` and `a.b`."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert not node.level, f"{path}: imports inside the package are absolute"
            found.add(node.module)
            found.update(
                f"{node.module}.{alias.name}"
                for alias in node.names
                if module_path(f"{node.module}.{alias.name}")
            )
    return found


def reachable(start: str) -> dict[str, str]:
    """Every module imported from `start`, directly or through the package, mapped to who imports it."""
    seen: dict[str, str] = {}
    queue = [start]
    while queue:
        current = queue.pop()
        path = module_path(current)
        if path is None:
            continue
        paths = (
            [path]
            if path.name != "__init__.py"
            else [*path.parent.rglob("*.py")]
            if current == start
            else [path]
        )
        for source in paths:
            for imported in imports_of(source):
                parent = imported
                while (
                    parent and parent != "digest_plugin"
                ):  # a.b.c runs a/b/__init__ too; the root only defines register()
                    if parent not in seen:
                        seen[parent] = module_name(source)
                        queue.append(parent)
                    parent = parent.rpartition(".")[0]
    return seen


def forbidden(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


def file_calls(path: Path) -> list[str]:
    """`line: call` for each call in `path` whose name reads or writes files."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = (
                node.func.attr
                if isinstance(node.func, ast.Attribute)
                else getattr(node.func, "id", "")
            )
            if name in FILE_CALLS:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {name}()")
    return found


def layer_of(module: str) -> int | None:
    """The index in LAYERS of a module of the package (None for one outside it)."""
    parts = module.split(".")
    if parts[0] != "digest_plugin":
        return None
    top = parts[1] if len(parts) > 1 else "__init__"
    return next(index for index, names in enumerate(LAYERS) if top in names)


@pytest.mark.parametrize("stage", PURE_STAGES)
def test_pure_stages_import_no_store_disk_network_or_pelican(stage):
    bad = {name: by for name, by in reachable(f"digest_plugin.{stage}").items() if forbidden(name)}
    assert not bad, "\n".join(f"{by} imports {name}" for name, by in sorted(bad.items()))


@pytest.mark.parametrize("stage", PURE_STAGES)
def test_pure_stages_read_and_write_no_file(stage):
    paths = sorted((PACKAGE / stage).rglob("*.py"))
    calls = [call for path in paths for call in file_calls(path)]
    modules = [
        f"{path.relative_to(PACKAGE.parent)} imports {name}"
        for path in paths
        for name in imports_of(path)
        if any(name == m or name.startswith(m + ".") for m in FILE_MODULES)
    ]
    assert not calls + modules, "\n".join(calls + modules)


def test_the_file_check_sees_file_reads():
    assert any(
        "read_text()" in call for call in file_calls(PACKAGE / "settings.py")
    )  # DIGEST_RULES is read there
    assert any("open()" in call for call in file_calls(PACKAGE / "build" / "cache.py"))


def test_the_check_follows_imports_through_other_modules():
    imported = reachable("digest_plugin.publish")  # the Pelican glue: it does reach all of them
    assert {"pelican", "digest_plugin.store.folder", "digest_plugin.fetch"} <= imported.keys()
    assert "github" in reachable("digest_plugin.cli")  # cli -> fetch -> fetch.client -> github


def test_every_import_goes_down_the_pipeline():
    upward = []
    for path in PACKAGE.rglob("*.py"):
        here = layer_of(module_name(path))
        for imported in imports_of(path):
            there = layer_of(imported)
            if there is not None and there > here:
                upward.append(f"{module_name(path)} imports {imported}")
    assert not upward, "\n".join(sorted(upward))


def test_the_root_holds_only_what_every_stage_shares():
    assert {path.stem for path in PACKAGE.glob("*.py")} == ROOT_MODULES
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert packages == {name for layer in LAYERS for name in layer} - ROOT_MODULES


def test_no_module_name_is_used_twice_but_the_analysis_and_narrate_pairs():
    names = Counter(path.stem for path in PACKAGE.rglob("*.py") if path.stem != "__init__")
    twice = {name for name, count in names.items() if count > 1}
    unpaired = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.stem in twice
        and not (
            path.parent.name in PAIRS
            and (PACKAGE / "analysis" / path.name).is_file()
            and (PACKAGE / "narrate" / path.name).is_file()
        )
    ]
    assert not unpaired, sorted(unpaired)


def test_the_plugin_loads_without_pygithub():
    """Pelican loads the plugin (its hooks) without the fetch: a build that does not fetch, as the
    Pages workflow's (DIGEST_FETCH = "never"), does not pay PyGithub's 0.2 s import."""
    code = "import sys, digest_plugin.publish.hooks; print(sorted(m for m in sys.modules if m.split('.')[0] == 'github'))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"


def test_fetch_calls_no_analysis_not_even_back_through_what_it_is_handed():
    """The orchestrator (the command line, the build) asks the analysis which PRs need a diff
    excerpt and hands fetch the answer as data: fetch reaches no later stage, and no fetch function
    that the rest of the package calls takes a function to call back."""
    later = ("analysis", "narrate", "llm", "charts", "publish", "cli")
    reached = [
        f"{by} imports {name}"
        for name, by in reachable("digest_plugin.fetch").items()
        if layer_of(name) is not None and name.split(".")[1] in later
    ]
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for path in (PACKAGE / "fetch").glob("*.py")
    }
    # Callable, and the names of the fetch package bound to a function type (`X = Callable[...]`)
    callables = {"Callable"} | {
        target.id
        for tree in trees.values()
        for node in tree.body
        if isinstance(node, ast.Assign) and "Callable" in ast.unparse(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    called = {
        alias.name
        for path in PACKAGE.rglob("*.py")
        if path.parent.name != "fetch"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("digest_plugin.fetch")
        for alias in node.names
    }
    callbacks = [
        f"{path.name}: {node.name}({arg.arg}: {ast.unparse(arg.annotation)})"
        for path, tree in trees.items()
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in called
        for arg in [*node.args.args, *node.args.kwonlyargs]
        if arg.annotation is not None
        and callables & {n.id for n in ast.walk(arg.annotation) if isinstance(n, ast.Name)}
    ]
    assert {"fetch_repos", "fetch_key_diffs", "fetch_before_build"} <= called
    assert not reached + callbacks, "\n".join(reached + callbacks)


def test_the_code_cites_only_what_the_repository_holds():
    """A module that points the reader to a document outside the repository leaves them stranded:
    the contracts the code cites are in docs/architecture.md."""
    citing = [
        str(path.relative_to(PACKAGE.parent))
        for path in PACKAGE.rglob("*.py")
        if "DESIGN.md" in path.read_text(encoding="utf-8")
    ]
    assert citing == []
    cited = {
        match
        for path in PACKAGE.rglob("*.py")
        for match in re.findall(r"docs/[\w-]+\.md", path.read_text(encoding="utf-8"))
    }
    assert cited and all((PACKAGE.parent / doc).is_file() for doc in cited), cited
