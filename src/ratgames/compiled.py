"""The engine's hot modules compiled to C with mypyc: an optional build, used only while it
matches the sources exactly.

Build it once (it needs a C compiler and Python's headers; mypy and setuptools come with the
development tools that ``uv sync`` installs)::

    python3 -m uv run ratgames compile build
    python3 -m uv run ratgames compile status
    python3 -m uv run ratgames compile clean

When ratgames is imported it looks for a build of exactly the sources it runs: the SHA-256 of
those sources (:data:`HASHED`) with the Python version and machine names the build's folder in
``$RATGAMES_HOME/cache/compiled`` (or ``~/.ratgames/cache/compiled``).  If that folder is there,
the compiled modules are imported instead of their Python files: every module whose first line
is ``# ratgames: compiled`` (:func:`compiled_modules`; mark a new hot module so, and it is found,
nothing else to list).  The rules, bots and search are the same code, so every game, sample and
search move is the same (the digests of ``tests/core/test_exact_play.py`` are checked on the
build).  After any change to a source file, or under another Python, no build matches and the
Python modules are used, as when nothing was built.

``RATGAMES_COMPILED=off`` never uses a build; ``RATGAMES_COMPILED=require`` makes ``import
ratgames`` fail unless one is used (to test the build).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

MARKER = "# ratgames: compiled"
"""The first line of every module that is compiled (found, not listed: see
:func:`compiled_modules`)."""

HASHED: tuple[str, ...] = (
    "cards.py",
    "core/*.py",
    "search/*.py",
    "games/*.py",
    "games/*/*.py",
)
"""The source files (relative to the package) a build must match besides the compiled modules
themselves: every module of the package a compiled module may import."""

_FOUND: dict[Path, tuple[str, ...]] = {}


def compiled_modules() -> tuple[str, ...]:
    """The modules compiled, by name, sorted: every module of the package whose first line is
    :data:`MARKER` (the rules, bots and search, and the core they run on).  Found once per
    process (a module marked after that counts from the next process on)."""
    found = _FOUND.get(PACKAGE)
    if found is None:
        names = []
        marker = MARKER.encode()
        for path in PACKAGE.rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            with path.open("rb") as f:
                head = f.readline().rstrip()
            if head == marker:
                rel = path.relative_to(PACKAGE).with_suffix("")
                names.append(".".join(("ratgames", *rel.parts)))
        found = _FOUND[PACKAGE] = tuple(sorted(names))
    return found


def __getattr__(name: str) -> tuple[str, ...]:
    if name == "MODULES":  # the compiled modules, found (formerly a list kept by hand)
        return compiled_modules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


GROUP = "ratgames_compiled"
"""The name mypyc gives the shared library of the build (``ratgames_compiled__mypyc``)."""

PACKAGE = Path(__file__).resolve().parent

active: Path | None = None
"""The build in use, if one is."""


class CompileError(Exception):
    """The build could not be made (what is missing or what failed is in the message)."""


def cache_root() -> Path:
    """Where builds are kept: ``$RATGAMES_HOME/cache/compiled``, else
    ``~/.ratgames/cache/compiled``."""
    home = os.environ.get("RATGAMES_HOME")
    return (Path(home) if home else Path.home() / ".ratgames") / "cache" / "compiled"


def source_files() -> list[Path]:
    """The files of :data:`HASHED` and of every compiled module, in a fixed order."""
    found: set[Path] = {PACKAGE / _module_file(m) for m in compiled_modules()}
    for pattern in HASHED:
        found.update(p for p in PACKAGE.glob(pattern) if p.is_file())
    return sorted(found)


def source_key() -> str:
    """The name of the build that matches these sources under this Python."""
    digest = hashlib.sha256()
    tag = sys.implementation.cache_tag or sys.implementation.name
    digest.update(f"{tag}\0{sys.platform}\0{platform.machine()}\0".encode())
    for path in source_files():
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:24]


class _Finder(importlib.abc.MetaPathFinder):
    """Imports the modules of one build from its folder."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self.paths = paths

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        found = self.paths.get(fullname)
        if found is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(found))
        return importlib.util.spec_from_file_location(fullname, str(found), loader=loader)


def _read_manifest(folder: Path) -> dict[str, Path] | None:
    try:
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        paths = {name: folder / rel for name, rel in data["files"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if set(compiled_modules()) - set(paths) or not all(p.is_file() for p in paths.values()):
        return None
    return paths


def _mode() -> str:
    return os.environ.get("RATGAMES_COMPILED", "").strip().lower()


def turned_off() -> bool:
    """Whether ``RATGAMES_COMPILED`` says never to use a build."""
    return _mode() in ("off", "0", "no", "false")


def activate() -> bool:
    """Use the build that matches the sources, if there is one (see the module's doc); True if
    one is used.  Called by ``import ratgames`` before any compiled module is imported."""
    global active
    if turned_off():
        return False
    require = _mode() in ("require", "1", "yes", "true")
    root = cache_root()
    paths = None
    if root.is_dir() or require:
        folder = root / source_key()
        paths = _read_manifest(folder)
    if paths is None:
        if require:
            raise ImportError(
                "RATGAMES_COMPILED=require but there is no compiled build of these sources in "
                f"{root}: make one with python3 -m uv run ratgames compile build"
            )
        return False
    if any(name in sys.modules for name in compiled_modules()):
        # Too late to swap modules already imported: stay with the Python ones.
        return False
    sys.meta_path.insert(0, _Finder(paths))
    active = folder
    return True


_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="ratgames-compiled",
    ext_modules=mypycify({files!r}, opt_level="3", group_name={group!r}),
)
"""


def _module_file(name: str) -> str:
    return name.removeprefix("ratgames.").replace(".", "/") + ".py"


def build(*, echo: bool = True) -> Path:
    """Compile the modules of :func:`compiled_modules` of these sources (unless they are built
    already) and return the build's folder.  Raises :class:`CompileError` naming what is missing
    or what failed."""
    missing = [m for m in ("mypy", "mypyc", "setuptools") if importlib.util.find_spec(m) is None]
    if missing:
        raise CompileError(
            f"{' and '.join(missing)} not installed: they come with the development tools "
            "(python3 -m uv sync in a checkout), or install them beside ratgames (pip install "
            "mypy setuptools)"
        )
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        raise CompileError(f"no C compiler: {compiler!r} is not on PATH (set CC to use another)")
    key = source_key()
    root = cache_root()
    folder = root / key
    if _read_manifest(folder) is not None:
        return folder
    root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ratgames-compile-") as tmp:
        work = Path(tmp)
        shutil.copytree(
            PACKAGE,
            work / "ratgames",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c"),
        )
        modules = compiled_modules()
        files = [f"ratgames/{_module_file(m)}" for m in modules]
        (work / "setup.py").write_text(_SETUP.format(files=files, group=GROUP), encoding="utf-8")
        if echo:
            print(f"compiling {len(modules)} modules with mypyc (a minute or two)...", flush=True)
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            cwd=work,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            lines = [ln for ln in (done.stdout + done.stderr).splitlines() if "error" in ln]
            why = "\n".join(lines[-8:]) or (done.stderr or done.stdout)[-2000:]
            raise CompileError(f"mypyc failed (exit code {done.returncode}):\n{why}")
        suffixes = importlib.machinery.EXTENSION_SUFFIXES
        files_out: dict[str, str] = {}
        for name in (*modules, f"{GROUP}__mypyc"):
            stem = work / name.replace(".", "/")
            built = [stem.with_name(stem.name + s) for s in suffixes]
            built = [b for b in built if b.is_file()]
            if not built:
                raise CompileError(f"mypyc made no library for {name}")
            files_out[name] = built[0].relative_to(work).as_posix()
        staging = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
        try:
            for rel in files_out.values():
                target = staging / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(work / rel, target)
            manifest = {
                "key": key,
                "python": sys.version,
                "mypy": _mypy_version(),
                "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "files": files_out,
            }
            (staging / "manifest.json").write_text(json.dumps(manifest, indent=1), "utf-8")
            try:
                os.replace(staging, folder)  # whole or not at all, for other processes
            except OSError:
                if _read_manifest(folder) is None:  # not another process's build either
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    if echo:
        print(f"built in {time.perf_counter() - started:.0f} s: {folder}")
    _prune(root, keep=folder)
    return folder


def _mypy_version() -> str:
    from mypy.version import __version__

    return __version__


def _prune(root: Path, keep: Path, builds: int = 4) -> None:
    """Remove all but the ``builds`` newest builds (``keep`` always stays)."""
    others = sorted(
        (p for p in root.iterdir() if p.is_dir() and p != keep and not p.name.startswith(".")),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in others[builds - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


def clean() -> int:
    """Remove every build; returns how many there were."""
    root = cache_root()
    if not root.is_dir():
        return 0
    builds = [p for p in root.iterdir() if p.is_dir()]
    for p in builds:
        shutil.rmtree(p, ignore_errors=True)
    return len(builds)


def status() -> str:
    """One line: whether a build is in use, or why not."""
    if active is not None:
        return f"compiled: {len(compiled_modules())} modules from {active}"
    if turned_off():
        return "not compiled: RATGAMES_COMPILED=off"
    folder = cache_root() / source_key()
    if _read_manifest(folder) is None:
        return "not compiled: no build of these sources (python3 -m uv run ratgames compile build)"
    return f"not compiled: a build is in {folder}, but the modules were imported before it"
