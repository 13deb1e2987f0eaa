"""No function in digest_plugin is more complex than radon's grade C (cyclomatic complexity 20)."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class

PACKAGE = Path(__file__).resolve().parents[2] / "digest_plugin"
LIMIT = 20


def functions(path: Path):
    for block in cc_visit(path.read_text(encoding="utf-8")):
        yield from block.methods if isinstance(block, Class) else (block,)


def test_no_function_is_more_complex_than_grade_c():
    too_complex = {
        f"{path.relative_to(PACKAGE)}:{block.name} ({block.complexity})"
        for path in sorted(PACKAGE.rglob("*.py"))
        for block in functions(path)
        if block.complexity > LIMIT
    }
    assert not too_complex, "split these into smaller named steps"
