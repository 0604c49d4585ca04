"""Reading a run-peers.sh raw file: one line per measurement, made of `key=value` pairs."""
import re
from collections import defaultdict


def read_raw(path):
    """Returns (values, servers, failures): values[(label, metric, server)] lists the numbers measured,
    servers names the servers in order of first appearance, failures holds the FAILED lines."""
    values = defaultdict(list)
    servers, failures = [], []
    for line in open(path):
        kv = dict(re.findall(r"(\w+)=(\S+)", line))
        if kv.get("server") and kv["server"] not in servers:
            servers.append(kv["server"])
        if "FAILED" in line:
            failures.append(line.strip())
            continue
        if "label" not in kv:
            continue
        for key, value in kv.items():
            try:
                values[(kv["label"], key, kv["server"])].append(float(value))
            except ValueError:
                pass
    return values, servers, failures
