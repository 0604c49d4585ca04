import Dispatch
import Foundation

// Every delegate call goes to the delegate queue through one mailbox, in the order the socket queue
// made them: datagrams, `didSendDataWithTag` reports and the rest. A pass of the socket queue (a
// readiness event read, a pass of the send queue) gathers its calls in `stagedCalls` and hands them
// over together at its end, so the calls of a pass are one drain, one thread wake-up and no allocation
// (DispatchMailbox.swift). Each call goes to the delegate of the moment it was made, as
// GCDAsyncUdpSocket captured it in each block: a pass starts with that delegate, and names it again
// only after the delegate or its queue was set, because a delegate is held weakly and so every load
// and retain of it takes the slow path (a reference per call cost 7 % of the throughput with 16 peers,
// Benchmarks/UDP.md); the reference the pass holds keeps the delegate alive until its calls are made.
// A new delegate queue gets a new mailbox, and calls already posted still go to the old queue.
extension QueueUdpSocket {
    /// Gathers `kind` for the current delegate and delegate queue, not yet dispatched (socket queue).
    /// Without a delegate or a queue the call is dropped; a dropped datagram no longer counts as pending.
    func postDelegateCall(_ kind: QueueUdpDelegateCall) {
        if !stagedCalls.isEmpty, stagedGeneration == delegateGeneration {
            return stagedCalls.append(kind)
        }
        guard let delegate = storedDelegate, let queue = storedDelegateQueue else {
            if case .received = kind { deliveryEnded() }
            return
        }
        if let mailbox = delegateCalls, mailbox.queue !== queue {
            mailbox.send(contentsOf: &stagedCalls)
            delegateCalls = nil
        }
        stagedCalls.append(.delegate(DelegateBox(delegate)))
        stagedGeneration = delegateGeneration
        stagedCalls.append(kind)
        if delegateCalls == nil {
            delegateCalls = makeDelegateMailbox(queue)
        }
    }

    /// Dispatches the calls gathered (socket queue).
    func scheduleDelegateCalls() {
        delegateCalls?.send(contentsOf: &stagedCalls)
    }

    private func makeDelegateMailbox(_ queue: DispatchQueue) -> DispatchMailbox<QueueUdpDelegateCall> {
        let mailbox = DispatchMailbox<QueueUdpDelegateCall>(queue: queue, owner: self) { [unowned self] calls in
            perform(calls)
        }
        return mailbox
    }

    /// Makes `calls` on the delegate queue; a batch with datagrams in it is delivered as one
    /// (QueueUdpSocket+Batching.swift), the sends it makes joined to the socket queue after it.
    private func perform(_ calls: [QueueUdpDelegateCall]) {
        guard calls.contains(where: \.isDatagram) else {
            return performInOrder(calls)
        }
        deliveringBatch {
            performInOrder(calls)
        }
    }

    private func performInOrder(_ calls: [QueueUdpDelegateCall]) {
        var delegate: (any QueueUdpSocketDelegate)?
        for call in calls {
            switch call {
            case .delegate(let box):
                delegate = box.delegate
            case .received(let delivery):
                delegate?.udpSocket(
                    self, didReceive: delivery.data, fromAddress: delivery.address,
                    withFilterContext: delivery.context)
                deliveryEnded()
            case .sent(let tag):
                delegate?.udpSocket(self, didSendDataWithTag: tag)
            case .other(let body):
                if let delegate { body(delegate) }
            }
        }
    }
}

/// A delegate call on its way to the delegate queue.
enum QueueUdpDelegateCall: Sendable {
    /// The calls after it go to this delegate.
    case delegate(DelegateBox<any QueueUdpSocketDelegate>)
    /// `udpSocket(_:didReceive:fromAddress:withFilterContext:)`.
    case received(QueueUdpDelivery)
    /// `udpSocket(_:didSendDataWithTag:)`.
    case sent(tag: Int)
    /// Any other call.
    case other(@Sendable (any QueueUdpSocketDelegate) -> Void)

    var isDatagram: Bool {
        if case .received = self { true } else { false }
    }
}
