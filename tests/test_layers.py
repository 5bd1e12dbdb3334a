"""The layers of docs/architecture.md, read from the imports of every module (function-level imports too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "hanafuda_spec"
REFERENCE = ROOT / "reference" / "hanafuda"


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (relative imports are not used in the project)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)  # from hanafuda import cli
    return out


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _modules(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def test_the_spec_never_imports_the_reference() -> None:
    """The spec checks any engine through its adapter; it must not depend on ours."""
    found = {f"{p.relative_to(ROOT)}: {m}" for p in _modules(SPEC) for m in _imports(p) if _within(m, "hanafuda")}
    assert not found


@pytest.mark.parametrize("layer", ["hanafuda.cli", "hanafuda.commands"])
def test_the_library_never_imports_the_command_line_layer(layer: str) -> None:
    """Below the program (``hanafuda.cli``, ``hanafuda.commands``) nothing imports it; the documentation
    layer above it (``hanafuda.rulebook``, which documents the command line) and ``__main__`` may."""
    above = {REFERENCE / "cli.py", REFERENCE / "__main__.py"}
    found = {f"{p.relative_to(ROOT)}: {m}" for p in _modules(REFERENCE)
             if p not in above and not p.is_relative_to(REFERENCE / "commands")
             and not p.is_relative_to(REFERENCE / "rulebook")
             for m in _imports(p) if _within(m, layer)}
    assert not found


def test_the_execution_layer_imports_only_the_errors() -> None:
    """``hanafuda.parallel`` is handed its work; of the package it needs the errors alone."""
    assert {m for m in _imports(REFERENCE / "parallel.py") if _within(m, "hanafuda")} == {"hanafuda.errors",
                                                                                          "hanafuda.errors.UsageError"}
