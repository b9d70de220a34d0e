"""Encoders: every legal action maps to ids and back, the mask is exactly the legal actions,
observation vectors are float32 in [0, 1] and fail loudly on a changed observation."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import ratgames
from ratgames.rl.encoding import EncodingError, encoder_for
from ratgames.rl.encoding.base import Layout

CASES = [
    ("caged-rats", 2, {}),
    ("rats", 2, {}),
    ("rats", 3, {"jokers": 1}),
    ("rats", 4, {"jokers": 2}),
    ("rat-a-tat-cat", 2, {}),
    ("rat-a-tat-cat", 5, {"edition": "forlago"}),
    ("egyptian-ratscrew", 3, {}),
]


def _positions(game_id: str, players: int, options: dict[str, Any], count: int = 120) -> Any:
    game = ratgames.get_game(game_id, players=players, options=options)
    rng = random.Random(7)
    state = game.new_state(seed=11)
    for _ in range(count):
        if state.is_over():
            break
        yield game, state
        seat = state.seats_to_act()[rng.randrange(len(state.seats_to_act()))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_round_trip_and_mask(game_id: str, players: int, options: dict[str, Any]) -> None:
    seen = 0
    for game, state in _positions(game_id, players, options):
        enc = encoder_for(game)
        for seat in state.seats_to_act():
            legal = state.legal_actions(seat)
            seqs = [enc.action_ids(a) for a in legal]
            assert len(set(seqs)) == len(seqs), "two legal actions share an id sequence"
            first = {s[0] for s in seqs}
            if game.real_time:
                first.add(0)  # wait
            else:
                for a, ids in zip(legal, seqs, strict=True):
                    assert enc.action_from_ids(ids) == a
                    assert all(0 <= i < enc.num_actions for i in ids)
                    assert enc.complete(legal, ids) == a
            mask = enc.mask(legal)
            assert mask.dtype == np.int8 and mask.shape == (enc.num_actions,)
            assert set(np.flatnonzero(mask).tolist()) == first
            for f in first:
                if game.real_time:
                    break
                rest = {s[1] for s in seqs if s[0] == f and len(s) > 1}
                assert set(enc.next_ids(legal, (f,))) == rest
            seen += 1
    assert seen > 20


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_observation_vectors(game_id: str, players: int, options: dict[str, Any]) -> None:
    for game, state in _positions(game_id, players, options, count=60):
        enc = encoder_for(game)
        for seat in range(game.players):
            v = enc.observe(state, seat)
            assert v.dtype == np.float32 and v.shape == (enc.obs_size,)
            assert v.min() >= 0.0 and v.max() <= 1.0
            assert v.any()


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_changed_observation_fails_loudly(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = ratgames.get_game(game_id, players=players, options=options)
    state = game.new_state(seed=3)
    enc = encoder_for(game)
    obs = state.observation(0, events=False)
    enc.encode(obs)
    for key in obs:
        broken = {k: v for k, v in obs.items() if k != key}
        try:
            before = enc.encode(broken)
        except (KeyError, EncodingError):
            continue
        # A key the encoder does not read: the vector must not change.
        assert np.array_equal(before, enc.encode(obs)), key
    hand_key = next(k for k in ("hand", "pile", "slots") if k in obs)
    bad = dict(obs)
    bad[hand_key] = ["ZZ"] if hand_key != "slots" else [["ZZ"] * 4] * game.players
    if obs[hand_key]:
        with pytest.raises(EncodingError):
            enc.encode(bad)


def test_rats_every_play_has_exact_ids() -> None:
    from ratgames.games.rats.action import DISCARD, SINGLE, make_action
    from ratgames.games.rats.combos import enum_runs, enum_sets

    for jokers, size in ((0, 511), (1, 709), (2, 1114)):
        game = ratgames.get_game("rats", players=2, options={"jokers": jokers})
        enc = encoder_for(game)
        assert enc.num_actions == size
        hand = tuple(range(52 + jokers))
        plays = [make_action(SINGLE, (c,)) for c in hand]
        plays += [make_action(DISCARD, (c,)) for c in hand]
        plays += [game.parse_action(f"{' '.join(game.card_text(c) for c in cards)}")
                  if not (len(cards) == 3 and sum(c >= 52 for c in cards) == 2)
                  else game.parse_action(" ".join(game.card_text(c) for c in cards) + " set")
                  for _, cards in enum_sets(hand, None, -1)]  # fmt: skip
        for _, cards in enum_runs(hand, None, -1):
            text = " ".join(game.card_text(c) for c in cards)
            ambiguous = len(cards) == 3 and sum(c >= 52 for c in cards) == 2
            plays.append(game.parse_action(text + (" run" if ambiguous else "")))
        seqs = {}
        for play in plays:
            ids = enc.action_ids(play)
            assert enc.action_from_ids(ids) == play
            assert len(ids) == (2 if jokers and play.kind == 2 else 1)
            seqs[ids] = play
        assert len(seqs) == len(plays) == {0: 511, 1: 2147, 2: 8225}[jokers]


def test_bad_ids_are_refused() -> None:
    game = ratgames.get_game("rats", players=2, options={"jokers": 2})
    enc = encoder_for(game)
    for ids in ([], [enc.num_actions], [enc.base_run], [enc.base_pattern], [0, 1], [-1]):
        with pytest.raises(EncodingError):
            enc.action_from_ids(ids)
    state = game.new_state(seed=1)
    legal = state.legal_actions(state.seats_to_act()[0])
    with pytest.raises(EncodingError):
        enc.complete(legal, (enc.base_discard,))  # a discard is not a lead


def test_layout_markdown_lists_every_section() -> None:
    enc = encoder_for(ratgames.get_game("caged-rats"))
    text = enc.layout.markdown()
    assert all(f"`{name}`" in text for name, _ in enc.layout.sections)
    layout = Layout()
    layout.add("a", 2)
    with pytest.raises(ValueError):
        layout.add("a", 1)


def test_core_imports_none_of_the_research_libraries() -> None:
    code = (
        "import sys, ratgames; ratgames.get_game('rats').new_state(seed=1); "
        "bad = [m for m in ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
