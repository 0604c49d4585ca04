#!/usr/bin/env python3
"""Turn the Markdown output of `swift package benchmark --target Allocations --format markdown` (stdin)
into one table: mallocs per operation (median of the samples) for each server, with the native engine's budget."""
import re
import sys

text = sys.stdin.read()
cells = {}  # (workload, server) -> mallocs per operation
for name, body in re.findall(r"^### (.+?)\n(.*?)(?=^### |\Z)", text, re.S | re.M):
    workload, _, server = name.rpartition(": ")
    # The datagram rows name the UDP classes; each goes in the column of its TCP counterpart.
    server = {"RunLoopUdpSocket, native engine": "RunLoopSocket, native engine",
              "RunLoopUdpSocket, queue-core engine": "RunLoopSocket, queue core",
              "QueueUdpSocket": "QueueSocket"}.get(server, server)
    row = re.search(r"^\| Malloc \(total\) \*?\s*\|(.*)$", body, re.M)
    if row:
        columns = [c.strip() for c in row.group(1).split("|")]
        cells[(workload, server)] = columns[2]  # p0, p25, p50, ...

servers = ["RunLoopSocket, native engine", "RunLoopSocket, queue core", "QueueSocket"]
budget = {"lines (32 B, read to LF, write back)": "3 (the line's `Data`, two, plus one)",
          "ping-pong (64 B)": "2",
          "bulk (64 KiB there and back)": "—",
          "accept+echo (connect, 1 B there and back, close)": "—",
          "datagram echo (64 B)": "2 (the datagram's `Data`; the UDP classes: RunLoopUdpSocket, QueueUdpSocket)"}
print("| workload | " + " | ".join(servers) + " | native engine's budget |")
print("|---|" + "---|" * (len(servers) + 1))
for workload in budget:
    print(f"| {workload} | " + " | ".join(cells.get((workload, s), "—") for s in servers) + f" | {budget[workload]} |")
if not cells:
    sys.exit("no Malloc rows found in the benchmark output")
