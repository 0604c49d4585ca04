import FuzzTargets

/// libFuzzer's entry point for `FuzzTarget.engine`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTarget.engine.fuzz(start, count)
}
