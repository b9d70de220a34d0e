"""The text picture of a Rat-a-Tat Cat table."""

from __future__ import annotations

import ratgames
from ratgames.core.bots import make_bot
from ratgames.core.runner import play_game
from ratgames.games.rat_a_tat_cat.render import render


def test_render_shows_what_the_seat_knows_and_hides_the_rest() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=3)
    state = game.new_state(seed=9)
    deal = state.initial_deal()
    mine = render(game, state.observation(0))
    first, last = deal["hands"][0][0], deal["hands"][0][3]
    assert f"Seat 1 (you) [{first:^5}] [  ?  ] [  ?  ] [{last:^5}]" in mine
    assert "Seat 2       [  ?  ] [  ?  ] [  ?  ] [  ?  ]" in mine
    assert "Seat 1 to play (start)" in mine
    spectator = render(game, state.spectator_view())
    assert "(you)" not in spectator and f"[{first:^5}]" not in spectator
    assert f"Discard: {deal['discard'][0]}" in spectator


def test_render_of_a_finished_game_names_the_winner() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    bots = [make_bot(game, "heuristic", seed=s) for s in range(2)]
    state = play_game(game, bots, seed=3)
    text = render(game, state.spectator_view())
    assert "Game over" in text and "won" in text
    assert "?" not in text.split("Round 1:")[0].split("Draw pile")[1]


def test_render_tells_the_last_turns_after_the_turn_cap_and_what_the_draw_pile_holds() -> None:
    from tests.games.rat_a_tat_cat.helpers import make_deal, play

    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round", "turn_cap": 1})
    deal = make_deal([["1", "2", "3", "4"], ["4", "3", "2", "1"]], draw=["9"])
    state = game.new_state(seed=1, deal={**deal, "returned": ["SWAP"]})
    text = render(game, state.observation(1))
    assert "Known to be in the draw pile: SWAP" in text
    assert "Round 1: You dealt; SWAP was turned up and shuffled back" in text
    play(state, "1:draw", "1:discard", "1:end")
    text = render(game, state.observation(1))
    assert "The turn cap was reached: this is the last turn round." in text
    assert "as if Seat 1 had knocked" in text


def test_counts_are_written_in_good_english() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    one = {"kind": "reshuffle", "cards": ["7"]}
    assert game.describe_event(one, 0).endswith("a new draw pile of 1 card")
    state = game.new_state(seed=9)
    view = state.spectator_view()
    view["draw_pile"], view["draws_left"] = 1, 1
    text = render(game, view)
    assert "Draw pile: 1 card " in text and "Draw 2: 1 more draw" in text
