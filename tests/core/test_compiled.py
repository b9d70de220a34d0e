"""The compiled build is used only when it matches the sources exactly; without one, nothing
changes.  (The build itself, which takes a minute or two, is checked by running the suites with
``RATGAMES_COMPILED=require`` and by ``benchmarks/check_compiled.py``.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratgames import compiled
from ratgames.cli.compile import compile_group


def _run(code: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "RATGAMES_COMPILED"}
    environ.update(RATGAMES_HOME=str(home), **env)
    return subprocess.run(
        [sys.executable, "-c", code], env=environ, capture_output=True, text=True, check=False
    )


def test_the_key_names_exactly_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "ratgames"
    shutil.copytree(compiled.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(compiled, "PACKAGE", copy)
    key = compiled.source_key()
    assert key == compiled.source_key() and len(key) == 24
    names = {p.relative_to(copy).as_posix() for p in compiled.source_files()}
    for module in compiled.MODULES:
        assert module.removeprefix("ratgames.").replace(".", "/") + ".py" in names
    # A file no compiled module reads changes nothing; any compiled module's source does.
    (copy / "cli.py").write_text("# changed\n", encoding="utf-8")
    assert compiled.source_key() == key
    rules = copy / "games" / "rats" / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert compiled.source_key() != key


def test_without_a_build_the_python_modules_are_used(tmp_path: Path) -> None:
    done = _run(
        "import ratgames, ratgames.core.game as g; from ratgames import compiled; "
        "print(compiled.active, g.__file__.endswith('.py'))",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "True"]


def test_require_says_how_to_build(tmp_path: Path) -> None:
    done = _run("import ratgames", tmp_path, RATGAMES_COMPILED="require")
    assert done.returncode != 0
    assert "no compiled build of these sources" in done.stderr
    assert "ratgames compile build" in done.stderr


def test_a_broken_or_foreign_build_is_not_used(tmp_path: Path) -> None:
    """A folder with the right name but files missing is ignored, and so is any other build."""
    root = tmp_path / "cache" / "compiled"
    broken = root / compiled.source_key()
    broken.mkdir(parents=True)
    files = {m: f"{m.replace('.', '/')}.so" for m in compiled.MODULES}
    (broken / "manifest.json").write_text(json.dumps({"files": files}), encoding="utf-8")
    (root / ("0" * 24)).mkdir()
    done = _run("from ratgames import compiled; print(compiled.active)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None"
    done = _run("import ratgames", tmp_path, RATGAMES_COMPILED="require")
    assert done.returncode != 0 and "no compiled build" in done.stderr


def test_off_is_never_compiled(tmp_path: Path) -> None:
    done = _run(
        "from ratgames import compiled; print(compiled.status())",
        tmp_path,
        RATGAMES_COMPILED="off",
    )
    assert done.stdout.strip() == "not compiled: RATGAMES_COMPILED=off"


def test_the_build_names_what_it_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    real = compiled.importlib.util.find_spec

    def without_setuptools(name: str, *args: object) -> object:
        return None if name == "setuptools" else real(name)

    monkeypatch.setattr(compiled.importlib.util, "find_spec", without_setuptools)
    with pytest.raises(
        compiled.CompileError, match=r"setuptools not installed.*pip install mypy setuptools"
    ):
        compiled.build(echo=False)
    monkeypatch.setattr(compiled.importlib.util, "find_spec", real)
    monkeypatch.setenv("CC", "no-such-compiler-here")
    if all(real(m) is not None for m in ("mypy", "mypyc", "setuptools")):
        with pytest.raises(compiled.CompileError, match="no C compiler"):
            compiled.build(echo=False)


def test_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    runner = CliRunner()
    status = runner.invoke(compile_group, ["status"])
    assert status.exit_code == 0 and status.output.startswith(("compiled: ", "not compiled: "))
    (tmp_path / "cache" / "compiled" / "some-build").mkdir(parents=True)
    cleaned = runner.invoke(compile_group, ["clean"])
    assert cleaned.exit_code == 0 and cleaned.output.startswith("removed 1 build(s)")
    assert not any((tmp_path / "cache" / "compiled").iterdir())
    monkeypatch.setattr(compiled.importlib.util, "find_spec", lambda name, *a: None)
    refused = runner.invoke(compile_group, ["build"])
    assert refused.exit_code == 1 and "not installed" in refused.output


def test_the_doctests_of_the_compiled_modules_run_on_their_python_files() -> None:
    """With a build in use, pytest finds no doctests in the compiled modules (the finder reads
    Python functions and classes): they run here, in a process that uses the Python files."""
    if compiled.active is None:
        pytest.skip("no compiled build in use: pytest collects these doctests itself")
    files = [str(compiled.PACKAGE / compiled._module_file(m)) for m in compiled.MODULES]
    environ = {**os.environ, "RATGAMES_COMPILED": "off"}
    options = ["-o", "addopts=", "-p", "no:cacheprovider", "--doctest-modules"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "--import-mode=importlib", *files],
        env=environ,
        cwd=compiled.PACKAGE.parents[1],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"\b\d+ passed", done.stdout), done.stdout[-2000:]
