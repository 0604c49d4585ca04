import FuzzTargets

/// libFuzzer's entry point for `FuzzTarget.tlsSettings`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTarget.tlsSettings.fuzz(start, count)
}
