"""OpenSpiel's bots as ratgames bots (tiny budgets: the head-to-head itself is a script)."""

from __future__ import annotations

import pytest

import ratgames
import ratgames.rl.bots
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.runner import play_game


@pytest.mark.parametrize(
    "spec", ["openspiel-ismcts:simulations=8", "openspiel-mcts:simulations=8,worlds=2"]
)
def test_plays_legal_moves_and_a_whole_deal(spec: str) -> None:
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    bots = [make_bot(game, spec, seed=1), make_bot(game, "random", seed=2)]
    state = play_game(game, bots, seed=3)
    assert state.is_over()


def test_two_step_choice_gives_a_whole_legal_run() -> None:
    game = ratgames.get_game("rats", players=2, options={"jokers": 2})
    bot = make_bot(game, "openspiel-ismcts:simulations=4", seed=1)
    for seed in range(6):
        state = game.new_state(seed=seed)
        seat = state.seats_to_act()[0]
        bot.new_game(seat)
        action = bot.act(SeatView(state, seat))
        assert state.is_legal(seat, action)


def test_time_budget_adjusts_simulations() -> None:
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    bot = make_bot(game, "openspiel-ismcts:seconds=0.02,simulations=400", seed=1)
    state = game.new_state(seed=1)
    seat = state.seats_to_act()[0]
    bot.act(SeatView(state, seat))
    assert bot.sims < 400  # type: ignore[attr-defined]


def test_listed_and_seated_by_name_without_importing_open_spiel_first() -> None:
    """The plugin names the OpenSpiel bots for turn-based games without importing OpenSpiel
    (which is imported when one is made), and a tournament from the command line seats them."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ratgames.core.bots import bot_entries\n"
        "names = [e.name for e in bot_entries('rats')]\n"
        "assert 'openspiel-ismcts' in names and 'openspiel-mcts' in names, names\n"
        "assert 'openspiel-mcts' not in [e.name for e in bot_entries('egyptian-ratscrew')]\n"
        "assert 'open_spiel' not in sys.modules\n"
        "from click.testing import CliRunner\n"
        "from ratgames.cli import app\n"
        "r = CliRunner().invoke(app, ['tournament', 'caged-rats', '-o', 'single_deal=true',"
        " '-g', '2', '-w', '1', '-b', 'random', '-b', 'openspiel-mcts:simulations=4,worlds=1',"
        " '--out', sys.argv[1]])\n"
        "assert r.exit_code == 0, r.output\n"
        "assert 'openspiel-mcts' in r.output\n"
    )
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [sys.executable, "-c", code, f"{tmp}/t"], capture_output=True, text=True, timeout=300
        )
    assert done.returncode == 0, done.stderr[-2000:]
