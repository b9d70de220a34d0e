"""The research-API tests need the ``rl`` extra (numpy, pettingzoo, gymnasium, open_spiel)."""

import pytest

for name in ("numpy", "pettingzoo", "gymnasium", "pyspiel"):
    pytest.importorskip(name, reason="install the rl extra: uv sync --all-extras")
