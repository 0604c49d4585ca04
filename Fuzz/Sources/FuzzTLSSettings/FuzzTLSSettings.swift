import FuzzTargets

/// libFuzzer's entry point: one legacy TLS settings dictionary, parsed and used; a problem is a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSSettings(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let problem = TLSSettingsFuzzCase(UnsafeRawBufferPointer(start: start, count: count)).run() {
        fatalError(problem)
    }
    return 0
}
