#!/usr/bin/env python3
"""The public API of the package's library modules, one line per symbol, from the symbol graphs that
`swift package dump-symbol-graph --minimum-access-level public` writes.

    Scripts/api_listing.py SYMBOLGRAPH_DIR OUT_DIR MODULE...

Writes OUT_DIR/MODULE.txt for each MODULE: every public symbol of the module (its extensions of other
modules' types included) as `kind path: declaration`, sorted. Scripts/api-check.sh compares these files
with the committed baseline in api/. Fails, naming them, when a public symbol written in the source has
no documentation comment (the compiler's own, such as a synthesized `hash(into:)`, have no source
location and inherit the protocol's documentation).
"""
import json
import pathlib
import sys


def undocumented(graph_file):
    graph = json.loads(graph_file.read_text())
    for symbol in graph.get("symbols", []):
        if "location" in symbol and not symbol.get("docComment"):
            yield ".".join(symbol["pathComponents"]) + f" ({symbol['location']['uri'].rsplit('/', 1)[-1]})"


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
    bare = []
    for module in sys.argv[3:]:
        files = [graphs / f"{module}.symbols.json", *sorted(graphs.glob(f"{module}@*.symbols.json"))]
        missing = [f for f in files[:1] if not f.exists()]
        if missing:
            sys.exit(f"no symbol graph for {module} in {graphs}")
        lines = sorted({line for f in files for line in symbol_lines(f)})
        (out / f"{module}.txt").write_text("".join(line + "\n" for line in lines))
        bare += [f"{module}: {name}" for f in files for name in undocumented(f)]
    if bare:
        sys.exit("public symbols without a documentation comment:\n  " + "\n  ".join(sorted(bare)))


if __name__ == "__main__":
    main()
