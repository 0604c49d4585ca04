import Glibc

// A sanitizer build runs every instruction several times slower and, on this project's two-core CI,
// runs the whole suite beside it; a bound on how long a program takes to finish is about a hang, not
// speed (speed is the benchmarks'), so it stretches under a sanitizer and stays as written otherwise.

/// Whether this process runs under AddressSanitizer or ThreadSanitizer.
package let runsUnderSanitizer = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil

/// How long something that takes `seconds` in a plain build may take in this one: `seconds`, or
/// four times that under a sanitizer.
package func wallClockBound(_ seconds: Double) -> Double {
    runsUnderSanitizer ? seconds * 4 : seconds
}
