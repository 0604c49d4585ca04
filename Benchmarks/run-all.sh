#!/usr/bin/env bash
# Builds our echo servers in release and measures them next to the peers in ONE run of
# Peers/run-peers.sh (the peer servers and the load generator, built from the sources in Peers/), then writes a Markdown table with ratios to libevent-C plain
# events (libev-ev) and to SwiftNIO into RESULTS.md (or $OUT).
#
#   Benchmarks/run-all.sh                        # 3 repeats, peers epoll libev-ev nio dispatch + ours
#   REPEATS=1 Benchmarks/run-all.sh              # a quick look (~3 minutes)
#   SERVERS="libev-ev nio runloop" REPEATS=5 Benchmarks/run-all.sh
#   OUT=/tmp/before.md Benchmarks/run-all.sh
#   EXTRA_SUT="runloop-r1=/tmp/old/RunLoopEchoServer" SERVERS="libev-ev runloop runloop-r1" Benchmarks/run-all.sh
#                                                # earlier builds side by side (reported as peers)
#   ALLOCATIONS=0 TLS=0 UDP=0 Benchmarks/run-all.sh  # without the allocations, TLS and datagram tables
#
# Our servers: runloop (RunLoopSocket, native engine), runloop-qc (RunLoopSocket on the queue core),
# queue (QueueSocket), async (AsyncSocketConnection, beside its peer nio-async: SwiftNIO's NIOAsyncChannel). Everything else (PIN, BENCH_OUT) is passed to Peers/run-peers.sh; read its header.
# All traffic is on 127.0.0.1; every client run is bounded by `timeout` and loadgen's own limit.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASELINES=${BASELINES:-$HERE/Peers/run-peers.sh}
export BENCH_OUT=${BENCH_OUT:-/tmp/asyncsocket-bench}
export REPEATS=${REPEATS:-3}
OUT=${OUT:-$HERE/RESULTS.md}

echo "== build our servers (release) =="
(cd "$HERE" && swift build -c release --product RunLoopEchoServer 2>&1 | tail -1)
(cd "$HERE" && swift build -c release --product QueueEchoServer 2>&1 | tail -1)
(cd "$HERE" && swift build -c release --product AsyncEchoServer 2>&1 | tail -1)
BIN=$(cd "$HERE" && swift build -c release --show-bin-path)

# run-peers.sh starts a server as `PATH PORT`: the queue-core variant needs a wrapper (exec keeps
# the server's pid, which the CPU accounting reads).
mkdir -p "$BENCH_OUT/ours"
cat >"$BENCH_OUT/ours/runloop-queue-core" <<WRAP
#!/bin/sh
exec "$BIN/RunLoopEchoServer" "\$1" --engine queue-core
WRAP
chmod +x "$BENCH_OUT/ours/runloop-queue-core"

export SUT="runloop=$BIN/RunLoopEchoServer runloop-qc=$BENCH_OUT/ours/runloop-queue-core queue=$BIN/QueueEchoServer async=$BIN/AsyncEchoServer ${EXTRA_SUT:-}"
export SERVERS=${SERVERS:-epoll libev-ev nio nio-async dispatch runloop runloop-qc queue async}
COMMAND="REPEATS=$REPEATS SERVERS=\"$SERVERS\" PIN=${PIN:-1} $BASELINES"
echo "== $COMMAND =="
LOG=$(mktemp)
"$BASELINES" 2>&1 | tee "$LOG"
RAW=$BENCH_OUT/$(sed -n 's/^wrote .* from .*\/\(results\/raw-[^ ]*\.txt\)$/\1/p' "$LOG" | tail -1)
rm -f "$LOG"
[[ -f $RAW ]] || { echo "no raw results found" >&2; exit 1; }
python3 "$HERE/scripts/ratios.py" "$RAW" "$COMMAND" "$BENCH_OUT/RESULTS.md" >"$OUT"

# Allocations per operation, counted by package-benchmark's malloc interposer (Benchmarks/Allocations),
# after the timed rows so its build and run do not share the CPUs with them. ALLOCATIONS=0 skips it.
if [[ ${ALLOCATIONS:-1} == 1 ]]; then
    echo "== allocations per operation (swift package benchmark --target Allocations) =="
    ALLOC_OUT=$BENCH_OUT/allocations.md
    (cd "$HERE" && swift package --allow-writing-to-package-directory benchmark --target Allocations \
        --format markdown --no-progress >"$ALLOC_OUT" 2>&1)
    {
        echo
        echo "## Allocations per operation"
        echo
        echo "malloc-family calls per operation (echoed line, round trip, 64 KiB echoed, short connection), whole process, median of the"
        echo "samples: \`swift package benchmark --target Allocations\` (package-benchmark's malloc interposer;"
        echo "the servers run in-process with the echo servers' delegates, the client allocates nothing)."
        echo
        python3 "$HERE/scripts/allocations.py" <"$ALLOC_OUT"
    } >>"$OUT"
fi
# Resident memory of 10 000 idle connections per server (idle-memory.sh, about a minute), beside its
# target. IDLE=0 skips it.
if [[ ${IDLE:-1} == 1 ]]; then
    echo "== idle connections (idle-memory.sh) =="
    IDLE_OUT=$BENCH_OUT/idle-memory.md
    SERVERS="runloop runloop-qc queue" OUT=$IDLE_OUT "$HERE/idle-memory.sh"
    {
        echo
        echo "## Idle connections: resident memory per connection"
        echo
        sed -n '3,$p' "$IDLE_OUT"
    } >>"$OUT"
fi
# TLS: handshakes/s and bulk MiB/s through TLS (TLSBench), beside `openssl s_time`/`s_server` and the
# SwiftNIO-SSL peer (Peers/swift-nio-ssl-echo, built into BENCH_OUT; several minutes the first time, as
# it compiles BoringSSL). TLS=0 skips it.
if [[ ${TLS:-1} == 1 ]]; then
    echo "== TLS (TLSBench, with the SwiftNIO-SSL peer) =="
    rm -rf "$BENCH_OUT/swift-nio-ssl-echo/Sources"
    cp -r "$HERE/Peers/swift-nio-ssl-echo" "$BENCH_OUT/"
    (cd "$BENCH_OUT/swift-nio-ssl-echo" && swift build -c release 2>&1 | tail -1)
    (cd "$HERE" && swift build -c release --product TLSBench 2>&1 | tail -1)
    TLS_OUT=$BENCH_OUT/tls.txt
    TLS_STATUS=0
    timeout 600 "$BIN/TLSBench" 3 --nio-ssl "$BENCH_OUT/swift-nio-ssl-echo/.build/release/NIOSSLEchoServer" >"$TLS_OUT" 2>&1 ||
        TLS_STATUS=$?
    {
        echo
        echo "## TLS"
        echo
        echo "\`TLSBench 3 --nio-ssl …\` (TLS 1.3, throw-away certificates; each handshake row is \`openssl s_time -new\`"
        echo "for 3 s, or our client, against the server named; bulk is 256 MiB between our own sockets in one"
        echo "process, beside s_time fetching 32 MiB pages from \`s_server -WWW\`). Not pinned to CPUs."
        echo
        if [[ $TLS_STATUS == 0 ]]; then
            sed -n '/^| measure | value |$/,$p' "$TLS_OUT"
        else
            # A crash ends the table early; what was measured, and where it stopped, still go in.
            echo "**TLSBench ended with status $TLS_STATUS** before its table (output: \`$TLS_OUT\`). Rows measured before:"
            echo
            grep -E '^(handshakes|bulk)' "$TLS_OUT" | sed 's/^/- /' || true
            echo
            echo "Where it stopped:"
            echo
            grep -E -m1 -A3 'crashed:$' "$TLS_OUT" | sed 's/^/    /' || true
        fi
    } >>"$OUT"
fi
# Datagram echo (udp-echo.sh: RunLoopUdpSocket and QueueUdpSocket beside the C echoes and SwiftNIO, about four
# minutes). UDP=0 skips it.
if [[ ${UDP:-1} == 1 ]]; then
    echo "== datagram echo (udp-echo.sh) =="
    UDP_OUT=$BENCH_OUT/udp-echo.md
    REPEATS=3 DUR=2 "$HERE/scripts/udp-echo.sh" >"$UDP_OUT"
    {
        echo
        echo "## Datagram echo"
        echo
        echo "\`udp-echo.sh\` (server on CPU 0, \`loadgen -t udp\` on CPU 1, 4 datagrams in flight per peer, medians of"
        echo "three runs; what each column is: \`Benchmarks/UDP.md\`)."
        echo
        grep '^|' "$UDP_OUT"
    } >>"$OUT"
fi
echo "wrote $OUT (raw: $RAW)"
