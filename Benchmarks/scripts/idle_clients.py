#!/usr/bin/env python3
"""Open N idle TCP connections to 127.0.0.1:PORT, print CONNECTED N, then hold them until stdin closes
(or HOLD seconds pass). Used by idle-memory.sh; bounded in count and time."""
import socket
import sys
import time

port, count = int(sys.argv[1]), int(sys.argv[2])
hold = float(sys.argv[3]) if len(sys.argv) > 3 else 120
deadline = time.monotonic() + 60
sockets = []
while len(sockets) < count and time.monotonic() < deadline:
    try:
        sockets.append(socket.create_connection(("127.0.0.1", port), timeout=5))
    except OSError as error:  # a full backlog: back off briefly
        print(f"connect failed after {len(sockets)}: {error}", file=sys.stderr)
        time.sleep(0.05)
print(f"CONNECTED {len(sockets)}", flush=True)
import select  # noqa: E402

select.select([sys.stdin], [], [], hold)
for sock in sockets:
    sock.close()
