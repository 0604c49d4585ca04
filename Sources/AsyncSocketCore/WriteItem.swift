import Foundation

/// A queued write: the caller's data (kept, never copied), progress, timeout and tag.
public final class WriteItem {
    public let data: Data
    public let tag: Int
    /// The timeout as granted so far: the original one plus every extension.
    public var timeout: TimeInterval
    public var bytesDone = 0

    public init(data: Data, timeout: TimeInterval, tag: Int) {
        self.data = data
        self.timeout = timeout
        self.tag = tag
    }

    public var isComplete: Bool { bytesDone == data.count }
}

/// A `startTLS` request: one marker sits in both queues; TLS starts once both sides reach it.
public final class TLSMarker {
    /// What the face passed to `startTLS` (its settings type), opaque to the engine.
    public let settings: Any
    public var readSideReached = false
    public var writeSideReached = false

    public init(settings: Any) {
        self.settings = settings
    }
}

/// An entry of the read queue.
public enum QueuedRead {
    case read(ReadItem)
    case tls(TLSMarker)
}

/// An entry of the write queue.
public enum QueuedWrite {
    case write(WriteItem)
    case tls(TLSMarker)
}
