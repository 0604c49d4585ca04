import Logging

// How a listener reports a failed `accept` (the listener pauses 0.1 s either way, ListenerDriver.swift):
// out of descriptors or memory is a condition the program should know of (a warning each time it
// happens, at most ten a second); any other failure means the listening socket itself is broken
// (shut down for reading, say), which the library cannot explain: an error the first time, then debug
// lines, so a broken listener does not flood the log.
enum AcceptFailure {
    /// The level and message for a failed accept with `code`; `reported` is the listener's flag.
    static func logLine(_ code: Int32, reported: inout Bool) -> (Logger.Level, Logger.Message) {
        let text = SystemError.errnoText(code)
        if SocketOps.isOutOfResources(code) {
            return (.warning, "accept failed: \(text); accepting pauses for 0.1 s")
        }
        defer { reported = true }
        return (reported ? .debug : .error, "accept failed unexpectedly: \(text); the listener retries every 0.1 s")
    }
}
