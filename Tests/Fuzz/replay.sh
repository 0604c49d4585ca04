#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, then replays the committed corpus:
# libFuzzer's -runs=0 runs every file of Corpus/<target> once, without mutating. A disagreement with
# the model, a crash, a sanitizer report or a leak fails the script. This is what CI calls.
set -euo pipefail
cd "$(dirname "$0")"
started=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
source ./build.sh
for pair in engine:FuzzEngine tls-settings:FuzzTLSSettings tls-engine:FuzzTLSEngine; do
  corpus=${pair%%:*}
  target=${pair#*:}
  echo "== $target over Corpus/$corpus ($(find "Corpus/$corpus" -type f | wc -l) inputs) =="
  if ! "$bin/$target" -runs=0 "Corpus/$corpus" >"$log" 2>&1; then
    cat "$log"
    echo "$target failed on its corpus" >&2
    exit 1
  fi
  grep -E "INITED|DONE" "$log"
done
echo "replay took $(($(date +%s) - started)) s"
