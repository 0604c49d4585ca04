#!/usr/bin/env bash
# What one benchmark row costs a server: its CPU time, context switches and page faults over one whole
# `loadgen` run, and what loadgen measured, on one line.
#
#   Benchmarks/scripts/row-cost.sh BINARY "LOADGEN ARGS" [CLIENT CORE]
#   Benchmarks/scripts/row-cost.sh .build/release/QueueEchoServer "-t bulk -c 4 -s 134217728 -T 30"
#   Benchmarks/scripts/row-cost.sh /tmp/DispatchEchoServer "-t pingpong -c 50 -m 64 -d 3 -T 20" 0
#   EVENTS=task-clock,raw_syscalls:sys_enter Benchmarks/scripts/row-cost.sh BINARY "-t accept_echo -n 20000 -T 40"
#
# Starts `BINARY PORT` on core 0 (127.0.0.1, a port from 20000–27999), counts EVENTS (default
# task-clock,context-switches,page-faults) in it with `perf stat` while `loadgen ARGS -p PORT` runs on
# CLIENT CORE (default 1; 0 puts the client on the server's core), then stops the server. Pair two
# builds by calling it for each in turn. LOADGEN as in server-under-perf.sh; every run is bounded by
# `timeout` and loadgen's own -T, and the server is stopped when the script ends.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,14p' "$0"; exit 2; }
BINARY=$1
ARGS=$2
CLIENT_CORE=${3:-1}
EVENTS=${EVENTS:-task-clock,context-switches,page-faults}
source "$(dirname "$0")/server-under-perf.sh"
prepare_loadgen
PORT=$((20000 + RANDOM % 8000))
STATS=$(mktemp)
# taskset execs the server, so $! is the server itself (what perf watches); it is stopped on any exit.
taskset -c 0 "$BINARY" "$PORT" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; rm -f "$STATS"' EXIT
wait_for_port "$PORT" || { echo "the server did not listen on $PORT" >&2; kill "$SERVER"; exit 1; }
perf stat -x, -e "$EVENTS" -p "$SERVER" -o "$STATS" &
PERF=$!
sleep 0.2
# shellcheck disable=SC2086 # ARGS is a list of loadgen options
RESULT=$(taskset -c "$CLIENT_CORE" timeout 100 "$LOADGEN" $ARGS -p "$PORT" | grep RESULT || true)
kill -INT "$PERF"
wait "$PERF" || true
echo "$RESULT | $(grep -v '^#' "$STATS" | awk -F, 'NF > 2 { printf "%s=%s ", $3, $1 }')"
