import Dispatch
import Foundation

// Every delegate call goes to the delegate queue through one mailbox, in the order the socket queue
// made them: datagrams, `didSendDataWithTag` reports and the rest. A pass of the socket queue (a
// readiness event read, a pass of the send queue) posts its calls and schedules one drain at its end,
// so the calls of a pass cost one thread wake-up and no allocation (DispatchMailbox.swift). Each call
// carries the delegate of the moment it was made, as GCDAsyncUdpSocket captured it in each block; a
// new delegate queue gets a new mailbox, and calls already posted still go to the old queue.
extension QueueUdpSocket {
    /// Posts `kind` for the current delegate and delegate queue, without scheduling it (socket queue).
    /// Without a delegate or a queue the call is dropped; a dropped datagram no longer counts as pending.
    func postDelegateCall(_ kind: QueueUdpDelegateCall.Kind) {
        guard let delegate = storedDelegate, let queue = storedDelegateQueue else {
            if case .received = kind { deliveryEnded() }
            return
        }
        delegateMailbox(for: queue).post(QueueUdpDelegateCall(kind: kind, delegate: DelegateBox(delegate)))
    }

    /// Dispatches the calls posted and not yet dispatched (socket queue).
    func scheduleDelegateCalls() {
        delegateCalls?.schedule()
    }

    private func delegateMailbox(for queue: DispatchQueue) -> DispatchMailbox<QueueUdpDelegateCall> {
        if let mailbox = delegateCalls, mailbox.queue === queue {
            return mailbox
        }
        delegateCalls?.schedule()
        let mailbox = DispatchMailbox<QueueUdpDelegateCall>(queue: queue, owner: self) { [unowned self] calls in
            perform(calls)
        }
        delegateCalls = mailbox
        return mailbox
    }

    /// Makes `calls` on the delegate queue; a batch with datagrams in it is delivered as one
    /// (QueueUdpSocket+Batching.swift), the sends it makes joined to the socket queue after it.
    private func perform(_ calls: [QueueUdpDelegateCall]) {
        guard calls.contains(where: \.isDatagram) else {
            return calls.forEach(perform)
        }
        deliveringBatch {
            calls.forEach(perform)
        }
    }

    private func perform(_ call: QueueUdpDelegateCall) {
        switch call.kind {
        case .received(let delivery):
            call.delegate.delegate?.udpSocket(
                self, didReceive: delivery.data, fromAddress: delivery.address, withFilterContext: delivery.context)
            deliveryEnded()
        case .sent(let tag):
            call.delegate.delegate?.udpSocket(self, didSendDataWithTag: tag)
        case .other(let body):
            if let delegate = call.delegate.delegate {
                body(delegate)
            }
        }
    }
}

/// A delegate call on its way to the delegate queue, with the delegate it goes to.
struct QueueUdpDelegateCall: Sendable {
    enum Kind: Sendable {
        /// `udpSocket(_:didReceive:fromAddress:withFilterContext:)`.
        case received(QueueUdpDelivery)
        /// `udpSocket(_:didSendDataWithTag:)`.
        case sent(tag: Int)
        /// Any other call.
        case other(@Sendable (any QueueUdpSocketDelegate) -> Void)
    }

    let kind: Kind
    let delegate: DelegateBox<any QueueUdpSocketDelegate>

    var isDatagram: Bool {
        if case .received = kind { true } else { false }
    }
}
