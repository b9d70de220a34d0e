"""Steps per second of random play through each layer, per game, and each layer's overhead.

    uv run --extra rl python benchmarks/bench_rl.py [--seconds 2] [--game G] [--layer L]

* engine: ``state.apply`` of a random legal action (the engine alone);
* encoded: the same with the seat's observation vector and legal-action mask built at every
  step (what every environment adds);
* pettingzoo: the AEC environment (``env.last()`` then ``env.step`` of a random legal id);
* openspiel: the OpenSpiel state (``apply_action`` of a random legal id or chance outcome;
  chance steps count as steps);
* batch: :class:`ratgames.rl.vector.SelfPlayBatch` of ``--batch`` games in self-play, a random
  legal id for every game at every step (picked from the masks with numpy), decisions per second;
* vector: :class:`ratgames.rl.vector.RatgamesVectorEnv` of ``--batch`` games, one seat against
  ``random`` bots, the learner's decisions per second (the bots' moves are not counted).

The compiled build is used when there is one of these sources (``ratgames compile build``;
``RATGAMES_COMPILED=off`` to leave it out); the first line says which.  ``--game`` and
``--layer`` (each may be given again) measure only those games and layers, e.g. the batch alone
in a fresh process (``--layer batch``), whose heap then holds little but the batch.

``--compare`` adds other libraries' random play measured in the same run: OpenSpiel's C++
``leduc_poker`` stepped from Python, RLCard's ``leduc-holdem`` and pgx's ``leduc_holdem`` with a
batch of ``--batch`` (each only when it is installed; the project installs neither RLCard nor
pgx).  Rates are steps per second of the process's CPU time (``time.process_time``), so that
other work on a shared machine slows them less.

Egyptian Ratscrew's rows count ticks for the environments (every seat chooses at a tick) and
actions for the engine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import ratgames
import ratgames.compiled
from ratgames.rl.encoding import encoder_for
from ratgames.rl.openspiel import load
from ratgames.rl.pettingzoo import env as pz_env
from ratgames.rl.vector import RatgamesVectorEnv, SelfPlayBatch

GAMES = (
    ("caged-rats", 2, {}),
    ("rats", 3, {}),
    ("rat-a-tat-cat", 4, {}),
    ("egyptian-ratscrew", 2, {}),
)
LAYERS = ["engine", "encoded", "pettingzoo", "openspiel", "batch", "vector"]


def _rate(run_one: Callable[[int], int], seconds: float) -> float:
    steps = 0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += run_one(seed)
        seed += 1
    return steps / (time.process_time() - start)


def _random_ids(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """A uniformly random legal id per row of ``masks`` (every row has one), from the
    positions of the ones: a random draw per row, not per id (a random number for each of a
    batch's 256 x 860 ids cost Caged Rats' batch more than its games).  The masks (0 or 1, one
    byte each) are searched as booleans, which numpy does a dozen times faster than bytes."""
    games, ids = masks.shape
    legal = np.flatnonzero(masks.reshape(-1).view(np.bool_))
    starts = np.searchsorted(legal, np.arange(games) * ids)
    counts = np.diff(np.append(starts, len(legal)))
    picked = legal[starts + (rng.random(games) * counts).astype(np.intp)]
    return picked - np.arange(games) * ids


def batch(
    game_id: str, players: int, options: dict[str, object], size: int
) -> Callable[[int], int] | None:
    if ratgames.get_game(game_id, players=players, options=options).real_time:
        return None
    b = SelfPlayBatch(game_id, size, players, options)
    b.reset(seed=0)
    rng = np.random.default_rng(0)

    def one(seed: int) -> int:
        for _ in range(20):
            b.step(_random_ids(rng, b.masks))
        return 20 * size

    return one


def vector(
    game_id: str, players: int, options: dict[str, object], size: int
) -> Callable[[int], int]:
    env = RatgamesVectorEnv(game_id, size, players, options, opponents="random")
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    masks = info["action_mask"]

    def one(seed: int) -> int:
        nonlocal masks
        for _ in range(20):
            masks = env.step(_random_ids(rng, masks))[4]["action_mask"]
        return 20 * size

    return one


def compare(seconds: float, size: int) -> None:
    """Other libraries' leduc poker, random play, in this run."""
    import pyspiel

    game = pyspiel.load_game("leduc_poker")

    def spiel(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    print(f"| OpenSpiel C++ leduc_poker (from Python) | {_rate(spiel, seconds):,.0f} |")
    try:
        import rlcard
    except ImportError:
        print("| RLCard leduc-holdem | not installed |")
    else:
        env = rlcard.make("leduc-holdem", config={"seed": 0})

        def card(seed: int) -> int:
            rng = random.Random(seed)
            state, _ = env.reset()
            n = 0
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
                n += 1
            return n

        print(f"| RLCard leduc-holdem | {_rate(card, seconds):,.0f} |")
    try:
        import jax
        import pgx
    except ImportError:
        print("| pgx leduc_holdem | not installed |")
    else:
        env = pgx.make("leduc_holdem")
        init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
        key = jax.random.PRNGKey(0)
        state = init(jax.random.split(key, size))

        def px(seed: int) -> int:
            nonlocal state
            for _ in range(20):
                logits = jax.numpy.log(state.legal_action_mask.astype(jax.numpy.float32))
                action = jax.random.categorical(jax.random.PRNGKey(seed), logits)
                state = step(state, action)
                state = jax.vmap(lambda s, k: jax.lax.cond(s.terminated, env.init, lambda _: s, k))(
                    state, jax.random.split(jax.random.PRNGKey(seed + 1), size)
                )
            state.current_player.block_until_ready()
            return 20 * size

        px(0)
        print(f"| pgx leduc_holdem, batch {size} | {_rate(px, seconds):,.0f} |")


def engine(
    game_id: str, players: int, options: dict[str, object], encode: bool
) -> Callable[[int], int]:
    game = ratgames.get_game(game_id, players=players, options=options)
    enc = encoder_for(game)

    def one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        state.set_recording(False)
        n = 0
        while not state.is_over() and n < 3000:
            seats = state.seats_to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions(seat)
            if encode:
                enc.observe(state, seat)
                enc.mask(legal)
            state.apply(seat, rng.choice(legal))
            n += 1
        return n

    return one


def pettingzoo(game_id: str, players: int, options: dict[str, object]) -> Callable[[int], int]:
    env = pz_env(game_id, players=players, options=options)

    def one(seed: int) -> int:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        n = 0
        for _ in env.agent_iter(max_iter=3000 * players):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n // players if env.game.real_time else n

    return one


def openspiel(game_id: str, players: int, options: dict[str, object]) -> Callable[[int], int]:
    game = load(game_id, players, **options)

    def one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal() and n < 6000:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return one


def _layer(
    layer: str, game_id: str, players: int, options: dict[str, object], size: int
) -> Callable[[int], int]:
    """What ``_rate`` runs for ``layer`` (not the batch, made apart)."""
    if layer in ("engine", "encoded"):
        return engine(game_id, players, options, layer == "encoded")
    if layer == "pettingzoo":
        return pettingzoo(game_id, players, options)
    if layer == "openspiel":
        return openspiel(game_id, players, options)
    return vector(game_id, players, options, size)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--batch", type=int, default=256, help="games a batch steps at once")
    parser.add_argument("--compare", action="store_true", help="other libraries' leduc too")
    parser.add_argument(
        "--game", action="append", choices=[g for g, _, _ in GAMES], help="only these games"
    )
    parser.add_argument(
        "--layer", action="append", choices=LAYERS, help="only these layers (the others: -)"
    )
    args = parser.parse_args()
    layers = args.layer or LAYERS
    print(f"ratgames {ratgames.compiled.status()}")
    print()
    head = "| game | engine | encoded | pettingzoo | openspiel | batch | vector | batch/AEC |"
    print(head)
    print("|---|---|---|---|---|---|---|---|")
    nan = float("nan")
    for game_id, players, options in GAMES:
        if args.game and game_id not in args.game:
            continue
        # The batch is made first, as it always was: what the other layers leave in the heap
        # is then made after it.
        b = batch(game_id, players, options, args.batch) if "batch" in layers else None
        rates = []
        for layer in LAYERS:
            run = None
            if layer == "batch":
                run = b
            elif layer in layers:
                run = _layer(layer, game_id, players, options, args.batch)
            rates.append(_rate(run, args.seconds) if run is not None else nan)
        cells = [f"{r:,.0f}" if r == r else "-" for r in rates]
        best = rates[4] if rates[4] == rates[4] else rates[5]
        ratio = best / rates[2]
        ratio_cell = f"{ratio:.1f}x" if ratio == ratio else "-"
        print(f"| {game_id} ({players}p) | {' | '.join(cells)} | {ratio_cell} |")
    if args.compare:
        print()
        print("| library, game | steps/s |")
        print("|---|---|")
        compare(args.seconds, args.batch)


if __name__ == "__main__":
    main()
