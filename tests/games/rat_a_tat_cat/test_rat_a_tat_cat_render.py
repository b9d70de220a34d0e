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
