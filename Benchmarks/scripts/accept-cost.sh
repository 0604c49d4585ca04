#!/usr/bin/env bash
# Server CPU and context switches per accepted connection, below the listen backlog (no SYN is
# dropped, so the number is the server's cost, not the 1 s retransmission cliff of the accept row).
#
#   Benchmarks/scripts/accept-cost.sh BINARY [SERVER ARGS...]
#   ROUNDS=20 N=800 LOADGEN=/tmp/loadgen Benchmarks/scripts/accept-cost.sh .build/release/RunLoopEchoServer --engine queue-core
#
# Starts `BINARY PORT [SERVER ARGS...]` on core 0 (127.0.0.1) under `perf stat -e
# task-clock,context-switches`, runs ROUNDS × `loadgen -t accept -n N` on core 1, 0.3 s apart, stops the
# server and prints its totals per connection (start-up included: a few ms over all connections). LOADGEN defaults to a build of Benchmarks/Peers/c/loadgen.c in $TMPDIR. Every run is bounded
# by `timeout`.
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n '2,10p' "$0"; exit 2; }
BINARY=$1
shift
ROUNDS=${ROUNDS:-20}
N=${N:-800}
PORT=${PORT:-$((20000 + RANDOM % 10000))}
# shellcheck source=server-under-perf.sh
source "$(cd "$(dirname "$0")" && pwd)/server-under-perf.sh"
prepare_loadgen
STATS=$(mktemp)
# perf starts the server, so threads libdispatch brings up later are counted too (`perf stat -p`
# counts only the threads that exist when it attaches).
perf stat -e task-clock,context-switches -o "$STATS" -- taskset -c 0 "$BINARY" "$PORT" "$@" >/dev/null 2>&1 &
PERF=$!
trap 'kill $PERF 2>/dev/null || true; rm -f "$STATS"' EXIT
wait_for_port "$PORT"
for _ in $(seq 1 "$ROUNDS"); do
    taskset -c 1 timeout 20 "$LOADGEN" -p "$PORT" -t accept -n "$N" >/dev/null
    sleep 0.3
done
pkill -TERM -P $PERF
wait $PERF 2>/dev/null || true
python3 - "$STATS" "$((ROUNDS * N))" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
conns = int(sys.argv[2])
ms = float(re.search(r"([\d.,]+)\s+msec task-clock", text).group(1).replace(",", ""))
switches = int(re.search(r"([\d,]+)\s+context-switches", text).group(1).replace(",", ""))
print(f"connections={conns} server_us_per_conn={ms * 1000 / conns:.1f} switches_per_conn={switches / conns:.2f}")
PY
