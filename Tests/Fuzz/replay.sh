#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, then replays the committed corpus:
# libFuzzer's -runs=0 runs every file of Corpus/<target> once, without mutating. A disagreement with
# the model, a crash, a sanitizer report or a leak fails the script. This is what CI calls.
set -euo pipefail
cd "$(dirname "$0")"
started=$(date +%s)
flags=(--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# gold warns about every ASan helper symbol it cannot export; those lines say nothing.
swift build "${flags[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; }
bin=$(swift build "${flags[@]}" --show-bin-path)

# Swift's crash backtracer reads the stack in a way AddressSanitizer reports as an error of its own;
# lsan.supp names what LeakSanitizer takes for leaked but is reachable.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=suppressions=$PWD/lsan.supp
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
