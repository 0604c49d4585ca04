# Sourced by replay.sh and long-run.sh (from Tests/Fuzz): builds the fuzz targets with libFuzzer and
# AddressSanitizer, sets `bin` to their folder and exports what the targets need to run.

flags=(--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
# The main package declares its FuzzTargets product only when asked (it is not a public product).
export ASYNCSOCKETKIT_FUZZ_TARGETS=1
# gold warns about every ASan helper symbol it cannot export; those lines say nothing.
swift build "${flags[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; }
bin=$(swift build "${flags[@]}" --show-bin-path)

# Swift's crash backtracer reads the stack in a way AddressSanitizer reports as an error of its own;
# lsan.supp names what LeakSanitizer takes for leaked but is reachable.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=suppressions=$PWD/lsan.supp
