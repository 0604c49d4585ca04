# Sourced by the scripts that measure one of our servers under `perf` (accept-cost.sh,
# runtime-calls.sh): the load generator, built on first use, and the wait for the server's port.

# Sets LOADGEN to a build of Benchmarks/Peers/c/loadgen.c in $TMPDIR (kept between runs) unless given.
prepare_loadgen() {
    local here source
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    LOADGEN=${LOADGEN:-${TMPDIR:-/tmp}/asyncsocket-loadgen}
    if [[ ! -x $LOADGEN ]]; then
        source=$here/../Peers/c/loadgen.c
        gcc -O2 "$source" -o "$LOADGEN"
    fi
}

# Waits (at most 5 s) until something listens on 127.0.0.1:$1.
wait_for_port() {
    for _ in $(seq 1 50); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
