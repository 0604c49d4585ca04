#!/usr/bin/env bash
# Installs what AsyncSocketKit needs from Debian when pkg-config cannot find it:
# libevent (core, extra, pthreads), OpenSSL 3 headers and the openssl command, pkg-config, and iproute2
# (`ip` and `tc`, which a fault test runs in a network namespace of its own).
# Idempotent and quiet when nothing is missing.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if command -v pkg-config >/dev/null 2>&1; then
  pkg-config --exists libevent libevent_pthreads libevent_core libevent_extra 2>/dev/null || missing+=(libevent-dev)
  pkg-config --atleast-version=3.0 openssl 2>/dev/null || missing+=(libssl-dev)
else
  missing+=(libevent-dev libssl-dev)
fi
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
{ command -v tc && command -v ip; } >/dev/null 2>&1 || missing+=(iproute2)

if ((${#missing[@]} == 0)); then exit 0; fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "setup: apt-get failed; install ${missing[*]} by hand" >&2
  exit 1
fi
