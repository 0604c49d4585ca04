#!/usr/bin/env python3
"""Turn one run-peers.sh raw file into a Markdown report with ratios of our servers to libevent-C
(libev-ev), SwiftNIO (nio) and the Dispatch stand-in (dispatch), and the speed targets.

    ratios.py RAW COMMAND [PEER_RESULTS_MD] > RESULTS.md
"""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Peers"))
from rawfile import read_raw  # noqa: E402 (Benchmarks/Peers/rawfile.py, shared with summarize.py)

raw, command = sys.argv[1], sys.argv[2]
peer_md = sys.argv[3] if len(sys.argv) > 3 else None
values, servers, failures = read_raw(raw)  # values: (label, metric, server) -> [values]

THROUGHPUT = [
    ("bulk_c1", "MiB_s", "bulk 1 conn, MiB/s"),
    ("bulk_c4", "MiB_s", "bulk 4 conns, MiB/s"),
    ("pp_c1", "rtt_s", "ping-pong 1 conn (cross-core), rt/s"),
    ("pp_c50", "rtt_s", "ping-pong 50 conns (cross-core), rt/s"),
    ("pp_c1_same", "rtt_s", "ping-pong 1 conn, same core, rt/s"),
    ("pp_c50_same", "rtt_s", "ping-pong 50 conns, same core, rt/s"),
    ("lines", "lines_s", "lines 1 M x 32 B, lines/s"),
    ("accept", "conns_s", "accept (connect+close), conns/s"),
    ("accept_echo", "conns_s", "accept+echo, conns/s"),
]
LATENCY = [
    ("pp_c1_same", "p50_us", "ping-pong 1 conn same core, p50 µs"),
    ("pp_c1_same", "p99_us", "ping-pong 1 conn same core, p99 µs"),
    ("pp_c50_same", "p50_us", "ping-pong 50 conns same core, p50 µs"),
]
OURS = [s for s in ("runloop", "runloop-qc", "queue", "async") if s in servers]
PEERS = [s for s in servers if s not in OURS]


def median(label, metric, server):
    vals = values.get((label, metric, server))
    return statistics.median(vals) if vals else None


def fmt(v):
    if v is None:
        return "–"
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def cell(label, metric, server):
    vals = values.get((label, metric, server))
    if not vals:
        return "–"
    if len(vals) == 1:
        return f"**{fmt(vals[0])}**"
    return f"**{fmt(statistics.median(vals))}** ({fmt(min(vals))}–{fmt(max(vals))})"


def ratio(label, metric, a, b):
    x, y = median(label, metric, a), median(label, metric, b)
    if x is None or y is None or y == 0:
        return "–"
    return f"{x / y:.2f}×"


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception as error:  # noqa: BLE001
        return f"n/a ({error})"


reps = max((len(v) for v in values.values()), default=0)
print("# AsyncSocketKit echo servers next to the peers\n")
print(f"One run of `Peers/run-peers.sh` through `Benchmarks/run-all.sh`, {reps} repeat(s) per cell, interleaved; "
      f"raw file `{raw}`. Every number below comes from this one run: compare only within it.\n")
print(f"Command: `{command}`\n")
cpu_model = sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
print(f"Machine: {sh('nproc')} CPUs, {cpu_model}, "
      f"{sh('swift --version 2>&1 | head -1')}, load before the run: {sh('cat /proc/loadavg')}.\n")
print("Servers: **runloop** = `RunLoopSocket` (native engine), **runloop-qc** = `RunLoopSocket` on the queue "
      "core, **queue** = `QueueSocket`, **async** = `AsyncSocketConnection` (one task per connection, on its "
      "executor); peers as in `Benchmarks/Peers/run-peers.sh`.\n")

print("## Throughput: median (min–max)\n")
print("| test | " + " | ".join(servers) + " |")
print("|---|" + "---|" * len(servers))
for label, metric, title in THROUGHPUT + LATENCY:
    print(f"| {title} | " + " | ".join(cell(label, metric, s) for s in servers) + " |")

print("\n## Ratios of medians (higher is better)\n")
columns = []
for ours in OURS:
    # The async face is compared with its own two peers: SwiftNIO's async face and QueueSocket.
    peers = ("nio-async", "queue") if ours == "async" else ("libev-ev", "nio", "dispatch")
    for peer in peers:
        if peer in servers and not (ours not in ("queue", "async") and peer == "dispatch"):
            columns.append((ours, peer))
print("| test | " + " | ".join(f"{o} / {p}" for o, p in columns) + " |")
print("|---|" + "---|" * len(columns))
for label, metric, title in THROUGHPUT:
    print(f"| {title} | " + " | ".join(ratio(label, metric, o, p) for o, p in columns) + " |")

# The speed targets: per row, each server against the peer it must reach (`ours`, `peer`, row, metric,
# the least ratio). The queue core is held to half the native engine on every row, and to more where
# a row asks for it.
SAME_CORE = [("pp_c1_same", "rtt_s"), ("pp_c50_same", "rtt_s")]
BULK = [("bulk_c1", "MiB_s"), ("bulk_c4", "MiB_s")]
TARGETS = (
    [("runloop", "nio", "lines", "lines_s", 1.0), ("queue", "nio", "lines", "lines_s", 1.0)]
    + [("runloop", "libev-ev", label, metric, 0.9) for label, metric in BULK]
    + [("runloop-qc", "runloop", label, metric, 0.7) for label, metric in BULK]
    + [("queue", "dispatch", label, metric, 1.0) for label, metric in BULK]
    + [("runloop", "libev-ev", label, metric, 0.85) for label, metric in SAME_CORE]
    + [("queue", "dispatch", label, metric, 1.0) for label, metric in SAME_CORE]
    + [("queue", "nio", label, metric, 0.8) for label, metric in SAME_CORE]
    + [("runloop", "libev-ev", "accept_echo", "conns_s", 0.9), ("queue", "dispatch", "accept_echo", "conns_s", 1.0)]
    + [("runloop-qc", "runloop", label, metric, 0.5) for label, metric, _ in THROUGHPUT if label not in ("bulk_c1", "bulk_c4")]
    + [("async", peer, label, metric, 0.8) for peer in ("queue", "nio-async")
       for label, metric in [("lines", "lines_s"), ("pp_c1", "rtt_s"), ("pp_c50", "rtt_s"), ("bulk_c1", "MiB_s")]]
)
print("\n## Speed targets\n")
print("| target | ratio | met |")
print("|---|---|---|")
for ours, peer, label, metric, goal in TARGETS:
    if ours not in servers or peer not in servers:
        continue
    x, y = median(label, metric, ours), median(label, metric, peer)
    if x is None or y is None:
        continue
    print(f"| {ours} {label} ≥ {goal}× {peer} | {x / y:.2f}× | {'yes' if x / y >= goal else 'no'} |")

print("\n## Server CPU (% of one core) and host steal (%): median\n")
print("| test | " + " | ".join(servers) + " |")
print("|---|" + "---|" * len(servers))
for label, _, _ in THROUGHPUT:
    cells = [f"{fmt(median(label, 'server_cpu_pct', s))} / {fmt(median(label, 'steal_pct', s))}" for s in servers]
    print(f"| {label} | " + " | ".join(cells) + " |")
if failures:
    print("\n## Failures\n")
    for failure in failures:
        print(f"- `{failure}`")
