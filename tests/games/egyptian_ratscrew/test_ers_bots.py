"""The reflex bots: profiles, parameters, decisions and races on the simulated clock."""

from __future__ import annotations

import pytest
from tests.games.egyptian_ratscrew.helpers import GID, game, table

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import OptionError
from ratgames.core.runner import play_game
from ratgames.games.egyptian_ratscrew.bots import LEVEL_PROFILES, LEVELS, ReflexBot
from ratgames.levels import levels_for


def bot(spec: str, seed: int = 1) -> ReflexBot:
    b = make_bot(game(), spec, seed=seed)
    assert isinstance(b, ReflexBot)
    return b


def test_levels_set_the_profile_and_parameters_override_it() -> None:
    b = bot("heuristic:level=fast")
    assert b.reaction == pytest.approx(LEVEL_PROFILES["fast"]["reaction_ms"] / 1000)
    b = bot("heuristic:level=fast,miss=0.5,reaction_ms=150")
    assert b.miss == 0.5 and b.reaction == pytest.approx(0.15)
    assert b.false_slap == LEVEL_PROFILES["fast"]["false_slap"]
    assert bot("heuristic").reaction == pytest.approx(0.4)
    assert b.describe() == "heuristic:level=fast,miss=0.5,reaction_ms=150.0"


@pytest.mark.parametrize(
    "spec",
    [
        "heuristic:level=superhuman",
        "heuristic:miss=2",
        "heuristic:reaction_ms=-5",
        "heuristic:speed=3",
    ],
)
def test_bad_bot_parameters_are_refused(spec: str) -> None:
    with pytest.raises(OptionError):
        make_bot(game(), spec)


def test_difficulty_levels_map_to_profiles() -> None:
    assert levels_for(GID) == LEVELS


def test_a_perfect_bot_slaps_a_slappable_pile_after_its_reaction_time() -> None:
    state = table(game(), "9H", "9C")
    state.apply(0, "play")
    state.apply(1, "play")
    b = bot("heuristic:level=perfect")
    b.new_game(0)
    reaction = b.react(SeatView(state, 0, now=10.0))
    assert reaction is not None
    assert str(reaction.action) == f"slap@{state.version}"
    assert reaction.delay == pytest.approx(0.15)
    # Asked again later about the same pile, it counts from when it first saw it.
    again = b.react(SeatView(state, 0, now=10.1))
    assert again is not None and again.delay == pytest.approx(0.05)
    late = b.react(SeatView(state, 0, now=11.0))
    assert late is not None and 0 < late.delay < 0.01  # at once, but never a zero delay


def test_a_bot_that_misses_everything_just_plays_at_its_pace() -> None:
    state = table(game(), "9H 2C", "9C")
    state.apply(0, "play")
    state.apply(1, "play")
    b = bot("heuristic:miss=1,play_ms=500")
    b.new_game(0)
    reaction = b.react(SeatView(state, 0, now=0.0))
    assert reaction is not None and str(reaction.action) == "play"
    assert 0.4 <= reaction.delay <= 0.6
    # Not its turn and nothing to slap: it waits (no false slaps at false_slap=0).
    quiet = bot("heuristic:false_slap=0,miss=1")
    assert quiet.react(SeatView(state, 1, now=0.0)) is None


def test_false_slaps_happen_at_the_rate_asked() -> None:
    g = game()
    state = table(g, "2C", "5D")
    state.apply(0, "play")
    count = 0
    for seed in range(400):
        b = bot("heuristic:false_slap=0.25", seed=seed)
        b.new_game(1)
        r = b.react(SeatView(state, 1, now=0.0))
        if r is not None and str(r.action).startswith("slap"):
            count += 1
    assert 60 < count < 140


def test_the_faster_bot_wins_the_race_on_the_simulated_clock() -> None:
    g = game()
    wins = 0
    for i in range(30):
        fast = i % 2
        quick, slow = bot("heuristic:level=perfect", seed=i), bot("heuristic:level=easy", seed=i)
        bots = [quick, slow] if fast == 0 else [slow, quick]
        state = play_game(g, bots, seed=i, record=False)
        out = state.outcome()
        assert out is not None and not out.capped
        wins += fast in out.winners
    assert wins >= 25


def test_bot_games_record_and_replay_with_slap_versions() -> None:
    g = game(3, top_bottom=True)
    bots = [make_bot(g, "heuristic", seed=s) for s in range(3)]
    state = play_game(g, bots, seed=42)
    out = state.outcome()
    assert out is not None
    assert set(out.details) == {"length", "piles_won", "slaps", "bad_slaps", "too_late", "cycle"}
    replayed = ratgames.replay(state.record())
    # The same position, its clock as exact as the record's times (0.1 ms).
    again, real = replayed.snapshot(), state.snapshot()
    assert abs(again.pop("time") - real.pop("time")) <= 0.00005
    assert again == real
    times = [e[3] for e in state.events() if e[0] == "action"]
    assert times == sorted(times)


def test_bots_that_never_slap_play_a_deterministic_game() -> None:
    g = game()
    runs = []
    for seed in (1, 2):
        bots = [make_bot(g, "heuristic:miss=1,false_slap=0", seed=seed + s) for s in range(2)]
        state = play_game(g, bots, seed=7, record=False)
        out = state.outcome()
        assert out is not None and out.details["slaps"] == 0
        runs.append(state.snapshot()["stacks"])
    assert runs[0] == runs[1]


def test_random_bots_finish_real_time_games() -> None:
    for burn in (0, 1):
        g = game(4, burn=burn)
        bots = [make_bot(g, "random", seed=s) for s in range(4)]
        state = play_game(g, bots, seed=burn, record=False)
        assert state.is_over()
