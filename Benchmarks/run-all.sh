#!/usr/bin/env bash
# Builds our echo servers in release and measures them next to the peers in ONE run of
# ../../shared/bench/run-baselines.sh, then writes a Markdown table with ratios to libevent-C plain
# events (libev-ev) and to SwiftNIO into RESULTS.md (or $OUT).
#
#   Benchmarks/run-all.sh                        # 3 repeats, peers epoll libev-ev nio dispatch + ours
#   REPEATS=1 Benchmarks/run-all.sh              # a quick look (~3 minutes)
#   SERVERS="libev-ev nio runloop" REPEATS=5 Benchmarks/run-all.sh
#   OUT=/tmp/before.md Benchmarks/run-all.sh
#   EXTRA_SUT="runloop-r1=/tmp/old/RunLoopEchoServer" SERVERS="libev-ev runloop runloop-r1" Benchmarks/run-all.sh
#                                                # earlier builds side by side (reported as peers)
#
# Our servers: runloop (RunLoopSocket, native engine), runloop-qc (RunLoopSocket on the queue core),
# queue (QueueSocket). Everything else (PIN, BENCH_OUT) is passed to run-baselines.sh; read its header.
# All traffic is on 127.0.0.1; every client run is bounded by `timeout` and loadgen's own limit.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASELINES=${BASELINES:-$(cd "$HERE/../.." && pwd)/shared/bench/run-baselines.sh}
[[ -x $BASELINES ]] || BASELINES=/work/shared/bench/run-baselines.sh
export BENCH_OUT=${BENCH_OUT:-/tmp/asyncsocket-bench}
export REPEATS=${REPEATS:-3}
OUT=${OUT:-$HERE/RESULTS.md}

echo "== build our servers (release) =="
(cd "$HERE" && swift build -c release --product RunLoopEchoServer 2>&1 | tail -1)
(cd "$HERE" && swift build -c release --product QueueEchoServer 2>&1 | tail -1)
BIN=$(cd "$HERE" && swift build -c release --show-bin-path)

# run-baselines.sh starts a server as `PATH PORT`: the queue-core variant needs a wrapper (exec keeps
# the server's pid, which the CPU accounting reads).
mkdir -p "$BENCH_OUT/ours"
cat >"$BENCH_OUT/ours/runloop-queue-core" <<WRAP
#!/bin/sh
exec "$BIN/RunLoopEchoServer" "\$1" --engine queue-core
WRAP
chmod +x "$BENCH_OUT/ours/runloop-queue-core"

export SUT="runloop=$BIN/RunLoopEchoServer runloop-qc=$BENCH_OUT/ours/runloop-queue-core queue=$BIN/QueueEchoServer ${EXTRA_SUT:-}"
export SERVERS=${SERVERS:-epoll libev-ev nio dispatch runloop runloop-qc queue}
COMMAND="REPEATS=$REPEATS SERVERS=\"$SERVERS\" PIN=${PIN:-1} $BASELINES"
echo "== $COMMAND =="
LOG=$(mktemp)
"$BASELINES" 2>&1 | tee "$LOG"
RAW=$BENCH_OUT/$(sed -n 's/^wrote .* from .*\/\(results\/raw-[^ ]*\.txt\)$/\1/p' "$LOG" | tail -1)
rm -f "$LOG"
[[ -f $RAW ]] || { echo "no raw results found" >&2; exit 1; }
python3 "$HERE/scripts/ratios.py" "$RAW" "$COMMAND" "$BENCH_OUT/RESULTS.md" >"$OUT"
echo "wrote $OUT (raw: $RAW)"
