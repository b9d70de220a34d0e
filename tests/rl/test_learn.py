"""The numpy learner: gradients, determinism, the policy bot and the train command."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import ratgames
from ratgames.cli import main
from ratgames.core.bots import SeatView, make_bot
from ratgames.core.errors import OptionError
from ratgames.rl.encoding import encoder_for
from ratgames.rl.learn.network import Adam, Network, masked_softmax
from ratgames.rl.learn.ppo import PpoConfig, config_meta, train


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _loss(
    net: Network, obs: np.ndarray, mask: np.ndarray, w: np.ndarray, target: np.ndarray
) -> float:
    logits, values, _ = net.forward(obs)
    _, logp = masked_softmax(logits, mask)
    return float((w * logp).sum() + 0.5 * ((values - target) ** 2).sum())


def test_backward_matches_finite_differences() -> None:
    rng = np.random.default_rng(0)
    net = Network(7, 5, (6, 4), seed=1)
    for k in net.params:
        net.params[k] = np.ascontiguousarray(net.params[k], dtype=np.float64)  # type: ignore[assignment]
    obs = rng.random((3, 7))
    mask = np.array([[1, 0, 1, 1, 0], [1, 1, 1, 1, 1], [0, 0, 1, 0, 1]], dtype=np.int8)
    w = rng.standard_normal((3, 5)) * mask
    target = rng.standard_normal(3)
    logits, values, acts = net.forward(obs)
    probs, _ = masked_softmax(logits, mask)
    probs = probs.astype(np.float64)
    # d(sum w * logp)/dz = w - p * sum(w) over the legal ids
    dlogits = (w - probs * w.sum(axis=1, keepdims=True)) * mask
    grads = net.backward(acts, dlogits, values - target)
    eps = 1e-6
    for name, value in net.params.items():
        flat = value.reshape(-1)
        for i in rng.choice(flat.size, size=min(6, flat.size), replace=False):
            old = flat[i]
            flat[i] = old + eps
            up = _loss(net, obs, mask, w, target)
            flat[i] = old - eps
            down = _loss(net, obs, mask, w, target)
            flat[i] = old
            assert grads[name].reshape(-1)[i] == pytest.approx((up - down) / (2 * eps), abs=1e-5)


def test_masked_ids_have_no_probability() -> None:
    logits = np.array([[5.0, 1.0, -2.0, 9.0]], dtype=np.float32)
    mask = np.array([[0, 1, 1, 0]], dtype=np.int8)
    probs, logp = masked_softmax(logits, mask)
    assert probs[0, 0] == 0.0 and probs[0, 3] == 0.0
    assert probs.sum() == pytest.approx(1.0)
    assert probs[0, 1] > probs[0, 2]
    assert np.isfinite(logp).all()


def test_adam_minimises_a_quadratic() -> None:
    params = {"x": np.array([3.0, -2.0], dtype=np.float32)}
    opt = Adam(params, lr=0.1, max_norm=100.0)
    for _ in range(300):
        opt.step({"x": 2 * params["x"]})
    assert np.abs(params["x"]).max() < 0.05


SMALL = {"steps": 512, "envs": 4, "horizon": 32, "hidden": (16,), "epochs": 2}


def test_training_is_fixed_by_its_seed() -> None:
    cfg = PpoConfig("caged-rats", options={"single_deal": True}, seed=3, **SMALL)  # type: ignore[arg-type]
    a, hist_a = train(cfg)
    b, hist_b = train(cfg)
    c, _ = train(PpoConfig("caged-rats", options={"single_deal": True}, seed=4, **SMALL))  # type: ignore[arg-type]
    for k in a.params:
        np.testing.assert_array_equal(a.params[k], b.params[k])
    assert any(not np.array_equal(a.params[k], c.params[k]) for k in a.params)
    assert [p.steps for p in hist_a] == [128, 256, 384, 512] == [p.steps for p in hist_b]


def test_ppo_learns_against_random() -> None:
    cfg = PpoConfig(
        "caged-rats", options={"single_deal": True}, steps=16384, envs=16, horizon=64, seed=0
    )
    _, history = train(cfg)
    early = np.mean([p.mean_return for p in history[:3]])
    late = np.mean([p.mean_return for p in history[-3:]])
    assert late > early + 0.2


def _weights(tmp_path: Path, game_id: str, players: int, options: dict[str, object]) -> Path:
    game = ratgames.get_game(game_id, players=players, options=options)
    enc = encoder_for(game)
    net = Network(enc.obs_size, enc.num_actions, (16,), seed=0)
    cfg = PpoConfig(game_id, players=players, options=dict(options))
    return net.save(tmp_path / f"{game_id}.npz", config_meta(cfg, [], "test"))


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("rats", 2, {"jokers": 2, "max_rounds": 1}), ("rat-a-tat-cat", 3, {"mode": "round"})],
)
def test_policy_bot_plays_legal_actions_to_the_end(
    tmp_path: Path, game_id: str, players: int, options: dict[str, object]
) -> None:
    path = _weights(tmp_path, game_id, players, options)
    game = ratgames.get_game(game_id, players=players, options=options)
    for greedy in ("true", "false"):
        spec = f"policy:file={path},greedy={greedy}"
        bots = [make_bot(game, spec, seed=s) for s in range(players)]
        state = game.new_state(seed=5)
        for s, bot in enumerate(bots):
            bot.new_game(s)
        moves = 0
        while not state.is_over() and moves < 2000:
            seat = state.seats_to_act()[0]
            action = bots[seat].act(SeatView(state, seat))
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
            moves += 1
        assert state.is_over()


def test_policy_bot_greedy_follows_the_network(tmp_path: Path) -> None:
    path = _weights(tmp_path, "caged-rats", 2, {})
    game = ratgames.get_game("caged-rats")
    bot = make_bot(game, f"policy:file={path}")
    state = game.new_state(seed=1)
    seat = state.seats_to_act()[0]
    view = SeatView(state, seat)
    probs = bot.probabilities(view)  # type: ignore[attr-defined]
    enc = encoder_for(game)
    assert enc.action_ids(bot.act(view)) == (int(np.argmax(probs)),)
    assert probs[enc.mask(state.legal_actions(seat)) == 0].sum() == 0.0


def test_policy_bot_refuses_what_does_not_fit(tmp_path: Path) -> None:
    path = _weights(tmp_path, "caged-rats", 2, {"single_deal": True})
    game = ratgames.get_game("caged-rats")
    with pytest.raises(OptionError, match=r"trained for Caged Rats .* options single_deal=True"):
        make_bot(game, f"policy:file={path}")
    with pytest.raises(OptionError, match="does not exist"):
        make_bot(game, f"policy:file={tmp_path / 'nothing.npz'}")
    with pytest.raises(OptionError, match=r"needs file=WEIGHTS\.npz"):
        make_bot(game, "policy")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(OptionError, match="cannot read policy weights"):
        make_bot(game, f"policy:file={bad}")


def test_train_command_writes_weights_and_curve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, curve = tmp_path / "w.npz", tmp_path / "c.csv"
    code, _, err = _run(
        capsys,
        "train",
        "caged-rats",
        "-o",
        "single_deal=true",
        "--steps",
        "256",
        "--envs",
        "4",
        "--horizon",
        "32",
        "--hidden",
        "16",
        "--out",
        str(out),
        "--curve",
        str(curve),
    )
    assert code == 0, err
    assert "update 2: 256 steps" in err
    rows = list(csv.DictReader(curve.open()))
    assert [int(r["steps"]) for r in rows] == [128, 256]
    assert curve.with_suffix(".svg").read_text().startswith("<?xml")
    with np.load(out) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["options"]["single_deal"] is True
    assert meta["trained"]["command"].startswith("ratgames train caged-rats")
    code, _, err = _run(
        capsys,
        "simulate",
        "caged-rats",
        "-o",
        "single_deal=true",
        "-g",
        "4",
        "-w",
        "1",
        "--bots",
        f"policy:file={out}",
        "random",
    )
    assert code == 0, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hidden", "0,5"], "give 1 to 4 layer sizes"),
        (["--out", "x.txt"], "must end in .npz"),
        (["--envs", "3", "-o", "single_deal=true"], "multiple of the 2 players"),
        (["-o", "bogus=1"], "bogus"),
    ],
)
def test_train_refuses_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    full = ["train", "caged-rats", "--steps", "64", "--out", str(tmp_path / "w.npz"), *args]
    if "--out" in args[:1]:
        full = ["train", "caged-rats", "--steps", "64", *args]
    code, _, err = _run(capsys, *full)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_curves_join_stages_end_to_end() -> None:
    from ratgames.rl.learn.curves import joined

    first = [{"steps": 10.0, "win_rate": 0.1}, {"steps": 20.0, "win_rate": 0.2}]
    second = [{"steps": 5.0, "win_rate": 0.5}]
    assert joined([first, second]) == ([10.0, 20.0, 25.0], [0.1, 0.2, 0.5])


def test_selfplay_is_fixed_by_its_seed_and_learns_from_whole_games() -> None:
    from ratgames.rl.learn.selfplay import SelfPlayConfig, train_selfplay

    def run(seed: int) -> tuple[Network, list[int]]:
        cfg = SelfPlayConfig(
            "rats", players=3, options={"max_rounds": 1}, seed=seed, snapshot_every=1, **SMALL
        )  # type: ignore[arg-type]
        net, history = train_selfplay(cfg)
        assert all(p.games > 0 for p in history[1:])
        return net, [p.steps for p in history]

    a, steps_a = run(1)
    b, steps_b = run(1)
    c, _ = run(2)
    assert steps_a == steps_b and steps_a[-1] >= 512
    for k in a.params:
        np.testing.assert_array_equal(a.params[k], b.params[k])
    assert any(not np.array_equal(a.params[k], c.params[k]) for k in a.params)


def test_train_selfplay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sp.npz"
    args = ["train", "caged-rats", "--selfplay", "--steps", "128", "--envs", "4", "--out", str(out)]
    code, _, err = _run(capsys, *args, "--horizon", "16", "--hidden", "8")
    assert code == 0, err
    with np.load(out) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["trained"]["method"] == "selfplay"
    assert "--selfplay" in meta["trained"]["command"]


@pytest.mark.parametrize(
    ("name", "options", "games", "wins"),
    [("caged-rats", {"single_deal": True}, 60, 45), ("rat-a-tat-cat", {"mode": "round"}, 200, 120)],
)
def test_shipped_policies_beat_random(
    name: str, options: dict[str, object], games: int, wins: int
) -> None:
    from ratgames.rl.learn.policy import shipped

    assert name in shipped()
    game = ratgames.get_game(name, players=2, options=options)
    won = 0
    for seed in range(games):
        bots = [make_bot(game, f"policy:file={name}"), make_bot(game, "random", seed=seed)]
        if seed % 2:
            bots.reverse()
        state = game.new_state(seed=seed)
        for s, bot in enumerate(bots):
            bot.new_game(s)
        while not state.is_over():
            seat = state.seats_to_act()[0]
            state.apply(seat, bots[seat].act(SeatView(state, seat)))
        outcome = state.outcome()
        assert outcome is not None
        me = seed % 2
        won += me in outcome.winners and len(outcome.winners) == 1
    assert won >= wins
