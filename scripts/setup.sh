#!/bin/sh
# Set up ratgames in this checkout: make sure `python3 -m uv` runs (installing uv for you if it
# is missing), then install the project's environment.  Works on a Python that refuses
# system-wide pip installs (Debian's and Ubuntu's: "externally-managed-environment") by
# installing uv for your user only.  Where the machine lacks something, it stops with one line
# saying what to install.  Set PYTHON to use another interpreter than python3.
set -eu
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"

stop() {
  printf 'setup: %s\n' "$*" >&2
  exit 1
}

command -v "$PY" >/dev/null 2>&1 ||
  stop "$PY not found: install Python 3.11 or newer (Debian/Ubuntu: sudo apt install python3)"

if ! "$PY" -m uv --version >/dev/null 2>&1; then
  "$PY" -m pip --version >/dev/null 2>&1 ||
    stop "$PY has no pip to install uv with: install pip (Debian/Ubuntu: sudo apt install python3-pip) or uv (https://docs.astral.sh/uv/), then run this again"
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  if "$PY" -m pip install --quiet --disable-pip-version-check uv >"$log" 2>&1; then
    :
  elif grep -q "externally-managed-environment" "$log"; then
    # This Python belongs to the system (PEP 668): uv goes into ~/.local, for this user only,
    # which leaves the system's packages alone (uv depends on nothing).
    echo "setup: this Python refuses system-wide installs; installing uv for your user only" >&2
    "$PY" -m pip install --quiet --disable-pip-version-check --user \
      --break-system-packages uv >"$log" 2>&1 ||
      stop "could not install uv for your user: $(tail -n 1 "$log")"
  else
    stop "could not install uv: $(tail -n 1 "$log")"
  fi
  "$PY" -m uv --version >/dev/null 2>&1 ||
    stop "uv was installed but '$PY -m uv' does not run; install uv by hand (https://docs.astral.sh/uv/)"
fi

"$PY" -m uv sync --quiet ||
  stop "'$PY -m uv sync' failed (above): it needs Python 3.11+ (uv fetches one if it can) and PyPI"
echo "setup: ready; play with: $PY -m uv run ratgames play rat-a-tat-cat" >&2
