"""The Beggar-my-neighbour record hunt: its play-outs (Python loop and C kernel) against the
general engine, the published records, cycles, numbered deals, checkpoints and the Ray path."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.games.egyptian_ratscrew.test_ers_beggar import NEVER_ENDING, RECORDS

from ratgames.hunt import (
    CKernel,
    EngineMismatch,
    Figures,
    HuntError,
    HuntInterrupted,
    HuntSpec,
    HuntState,
    KernelError,
    PythonKernel,
    check_with_engine,
    deal_at,
    deal_text,
    engine_figures,
    load_checkpoint,
    parse_deal,
    play,
    play_exact,
    play_fast,
    run_hunt,
)
from ratgames.hunt import kernel as kernels
from ratgames.hunt.deals import DECK, UNRESOLVED

CYCLE = parse_deal("/".join(NEVER_ENDING))
RECORD_2022 = parse_deal("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---")


@pytest.fixture(scope="module", autouse=True)
def kernel_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The compiled kernel goes to a folder of the tests' own, never the user's cache."""
    home = tmp_path_factory.mktemp("ratgames-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RATGAMES_HOME", str(home))
        # The hunt's worker processes (a pool, Ray) start with this home, which holds no build
        # of the engine: they must not require one (the hunt plays with its own kernel).
        mp.delenv("RATGAMES_COMPILED", raising=False)
        mp.setattr(kernels, "_KERNELS", {})
        yield home / "cache"


@pytest.fixture(scope="module")
def c_kernel(kernel_cache: Path) -> CKernel:
    try:
        return CKernel(kernels.build_kernel(kernel_cache))
    except KernelError as exc:  # pragma: no cover - every CI machine has a C compiler
        pytest.skip(f"no C kernel here: {exc}")


def random_deals(n: int, seed: int = 11) -> list[bytes]:
    return [deal_at(seed, i) for i in range(n)]


# --- the published figures -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "cards", "tricks"), [r[1:] for r in RECORDS], ids=[r[0] for r in RECORDS]
)
def test_every_play_out_gives_the_published_records(
    c_kernel: CKernel, first: str, second: str, cards: int, tricks: int
) -> None:
    deal = parse_deal(f"{first}/{second}")
    figures = play(deal)
    assert (figures.cards, figures.tricks, figures.cycle) == (cards, tricks, False)
    assert play_exact(deal) == figures
    assert c_kernel.play(deal, 20_000) == (figures.winner, cards, tricks)
    assert PythonKernel().play(deal, 20_000) == (figures.winner, cards, tricks)
    assert engine_figures(deal) == figures


def test_the_known_cycle_is_found_where_the_engine_finds_it(c_kernel: CKernel) -> None:
    # The fast loops keep no memory of positions: they give up past the limit ...
    assert play_fast(CYCLE)[0] == UNRESOLVED
    assert c_kernel.play(CYCLE, 20_000)[0] == UNRESOLVED
    # ... and the exact play finds the first repeat, as the engine does.
    expected = Figures(474, 66, -1, cycle=True)
    assert play(CYCLE) == expected == play_exact(CYCLE) == engine_figures(CYCLE)


def test_a_long_finite_game_past_the_limit_is_settled_exactly(c_kernel: CKernel) -> None:
    status, cards, _ = play_fast(RECORD_2022, limit=1000)
    assert status == UNRESOLVED and 1000 < cards < 8344
    assert c_kernel.play(RECORD_2022, 1000) == play_fast(RECORD_2022, limit=1000)
    assert play(RECORD_2022, limit=1000) == Figures(8344, 1164, 1)


# --- play-outs against the engine ----------------------------------------------------------------


def test_the_play_out_agrees_with_the_engine_on_random_and_near_record_deals() -> None:
    deals = random_deals(400)
    deals += [deal_at(5, i, RECORD_2022, 3) for i in range(40)]
    for deal in deals:
        assert play(deal) == engine_figures(deal), deal_text(deal)


@settings(max_examples=150, deadline=None)
@given(st.permutations(list(DECK)))
def test_the_play_out_agrees_with_the_engine_on_any_deal(cards: list[int]) -> None:
    deal = bytes(cards)
    assert play(deal) == engine_figures(deal)


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(DECK)), st.integers(min_value=100, max_value=400))
def test_the_c_kernel_and_the_python_loop_agree_at_any_limit(
    c_kernel: CKernel, cards: list[int], limit: int
) -> None:
    deal = bytes(cards)
    assert c_kernel.play(deal, limit) == play_fast(deal, limit)


def test_the_c_kernel_and_the_python_loop_agree_on_many_deals(c_kernel: CKernel) -> None:
    python = PythonKernel()
    near = parse_deal("/".join(RECORDS[3][1:3]))
    for seed, base, swaps in ((3, None, 2), (4, near, 1), (5, near, 5)):
        for i in range(0, 3000, 7):
            assert c_kernel.deal(seed, i, base, swaps) == python.deal(seed, i, base, swaps)
        for limit, floor in ((20_000, 0), (250, 400)):
            assert c_kernel.chunk(seed, 1000, 4000, base, swaps, limit, floor) == python.chunk(
                seed, 1000, 4000, base, swaps, limit, floor
            )
    listed, totals = c_kernel.chunk(3, 0, 5000, None, 2, 20_000, 0)
    assert len(listed) == 5000 and totals[2] == 5000  # floor 0: every game listed and counted
    assert sum(c for _, c, _, _ in listed) == totals[0]


def test_a_disagreement_with_the_engine_is_an_error() -> None:
    deal = random_deals(1)[0]
    right = play(deal)
    check_with_engine(deal, right)
    with pytest.raises(EngineMismatch, match="disagree"):
        check_with_engine(deal, Figures(right.cards + 1, right.tricks, right.winner))


def test_a_c_kernel_that_plays_otherwise_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernels, "_KERNELS", {})
    monkeypatch.setattr(kernels, "play_fast", lambda deal, limit=20_000: (0, 1, 1))
    with pytest.raises(KernelError, match="unlike the Python loop"):
        kernels.load_kernel("c")
    assert kernels.load_kernel("auto").name == "python"


def test_without_a_compiler_the_python_loop_is_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(kernels, "_KERNELS", {})
    monkeypatch.setenv("RATGAMES_HOME", str(tmp_path))
    monkeypatch.setenv("CC", "no-such-compiler-here")
    with pytest.raises(KernelError, match="no C compiler"):
        kernels.load_kernel("c")
    assert kernels.load_kernel("auto").name == "python"
    with pytest.raises(HuntError, match="unknown kernel"):
        kernels.load_kernel("fortran")


# --- deals ---------------------------------------------------------------------------------------


def test_numbered_deals_are_decks_fixed_by_seed_and_number() -> None:
    deals = random_deals(2000)
    assert all(sorted(d) == sorted(DECK) for d in deals)
    assert deals == random_deals(2000)
    assert len(set(deals)) == 2000
    assert deal_at(12, 5) != deal_at(13, 5)
    # Every place gets a face card about 16/52 of the time (2000 deals: 615 expected).
    for place in (0, 25, 26, 51):
        faces = sum(1 for d in deals if d[place])
        assert 520 < faces < 710, (place, faces)


def test_deals_near_a_deal_are_a_few_swaps_away() -> None:
    for swaps in (1, 3):
        for i in range(300):
            d = deal_at(2, i, RECORD_2022, swaps)
            assert sorted(d) == sorted(DECK)
            moved = sum(1 for a, b in zip(d, RECORD_2022, strict=True) if a != b)
            assert moved <= 2 * swaps
            if swaps == 1:
                assert moved == 2


def test_deal_text_round_trips_and_bad_text_is_refused() -> None:
    for deal in random_deals(50):
        assert parse_deal(deal_text(deal)) == deal
    text = "/".join(NEVER_ENDING)
    assert parse_deal(" " + text.lower().replace("/", " / ") + " ") == CYCLE
    for bad, message in [
        ("K-KK", "two hands of 26"),
        (text.replace("/", "|"), "two hands"),
        (text.replace("K", "X", 1), "'X'"),
        (text[1:], "hand 1 has 25 cards"),
        (text.replace("K", "Q", 1), "Q: 5"),
    ]:
        with pytest.raises(HuntError, match=message):
            parse_deal(bad)


def test_a_hunt_refuses_impossible_settings() -> None:
    with pytest.raises(HuntError, match="seed"):
        HuntSpec(seed=-1)
    with pytest.raises(HuntError, match="swaps"):
        HuntSpec(near=RECORD_2022, swaps=0)
    with pytest.raises(HuntError, match="not a deck"):
        HuntSpec(near=b"\x01" * 52)
    with pytest.raises(HuntError, match="deals or of seconds"):
        run_hunt(HuntSpec())


# --- hunts, checkpoints --------------------------------------------------------------------------


def figures_of(state: HuntState) -> dict[str, Any]:
    """Everything a hunt found (not its timing or which play-out ran)."""
    data = state.to_json()
    del data["seconds"], data["kernels"]
    return data


def test_a_hunt_finds_the_longest_of_its_deals() -> None:
    spec = HuntSpec(seed=9, top=5)
    state = run_hunt(spec, deals=3000, kernel="python", chunk=700)
    every = sorted(
        ((play(deal_at(9, i)), i) for i in range(3000)), key=lambda p: (-p[0].cards, -p[0].tricks)
    )
    assert [(f.index, f.figures) for f in state.top] == [(i, f) for f, i in every[:5]]
    assert state.deals == state.finished == 3000 and state.done == [(0, 3000)]
    assert state.cards == sum(f.cards for f, _ in every)
    assert state.first_wins == sum(1 for f, _ in every if f.winner == 0)


def test_every_split_and_play_out_gives_the_same_hunt(c_kernel: CKernel) -> None:
    spec = HuntSpec(seed=4, top=6)
    one = run_hunt(spec, deals=20_000, kernel="python", chunk=3000)
    assert figures_of(run_hunt(spec, deals=20_000, kernel="c", chunk=20_000)) == figures_of(one)
    assert figures_of(run_hunt(spec, deals=20_000, kernel="c", chunk=1234)) == figures_of(one)
    pooled = run_hunt(spec, deals=20_000, kernel="c", workers=2, chunk=2500)
    assert figures_of(pooled) == figures_of(one) and pooled.kernels == {"c": 20_000}


def test_near_a_deal_the_deal_itself_is_not_found_again() -> None:
    spec = HuntSpec(seed=1, near=RECORD_2022, swaps=2, top=5)
    state = run_hunt(spec, deals=2000, kernel="python")
    assert state.top and RECORD_2022 not in {f.deal for f in state.top}
    assert len({f.deal for f in state.top}) == len(state.top)
    assert all(f.figures == engine_figures(f.deal) for f in state.top)


def test_a_cycle_found_by_a_hunt_is_kept_and_counted() -> None:
    # Some deals one swap away from the known cycle cycle too (a deal drawn twice is counted
    # twice but kept once).
    spec = HuntSpec(seed=0, near=CYCLE, swaps=1, top=3)
    state = run_hunt(spec, deals=3000, kernel="python")
    assert state.cycles >= len(state.cycle_deals) > 0
    assert state.finished + state.cycles == 3000
    assert len({f.deal for f in state.cycle_deals}) == len(state.cycle_deals)
    for f in state.cycle_deals:
        assert f.figures.cycle and engine_figures(f.deal) == f.figures
        assert f.deal != CYCLE and f not in state.top


def test_a_resumed_hunt_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    spec = HuntSpec(seed=21, top=4)
    whole = run_hunt(spec, deals=9000, kernel="python", chunk=1000)
    saved = tmp_path / "hunt.json"
    calls = 0

    def stop_after_three(state: HuntState, chunk: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt

    with pytest.raises(HuntInterrupted) as stopped:
        run_hunt(
            spec,
            deals=9000,
            kernel="python",
            chunk=1000,
            checkpoint=saved,
            on_chunk=stop_after_three,
        )
    assert stopped.value.state.deals == 3000
    assert not list(tmp_path.glob(".*"))  # written atomically: no temporary file left
    first = load_checkpoint(saved, spec)
    assert first is not None and first.deals == 3000 and first.done == [(0, 3000)]
    # Go on in another split, up to 5000 deals, then to the end.
    second = run_hunt(spec, deals=5000, kernel="python", chunk=700, state=first, checkpoint=saved)
    assert second.deals == 5000
    resumed = load_checkpoint(saved, spec)
    assert resumed is not None
    final = run_hunt(spec, deals=9000, kernel="python", chunk=4000, state=resumed, checkpoint=saved)
    assert figures_of(final) == figures_of(whole)
    reloaded = load_checkpoint(saved, spec)
    assert reloaded is not None and figures_of(reloaded) == figures_of(whole)


def test_the_deals_left_skip_those_done() -> None:
    state = HuntState(HuntSpec())
    state._mark_done(0, 10)
    state._mark_done(25, 30)
    state._mark_done(10, 12)
    assert state.done == [(0, 12), (25, 30)]
    assert list(state.todo(40, 6)) == [(12, 18), (18, 24), (24, 25), (30, 36), (36, 40)]
    assert list(state.todo(27, 100)) == [(12, 25)]
    endless = state.todo(None, 5)
    assert [next(endless) for _ in range(5)] == [(12, 17), (17, 22), (22, 25), (30, 35), (35, 40)]
    with pytest.raises(HuntError, match="already counted"):
        state._mark_done(28, 31)


def test_a_checkpoint_of_another_hunt_or_damaged_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hunt.json"
    assert load_checkpoint(path, HuntSpec()) is None
    run_hunt(HuntSpec(seed=3, top=5), deals=500, kernel="python", checkpoint=path)
    good = json.loads(path.read_text())
    with pytest.raises(HuntError, match="seed 3, not 4"):
        load_checkpoint(path, HuntSpec(seed=4, top=5))
    with pytest.raises(HuntError, match="near"):
        load_checkpoint(path, HuntSpec(seed=3, near=RECORD_2022))
    with pytest.raises(HuntError, match="keeps the top 5"):
        load_checkpoint(path, HuntSpec(seed=3, top=6))
    state = load_checkpoint(path, HuntSpec(seed=3, top=2))  # a shorter list is fine
    assert state is not None and len(state.top) == 2
    for damage, message in [
        ("{", "not JSON"),
        ("[]", "not a ratgames hunt checkpoint"),
        (json.dumps({**good, "done": [[0, 400]]}), "damaged"),
        (json.dumps({**good, "cards": -1}), "bad cards"),
        (json.dumps({**good, "top": [{"index": 1}]}), "damaged"),
        (json.dumps({**good, "format_version": 9}), "version"),
    ]:
        path.write_text(damage)
        with pytest.raises(HuntError, match=message):
            load_checkpoint(path, HuntSpec(seed=3, top=5))


# --- Ray -----------------------------------------------------------------------------------------


def test_a_hunt_on_ray_equals_the_local_one() -> None:
    pytest.importorskip("ray")
    spec = HuntSpec(seed=8, top=5)
    local = run_hunt(spec, deals=12_000, kernel="python", chunk=2000)
    on_ray = run_hunt(spec, deals=12_000, kernel="python", chunk=2000, backend="ray", workers=2)
    assert figures_of(on_ray) == figures_of(local)
    assert on_ray.kernels == {"python": 12_000}
