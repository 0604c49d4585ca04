#!/usr/bin/env bash
# Loopback echo benchmark: the peer servers and the servers under test, measured side by side in one run.
# Benchmarks/run-all.sh calls this with our three servers; it can also be run alone:
#
#   Benchmarks/Peers/run-peers.sh                                      # the peers, 3 repeats
#   SUT="mine=.build/release/MyEchoServer" Benchmarks/Peers/run-peers.sh
#   SERVERS="libev-ev nio mine" SUT="mine=/abs/path/server" REPEATS=1 Benchmarks/Peers/run-peers.sh
#
# Every server takes one argument, PORT, and listens on 127.0.0.1:PORT (raw echo: write back every byte)
# and 127.0.0.1:PORT+1 (line echo: frame on '\n', write back each line). SUT may name several servers,
# separated by spaces ("a=cmd1 b=cmd2"); a command path relative to where you started is made absolute.
#
# Peers (sources beside this script):
#   epoll     c/echo_epoll.c         raw level-triggered epoll, 1 thread (the practical limit)
#   libev-ev  c/echo_libevent_ev.c   one event_base, plain EV_READ|EV_PERSIST events + own buffers, 1 thread
#   libev-bev c/echo_libevent.c      one event_base, bufferevents (evbuffer_readln for lines), 1 thread
#   nio       swift-nio-echo         SwiftNIO 2.101.x, MultiThreadedEventLoopGroup(1); lines split by a handler
#   nio-async swift-nio-echo         SwiftNIO's NIOAsyncChannel, one task per connection (the async face's peer)
#   dispatch  swift-dispatch-echo    per-connection serial queue + read/write DispatchSources
# The C peers echo bytes without splitting lines; SwiftNIO splits them as our servers do.
# One client for all: c/loadgen.c (single thread, epoll). Every client run is bounded by `timeout` and by
# loadgen's own -T limit; only 127.0.0.1 is used. Builds and results go to BENCH_OUT (default
# /tmp/asyncsocket-bench), never into the repository. Needs gcc, pkg-config, libevent-dev; the SwiftNIO
# peer takes about two minutes to build the first time. Each result line records the server's CPU, the
# machine's steal time and the kernel's listen-queue overflows (SYNs dropped) during that row.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
START_DIR=$(pwd)
export BENCH_OUT=${BENCH_OUT:-/tmp/asyncsocket-bench}
mkdir -p "$BENCH_OUT"
rm -rf "$BENCH_OUT"/c "$BENCH_OUT"/swift-dispatch-echo/Sources "$BENCH_OUT"/swift-nio-echo/Sources
cp -r "$HERE"/c "$HERE"/swift-nio-echo "$HERE"/swift-dispatch-echo "$HERE"/summarize.py "$HERE"/rawfile.py "$BENCH_OUT"/
cd "$BENCH_OUT"
REPEATS=${REPEATS:-3}
# PIN=1 (default): server on CPU 0, client on CPU 1 (taskset). PIN=0: let the scheduler place them.
PIN=${PIN:-1}
if [[ $PIN == 1 ]]; then SPIN="taskset -c 0"; CPIN="taskset -c 1"; else SPIN=""; CPIN=""; fi
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p results
RAW=results/raw-$STAMP.txt
LOG=results/servers-$STAMP.log
: > "$RAW"
: > "$LOG"

echo "== build =="
gcc -O2 -Wall -Wextra -o c/echo_libevent c/echo_libevent.c $(pkg-config --cflags --libs libevent)
gcc -O2 -Wall -Wextra -o c/echo_libevent_ev c/echo_libevent_ev.c $(pkg-config --cflags --libs libevent)
gcc -O2 -Wall -Wextra -o c/echo_epoll c/echo_epoll.c
gcc -O2 -Wall -Wextra -o c/loadgen c/loadgen.c
if [[ " ${SERVERS[*]:-epoll libev-ev libev-bev nio dispatch} " == *" nio"[\ -]* ]]; then (cd swift-nio-echo && swift build -c release 2>&1 | tail -1); fi
(cd swift-dispatch-echo && swift build -c release 2>&1 | tail -1)

LG=c/loadgen
CLK=$(getconf CLK_TCK)
declare -A CMD=(
  [epoll]="c/echo_epoll"
  [libev-ev]="c/echo_libevent_ev"
  [libev-bev]="c/echo_libevent"
  [nio]="swift-nio-echo/.build/release/NIOEchoServer"
  [nio-async]="swift-nio-echo/.build/release/NIOAsyncEchoServer"
  [dispatch]="swift-dispatch-echo/.build/release/DispatchEchoServer"
)
declare -A EXTRA=([nio]="1")
for entry in ${SUT:-}; do
  name=${entry%%=*}; cmd=${entry#*=}
  [[ $cmd == /* ]] || cmd="$START_DIR/$cmd"
  [[ -x $cmd ]] || { echo "SUT $name: $cmd is not an executable" >&2; exit 2; }
  CMD[$name]=$cmd
done
if [[ -n ${SERVERS:-} ]]; then read -r -a SERVERS <<<"$SERVERS"
else SERVERS=(epoll libev-ev libev-bev nio dispatch); for entry in ${SUT:-}; do SERVERS+=("${entry%%=*}"); done; fi
for s in "${SERVERS[@]}"; do [[ -n ${CMD[$s]:-} ]] || { echo "unknown server $s" >&2; exit 2; }; done

# label | client CPU ("" = default: CPU 1 when pinned; "same" = CPU 0, the server's core) | loadgen args
# (port is added; the lines test goes to PORT+1)
TESTS=(
  "bulk_c1||-t bulk -c 1 -s 67108864 -T 30"
  "bulk_c4||-t bulk -c 4 -s 67108864 -T 40"
  "pp_c1||-t pingpong -c 1 -m 64 -d 2 -T 20"
  "pp_c50||-t pingpong -c 50 -m 64 -d 2 -T 20"
  "pp_c1_same|same|-t pingpong -c 1 -m 64 -d 2 -T 20"
  "pp_c50_same|same|-t pingpong -c 50 -m 64 -d 2 -T 20"
  "lines||-t lines -n 1000000 -l 32 -T 40"
  "accept||-t accept -n 20000 -T 40"
  "accept_echo||-t accept_echo -n 20000 -T 40"
)

cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
steal_ticks() { awk '/^cpu /{print $9}' /proc/stat; }
listen_overflows() { awk '/^TcpExt:/{if(!h){for(i=1;i<=NF;i++)if($i=="ListenOverflows")c=i;h=1}else print $c}' /proc/net/netstat; }
NCPU=$(nproc)
now_ns() { date +%s%N; }

start_server() { # name port -> sets SPID
  local name=$1 port=$2
  $SPIN ${CMD[$name]} "$port" ${EXTRA[$name]:-} >>"$LOG" 2>&1 &
  SPID=$!
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$((port+1))") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "server $name did not come up" >&2; kill "$SPID" 2>/dev/null || true; return 1
}
stop_server() { kill -TERM "$SPID" 2>/dev/null || true; for _ in $(seq 1 30); do kill -0 "$SPID" 2>/dev/null || break; sleep 0.1; done; kill -KILL "$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; }

echo "== run: $REPEATS repeats x ${#SERVERS[@]} servers x ${#TESTS[@]} tests =="
T0=$(date +%s)
for rep in $(seq 1 "$REPEATS"); do
  si=0
  for s in "${SERVERS[@]}"; do
    port=$((20000 + si * 100 + rep * 10)); si=$((si + 1))
    start_server "$s" "$port"
    for t in "${TESTS[@]}"; do
      IFS='|' read -r label where args <<<"$t"
      p=$port; [[ $label == lines ]] && p=$((port + 1))
      cpin=$CPIN; [[ $where == same && $PIN == 1 ]] && cpin="taskset -c 0"
      [[ $where == same && $PIN != 1 ]] && continue
      c0=$(cpu_ticks "$SPID"); st0=$(steal_ticks); lo0=$(listen_overflows); w0=$(now_ns)
      if out=$(timeout 60 $cpin "$LG" -p "$p" $args 2>&1); then
        c1=$(cpu_ticks "$SPID"); st1=$(steal_ticks); lo1=$(listen_overflows); w1=$(now_ns)
        cpu=$(awk -v c="$((c1 - c0))" -v w="$((w1 - w0))" -v k="$CLK" 'BEGIN{printf "%.0f", 100*c/k/(w/1e9)}')
        steal=$(awk -v c="$((st1 - st0))" -v w="$((w1 - w0))" -v k="$CLK" -v n="$NCPU" 'BEGIN{printf "%.1f", 100*c/k/(w/1e9)/n}')
        line=$(grep '^RESULT' <<<"$out")
        echo "server=$s rep=$rep label=$label ${line#RESULT } server_cpu_pct=$cpu steal_pct=$steal listen_overflows=$((lo1 - lo0)) pin=$PIN" | tee -a "$RAW"
      else
        echo "server=$s rep=$rep label=$label FAILED: $(tr '\n' ' ' <<<"$out")" | tee -a "$RAW"
      fi
      sleep 0.2
    done
    stop_server
  done
done
echo "== run took $(( $(date +%s) - T0 )) s =="

python3 summarize.py "$RAW" > RESULTS.md
cp "$RAW" results/raw-latest.txt
echo "wrote $BENCH_OUT/RESULTS.md from $BENCH_OUT/$RAW"
