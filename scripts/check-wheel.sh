#!/usr/bin/env bash
# Build ratgames as a wheel and play from it in a clean virtual environment, away from the
# checkout, as someone without git would after 'pipx install' or 'pip install' of the wheel:
# the commands run, the games are found, and a game starts in the terminal (headless), is left
# and saved, and its record replays.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
uv() { python3 -m uv "$@"; }

echo "== building the wheel"
uv build --wheel --quiet --out-dir "$work/dist" "$repo"
wheel="$(ls "$work"/dist/ratgames-*.whl)"
echo "$(basename "$wheel")"

echo "== installing it into a clean virtual environment"
uv venv --quiet --python 3.11 "$work/venv" 2>/dev/null || uv venv --quiet "$work/venv"
uv pip install --quiet --python "$work/venv/bin/python" "$wheel"

cd "$work"
export RATGAMES_HOME="$work/home"
bin="$work/venv/bin"
"$bin/python" - <<'PY'
import pathlib, ratgames
where = pathlib.Path(ratgames.__file__).resolve()
assert "venv" in where.parts, f"ratgames came from {where}, not from the wheel"
PY
echo "== the commands"
"$bin/ratgames" --version
games="$("$bin/ratgames" games)"
for id in rat-a-tat-cat egyptian-ratscrew rats caged-rats; do
  grep -q "$id" <<<"$games" || { echo "the wheel does not know $id" >&2; exit 1; }
done
"$bin/ratgames" rules rats >/dev/null
"$bin/ratgames" bots caged-rats >/dev/null
"$bin/ratgames" simulate caged-rats -g 4 -w 1 -b heuristic random >/dev/null 2>&1

echo "== a game in the terminal (headless): help, leave, saved, resumed, replayed"
"$bin/python" - <<'PY'
import asyncio, json, pathlib, os
import ratgames
from ratgames.core.bots import make_bot
from ratgames.tui.play import PlayApp
from ratgames.tui.session import default_record_dir, resume

async def main() -> None:
    game = ratgames.get_game("rat-a-tat-cat", players=2)
    app = PlayApp(game, [None, make_bot(game, "heuristic", seed=2)], seed=1,
                  record_dir=default_record_dir(), bot_pause=0.01)
    async with app.run_test() as pilot:
        await pilot.press("question_mark", "escape", "d")
        await pilot.pause(0.2)
        await pilot.press("ctrl+q", "y")
    [path] = app.saved
    assert json.loads(path.read_text())["outcome"] is None
    assert resume(path).state.snapshot() == app.state.snapshot()
    print(path)

asyncio.run(main())
PY
record="$(ls "$RATGAMES_HOME"/records/*.json)"
"$bin/ratgames" replay --text "$record" >/dev/null
"$bin/ratgames" stats >/dev/null
echo "== the wheel works without a checkout"
