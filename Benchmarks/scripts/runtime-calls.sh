#!/usr/bin/env bash
# Swift runtime calls and mallocs per echoed line: how many retains, releases, weak loads, run-time
# exclusivity checks (swift_beginAccess) and mallocs one line costs a server, counted exactly with
# uprobes (perf probe), not sampled. Needs root (uprobes); the probes stay defined after the run.
#
#   Benchmarks/scripts/runtime-calls.sh BINARY [SERVER ARGS...]
#   N=200000 LOADGEN=/tmp/loadgen Benchmarks/scripts/runtime-calls.sh .build/release/RunLoopEchoServer --engine queue-core
#
# Starts `BINARY PORT [SERVER ARGS...]` on core 0 (127.0.0.1), counts while `loadgen -t lines -n N -l 32`
# runs on core 1 against PORT+1, stops the server and prints each count divided by N (start-up and
# connection set-up included: a few hundred calls over all lines). The probes slow the server down
# several times: read the counts, not the time. LOADGEN defaults to a build of
# Benchmarks/Peers/c/loadgen.c in $TMPDIR. Every run is bounded by `timeout`.
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n '2,12p' "$0"; exit 2; }
BINARY=$1
shift
N=${N:-200000}
PORT=${PORT:-$((20000 + RANDOM % 10000))}
# shellcheck source=server-under-perf.sh
source "$(cd "$(dirname "$0")" && pwd)/server-under-perf.sh"
prepare_loadgen
SWIFT_CORE=$(ldd "$BINARY" | awk '/libswiftCore/ {print $3}')
LIBC=$(ldd "$BINARY" | awk '$1 ~ /^libc\.so/ {print $3}')
DEFINED=$(perf probe -l 2>/dev/null || true)
for symbol in swift_retain swift_release swift_weakLoadStrong swift_beginAccess; do
    grep -q "probe_libswiftCore:$symbol " <<<"$DEFINED" || perf probe -q -x "$SWIFT_CORE" "$symbol"
done
grep -q "probe_libc:malloc " <<<"$DEFINED" || perf probe -q -x "$LIBC" malloc
EVENTS=probe_libswiftCore:swift_retain,probe_libswiftCore:swift_release,probe_libswiftCore:swift_weakLoadStrong
EVENTS=$EVENTS,probe_libswiftCore:swift_beginAccess,probe_libc:malloc
COUNTS=$(mktemp)
perf stat -x, -e "$EVENTS" -o "$COUNTS" -- taskset -c 0 "$BINARY" "$PORT" "$@" >/dev/null 2>&1 &
PERF=$!
trap 'kill $PERF 2>/dev/null || true; rm -f "$COUNTS"' EXIT
wait_for_port "$PORT"
taskset -c 1 timeout 300 "$LOADGEN" -p "$((PORT + 1))" -t lines -n "$N" -l 32 -T 290 >/dev/null
pkill -TERM -P $PERF
wait $PERF 2>/dev/null || true
awk -F, -v n="$N" '/probe_/ { sub(/^probe_[^:]*:/, "", $3); printf "%s %.2f per line\n", $3, $1 / n }' "$COUNTS"
