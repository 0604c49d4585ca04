#!/usr/bin/env bash
# Builds the DocC documentation of the public libraries (AsyncSocketKit, MigrationTesting,
# AsyncSocketTesting, AsyncSocketServiceLifecycle) with swift-docc-plugin, warnings as errors: a broken symbol link or article
# reference fails it. The archives go to .build/docs/TARGET.doccarchive.
#
#   Scripts/docs.sh                  # all four (CI runs this)
#   Scripts/docs.sh AsyncSocketKit   # one
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
((${#targets[@]})) || targets=(AsyncSocketKit MigrationTesting AsyncSocketTesting AsyncSocketServiceLifecycle)
mkdir -p .build/docs
for target in "${targets[@]}"; do
  echo "-- $target"
  swift package --allow-writing-to-directory .build/docs generate-documentation --target "$target" \
    --warnings-as-errors --output-path ".build/docs/$target.doccarchive" 2>&1 |
    { grep -v "^\[[0-9]*/[0-9]*\]" || true; }
done
