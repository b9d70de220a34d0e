"""Saving a game in play and taking it up again: the resumed game goes on exactly as the
uninterrupted one would have (cards to come, bots' memory and random numbers)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

import ratgames
from ratgames.core.bots import Bot, SeatView, bot_attributes, make_bot
from ratgames.core.game import Game, State
from ratgames.tui.session import (
    random_states,
    rebuild_state,
    record_stem,
    resume,
    seat_entries,
    unfinished_records,
)


def _move(state: State, bots: Sequence[Bot | None], person: Bot) -> None:
    seat = state.seats_to_act()[0]
    bot = bots[seat] or person
    state.apply(seat, bot.act(SeatView(state, seat)), time=float(len(state.events())))


def _table(game: Game, specs: Sequence[str | None], seed: int) -> list[Bot | None]:
    bots: list[Bot | None] = []
    for s, spec in enumerate(specs):
        bot = None if spec is None else make_bot(game, spec, seed=seed + s)
        if bot is not None:
            bot.new_game(s)
        bots.append(bot)
    return bots


@pytest.mark.parametrize(
    ("game_id", "players", "options", "specs", "stop"),
    [
        # A forgetful heuristic (memory) and a search bot (random numbers), with reshuffles.
        (
            "rat-a-tat-cat",
            3,
            {"mode": "round"},
            [None, "heuristic:memory=0.5", "pimc:iterations=4"],
            9,
        ),
        ("rat-a-tat-cat", 2, {}, [None, "heuristic:memory=0.3"], 60),
        ("rats", 3, {}, [None, "ismcts:iterations=6,tree=1", "random"], 12),
        ("caged-rats", 2, {}, ["random", None], 20),
    ],
)
def test_a_resumed_game_goes_on_exactly_as_the_uninterrupted_one(
    game_id: str, players: int, options: dict[str, object], specs: list[str | None], stop: int
) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    seed = 41
    person_seat = specs.index(None)

    def person() -> Bot:  # the person's moves: a bot of its own, the same in both games
        bot = make_bot(game, "heuristic", seed=5)
        bot.new_game(person_seat)
        return bot

    # The uninterrupted game.
    whole = game.new_state(seed=seed)
    bots = _table(game, specs, seed)
    me = person()
    while not whole.is_over():
        _move(whole, bots, me)

    # The same game, saved after ``stop`` moves (bots included) and taken up again.
    part = game.new_state(seed=seed)
    bots = _table(game, specs, seed)
    me = person()
    for _ in range(stop):
        _move(part, bots, me)
    names = [f"seat {s}" for s in range(players)]
    seeds = [None if b is None else seed + s for s, b in enumerate(bots)]
    record = json.loads(json.dumps(part.record(seat_entries(bots, names, seeds))))
    assert record["outcome"] is None
    resumed = resume(record)
    assert resumed.people == [person_seat] and resumed.names == names
    assert resumed.differed == 0, "asked again, the bots gave the moves they made"
    for old, new in zip(bots, resumed.bots, strict=True):
        assert (old is None) == (new is None)
        if old is not None and new is not None:
            assert random_states(new) == random_states(old)
            assert dict(bot_attributes(new)).keys() == dict(bot_attributes(old)).keys()
    state = resumed.state
    assert state.snapshot() == part.snapshot()
    while not state.is_over():
        _move(state, resumed.bots, me)
    assert state.record()["events"] == whole.record()["events"]
    assert state.outcome() == whole.outcome()


def test_a_forgetful_bot_without_its_history_would_play_differently() -> None:
    """The check above can fail: a bot made afresh (not fed the history) forgets other cards."""
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    state = game.new_state(seed=3)
    bots = _table(game, [None, "heuristic:memory=0.5"], 3)
    me = make_bot(game, "heuristic", seed=1)
    for _ in range(8):
        _move(state, bots, me)
    fed = resume(state.record(seat_entries(bots, ["a", "b"], [None, 4]))).bots[1]
    fresh = make_bot(game, "heuristic:memory=0.5", seed=4)
    fresh.new_game(1)
    assert fed is not None
    assert dict(bot_attributes(fed))["_mem"] == dict(bot_attributes(bots[1]))["_mem"]  # type: ignore[arg-type]
    assert random_states(fresh) != random_states(bots[1])  # type: ignore[arg-type]


def test_the_chance_generator_is_where_the_game_left_it() -> None:
    """The cards still to come (reshuffles of the draw pile) are the ones that would have come;
    a plain replay of the record would draw them from the seed afresh."""
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    state = game.new_state(seed=9)

    def go_on(s: State, moves: int) -> State:
        bot = make_bot(game, "random", seed=len(s.events()))
        for _ in range(moves):
            if s.is_over():
                break
            seat = s.seats_to_act()[0]
            s.apply(seat, bot.act(SeatView(s, seat)))
        return s

    go_on(state, 10)
    record = json.loads(json.dumps(state.record()))
    ahead = go_on(state.clone(), 400)
    assert any(e[0] == "chance" for e in ahead.events()[len(state.events()) :])
    assert go_on(rebuild_state(record), 400).snapshot() == ahead.snapshot()
    assert go_on(ratgames.replay(record), 400).snapshot() != ahead.snapshot()


def test_a_game_from_an_explicit_deal_resumes_from_its_record() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    dealt = game.new_state(seed=4)
    state = game.new_state(seed=123, deal=dealt.initial_deal())
    state.apply(0, state.legal_actions(0)[0])
    bots = [None, make_bot(game, "heuristic", seed=1)]
    resumed = resume(state.record(seat_entries(bots, ["You", "Bot"], [None, 1])))
    assert resumed.state.snapshot() == state.snapshot()


def test_what_cannot_be_resumed_is_refused_in_one_line() -> None:
    game = ratgames.get_game("test-high-card", players=2, options={"turns": 2})
    state = game.new_state(seed=1)
    bots: list[Bot | None] = [None, make_bot(game, "highest", seed=1)]
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    with pytest.raises(ratgames.RecordError, match="that game is over"):
        resume(state.record(seat_entries(bots, ["a", "b"])))
    fresh = game.new_state(seed=1)
    all_bots = [make_bot(game, "random"), make_bot(game, "random")]
    with pytest.raises(ratgames.RecordError, match=r"no seat .* was taken by a person"):
        resume(fresh.record(seat_entries(all_bots, ["a", "b"])))
    record = fresh.record(seat_entries(bots, ["a", "b"]))
    record["seats"][1]["player"] = "nobody:at=all"
    with pytest.raises(ratgames.RecordError, match="seat 2's bot 'nobody:at=all' cannot be made"):
        resume(record)


def test_unfinished_records_are_found_newest_first(tmp_path: Path) -> None:
    game = ratgames.get_game("test-high-card", players=2)
    bots: list[Bot | None] = [None, make_bot(game, "highest")]
    names = ["a", "b"]
    paths = []
    for seed in (1, 2, 3):
        state = game.new_state(seed=seed)
        path = ratgames.save_record(
            state.record(seat_entries(bots, names)), tmp_path / f"{record_stem(game.id, seed)}.json"
        )
        paths.append(path)
    over = game.new_state(seed=4)
    while not over.is_over():
        seat = over.seats_to_act()[0]
        over.apply(seat, over.legal_actions(seat)[0])
    ratgames.save_record(over.record(seat_entries(bots, names)), tmp_path / "over.json")
    (tmp_path / "junk.json").write_text("{not json")
    import os

    for i, path in enumerate(paths):
        os.utime(path, (1000 + i, 1000 + i))
    assert unfinished_records(tmp_path) == paths[::-1]
    assert unfinished_records(tmp_path, "rats") == []
    assert unfinished_records(tmp_path / "nowhere") == []
