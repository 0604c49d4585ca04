import DequeModule
import Foundation

// The send and receive queues of a run-loop UDP socket and the rules around them, without I/O: one
// current operation per direction, first in first out; no new operation once a close-after call
// was made; and when a close-after call's condition holds. The socket (RunLoopUdpSocket.swift)
// does the system calls and the timers and asks these rules what comes next.

/// A datagram waiting to be sent.
package struct UdpSend {
    package let data: Data
    /// Where to (`nil`: the connected peer).
    package let destination: SocketAddress?
    package let timeout: TimeInterval
    package let tag: Int
    /// Above 0: `data` leaves as datagrams of this size, the last one shorter (`UDP_SEGMENT`).
    package let segmentSize: UInt16

    package init(data: Data, destination: SocketAddress?, timeout: TimeInterval, tag: Int, segmentSize: UInt16 = 0) {
        self.data = data
        self.destination = destination
        self.timeout = timeout
        self.tag = tag
        self.segmentSize = segmentSize
    }
}

/// A receive waiting for a datagram.
package struct UdpReceive {
    package let timeout: TimeInterval
    package let tag: Int

    package init(timeout: TimeInterval, tag: Int) {
        self.timeout = timeout
        self.tag = tag
    }
}

/// The queues of one UDP socket.
package struct UdpOperations {
    private var sends = Deque<UdpSend>()
    private var receives = Deque<UdpReceive>()
    /// The send being tried, until it is sent, fails or times out.
    package private(set) var currentSend: UdpSend?
    /// The receive waiting for a datagram, until one completes it, it fails or it times out.
    package private(set) var currentReceive: UdpReceive?
    /// A close-after call was made: new sends and receives are refused.
    package private(set) var refusesNew = false
    private var closesAfterSends = false
    private var closesAfterReceives = false

    package init() {}

    /// Queues a send; `false` (nothing queued) once a close-after call was made.
    package mutating func enqueue(_ send: UdpSend) -> Bool {
        guard !refusesNew else { return false }
        sends.append(send)
        return true
    }

    /// Queues a receive; `false` (nothing queued) once a close-after call was made.
    package mutating func enqueue(_ receive: UdpReceive) -> Bool {
        guard !refusesNew else { return false }
        receives.append(receive)
        return true
    }

    /// Makes the next queued send current, unless one is; returns it.
    package mutating func startNextSend() -> UdpSend? {
        guard currentSend == nil, let next = sends.popFirst() else { return nil }
        currentSend = next
        return next
    }

    /// Makes the next queued receive current, unless one is; returns it.
    package mutating func startNextReceive() -> UdpReceive? {
        guard currentReceive == nil, let next = receives.popFirst() else { return nil }
        currentReceive = next
        return next
    }

    /// The current send is over (sent, failed or timed out); returns it.
    @discardableResult
    package mutating func finishSend() -> UdpSend? {
        defer { currentSend = nil }
        return currentSend
    }

    /// The current receive is over (completed, failed or timed out); returns it.
    @discardableResult
    package mutating func finishReceive() -> UdpReceive? {
        defer { currentReceive = nil }
        return currentReceive
    }

    /// Sends queued behind the current one.
    package var queuedSendCount: Int { sends.count }
    /// Receives queued behind the current one.
    package var queuedReceiveCount: Int { receives.count }
    /// Whether a send is current or queued.
    package var hasSends: Bool { currentSend != nil || !sends.isEmpty }
    /// Whether a receive is current or queued.
    package var hasReceives: Bool { currentReceive != nil || !receives.isEmpty }

    /// `closeAfterSending`, `closeAfterReceiving`, `closeAfterSendingAndReceiving`: refuses new
    /// operations from now on and remembers which queues must empty before the socket closes.
    package mutating func closeAfter(sending: Bool, receiving: Bool) {
        refusesNew = true
        closesAfterSends = closesAfterSends || sending
        closesAfterReceives = closesAfterReceives || receiving
    }

    /// Whether a close-after call's condition holds: every queue it waits for is empty (a pending
    /// receive does not hold up `closeAfterSending`, nor a pending send `closeAfterReceiving`).
    package var closeIsDue: Bool {
        guard closesAfterSends || closesAfterReceives else { return false }
        return !(closesAfterSends && hasSends) && !(closesAfterReceives && hasReceives)
    }

    /// Drops every operation without reporting any (`close`).
    package mutating func removeAll() {
        sends.removeAll()
        receives.removeAll()
        currentSend = nil
        currentReceive = nil
        refusesNew = true
    }
}
