import Foundation
import Synchronization

// The original called onSocket(_:willDisconnectWithError:) while the socket was still fully open, and
// porters log its hosts and ports there. The queue core closes on its socket queue and reports to
// the loop later, so for an error close under legacy semantics it leaves the descriptor open and
// hands the loop this record: the unread bytes, the descriptor and both addresses. The loop answers
// the socket's getters from it during willDisconnect and releases it (closing the descriptor) in the
// full close that follows.

/// What an error close under legacy semantics leaves for willDisconnect.
final class LegacyErrorClose: Sendable {
    /// The bytes received and not delivered (`unreadData`).
    let unread: Data
    /// The descriptor, still open until ``release()``, or -1.
    let descriptor: Int32
    let peer: SocketAddress?
    let local: SocketAddress?
    /// The dispatch sources' closer, holding one count for this record.
    private let closer: CancelCounter?
    private let released = Atomic<Bool>(false)

    init(
        unread: Data, descriptor: Int32 = -1, peer: SocketAddress? = nil, local: SocketAddress? = nil,
        closer: CancelCounter? = nil
    ) {
        self.unread = unread
        self.descriptor = descriptor
        self.peer = peer
        self.local = local
        self.closer = closer
    }

    /// Closes the socket behind the descriptor (the number stays valid until the sources are gone).
    /// Only the first call does anything.
    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing), let closer else { return }
        SafeClose.detach(descriptor)
        closer.done()
    }

    deinit {
        release()
    }
}
