import FuzzTargets

/// libFuzzer's entry point for `FuzzTarget.tlsEngine`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTarget.tlsEngine.fuzz(start, count)
}
