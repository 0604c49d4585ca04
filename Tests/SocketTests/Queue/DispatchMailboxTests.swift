import AsyncSocketCore
import AsyncSocketKit
import Dispatch
import Foundation
import SocketTestSupport
import Testing

// The mailbox QueueUdpSocket hands its delegate calls and held sends through (DispatchMailbox.swift).
// Each test holds the target queue suspended while it posts, so which entries one drain takes does not
// depend on timing; every wait is a semaphore with a deadline.

/// The mailbox's owner: records each drain it handles, and signals when it is gone.
private final class Owner: Sendable {
    let drains = Lock<[[Int]]>([])
    let gone: DispatchSemaphore
    let queue: DispatchQueue
    // Written once, in `init`, before the owner is shared.
    private(set) nonisolated(unsafe) var mailbox: DispatchMailbox<Int>!

    init(
        queue: DispatchQueue, gone: DispatchSemaphore = DispatchSemaphore(value: 0),
        onDrain: @escaping @Sendable ([Int]) -> Void = { _ in }
    ) {
        self.queue = queue
        self.gone = gone
        mailbox = DispatchMailbox(queue: queue, owner: self) { [unowned self] entries in
            drains.withLock { $0.append(entries) }
            onDrain(entries)
        }
    }

    deinit { gone.signal() }

    /// Waits (at most 10 s) until every block queued before this call on the queue has run.
    func settled() -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + 10) == .success
    }
}

@Suite("DispatchMailbox: entries handed to a queue in order, one drain per burst, nothing allocated per hand-off")
struct DispatchMailboxTests {
    @Test("a burst posted while the queue is held is one drain, in order; later batches follow in order")
    func burstIsOneDrainInOrder() throws {
        let queue = DispatchQueue(label: "mailbox.burst")
        let owner = Owner(queue: queue)
        queue.suspend()
        var batch: [Int] = []
        for pass in 0..<5 {
            batch.append(contentsOf: (pass * 10)..<(pass * 10 + 10))
            owner.mailbox.send(contentsOf: &batch)
            #expect(batch.isEmpty)
        }
        queue.resume()
        #expect(owner.settled())
        #expect(owner.drains.withLock { $0 } == [Array(0..<50)])
        for pass in 5..<8 {
            batch.append(contentsOf: (pass * 10)..<(pass * 10 + 10))
            owner.mailbox.send(contentsOf: &batch)
            #expect(owner.settled())
        }
        let drains = owner.drains.withLock { $0 }
        #expect(drains.count == 4)
        #expect(drains.flatMap { $0 } == Array(0..<80))
    }

    @Test("post does not schedule; schedule does, once; hasUnscheduled says which")
    func postThenSchedule() throws {
        let queue = DispatchQueue(label: "mailbox.post")
        let owner = Owner(queue: queue)
        queue.suspend()
        #expect(owner.mailbox.post(1) == 1)
        #expect(owner.mailbox.post(2) == 2)
        #expect(owner.mailbox.hasUnscheduled)
        owner.mailbox.schedule()
        #expect(!owner.mailbox.hasUnscheduled)
        owner.mailbox.post(3)
        owner.mailbox.schedule()
        queue.resume()
        #expect(owner.settled())
        #expect(owner.drains.withLock { $0 } == [[1, 2, 3]])
        owner.mailbox.post(4)
        #expect(owner.settled())
        #expect(owner.drains.withLock { $0 }.count == 1, "posted, never scheduled: not drained")
    }

    @Test("removeAll drops what waits; a schedule with nothing waiting dispatches nothing")
    func removeAllDrops() throws {
        let queue = DispatchQueue(label: "mailbox.remove")
        let owner = Owner(queue: queue)
        owner.mailbox.post(1)
        owner.mailbox.post(2)
        owner.mailbox.removeAll()
        #expect(!owner.mailbox.hasUnscheduled)
        owner.mailbox.schedule()
        #expect(owner.settled())
        #expect(owner.drains.withLock { $0 }.isEmpty)
        owner.mailbox.post(3)
        owner.mailbox.schedule()
        #expect(owner.settled())
        #expect(owner.drains.withLock { $0 } == [[3]])
    }

    @Test("a caller that finds nothing unscheduled, and dispatches to the queue, comes after the drain")
    func laterDispatchQueuesBehindDrain() throws {
        let queue = DispatchQueue(label: "mailbox.order")
        let owner = Owner(queue: queue)
        let order = Lock<[String]>([])
        queue.suspend()
        owner.mailbox.post(7)
        let scheduler = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            owner.mailbox.schedule()
            scheduler.signal()
        }
        #expect(scheduler.wait(timeout: .now() + 10) == .success)
        #expect(!owner.mailbox.hasUnscheduled)
        queue.async {
            order.withLock { $0.append(owner.drains.withLock { $0.isEmpty } ? "caller first" : "drain first") }
        }
        queue.resume()
        #expect(owner.settled())
        #expect(order.withLock { $0 } == ["drain first"])
    }

    @Test("a scheduled drain keeps its owner alive until it has run; then the owner goes")
    func scheduledDrainKeepsOwner() throws {
        let queue = DispatchQueue(label: "mailbox.owner")
        let gone = DispatchSemaphore(value: 0)
        let handled = Lock<[Int]>([])
        queue.suspend()
        do {
            let owner = Owner(queue: queue, gone: gone) { entries in handled.withLock { $0 += entries } }
            owner.mailbox.post(42)
            owner.mailbox.schedule()
        }
        // The last other reference went with the `do`: a deinit then would have run already.
        #expect(gone.wait(timeout: .now()) == .timedOut, "gone while its drain waited")
        queue.resume()
        #expect(gone.wait(timeout: .now() + 10) == .success, "kept after its drain ran")
        #expect(handled.withLock { $0 } == [42])
    }
}
