"""The stages import downwards only: the analysis and the words know nothing of disk, network or Pelican.

Read from the source with `ast` (every import, at any depth, lazy ones included) and followed
through the package, so a module that reaches the store through a third one is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "digest_plugin"
PURE_STAGES = ("analysis", "narrate")
# The store, file writes and what fills or publishes the store; Pelican and PyGithub themselves.
FORBIDDEN = ("digest_plugin.store.folder", "digest_plugin.store.atomic", "digest_plugin.fetch", "digest_plugin.publish",
             "digest_plugin.store.jsonl_import", "digest_plugin.cli", "digest_plugin.store.sample", "pelican", "github")


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
    """Absolute names of every module `path` imports; `from . import x` counts as both `.` and `.x`."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names if module_path(f"{source}.{alias.name}"))
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
        paths = [path] if path.name != "__init__.py" else [*path.parent.rglob("*.py")] if current == start else [path]
        for source in paths:
            for imported in imports_of(source):
                parent = imported
                while parent and parent != "digest_plugin":  # a.b.c runs a/b/__init__ too; the root only defines register()
                    if parent not in seen:
                        seen[parent] = module_name(source)
                        queue.append(parent)
                    parent = parent.rpartition(".")[0]
    return seen


def forbidden(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


@pytest.mark.parametrize("stage", PURE_STAGES)
def test_pure_stages_import_no_store_disk_network_or_pelican(stage):
    bad = {name: by for name, by in reachable(f"digest_plugin.{stage}").items() if forbidden(name)}
    assert not bad, "\n".join(f"{by} imports {name}" for name, by in sorted(bad.items()))


def test_the_check_follows_imports_through_other_modules():
    imported = reachable("digest_plugin.publish")  # the Pelican glue: it does reach all of them
    assert {"pelican", "digest_plugin.store.folder", "digest_plugin.fetch"} <= imported.keys()
    assert "github" in reachable("digest_plugin.cli")  # cli -> fetch -> fetch.client -> github
