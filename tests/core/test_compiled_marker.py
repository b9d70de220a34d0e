"""The compiled modules are found by their first line, ``# ratgames: compiled``, not listed; the
build's key covers every module they may import."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from ratgames import compiled


def test_the_marked_modules_are_the_compiled_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "ratgames"
    shutil.copytree(compiled.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compiled, "PACKAGE", copy)
    found = compiled.compiled_modules()
    assert "ratgames.core.game" in found and "ratgames.games.caged_rats.rules" in found
    assert "ratgames.cli" not in found and "ratgames.compiled" not in found
    assert found == compiled.MODULES
    key = compiled.source_key()
    # A newly marked module anywhere in the package is compiled and hashed, from the next
    # process on (the modules are found once per process and package folder).
    (copy / "sweeps_hot.py").write_text(compiled.MARKER + '\n"""Hot."""\n', encoding="utf-8")
    monkeypatch.setattr(compiled, "_FOUND", {})
    assert "ratgames.sweeps_hot" in compiled.compiled_modules()
    assert compiled.source_key() != key
    # The marker must be the very first line.
    (copy / "sweeps_hot.py").write_text('"""Hot."""\n' + compiled.MARKER + "\n", encoding="utf-8")
    monkeypatch.setattr(compiled, "_FOUND", {})
    assert "ratgames.sweeps_hot" not in compiled.compiled_modules()


def _imported(path: Path, module: str) -> set[str]:
    """The ratgames modules that ``module`` (at ``path``) imports, as names."""
    package = module.rpartition(".")[0] if path.name != "__init__.py" else module
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("ratgames"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            if base.startswith("ratgames"):
                out.add(base)
                out.update(f"{base}.{a.name}" for a in node.names)
    return out


def test_the_key_covers_every_module_a_compiled_one_imports() -> None:
    hashed = {p.resolve() for p in compiled.source_files()}
    root = compiled.PACKAGE
    for module in compiled.compiled_modules():
        path = root / compiled._module_file(module)
        for name in _imported(path, module):
            if name == "ratgames":
                continue  # the package itself (``from ratgames import cards``: cards follows)
            rel = Path(*name.split(".")[1:])
            candidates = [root / rel.with_suffix(".py"), root / rel / "__init__.py"]
            target = next((c for c in candidates if c.is_file()), None)
            if target is None:
                continue  # an attribute imported from a module, not a module
            assert target.resolve() in hashed, f"{module} imports {name}, which the key misses"
