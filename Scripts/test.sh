#!/usr/bin/env bash
# Installs what is missing, then runs the whole test suite (extra arguments go to `swift test`).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
exec swift test "$@"
