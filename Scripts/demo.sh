#!/usr/bin/env bash
# Installs what is missing, then runs the main demo (`asyncsocket demo`), which ends by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build --product asyncsocket 2>&1 | grep -E "error|warning:" >&2 || true
exec swift run --skip-build asyncsocket demo "$@"
