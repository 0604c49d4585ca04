import Logging
import Synchronization

// What every log line of a socket carries, so that the lines of thousands of connections can be told
// apart and filtered: a process-unique socket number, the face and its engine, the descriptor, both
// addresses and, where one applies, the tag. Nothing is logged without a Logger the user gave; the
// metadata is built only when the logger's level lets the line through (swift-log takes it as an
// autoclosure), so a socket whose logger is off pays nothing beyond the check.
//
// Levels, as swift-log advises for libraries: a connection's lifecycle (connected, accepted, closed,
// secured) and requests the socket ignores at `.debug`; misuse the program should fix (a call from the
// wrong place, a listener without a delegate) and conditions that degrade service (out of descriptors, a
// datagram dropped) at `.warning`; `.error` only for states the library cannot explain.

/// The numbers that name sockets in log lines.
package enum SocketLogID {
    private static let next = Atomic<UInt64>(1)

    /// A number no other socket of this process has.
    package static func make() -> UInt64 {
        next.add(1, ordering: .relaxed).oldValue
    }
}

/// The metadata of one socket's log line.
package struct SocketLogMetadata {
    package var id: UInt64
    package var face: String
    package var engine: String
    package var descriptor: Int32 = -1
    package var local: SocketAddress?
    package var peer: SocketAddress?
    package var tag: Int?

    package init(id: UInt64, face: String, engine: String) {
        self.id = id
        self.face = face
        self.engine = engine
    }

    /// The metadata, with `extra` (an error, a size) added.
    package func metadata(_ extra: Logger.Metadata = [:]) -> Logger.Metadata {
        var metadata = extra
        metadata["socket"] = "\(id)"
        metadata["face"] = .string(face)
        metadata["engine"] = .string(engine)
        if descriptor >= 0 {
            metadata["fd"] = "\(descriptor)"
        }
        if let local {
            metadata["local"] = .string(local.description)
        }
        if let peer {
            metadata["peer"] = .string(peer.description)
        }
        if let tag {
            metadata["tag"] = "\(tag)"
        }
        return metadata
    }
}
