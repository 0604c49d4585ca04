import Foundation

/// A queued write: the caller's data (kept, never copied), timeout and tag. Its progress, once it is
/// current, is the engine's.
package final class WriteItem {
    package let data: Data
    package let tag: Int
    /// The timeout asked for (extensions are added to the engine's copy).
    package let timeout: TimeInterval

    package init(data: Data, timeout: TimeInterval, tag: Int) {
        self.data = data
        self.timeout = timeout
        self.tag = tag
    }
}

/// A `startTLS` request: one marker sits in both queues; TLS starts once both sides reach it.
package final class TLSMarker {
    /// What the face passed to `startTLS` (its settings type), opaque to the engine.
    package let settings: Any
    package var readSideReached = false
    package var writeSideReached = false

    package init(settings: Any) {
        self.settings = settings
    }
}

/// An entry of the read queue.
package enum QueuedRead {
    case read(ReadItem)
    case tls(TLSMarker)
}

/// An entry of the write queue.
package enum QueuedWrite {
    case write(WriteItem)
    case tls(TLSMarker)
}
