#!/usr/bin/env bash
# Datagram echo, side by side: RunLoopUdpSocket (RunLoopEchoServer's UDP port: "runloop" on the native
# engine, "runloop-qc" on the queue-core engine) and QueueUdpSocket
# (QueueEchoServer's: "queue" with its own socket queue, "queue-targeted" with the socket queue targeting
# the delegate queue) next to a C echo with one
# recvfrom/sendto per datagram, a C echo with recvmmsg/sendmmsg (Benchmarks/Peers/c/echo_udp.c) and
# SwiftNIO's DatagramBootstrap echo (Benchmarks/Peers/swift-nio-echo, built into BENCH_OUT as
# Peers/run-peers.sh builds it; a few minutes the first time).
# Rows: 64-byte and 1400-byte datagrams, 1 and 16 peer sockets, each keeping 4 datagrams in flight
# (`loadgen -t udp`). Per row: datagrams echoed per second, MB/s, datagrams lost (no echo within
# 200 ms), the kernel's UDP receive-buffer drops (/proc/net/snmp RcvbufErrors), server CPU and system
# calls per echoed datagram (perf stat on the server). Medians of REPEATS interleaved runs.
#
#   Benchmarks/scripts/udp-echo.sh                  # REPEATS=3, 2 s a row; writes stdout
#   REPEATS=5 DUR=3 Benchmarks/scripts/udp-echo.sh
#   UDP_SERVERS="c-recvfrom queue" Benchmarks/scripts/udp-echo.sh   # a subset of the servers
#
# Server on CPU 0, load generator on CPU 1; 127.0.0.1 only; every run bounded by `timeout`.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
REPEATS=${REPEATS:-3}
DUR=${DUR:-2}
OUT_DIR=${BENCH_OUT:-/tmp/asyncsocket-bench}/udp
mkdir -p "$OUT_DIR"
gcc -O2 -o "$OUT_DIR/loadgen" "$HERE/Peers/c/loadgen.c"
gcc -O2 -o "$OUT_DIR/echo_udp" "$HERE/Peers/c/echo_udp.c"
(cd "$HERE" && swift build -c release --product RunLoopEchoServer 2>&1 | tail -1)
(cd "$HERE" && swift build -c release --product QueueEchoServer 2>&1 | tail -1)
NIO_DIR=${BENCH_OUT:-/tmp/asyncsocket-bench}/swift-nio-echo
if [[ " ${UDP_SERVERS:-nio} " == *" nio "* ]]; then
    rm -rf "$NIO_DIR/Sources"
    mkdir -p "$NIO_DIR"
    cp -r "$HERE/Peers/swift-nio-echo/." "$NIO_DIR/"
    (cd "$NIO_DIR" && swift build -c release 2>&1 | tail -1)
fi
BIN=$(cd "$HERE" && swift build -c release --show-bin-path)
declare -A CMD=(
    [c-recvfrom]="$OUT_DIR/echo_udp"
    [c-mmsg]="$OUT_DIR/echo_udp --mmsg"
    [nio]="$NIO_DIR/.build/release/NIOEchoServer"
    [runloop]="$BIN/RunLoopEchoServer"
    [runloop-qc]="$BIN/RunLoopEchoServer --engine queue-core"
    [queue]="$BIN/QueueEchoServer"
    [queue-targeted]="$BIN/QueueEchoServer --udp-queue-targets-delegate-queue"
)
read -r -a SERVERS <<<"${UDP_SERVERS:-c-recvfrom c-mmsg nio runloop runloop-qc queue queue-targeted}"
ROWS=("64 1" "64 16" "1400 1" "1400 16")
RAW=$OUT_DIR/raw.txt
: >"$RAW"
rcvbuf_errors() { awk '/^Udp:/{if(!h){for(i=1;i<=NF;i++)if($i=="RcvbufErrors")c=i;h=1}else print $c}' /proc/net/snmp; }
port=$((27000 + RANDOM % 1000 * 2))
for rep in $(seq 1 "$REPEATS"); do
    for server in "${SERVERS[@]}"; do
        port=$((port + 2))
        # shellcheck disable=SC2086
        set -- ${CMD[$server]}
        program=$1
        shift
        taskset -c 0 "$program" "$port" "$@" >/dev/null 2>&1 &
        pid=$!
        # The server is up once an echo comes back.
        for _ in $(seq 1 50); do
            timeout 5 taskset -c 1 "$OUT_DIR/loadgen" -p "$port" -t udp -c 1 -m 64 -d 0.05 -T 4 >/dev/null 2>&1 && break
            sleep 0.1
        done
        for row in "${ROWS[@]}"; do
            read -r size peers <<<"$row"
            drops0=$(rcvbuf_errors)
            stats=$(mktemp)
            perf stat -x, -e task-clock,raw_syscalls:sys_enter -p "$pid" -o "$stats" -- sleep "$(echo "$DUR + 0.4" | bc)" &
            perf_pid=$!
            result=$(timeout 60 taskset -c 1 "$OUT_DIR/loadgen" -p "$port" -t udp -c "$peers" -m "$size" -d "$DUR" -T 50)
            wait "$perf_pid" || true
            drops=$(($(rcvbuf_errors) - drops0))
            clock=$(awk -F, '/task-clock/{print $1}' "$stats")
            syscalls=$(awk -F, '/raw_syscalls/{print $1}' "$stats")
            rm -f "$stats"
            echo "server=$server rep=$rep size=$size peers=$peers ${result#RESULT } drops=$drops task_ms=$clock syscalls=$syscalls" | tee -a "$RAW" >&2
        done
        kill "$pid"
        wait "$pid" 2>/dev/null || true
    done
done
python3 - "$RAW" "$DUR" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    fields = dict(re.findall(r"(\w+)=([^\s]+)", line))
    rows.setdefault((fields["server"], int(fields["size"]), int(fields["peers"])), []).append(fields)
servers = ["c-recvfrom", "c-mmsg", "nio", "runloop", "runloop-qc", "queue", "queue-targeted"]
# Ratios against SwiftNIO (the issue's targets: runloop >= 0.9x, queue >= 0.8x), the C echoes' included.
ours = ["c-recvfrom", "c-mmsg", "runloop", "runloop-qc", "queue", "queue-targeted"]
print("| datagram, peers | " + " | ".join(servers) + "".join(f" | {name} / nio" for name in ours) + " |")
print("|---|" + "---|" * (len(servers) + len(ours)))
for size, peers in [(64, 1), (64, 16), (1400, 1), (1400, 16)]:
    cells, rates = [], {}
    for server in servers:
        runs = rows.get((server, size, peers), [])
        if not runs:
            cells.append("—")
            continue
        rate = statistics.median(float(r["dgram_s"]) for r in runs)
        rates[server] = rate
        mbs = statistics.median(float(r["MB_s"]) for r in runs)
        lost = sum(int(r["lost"]) for r in runs)
        drops = sum(int(r["drops"]) for r in runs)
        echoes = [int(r["total"]) for r in runs]
        calls = statistics.median(
            float(r["syscalls"]) / max(e, 1) for r, e in zip(runs, echoes) if r["syscalls"] not in ("", "<not"))
        cpu = statistics.median(float(r["task_ms"]) / 10 / (float(sys.argv[2]) + 0.4) for r in runs)
        cells.append(f"{rate:,.0f}/s, {mbs:.1f} MB/s, lost {lost}, drops {drops}, {calls:.2f} syscalls, CPU {cpu:.0f} %")
    ratios = [rates.get(name, 0) / rates["nio"] if rates.get("nio") else 0 for name in ours]
    print(f"| {size} B, {peers} | " + " | ".join(cells) + "".join(f" | {ratio:.2f}×" for ratio in ratios) + " |")
PY
