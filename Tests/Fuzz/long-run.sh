#!/usr/bin/env bash
# The long fuzz run: each target mutates from the committed corpus for SECONDS (default 600), two
# at a time, new inputs going to a scratch corpus (the committed one is not touched). Prints each
# target's executions, coverage and time; a crash stops with libFuzzer's report and the input.
#
#   Tests/Fuzz/long-run.sh                 # 3 targets x 600 s
#   SECONDS_PER_TARGET=1200 Tests/Fuzz/long-run.sh
set -euo pipefail
cd "$(dirname "$0")"
per_target=${SECONDS_PER_TARGET:-600}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
source ./build.sh

run() {
  local corpus=$1 target=$2
  mkdir -p "$scratch/$corpus"
  if "$bin/$target" -max_total_time="$per_target" -print_final_stats=1 -artifact_prefix="$scratch/" \
    "$scratch/$corpus" "Corpus/$corpus" >"$scratch/$target.log" 2>&1; then
    local runs
    runs=$(grep -E "stat::number_of_executed_units" "$scratch/$target.log" | awk '{print $2}')
    echo "$target: $runs executions in $per_target s, $(grep -E "^#[0-9]+.*(DONE|pulse)" "$scratch/$target.log" | tail -n 1 | grep -oE "cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+"), no crash"
  else
    tail -n 60 "$scratch/$target.log"
    ls "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* 2>/dev/null || true
    echo "$target FAILED" >&2
    return 1
  fi
}

started=$(date +%s)
run engine FuzzEngine &
engine=$!
run tls-settings FuzzTLSSettings
run tls-engine FuzzTLSEngine
wait "$engine"
echo "fuzzing took $(($(date +%s) - started)) s of wall time, $((3 * per_target)) s of fuzzing"
