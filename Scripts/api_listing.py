#!/usr/bin/env python3
"""The public API of the package's library modules, one line per symbol, from the symbol graphs that
`swift package dump-symbol-graph --minimum-access-level public` writes.

    Scripts/api_listing.py SYMBOLGRAPH_DIR OUT_DIR MODULE...

Writes OUT_DIR/MODULE.txt for each MODULE: every public symbol of the module (its extensions of other
modules' types included) as `kind path: declaration`, sorted. Scripts/api-check.sh compares these files
with the committed baseline in api/.
"""
import json
import pathlib
import sys


def symbol_lines(graph_file):
    graph = json.loads(graph_file.read_text())
    for symbol in graph.get("symbols", []):
        kind = symbol["kind"]["identifier"].removeprefix("swift.")
        path = ".".join(symbol["pathComponents"])
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        yield f"{kind} {path}: {' '.join(declaration.split())}"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    graphs = pathlib.Path(sys.argv[1])
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for module in sys.argv[3:]:
        files = [graphs / f"{module}.symbols.json", *sorted(graphs.glob(f"{module}@*.symbols.json"))]
        missing = [f for f in files[:1] if not f.exists()]
        if missing:
            sys.exit(f"no symbol graph for {module} in {graphs}")
        lines = sorted({line for f in files for line in symbol_lines(f)})
        (out / f"{module}.txt").write_text("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main()
