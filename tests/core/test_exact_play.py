"""Exactness of the engine's fast paths: seeded random games give the very same game as before.

For every registered game (each player count the generic suite uses and each option variant),
many seeded random games are played through the public API and everything a caller can see is
hashed: who may act and every legal list at every step, the acting seat's observation, every
seat's final observation, the spectator's view, the outcome and the record's events.  Samples
(``sample_consistent``) taken along the way are hashed too, with their random play-outs on the
trusted path.  The digests are compared with the ones the engine gave before its hot paths were
optimized (stored below), so a speed-up that changes a single legal list, card or event fails.

The same games replayed on the trusted path (``apply_trusted``, no log, no observation asked
until the end) must end in the same observations and outcome as the checked path.

Search is covered the same way: ``ismcts`` and ``pimc`` moves (random and heuristic play-outs)
at positions reached by heuristic self-play, and the games' heuristic bots themselves.

After an intended change of a game's rules or observations, print the new digests with
``python3 -m uv run python tests/core/test_exact_play.py`` and update ``EXPECTED``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import pytest

import ratgames
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.game import Game, State
from ratgames.core.registry import game_class
from ratgames.core.rng import Rng

GAMES_PER_CONFIG = 40
"""Random games per configuration."""

SAMPLE_EVERY = 17
"""A sample (and its play-out) every this many steps."""

REAL_GAMES = ("caged-rats", "egyptian-ratscrew", "rat-a-tat-cat", "rats")


def configs() -> list[tuple[str, str, int, dict[str, Any]]]:
    """(label, game id, players, options): every player count the generic suite plays with the
    default options, and each further variant (``v1``, ``v2``...) at the smallest table."""
    out = []
    for gid in REAL_GAMES:
        cls = game_class(gid)
        for players in sorted({cls.min_players, cls.default_players, cls.max_players}):
            out.append((f"{gid}/{players}p", gid, players, dict(cls.variants[0])))
        for i, opts in enumerate(cls.variants[1:], start=1):
            out.append((f"{gid}/{cls.min_players}p/v{i}", gid, cls.min_players, dict(opts)))
    return out


class Digest:
    """A running hash of JSON values (stable across Python versions: sorted keys, no floats
    written by ``repr`` of objects)."""

    def __init__(self) -> None:
        self._h = hashlib.blake2b(digest_size=10)

    def add(self, value: Any) -> None:
        self._h.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())
        self._h.update(b"\n")

    def hex(self) -> str:
        return self._h.hexdigest()


def _record_events(state: State) -> list[Any]:
    record = state.record()
    return [record["deal"], record["events"], record["outcome"]]


def _random_playout_trusted(state: State, rng: Rng, digest: Digest) -> None:
    """Play ``state`` out at random on the trusted path, hashing the legal lists and result."""
    state.set_recording(False)
    steps = 0
    while not state.is_over():
        to_act = state.seats_to_act()
        seat = to_act[rng.randbelow(len(to_act))]
        legal = state.legal_actions(seat)
        if steps % 5 == 0:
            digest.add([seat, [str(a) for a in legal]])
        state.apply_trusted(seat, legal[rng.randbelow(len(legal))])
        steps += 1
    outcome = state.outcome()
    assert outcome is not None
    digest.add([steps, outcome.to_json()])


def play_and_hash(game: Game, seed: int, legal_d: Digest, obs_d: Digest, sample_d: Digest) -> None:
    """One seeded random game through the public API, hashed; then checked on the trusted path."""
    rng = Rng(seed * 7919 + 1)
    state = game.new_state(seed=seed)
    seats = range(game.players)
    obs_d.add([state.observation(s) for s in seats])
    moves: list[tuple[int, Any]] = []
    step = 0
    while not state.is_over():
        to_act = state.seats_to_act()
        legal_d.add(to_act)
        lists = {s: state.legal_actions(s) for s in to_act}
        legal_d.add([[str(a) for a in lists[s]] for s in to_act])
        seat = to_act[rng.randbelow(len(to_act))]
        legal = lists[seat]
        action = legal[rng.randbelow(len(legal))]
        obs_d.add(state.observation(seat, events=step % 3 != 0))
        if step % SAMPLE_EVERY == 5:
            sample = state.sample_consistent(seat, Rng(seed * 1_000_003 + step))
            sample_d.add(sample.observation(seat))
            sample_d.add([[str(a) for a in sample.legal_actions(s)] for s in to_act])
            _random_playout_trusted(sample, Rng(step), sample_d)
        state.apply(seat, action)
        moves.append((seat, action))
        step += 1
    final = [state.observation(s) for s in seats]
    outcome = state.outcome()
    assert outcome is not None
    obs_d.add(final)
    obs_d.add(state.spectator_view())
    obs_d.add(outcome.to_json())
    obs_d.add(_record_events(state))
    # The trusted path, with no log and no observation until the end, reaches the same end.
    quiet = game.new_state(seed=seed)
    quiet.set_recording(False)
    for seat, action in moves:
        quiet.apply_trusted(seat, action)
    assert quiet.is_over()
    assert quiet.outcome() == outcome
    assert [quiet.observation(s) for s in seats] == final
    assert quiet.spectator_view() == state.spectator_view()


def game_digests(gid: str, players: int, options: dict[str, Any], games: int) -> dict[str, str]:
    """The digests of ``games`` seeded random games of one configuration."""
    game = ratgames.get_game(gid, players=players, options=options)
    legal_d, obs_d, sample_d = Digest(), Digest(), Digest()
    for seed in range(games):
        play_and_hash(game, seed, legal_d, obs_d, sample_d)
    return {"legal": legal_d.hex(), "observations": obs_d.hex(), "samples": sample_d.hex()}


SEARCH_SPECS = (
    "ismcts:iterations=40,rollout=random",
    "ismcts:iterations=40,rollout=heuristic",
    "ismcts:iterations=30,rollout=heuristic,confidence=1,tree=1",
    "pimc:iterations=40,rollout=heuristic",
)


def search_digest(gid: str, positions: int = 3) -> str:
    """Heuristic self-play of 2-player games (every move hashed) and, at a few positions with a
    choice, the moves of search bots with several settings."""
    game = ratgames.get_game(gid, players=2)
    digest = Digest()
    found = 0
    seed = 0
    while found < positions and seed < 20:
        state = game.new_state(seed=seed)
        bots = [make_bot(game, "heuristic", seed=100 * seed + s) for s in range(2)]
        for s, bot in enumerate(bots):
            bot.new_game(s)
        step = 0
        while not state.is_over():
            seat = state.seats_to_act()[0]
            legal = state.legal_actions(seat)
            if len(legal) >= 2 and step % 11 == 3 and found < positions:
                found += 1
                for i, spec in enumerate(SEARCH_SPECS):
                    bot = make_bot(game, spec, seed=seed + i)
                    bot.new_game(seat)
                    move = bot.act(SeatView(state.clone(), seat))
                    digest.add([spec, str(move), getattr(bot, "last_iterations", 0)])
            action = bots[seat].act(SeatView(state, seat))
            digest.add(str(action))
            state.apply(seat, action)
            step += 1
        outcome = state.outcome()
        assert outcome is not None
        digest.add(outcome.to_json())
        seed += 1
    return digest.hex()


# The digests the engine gave before its hot paths were optimized.
EXPECTED: dict[str, dict[str, str]] = {
    "caged-rats/2p": {
        "legal": "218466e9268b06f2cdd5",
        "observations": "581a5c8fab7fcd4731a9",
        "samples": "c77dd009e3cec546c1f3",
    },
    "caged-rats/2p/v1": {
        "legal": "f1f07fe551a4e57be4f8",
        "observations": "22e2d82dcc3bed2999e6",
        "samples": "910e1b6a99c35f780ac3",
    },
    "caged-rats/2p/v2": {
        "legal": "9697e180591f90a58832",
        "observations": "1a4c65168ba8cb1d84a7",
        "samples": "0f7bb0d31bce8231af2a",
    },
    "egyptian-ratscrew/2p": {
        "legal": "cbe9845c94e9a6dcc0c6",
        "observations": "7ddda9b67b2be49a1815",
        "samples": "0b4bc0cc7c3cbf371103",
    },
    "egyptian-ratscrew/8p": {
        "legal": "d951b12e814a16266528",
        "observations": "b77a598f48fafd02af3f",
        "samples": "159e4dede7ca7337bece",
    },
    "egyptian-ratscrew/2p/v1": {
        "legal": "7086440eb6b5089fe870",
        "observations": "9ff6b47bf8a257ee243f",
        "samples": "2e04930f961be707d13b",
    },
    "egyptian-ratscrew/2p/v2": {
        "legal": "8055289f6891c2080596",
        "observations": "792668568c19f44a35bd",
        "samples": "8a36643e0cdb1140ea32",
    },
    "egyptian-ratscrew/2p/v3": {
        "legal": "898b74b2552cfe65d343",
        "observations": "c64777b5fc841d8ba701",
        "samples": "7f5c8f62fb2115e4ea5f",
    },
    "rat-a-tat-cat/2p": {
        "legal": "6e9e0d011f8651024e32",
        "observations": "fe407e245ae691275c64",
        "samples": "239d7851c4cb91d119e1",
    },
    "rat-a-tat-cat/4p": {
        "legal": "934836bc61c743b50924",
        "observations": "8ea639c94af3b114c687",
        "samples": "c9a83325fd6dacdc62b3",
    },
    "rat-a-tat-cat/6p": {
        "legal": "c4c29bfead74a4396de6",
        "observations": "e6e7bbd11e6e8d5c29b3",
        "samples": "1687cc493452ebc447ab",
    },
    "rat-a-tat-cat/2p/v1": {
        "legal": "361e788d1fa80e651127",
        "observations": "2f9be61492f94c0bb79b",
        "samples": "2af4422f9dea9fe7d04a",
    },
    "rat-a-tat-cat/2p/v2": {
        "legal": "69ae3eb136c20f09307e",
        "observations": "0218ba828e068d3d0c7b",
        "samples": "9459d16cf67d6e0c6a45",
    },
    "rat-a-tat-cat/2p/v3": {
        "legal": "3dcbf9741856b4161f89",
        "observations": "ca007ff12f51f6af3096",
        "samples": "5fe84b65b965ef0c4f06",
    },
    "rats/2p": {
        "legal": "3180d04fdd23a7949996",
        "observations": "3913c5b627fe4a1de79d",
        "samples": "4bb3bb827b7427d2630f",
    },
    "rats/4p": {
        "legal": "284ec2ba5e3da46a8983",
        "observations": "b19963eeee3c8f9b80b1",
        "samples": "f5f12c0ac58dff0ebfaf",
    },
    "rats/5p": {
        "legal": "89340ed246032d6aebeb",
        "observations": "10df2b7d001fa0b7c192",
        "samples": "1d4a22b1cbfafbce17b1",
    },
    "rats/2p/v1": {
        "legal": "e2a55632399f7afc4532",
        "observations": "4be6ca3fab0481ce6e54",
        "samples": "9fdb93e8713ae3666f3d",
    },
    "rats/2p/v2": {
        "legal": "551a35d3c0a144c4cf04",
        "observations": "7e1b0b1cf2272a2fd1a8",
        "samples": "c621d6541045e168c9c4",
    },
}
EXPECTED_SEARCH: dict[str, str] = {
    "caged-rats": "9b4fb4462661ab7769bc",
    "rat-a-tat-cat": "54f613dfd1f50079a419",
    "rats": "abd12222946b3bbeea68",
}

CONFIGS = configs()


@pytest.mark.parametrize(
    ("label", "gid", "players", "options"), CONFIGS, ids=[c[0] for c in CONFIGS]
)
def test_random_games_are_the_same_as_before(
    label: str, gid: str, players: int, options: dict[str, Any]
) -> None:
    got = game_digests(gid, players, options, GAMES_PER_CONFIG)
    assert got == EXPECTED[label]


@pytest.mark.parametrize("gid", [g for g in REAL_GAMES if not game_class(g).real_time])
def test_search_moves_are_the_same_as_before(gid: str) -> None:
    assert search_digest(gid) == EXPECTED_SEARCH[gid]


def test_digests_tell_a_different_game_apart() -> None:
    """The digest is not blind: another seed range gives other digests."""
    a = game_digests("rats", 2, {}, 2)
    b = Digest()
    b.add(0)
    assert a["legal"] != b.hex()
    game = ratgames.get_game("rats", players=2)
    legal_d, obs_d, sample_d = Digest(), Digest(), Digest()
    play_and_hash(game, 1, legal_d, obs_d, sample_d)
    play_and_hash(game, 0, legal_d, obs_d, sample_d)
    assert legal_d.hex() != a["legal"]
    assert obs_d.hex() != a["observations"]


if __name__ == "__main__":
    which = sys.argv[1:] or ["games", "search"]
    if "games" in which:
        print("EXPECTED = {")
        for label, *config in CONFIGS:
            print(f"    {label!r}: {game_digests(*config, GAMES_PER_CONFIG)!r},", flush=True)
        print("}")
    if "search" in which:
        print("EXPECTED_SEARCH = {")
        for gid in REAL_GAMES:
            if not game_class(gid).real_time:
                print(f"    {gid!r}: {search_digest(gid)!r},", flush=True)
        print("}")
