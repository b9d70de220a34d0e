#!/usr/bin/env bash
# Check the README's first command in a fresh clone, as a new user would run it: with a home of
# its own, and with python3 being the system's Python where it refuses pip installs (Debian's
# and Ubuntu's), else the Python on the PATH.  Needs git and PyPI.  Exit 0 when the game starts
# (run headless: 'ratgames play --help' and a record replayed) and one-line refusals are right.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python=python3
for candidate in /usr/bin/python3 /usr/local/bin/python3; do
  if [ -x "$candidate" ] && "$candidate" - <<'PY' 2>/dev/null; then
import sys, sysconfig, pathlib
sys.exit(0 if (pathlib.Path(sysconfig.get_path("stdlib")) / "EXTERNALLY-MANAGED").exists() else 1)
PY
    python="$candidate"
    break
  fi
done
echo "== fresh clone with $python ($("$python" --version 2>&1))"
git clone --quiet "$repo" "$work/ratgames"
mkdir -p "$work/home" "$work/bin"
ln -s "$(command -v "$python")" "$work/bin/python3"
cache="$(python3 -m uv cache dir 2>/dev/null || true)"

# A new user: a home of their own and a plain PATH, but the machine's network settings (proxies,
# certificates, package indexes) kept.
new_user_env=(env -u VIRTUAL_ENV -u PYTHONPATH -u PYTHONHOME -u PYENV_VERSION -u UV_PYTHON
  -u PYTHONUSERBASE HOME="$work/home" PATH="$work/bin:/usr/bin:/bin" ${cache:+UV_CACHE_DIR="$cache"})

run_as_new_user() {
  "${new_user_env[@]}" bash -c "cd '$work/ratgames' && $1"
}

# The README's first command, with the game itself replaced by something a script can end.
first="$(grep -m1 -E '^sh scripts/setup.sh' "$repo/README.md")"
case "$first" in
  *"python3 -m uv run ratgames play rat-a-tat-cat"*) ;;
  *) echo "the README's first command is not what this check expects: $first" >&2; exit 1 ;;
esac
run_as_new_user "${first%%&&*} && python3 -m uv run ratgames play --help >/dev/null && python3 -m uv run ratgames games >/dev/null"
echo "== the README's first command works (set-up, then ratgames)"

# Where something is missing, one line says what to install.
out="$("${new_user_env[@]}" PYTHON=no-such-python sh "$work/ratgames/scripts/setup.sh" 2>&1 ||
  true)"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "install Python" || {
  echo "a missing Python is not reported in one line: $out" >&2
  exit 1
}
echo "== a missing Python is one line: $out"
