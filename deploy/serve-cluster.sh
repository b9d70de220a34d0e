#!/usr/bin/env bash
# Start N `ratgames serve` processes over one PostgreSQL database behind HAProxy, on this
# machine, to try several processes out (docs/operating.md, "One machine, several processes").
#
#   deploy/serve-cluster.sh N DATABASE_URL [PORT]
#   deploy/serve-cluster.sh 3 postgresql+psycopg://ratgames:ratgames@127.0.0.1/ratgames 8000
#
# The balancer listens on PORT (default 8000), the processes on PORT+1 .. PORT+N (loopback).
# Extra options for every process: RATGAMES_SERVE_OPTIONS="--bot-pause 0 --workers 1".
# Ctrl+C (or SIGTERM) stops the balancer and the processes (each gives its tables up).
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 N DATABASE_URL [PORT]   (N processes behind HAProxy on PORT, default 8000)" >&2
  exit 2
fi
count=$1
url=$2
port=${3:-8000}
case $count in
  '' | *[!0-9]*) echo "N must be a whole number of processes, not '$count'" >&2; exit 2 ;;
esac
if [ "$count" -lt 1 ]; then
  echo "N must be at least 1" >&2
  exit 2
fi
case $url in
  postgresql*) ;;
  *) echo "the processes share a PostgreSQL database: give postgresql+psycopg://..., not '$url'" >&2; exit 2 ;;
esac
haproxy=$(command -v haproxy || true)
if [ -z "$haproxy" ]; then
  echo "haproxy is not installed (Debian: apt-get install haproxy)" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
ratgames=${RATGAMES:-ratgames}
work=$(mktemp -d)
pids=()

stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap 'stop; exit 0' INT TERM
trap stop EXIT

# the schema first, once (the processes would each do it at their start)
$ratgames db upgrade --db "$url" >/dev/null

cp "$here/haproxy.cfg" "$work/haproxy.cfg"
for i in $(seq 1 "$count"); do
  p=$((port + i))
  # shellcheck disable=SC2086
  # each tells clients its address through the balancer (/p/sI), not its own port
  $ratgames serve --host 127.0.0.1 --port "$p" --db "$url" \
    --advertise "http://127.0.0.1:$port/p/s$i" ${RATGAMES_SERVE_OPTIONS:-} &
  pids+=($!)
  {
    echo "    use-server s$i if { var(txn.pin) -m str s$i }"
    echo "    server s$i 127.0.0.1:$p"
  } >>"$work/haproxy.cfg"
done
RATGAMES_BIND="127.0.0.1:$port" "$haproxy" -W -db -f "$work/haproxy.cfg" &
pids+=($!)
echo "ratgames: $count processes behind HAProxy on http://127.0.0.1:$port/" >&2
wait -n "${pids[@]}" || true
echo "a process or the balancer stopped: stopping the others" >&2
