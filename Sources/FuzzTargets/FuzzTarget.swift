/// The fuzz targets, named after their corpus folders (`Fuzz/Corpus/<name>`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// ``EngineFuzzCase``: operation sequences against the reference model.
    case engine
    /// ``TLSSettingsFuzzCase``: legacy TLS settings dictionaries.
    case tlsSettings = "tls-settings"
    /// ``TLSEngineFuzzCase``: garbage ciphertext into a TLS engine in either role.
    case tlsEngine = "tls-engine"

    /// Runs one input; returns a description of what went wrong, or `nil`.
    public func run(_ input: UnsafeRawBufferPointer) -> String? {
        switch self {
        case .engine: return EngineFuzzCase(input).run()
        case .tlsSettings: return TLSSettingsFuzzCase(input).run()
        case .tlsEngine: return TLSEngineFuzzCase(input).run()
        }
    }

    /// libFuzzer's `LLVMFuzzerTestOneInput`: runs one input and stops the process on a problem, so
    /// libFuzzer keeps the input as a crash.
    public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> Int32 {
        if let problem = run(UnsafeRawBufferPointer(start: start, count: count)) {
            fatalError(problem)
        }
        return 0
    }
}
