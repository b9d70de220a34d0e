"""The search bots (``ismcts``, ``pimc``): legal moves only, their budget kept, and no peeking
at hidden cards."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import pytest

import ratgames
from ratgames.core import SeatView, make_bot, play_game
from ratgames.core.game import State
from ratgames.core.rng import Rng
from ratgames.search.ismcts import IsmctsBot

SEARCHERS = ["ismcts", "pimc:rollout=random"]


@pytest.mark.parametrize("searcher", SEARCHERS)
def test_plays_whole_games_with_legal_moves_and_beats_the_worst_bot(searcher: str) -> None:
    game = ratgames.get_game("test-high-card", options={"turns": 6})
    wins = 0
    sep = "," if ":" in searcher else ":"
    for seed in range(30):
        bots = [
            make_bot(game, f"{searcher}{sep}iterations=60", seed=seed),
            make_bot(game, "lowest"),
        ]
        state = play_game(game, bots, seed=seed)  # apply() would raise on an illegal move
        outcome = state.outcome()
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins >= 24


def test_pimc_keeps_its_budget_and_shares_it_among_the_actions() -> None:
    from ratgames.search.pimc import PimcBot

    game = ratgames.get_game("test-high-card", options={"turns": 12})
    state = game.new_state(seed=4)
    actions = len(state.legal_actions(0))
    bot = make_bot(game, f"pimc:iterations={actions * 5},rollout=random")
    assert isinstance(bot, PimcBot)
    bot.act(SeatView(state, 0))
    assert bot.last_iterations == actions * 5
    timed = make_bot(game, "pimc:seconds=0.2")  # no heuristic bot here: random rollouts
    start = time.perf_counter()
    timed.act(SeatView(state, 0))
    assert time.perf_counter() - start < 0.6


def test_keeps_its_iteration_and_time_budget() -> None:
    game = ratgames.get_game("test-high-card", options={"turns": 12})
    state = game.new_state(seed=4)
    bot = make_bot(game, "ismcts:iterations=37")
    assert isinstance(bot, IsmctsBot)
    bot.act(SeatView(state, 0))
    assert bot.last_iterations == 37
    timed = make_bot(game, "ismcts:seconds=0.2")
    assert isinstance(timed, IsmctsBot)
    start = time.perf_counter()
    timed.act(SeatView(state, 0))
    assert time.perf_counter() - start < 2.0
    assert timed.last_iterations > 1


class PeekingView(SeatView):
    """A view that hands out the true state instead of samples: what a cheating search sees."""

    def __init__(self, state: State, seat: int) -> None:
        super().__init__(state, seat)
        self.true_state = state

    def sample_consistent(self, rng: Rng) -> Any:
        return self.true_state.clone()


SHORT_GAMES = {
    "rat-a-tat-cat": {"mode": "round"},
    "rats": {},
    "caged-rats": {"single_deal": True},
}


@pytest.mark.parametrize(
    ("game_id", "searcher"),
    [(g, f"{bot}:rollout=random") for g in SHORT_GAMES for bot in ("ismcts", "pimc")]
    + [
        ("rat-a-tat-cat", "ismcts:rollout=heuristic,tree=1"),
        ("rat-a-tat-cat", "ismcts:tree=1,score=estimate,confidence=0.5"),
        ("rats", "pimc:confidence=0.5"),
    ],
)
def test_never_reads_hidden_cards(game_id: str, searcher: str) -> None:
    """Two states a seat cannot tell apart get the same choice; a search that read the hidden
    cards would choose differently in some of them (checked with a peeking view)."""
    if game_id not in ratgames.game_ids():
        pytest.skip(f"{game_id} is not registered")
    # Rats at two players hides nothing in the first round (each hand is the other's complement).
    players = 3 if game_id == "rats" else 2
    game = ratgames.get_game(game_id, players=players, options=SHORT_GAMES[game_id])
    peeking_differs = 0
    for seed in range(10):
        state = game.new_state(seed=seed)
        rng = Rng(seed)
        for _ in range(rng.randbelow(6)):
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randbelow(len(legal))])
        seat = state.seats_to_act()[0]
        if len(state.legal_actions(seat)) < 2:
            continue
        twin = state.sample_consistent(seat, Rng(seed + 100))
        assert twin.observation(seat) == state.observation(seat)
        honest = [
            make_bot(game, f"{searcher},iterations=100", seed=9).act(SeatView(s, seat))
            for s in (state, twin)
        ]
        assert honest[0] == honest[1]
        peeks = [
            make_bot(game, f"{searcher},iterations=100", seed=9).act(PeekingView(s, seat))
            for s in (state, twin)
        ]
        peeking_differs += peeks[0] != peeks[1]
    assert peeking_differs > 0, "this test could not tell a peeking search from an honest one"


@pytest.mark.parametrize(("horizon", "beyond"), [("round", False), ("game", True)])
def test_round_horizon_stops_each_iteration_at_the_round_end(horizon: str, beyond: bool) -> None:
    """With ``horizon=round`` no iteration plays past the end of the round in play."""

    class Watched(IsmctsBot):
        """Notes how many rounds had ended when each play-out stopped."""

        ended: ClassVar[list[int]] = []

        def _playout(self, state: State, rng: Rng, stage: int) -> None:
            super()._playout(state, rng, stage)
            Watched.ended.append(state.stage())

    game = ratgames.get_game("rats", players=3)
    state = game.new_state(seed=2)
    assert state.stage() == 0
    bot = Watched(game, seed=1, iterations=40, rollout="random", horizon=horizon)
    bot.act(SeatView(state, state.seats_to_act()[0]))
    assert len(Watched.ended) == 40 and max(Watched.ended) >= 1
    assert (max(Watched.ended) > 1) == beyond


def test_a_cut_iteration_is_scored_by_the_games_estimate() -> None:
    from ratgames.search.ismcts import win_shares

    game = ratgames.get_game("caged-rats")
    state = game.new_state(seed=1)
    estimate = state.win_estimate()
    assert estimate is not None and estimate == pytest.approx([0.5, 0.5])
    assert win_shares(state, 2) == estimate
    state.scores = (40, 0)  # type: ignore[attr-defined]
    ahead = win_shares(state, 2)
    assert ahead[0] > 0.8 and ahead[0] + ahead[1] == pytest.approx(1.0)


def test_score_estimate_tells_a_narrow_loss_from_a_rout() -> None:
    """``score=estimate`` scores a finished game by the game's estimate from the final scores;
    ``score=result`` (the default) by who won."""
    from ratgames.search.ismcts import win_shares

    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    margins = []
    for seed in range(40):
        state = play_game(game, [make_bot(game, "heuristic"), make_bot(game, "random")], seed=seed)
        outcome = state.outcome()
        assert outcome is not None
        result = win_shares(state, 2)
        estimate = win_shares(state, 2, estimate=True)
        assert estimate == state.win_estimate()
        assert estimate[0] + estimate[1] == pytest.approx(1.0)
        if len(outcome.winners) == 1:
            winner = outcome.winners[0]
            assert result[winner] == 1.0
            assert 0.5 < estimate[winner] < 1.0  # the winner's lower sum, softened
            margins.append(estimate[winner])
    assert len(set(margins)) > 3  # how close it was shows, not just who won


@pytest.mark.parametrize("searcher", ["ismcts", "pimc"])
def test_score_estimate_is_an_option_of_both_searchers(searcher: str) -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    bots = [
        make_bot(game, f"{searcher}:iterations=30,score=estimate", seed=3),
        make_bot(game, "heuristic"),
    ]
    state = play_game(game, bots, seed=5)  # apply() would raise on an illegal move
    assert state.is_over()
    with pytest.raises(ratgames.RatgamesError, match="score"):
        make_bot(game, f"{searcher}:score=margin")


@pytest.mark.parametrize("searcher", ["pimc:iterations=40", "ismcts:iterations=40,tree=1"])
def test_overrules_the_heuristic_only_on_evidence(searcher: str) -> None:
    """With ``confidence`` set, a search keeps the heuristic's move unless another move beats it
    on the same samples by that many standard errors: at an impossible bar it is the heuristic,
    at a bar near nothing it is not."""
    game = ratgames.get_game("rat-a-tat-cat", players=2, options={"mode": "round"})
    differs = {10.0: 0, 0.001: 0}
    decisions = 0
    for confidence in differs:
        searcher_bot = make_bot(game, f"{searcher},confidence={confidence}", seed=2)
        assert isinstance(searcher_bot, IsmctsBot)
        for seed in range(3):
            state = game.new_state(seed=seed)
            heuristic = make_bot(game, "heuristic")
            searcher_bot.new_game(0)
            while not state.is_over():
                seat = state.seats_to_act()[0]
                view = SeatView(state, seat)
                heuristic.new_game(seat)
                own = heuristic.act(view)
                action = searcher_bot.act(view) if seat == 0 else own
                if seat == 0 and len(state.legal_actions(seat)) > 1 and "ismcts" in searcher:
                    assert searcher_bot.last_iterations == 40  # a paired iteration is one
                if seat == 0 and len(state.legal_actions(seat)) > 1:
                    decisions += 1
                    differs[confidence] += action != own
                state.apply(seat, action)
    assert decisions > 20
    assert differs[10.0] == 0
    assert differs[0.001] > 0  # a bar near nothing does overrule it: the test can tell


@pytest.mark.parametrize("searcher", ["ismcts", "pimc"])
def test_confidence_needs_a_heuristic_to_compare_with(searcher: str) -> None:
    game = ratgames.get_game("test-high-card", options={"turns": 6})  # it has no heuristic bot
    with pytest.raises(ratgames.RatgamesError, match="heuristic"):
        make_bot(game, f"{searcher}:confidence=2")
    make_bot(game, f"{searcher}:confidence=0")


def test_belief_model_draws_through_the_games_opponent_model() -> None:
    from ratgames.games.rat_a_tat_cat.bots import KeptCards

    game = ratgames.get_game("rat-a-tat-cat", players=2)
    view = SeatView(game.new_state(seed=1), 0)
    for searcher in ("ismcts", "pimc"):
        modelled = make_bot(game, f"{searcher}:belief=model", seed=1)
        assert isinstance(modelled, IsmctsBot)
        assert isinstance(modelled.sampler(view), KeptCards)
        uniform = make_bot(game, f"{searcher}:belief=uniform", seed=1)
        assert isinstance(uniform, IsmctsBot)
        assert uniform.sampler(view) == view.sample_consistent
    # A game without a model samples uniformly whatever the setting.
    caged = ratgames.get_game("caged-rats")
    bot = make_bot(caged, "ismcts:belief=model", seed=1)
    assert isinstance(bot, IsmctsBot)
    caged_view = SeatView(caged.new_state(seed=1), 0)
    assert bot.sampler(caged_view) == caged_view.sample_consistent
