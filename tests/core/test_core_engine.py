"""The engine core on a small game made for the purpose (it knows no real game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ratgames.core import (
    IllegalAction,
    OptionError,
    RecordError,
    Rng,
    SeatView,
    UnknownNameError,
    make_bot,
    play_game,
    replay,
)
from ratgames.core.bots import parse_bot_spec
from ratgames.testing import HighCard, Play


def test_options_validate_and_presets_apply() -> None:
    assert HighCard().options == {"turns": 12, "edition": "plain"}
    assert HighCard(options={"edition": "long"}).options["turns"] == 30
    assert HighCard(options={"edition": "long", "turns": "5"}).options["turns"] == 5
    with pytest.raises(OptionError, match="option 'turns': 99 is not allowed; use a whole number"):
        HighCard(options={"turns": 99})
    with pytest.raises(OptionError, match=r"'edition'.*one of 'plain', 'long'"):
        HighCard(options={"edition": "short"})
    with pytest.raises(OptionError, match="unknown option 'turn'; the options are: turns, edition"):
        HighCard(options={"turn": 3})
    with pytest.raises(OptionError, match="2 to 3 players, not 5"):
        HighCard(players=5)


def test_illegal_actions_leave_the_state_untouched() -> None:
    state = HighCard().new_state(seed=3)
    before = state.snapshot()
    not_held = next(c for c in range(10) if c not in state.hands[0])
    for seat, action, reason in [
        (0, Play(not_held), f"card {not_held} is not in your hand"),
        (1, state.legal_actions(0)[0], "not Seat 2's turn; waiting for Seat 1"),
        (5, state.legal_actions(0)[0], "no seat 5"),
        (0, "pass", "'pass' is not an action"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(seat, action)
        assert state.snapshot() == before
    assert isinstance(IllegalAction("x"), ValueError)
    assert state.events() == []


def test_same_seed_same_game_and_records_replay_exactly() -> None:
    game = HighCard(options={"turns": 30})
    bots = [make_bot(game, "random", seed=1), make_bot(game, "highest")]
    a = play_game(game, bots, seed=42)
    b = play_game(game, [make_bot(game, "random", seed=1), make_bot(game, "highest")], seed=42)
    assert a.snapshot() == b.snapshot()
    record = json.loads(json.dumps(a.record([{"name": "A", "player": "random"}] * 2)))
    assert any("chance" in e for e in record["events"]), "30 turns must reshuffle"
    again = replay(record)
    assert again.snapshot() == a.snapshot() and again.outcome() == a.outcome()
    # Replay does not depend on the seed: the record holds the deal and every chance outcome.
    record["seed"] = 999
    assert replay(record).snapshot() == a.snapshot()
    partial = replay(record, upto=5)
    assert len(list(partial.actions())) == 5


def test_corrupt_and_newer_records_give_clear_errors() -> None:
    game = HighCard()
    state = play_game(game, [make_bot(game, "random")] * 2, seed=1)
    good = state.record()
    with pytest.raises(RecordError, match="not valid JSON"):
        replay("{not json")
    with pytest.raises(RecordError, match="not a ratgames game record"):
        replay({"hello": 1})
    with pytest.raises(RecordError, match="rules version 9"):
        replay({**good, "rules_version": 9})
    with pytest.raises(RecordError, match="format version 7"):
        replay({**good, "format_version": 7})
    with pytest.raises(RecordError, match="deal is not valid"):
        replay({**good, "deal": {"hands": [[1]], "pile": []}})
    events = [dict(e) for e in good["events"]]
    events[0]["action"] = "play 77"
    with pytest.raises(RecordError, match="event 1 of the record"):
        replay({**good, "events": events})
    with pytest.raises(RecordError, match="outcome differs"):
        replay({**good, "outcome": {**good["outcome"], "winners": [5]}})
    with pytest.raises(RecordError, match="cannot read record"):
        replay("/nonexistent/record.json")


def test_bots_by_name_with_parameters() -> None:
    game = HighCard()
    assert parse_bot_spec("highest:spite=true") == ("highest", {"spite": "true"})
    bot = make_bot(game, "highest:spite=yes")
    assert bot.settings == {"spite": True} and bot.describe() == "highest:spite=true"
    with pytest.raises(
        UnknownNameError, match=r"unknown bot 'best'.*highest, lowest, random, ismcts"
    ):
        make_bot(game, "best")
    with pytest.raises(OptionError, match="no parameter 'speed'; its parameters: spite"):
        make_bot(game, "highest:speed=3")
    with pytest.raises(OptionError, match="not of the form name=value"):
        make_bot(game, "highest:spite")


def test_the_highest_bot_beats_random() -> None:
    game = HighCard(options={"turns": 6})  # no reshuffle: the played cards all count
    wins = sum(
        0
        in play_game(game, [make_bot(game, "highest"), make_bot(game, "random", seed=s)], seed=s)
        .outcome()
        .winners  # type: ignore[union-attr]
        for s in range(200)
    )
    assert wins > 120


def test_clone_is_independent() -> None:
    state = HighCard().new_state(seed=5)
    copy = state.clone()
    copy.apply(0, copy.legal_actions(0)[0])
    assert state.turns_done == 0 and copy.turns_done == 1
    assert state.events() == [] and len(copy.events()) == 1


def test_seat_view_hides_the_state() -> None:
    state = HighCard().new_state(seed=5)
    view = SeatView(state, 0)
    assert not hasattr(view, "state") and not hasattr(view, "_state")
    assert view.observation()["hand"] == sorted(state.hands[0])
    sample = view.sample_consistent(Rng(1))
    assert sample.observation(0) == state.observation(0)


def test_save_record_never_overwrites_and_is_never_read_half_written(tmp_path: Path) -> None:
    import threading

    from ratgames.core.records import load_record, save_record

    state = play_game(HighCard(), [make_bot(HighCard(), "random", seed=s) for s in (1, 2)], seed=4)
    record = state.record()
    paths = [save_record(record, tmp_path / "same-name.json") for _ in range(8)]
    assert len(set(paths)) == 8, "a record was overwritten"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)
    for p in paths:
        assert replay(p).outcome() == state.outcome()
    # A reader that polls a record being saved again and again sees it whole or not at all.
    target = tmp_path / "again.json"
    save_record(record, target)
    stop = threading.Event()
    bad: list[str] = []

    def read() -> None:
        while not stop.is_set():
            try:
                load_record(target)
            except RecordError as exc:
                bad.append(str(exc))

    reader = threading.Thread(target=read)
    reader.start()
    for _ in range(200):
        save_record(record, target, overwrite=True)
    stop.set()
    reader.join()
    assert bad == []
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"], "a temporary file was left"


def test_float_parameters_refuse_nan_and_infinity() -> None:
    from ratgames.core.options import Option

    spec = Option("c", 0.7, "exploration", minimum=0.0)
    for bad in ("nan", "inf", "-inf", float("nan"), float("inf"), True, None, "x"):
        with pytest.raises(OptionError, match="'c'"):
            spec.coerce(bad)
    assert spec.coerce("1.5") == 1.5


def test_action_objects_must_match_a_legal_action_type_for_type() -> None:
    state = HighCard().new_state(seed=3)
    card = state.legal_actions(0)[0][0]
    before = state.snapshot()
    for fake in (Play(bool(card)) if card in (0, 1) else Play(float(card)), Play(str(card))):
        with pytest.raises(IllegalAction):
            state.apply(0, fake)
        assert state.snapshot() == before
    state.apply(0, Play(card))


def test_malformed_notation_is_told_apart_from_an_illegal_move() -> None:
    from ratgames.core import InvalidNotation

    state = HighCard().new_state(seed=3)
    with pytest.raises(InvalidNotation, match="is not an action"):
        state.apply(0, "play eleven")
    held = set(state.legal_actions(0))
    missing = next(c for c in range(10) if Play(c) not in held)
    with pytest.raises(IllegalAction, match="not in your hand") as refused:
        state.apply(0, f"play {missing}")
    assert not isinstance(refused.value, InvalidNotation)


def test_the_trusted_fast_path_plays_the_same_game() -> None:
    game = HighCard(players=3)
    checked, trusted = game.new_state(seed=8), game.new_state(seed=8)
    rng = Rng(2)
    while not checked.is_over():
        seat = checked.seats_to_act()[0]
        legal = checked.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        checked.apply(seat, action, time=1.0)
        trusted.apply_trusted(seat, action, time=1.0)
    assert trusted.snapshot() == checked.snapshot()
    assert trusted.record()["events"] == checked.record()["events"]


def test_bot_attributes_are_in_the_order_they_were_set() -> None:
    """What the terminal reads to save a bot's random numbers (a compiled bot has no
    ``__dict__``; its attributes come in the same order)."""
    import ratgames
    from ratgames.core.bots import bot_attributes

    for gid in ("rat-a-tat-cat", "rats"):
        game = ratgames.get_game(gid)
        bot = make_bot(game, "ismcts:iterations=5", seed=3)
        names = [name for name, _ in bot_attributes(bot)]
        assert names[:3] == ["game", "rng", "settings"]
        assert names.index("iterations") < names.index("_rollout_bots") < names.index("_own")
        values = dict(bot_attributes(bot))
        assert values["rng"] is bot.rng and values["iterations"] == 5
        heuristic = make_bot(game, "heuristic")
        assert [n for n, _ in bot_attributes(heuristic)][:3] == ["game", "rng", "settings"]
        assert "name" not in dict(bot_attributes(heuristic))


def test_states_and_bots_pickle_and_play_on_the_same() -> None:
    """The server's search bots think in worker processes, where states and bots go pickled:
    each comes back equal and plays the same move (with the compiled build too, whose classes
    are rebuilt through their constructors)."""
    import pickle

    import ratgames
    from ratgames.core.bots import SeatView

    for gid, specs in [
        ("caged-rats", ["ismcts:iterations=20", "heuristic"]),
        ("rats", ["pimc:iterations=20", "heuristic"]),
        ("rat-a-tat-cat", ["ismcts:iterations=20", "heuristic"]),
        ("egyptian-ratscrew", ["heuristic"]),
    ]:
        game = ratgames.get_game(gid)
        state = game.new_state(seed=4)
        copy = pickle.loads(pickle.dumps(state))
        assert copy.snapshot() == state.snapshot() and copy.record() == state.record()
        seat = state.seats_to_act()[0]
        for spec in specs:
            bot = make_bot(game, spec, seed=5)
            bot.new_game(seat)
            again = pickle.loads(pickle.dumps(bot))
            assert type(again) is type(bot) and again.rng.state == bot.rng.state
            assert again.describe() == bot.describe()
            if not game.real_time:
                mine = bot.act(SeatView(state.clone(), seat))
                assert again.act(SeatView(copy.clone(), seat)) == mine
