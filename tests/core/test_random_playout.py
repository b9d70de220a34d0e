"""``State.random_playout``: the default loop and every game's own play the very same random
play-out as the plain loop over ``legal_actions`` and ``apply_trusted`` (same numbers drawn, same
actions, same end), from real positions and from samples, with every depth and stage limit; and
a play-out only to be scored (``scoring_only``) scores the same."""

from __future__ import annotations

from typing import Any

import pytest

import ratgames
from ratgames.core.game import Game, State
from ratgames.core.registry import game_class
from ratgames.core.rng import Rng

GAMES = ("caged-rats", "egyptian-ratscrew", "rat-a-tat-cat", "rats", "test-high-card")


def configs() -> list[tuple[str, str, int, dict[str, Any]]]:
    """(label, game id, players, options): the smallest and largest table with the default
    options, and each further variant at the smallest."""
    out = []
    for gid in GAMES:
        cls = game_class(gid)
        for players in sorted({cls.min_players, cls.max_players}):
            out.append((f"{gid}/{players}p", gid, players, dict(cls.variants[0])))
        for i, opts in enumerate(cls.variants[1:], start=1):
            out.append((f"{gid}/{cls.min_players}p/v{i}", gid, cls.min_players, dict(opts)))
    return out


def plain_playout(state: State, rng: Rng, depth: int, stage: int) -> int:
    """The loop ``random_playout`` must equal."""
    steps = 0
    while not state.is_over() and steps < depth and (stage < 0 or state.stage() == stage):
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        state.apply_trusted(seat, legal[rng.randbelow(len(legal))])
        steps += 1
    return steps


def seen(state: State) -> list[Any]:
    """Everything about a state: every card's place, every seat's view and moves, the outcome."""
    seats = range(state.game.players)
    outcome = state.outcome()
    return [
        state.snapshot(),
        sorted(state.cards()),
        state.is_over(),
        state.stage(),
        state.seats_to_act(),
        [state.observation(s) for s in seats],
        [[str(a) for a in state.legal_actions(s)] for s in seats],
        None if outcome is None else outcome.to_json(),
        state.win_estimate(),
    ]


def scores(state: State) -> list[Any]:
    """What a play-out that is only scored is read for."""
    outcome = state.outcome()
    return [
        state.is_over(),
        state.stage(),
        None if outcome is None else outcome.to_json(),
        state.win_estimate(),
    ]


def check_same(state: State, seed: int, depth: int, stage: int, recording: bool) -> int:
    """Play ``state`` out both ways from copies and compare everything; the steps played."""
    mine, plain = state.clone(), state.clone()
    mine.set_recording(recording)
    plain.set_recording(recording)
    rng_mine, rng_plain = Rng(seed), Rng(seed)
    steps = mine.random_playout(rng_mine, depth, stage)
    assert steps == plain_playout(plain, rng_plain, depth, stage)
    assert rng_mine.state == rng_plain.state
    assert seen(mine) == seen(plain)
    assert mine.events() == plain.events()
    # Only to be scored: the same actions and numbers, the same score.
    scored, rng_scored = state.clone(), Rng(seed)
    scored.set_recording(recording)
    assert scored.random_playout(rng_scored, depth, stage, scoring_only=True) == steps
    assert rng_scored.state == rng_plain.state
    assert scores(scored) == scores(plain)
    if not mine.is_over():  # the chance generators are in step too
        probe = Rng(seed + 1)
        assert mine.random_playout(probe, 10_000) == plain_playout(plain, Rng(seed + 1), 10_000, -1)
        assert seen(mine) == seen(plain)
    return steps


CONFIGS = configs()


@pytest.mark.parametrize(
    ("label", "gid", "players", "options"), CONFIGS, ids=[c[0] for c in CONFIGS]
)
def test_random_playout_is_the_plain_loop(
    label: str, gid: str, players: int, options: dict[str, Any]
) -> None:
    game: Game = ratgames.get_game(gid, players=players, options=options)
    played = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        pick = Rng(seed + 100)
        step = 0
        while not state.is_over():
            if step % 7 == 0:
                seat = state.seats_to_act()[0]
                stage = state.stage() if step % 2 else -1
                depth = (1, 3, 40, 100_000)[step % 4]
                played += check_same(state, step, depth, stage, recording=step % 3 == 0)
                sample = state.sample_consistent(seat, Rng(step))
                sample.set_recording(False)
                played += check_same(sample, step + 7, 100_000, sample.stage(), recording=False)
            to_act = state.seats_to_act()
            seat = to_act[pick.randbelow(len(to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[pick.randbelow(len(legal))])
            step += 1
        assert check_same(state, 0, 100, -1, recording=True) == 0  # over: nothing to play
    assert played > 0


def test_random_playout_keeps_a_log_while_recording() -> None:
    game = ratgames.get_game("caged-rats")
    state = game.new_state(seed=3)
    before = len(state.events())
    steps = state.random_playout(Rng(1), 30)
    assert steps == 30
    actions = [e for e in state.events()[before:] if e[0] == "action"]
    assert len(actions) == 30
    replay = game.new_state(seed=3)
    for _, seat, action, _ in actions:
        replay.apply(seat, action)  # each one legal where it was played
    assert replay.snapshot() == state.snapshot()


@pytest.mark.parametrize(
    ("label", "gid", "players", "options"), CONFIGS, ids=[c[0] for c in CONFIGS]
)
def test_a_state_only_scored_after_its_stage_scores_the_same(
    label: str, gid: str, players: int, options: dict[str, Any]
) -> None:
    """``only_scored_after(stage)``: the same play while the stage lasts (and in its copies), and
    the same score once it is over, whoever plays (here the plain random loop, one action at a
    time through ``apply_trusted``, as search's tree walk and heuristic play-outs do)."""
    game: Game = ratgames.get_game(gid, players=players, options=options)
    ended = 0
    stages = set()
    for seed in range(6):
        state = game.new_state(seed=seed)
        pick = Rng(seed + 100)
        step = 0
        while not state.is_over():
            stages.add(state.stage())
            if step % 5 == 0:
                seat = state.seats_to_act()[0]
                sample = state.sample_consistent(seat, Rng(step))
                sample.set_recording(False)
                stage = sample.stage()
                promised, plain = sample.clone(), sample.clone()
                promised.only_scored_after(stage)
                promised = promised.clone()  # copies keep the promise
                rng_a, rng_b = Rng(step), Rng(step)
                while not plain.is_over() and plain.stage() == stage:
                    mover = plain.seats_to_act()[0]
                    legal = plain.legal_actions(mover)
                    assert [str(a) for a in promised.legal_actions(mover)] == [
                        str(a) for a in legal
                    ]
                    plain.apply_trusted(mover, legal[rng_a.randbelow(len(legal))])
                    other = promised.legal_actions(mover)
                    promised.apply_trusted(mover, other[rng_b.randbelow(len(other))])
                assert scores(promised) == scores(plain)
                ended += not plain.is_over()
            to_act = state.seats_to_act()
            seat = to_act[pick.randbelow(len(to_act))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[pick.randbelow(len(legal))])
            step += 1
    if len(stages) > 1:  # a game of several stages: some play-outs saw the next one come
        assert ended > 0
