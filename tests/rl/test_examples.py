"""The training example's environment, evaluation and output run without PyTorch."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_training_example_without_torch(tmp_path: Path) -> None:
    ex = _load("train_maskable_ppo")
    assert "torch" not in sys.modules
    rate = ex.evaluate(ex.random_policy(1), games=4, seed=3)
    assert 0.0 <= rate <= 1.0
    path = tmp_path / "w.csv"
    ex.write_csv([(0, rate), (10, 0.5)], str(path))
    assert path.read_text().splitlines()[0] == "steps,win_rate"
    if importlib.util.find_spec("matplotlib") is not None:
        ex.plot([(0, rate), (10, 0.5)], str(tmp_path / "w.png"), 0.1)
        assert (tmp_path / "w.png").stat().st_size > 0


def test_head_to_head_script(capsys: pytest.CaptureFixture[str]) -> None:
    ex = _load("head_to_head")
    assert ex.bots_at(0.5)[2] == "openspiel-ismcts:seconds=0.5"
