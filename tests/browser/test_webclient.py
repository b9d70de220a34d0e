"""The client as the server serves it (no browser needed): the page at its paths, its assets,
and the replay steps of a stored game."""

from __future__ import annotations

import random

import httpx
import pytest

import ratgames
from ratgames.webclient import CSP, STATIC_DIR
from ratgames.webclient.replay import replay_steps

from .conftest import Server


@pytest.mark.parametrize("path", ["/", "/t/K7QX2M", "/replays", "/replays/3"])
def test_the_page_is_served_at_the_clients_paths(server: Server, path: str):
    answer = httpx.get(server.base + path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["content-security-policy"] == CSP
    assert '<div id="app">' in answer.text
    assert "/assets/app.js" in answer.text


def test_assets_and_unknown_paths(server: Server):
    script = httpx.get(server.base + "/assets/app.js")
    assert script.status_code == 200
    assert script.content == (STATIC_DIR / "assets" / "app.js").read_bytes()
    assert httpx.get(server.base + "/assets/nope.js").status_code == 404
    assert httpx.get(server.base + "/nowhere/at/all").status_code == 404
    # The API is still the API.
    assert httpx.get(server.base + "/api/health").json()["ok"] is True


def test_assets_are_served_compressed(server: Server):
    for name in ("app.js", "index.css"):
        plain = (STATIC_DIR / "assets" / name).read_bytes()
        answer = httpx.get(server.base + f"/assets/{name}", headers={"accept-encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers["content-encoding"] == "gzip"
        assert answer.content == plain  # decoded by httpx
        assert len(answer.read()) == len(plain)
        raw = httpx.get(server.base + f"/assets/{name}", headers={"accept-encoding": "identity"})
        assert "content-encoding" not in raw.headers and raw.content == plain
    # The API's small answers are not compressed.
    api = httpx.get(server.base + "/api/games", headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in api.headers


def caged_record() -> dict[str, object]:
    game = ratgames.get_game("caged-rats", options={"single_deal": True})
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while not state.is_over():
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state.record()


def test_replay_steps_show_one_seat_what_it_saw():
    record = caged_record()
    actions = [e for e in record["events"] if "chance" not in e]  # type: ignore[union-attr]
    red = replay_steps(record, 0)
    assert len(red["steps"]) == len(actions) + 1
    assert [s["action"] for s in red["steps"][1:]] == [e["action"] for e in actions]
    assert set(red["steps"][0]["view"]["hand"]) == set(record["deal"]["red"]["hand"])  # type: ignore[index]
    black_hand = set(record["deal"]["black"]["hand"])  # type: ignore[index]
    first = red["steps"][0]
    assert not black_hand & set(str(first["view"]).replace("'", " ").split())
    spectator = replay_steps(record, None)
    assert spectator["viewer"] is None and "hand" not in spectator["steps"][0]["view"]
    texts = [e["text"] for s in red["steps"] for e in s["events"]]
    assert any(t and t.startswith("You ") for t in texts)
    with pytest.raises(ValueError, match="no seat 2"):
        replay_steps(record, 2)


def test_replay_endpoint(server: Server):
    assert httpx.get(server.base + "/api/records/999/replay").status_code == 404
