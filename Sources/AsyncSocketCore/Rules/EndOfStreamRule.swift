// What the end of the peer's data means, for every face and engine: each one reports the facts it
// knows (a read waits, input remains, callbacks are still travelling to the delegate) and carries out
// the step this rule returns. The originals differ here (see Semantics.swift): the run-loop socket
// closes as soon as no read can use what is left, the GCD socket keeps read-ahead bytes for reads.

/// The facts the end-of-stream rule looks at.
package struct EndOfStreamFacts: Equatable, Sendable {
    /// A read is current (not a TLS marker).
    package var readWaiting: Bool
    /// Bytes the waiting read may still take: read ahead into the prebuffer, or (legacy) still in the
    /// transport, whose end was noticed without reading up to it.
    package var inputRemains: Bool
    /// Bytes read ahead and not yet taken by a read.
    package var prebuffered: Bool
    /// Callbacks sent to the delegate may not all have arrived (a face that delivers on another
    /// thread); any of them may queue reads the read-ahead bytes satisfy.
    package var callbacksInFlight: Bool
    /// GCD `autoDisconnectOnClosedReadStream`.
    package var autoDisconnect: Bool
    /// GCD: the closed read stream has been reported already.
    package var readStreamReported: Bool

    package init(
        readWaiting: Bool, inputRemains: Bool, prebuffered: Bool, callbacksInFlight: Bool = false,
        autoDisconnect: Bool = true, readStreamReported: Bool = false
    ) {
        self.readWaiting = readWaiting
        self.inputRemains = inputRemains
        self.prebuffered = prebuffered
        self.callbacksInFlight = callbacksInFlight
        self.autoDisconnect = autoDisconnect
        self.readStreamReported = readStreamReported
    }
}

/// What a face does about the end of the peer's data.
package enum EndOfStreamStep: Equatable, Sendable, CustomStringConvertible {
    /// Run the waiting read: it can still take bytes.
    case finishWaitingRead
    /// Close the socket: legacy with no error for a clean end (the bytes read ahead are its
    /// `unreadData`), GCD with `closed`.
    case close
    /// Close only once the delegate has seen the callbacks in flight (then ask again).
    case confirmAfterCallbacks
    /// GCD: read-ahead bytes wait for reads; stop watching the descriptor until one comes.
    case holdForReads
    /// GCD with auto-disconnect off: report the closed read stream (once) and keep writing.
    case reportReadStreamClosed
    /// GCD: the closed read stream was reported; nothing more happens.
    case nothing

    package var description: String {
        switch self {
        case .finishWaitingRead: return "finishWaitingRead"
        case .close: return "close"
        case .confirmAfterCallbacks: return "confirmAfterCallbacks"
        case .holdForReads: return "holdForReads"
        case .reportReadStreamClosed: return "reportReadStreamClosed"
        case .nothing: return "nothing"
        }
    }
}

/// The one place that decides what the peer's end leads to.
package enum EndOfStreamRule {
    package static func step(_ semantics: Semantics, _ facts: EndOfStreamFacts) -> EndOfStreamStep {
        switch semantics {
        case .legacy:
            if facts.readWaiting {
                return facts.inputRemains ? .finishWaitingRead : .close
            }
            return facts.callbacksInFlight ? .confirmAfterCallbacks : .close
        case .gcd:
            if facts.prebuffered {
                return facts.readWaiting ? .finishWaitingRead : .holdForReads
            }
            if facts.autoDisconnect {
                return .close
            }
            return facts.readStreamReported ? .nothing : .reportReadStreamClosed
        }
    }
}
