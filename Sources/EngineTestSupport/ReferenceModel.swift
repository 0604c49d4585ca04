import AsyncSocketCore

/// The read side of a socket as a specification: reads consume the input strictly in order, one at a
/// time, each with what has arrived so far. Independent of chunking, read-ahead and scheduling, so a
/// driven `SocketEngine` must give exactly these results.
package struct ReferenceModel {
    /// Every read queued so far; the first `completed.count` are done.
    package private(set) var reads: [ReadKind] = []
    /// Every byte the peer sent, in order.
    package private(set) var fed: [UInt8] = []
    /// Bytes taken by completed reads (and by a TLS handshake, see ``takeAhead(_:)``).
    package private(set) var consumed = 0
    package private(set) var completed: [[UInt8]] = []
    package private(set) var closeReason: TransportFailure?
    /// Bytes the failed read had taken when the socket closed.
    package private(set) var failedReadBytes = 0
    /// How the input ended (the peer's end of stream or a transport error), once it has.
    package private(set) var inputEnd: TransportFailure?

    package init() {}

    /// Bytes that arrived and no read has taken yet.
    package var available: Int { fed.count - consumed }

    /// Whether a queued read is still waiting for bytes.
    package var hasPendingRead: Bool { completed.count < reads.count }

    package mutating func queue(_ kind: ReadKind) {
        reads.append(kind)
    }

    package mutating func feed(_ bytes: [UInt8]) {
        fed.append(contentsOf: bytes)
    }

    /// The input ends after the bytes fed so far: a read that cannot finish then fails with `end`.
    package mutating func endInput(_ end: TransportFailure) {
        inputEnd = end
    }

    /// Takes `bytes` off the front of the unread input (a TLS handshake took what was read ahead);
    /// returns whether they are the next bytes of the input.
    package mutating func takeAhead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= available, fed[consumed..<consumed + bytes.count].elementsEqual(bytes) else {
            return false
        }
        consumed += bytes.count
        return true
    }

    /// Finishes every read the input allows, then fails the next one if the input has ended.
    package mutating func advance() {
        while closeReason == nil && hasPendingRead {
            switch reads[completed.count] {
            case .available(let maxLength):
                guard available > 0 else { return failIfEnded() }
                take(maxLength > 0 ? min(available, maxLength) : available)
            case .length(let length):
                guard available >= length else { return failIfEnded() }
                take(length)
            case .separator(let separator, let maxLength):
                let limit = maxLength > 0 ? consumed + maxLength : Int.max
                if let end = firstEnd(of: separator), end <= limit {
                    take(end - consumed)
                } else if maxLength > 0 && available >= maxLength {
                    closeReason = .readMaxedOut
                    failedReadBytes = maxLength
                    return
                } else {
                    return failIfEnded()
                }
            }
        }
    }

    /// Whether a face notices the input's end (or a reset) with no read pending, as the harness models
    /// it (EngineHarness.swift): legacy at once, GCD only once no bytes are left for reads.
    package func noticesEndWithoutRead(_ semantics: Semantics) -> Bool {
        inputEnd != nil && closeReason == nil && !hasPendingRead && (semantics == .legacy || available == 0)
    }

    /// The input ended with no read pending: closes the socket when the face notices it. GCD cannot
    /// tell a reset noticed so from the end (its read source sees no bytes either way): `endOfStream`.
    package mutating func noticeEndWithoutRead(_ semantics: Semantics) {
        if noticesEndWithoutRead(semantics) {
            closeReason = semantics == .gcd ? .endOfStream : inputEnd
        }
    }

    private mutating func failIfEnded() {
        if let inputEnd {
            closeReason = inputEnd
            failedReadBytes = available
        }
    }

    private mutating func take(_ count: Int) {
        completed.append(Array(fed[consumed..<consumed + count]))
        consumed += count
    }

    private func firstEnd(of separator: [UInt8]) -> Int? {
        guard available >= separator.count else { return nil }
        var start = consumed
        while start + separator.count <= fed.count {
            if fed[start..<start + separator.count].elementsEqual(separator) {
                return start + separator.count
            }
            start += 1
        }
        return nil
    }
}
