#!/usr/bin/env bash
# Resident memory of idle connections in our echo servers: the server's RSS before and after N
# clients (another process, 127.0.0.1 only) connect to its line port, where every connection has a
# read to "\n" queued and nothing arrives. Writes a Markdown table to IDLE-MEMORY.md (or $OUT).
#
#   Benchmarks/idle-memory.sh              # N=10000, servers runloop, runloop-qc, queue
#   N=2000 SERVERS="runloop queue" Benchmarks/idle-memory.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
N=${N:-10000}
SERVERS=${SERVERS:-runloop runloop-qc queue}
OUT=${OUT:-$HERE/IDLE-MEMORY.md}
(cd "$HERE" && swift build -c release --product RunLoopEchoServer 2>&1 | tail -1)
(cd "$HERE" && swift build -c release --product QueueEchoServer 2>&1 | tail -1)
BIN=$(cd "$HERE" && swift build -c release --show-bin-path)
ulimit -n 20000
rss_kib() { awk '/^VmRSS:/{print $2}' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }

rows=()
port=$((31000 + RANDOM % 1000 * 2))
for name in $SERVERS; do
  case $name in
    runloop) cmd=("$BIN/RunLoopEchoServer" "$port") target=1.6 ;;
    runloop-qc) cmd=("$BIN/RunLoopEchoServer" "$port" --engine queue-core) target=3.0 ;;
    queue) cmd=("$BIN/QueueEchoServer" "$port") target=2.5 ;;
    *) echo "unknown server $name" >&2; exit 2 ;;
  esac
  "${cmd[@]}" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$((port + 1))") 2>/dev/null && break; sleep 0.1; done
  sleep 0.5
  kill -0 "$server" 2>/dev/null || { echo "$name did not start on ports $port/$((port + 1)) (in use?)" >&2; exit 1; }
  before=$(rss_kib "$server"); fds_before=$(fds "$server")
  coproc CLIENTS { python3 "$HERE/scripts/idle_clients.py" "$((port + 1))" "$N" 120; }
  read -r -t 90 _ connected <&"${CLIENTS[0]}" || connected=0
  # Wait (at most 30 s) until the server holds a descriptor for every connection, then let it settle.
  for _ in $(seq 1 300); do (( $(fds "$server") - fds_before >= connected )) && break; sleep 0.1; done
  sleep 1
  after=$(rss_kib "$server"); held=$(( $(fds "$server") - fds_before ))
  per=$(awk -v a="$after" -v b="$before" -v n="$connected" 'BEGIN{printf "%.2f", (a-b)/n}')
  rows+=("| $name | $connected | $held | $before | $after | **$per** | ≤ $target: $(awk -v p="$per" -v t="$target" 'BEGIN{print (p <= t) ? "yes" : "no"}') |")
  echo "$name: $connected connections, RSS $before -> $after KiB, $per KiB each"
  eval "exec ${CLIENTS[1]}>&-"; wait "$CLIENTS_PID" 2>/dev/null || true
  kill "$server"; wait "$server" 2>/dev/null || true
  port=$((port + 2))
done
{
  echo "# Idle connections: server resident memory"
  echo
  echo "\`Benchmarks/idle-memory.sh\` (N=$N), $(date -u +%Y-%m-%dT%H:%MZ). Each server is one of our echo servers; the"
  echo "clients (one Python process) connect to its line port, so every connection has a read to \"\\n\" queued and"
  echo "nothing arrives. RSS is VmRSS from /proc before the first connection and 1 s after the last one was accepted."
  echo "Targets: Benchmarks/README.md, idle-memory.sh."
  echo
  echo "| server | connections | server descriptors added | RSS before, KiB | RSS after, KiB | KiB per connection | target (KiB): met |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$OUT"
echo "wrote $OUT"
