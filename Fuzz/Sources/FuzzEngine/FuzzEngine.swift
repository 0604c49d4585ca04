import FuzzTargets

/// libFuzzer's entry point: one engine case against the reference model; a disagreement is a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    if let problem = EngineFuzzCase(UnsafeRawBufferPointer(start: start, count: count)).run() {
        fatalError(problem)
    }
    return 0
}
