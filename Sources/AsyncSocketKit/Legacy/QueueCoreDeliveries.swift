import AsyncSocketCore
import Foundation

// Where a queue-core connection's callbacks wait for the socket's loop. The QueueSocket hands each
// callback here on its socket queue, through a strong reference: the backend and the bridge are
// weakly referenced, so reaching either costs a weak load and slow reference counting per callback
// (Benchmarks/PROFILE.md), while this object is never weakly referenced. Only the first callback of
// a batch has the batch run on the loop: from the loop's own thread through an item kept here, which
// holds the backend; from another thread through a weak load of the backend.

/// The callbacks on their way to a queue-core socket's loop, and where that loop is.
final class QueueCoreDeliveries: @unchecked Sendable {
    // @unchecked Sendable: the target and batch are behind `Lock`; `backend` is a weak reference
    // (the runtime makes weak loads thread-safe), set once before any delivery.
    private let target = Lock(DeliveryTarget())
    /// The backend whose `runBatch` runs the batches.
    weak var backend: QueueCoreBackend?

    var loop: EventRunLoop? { target.withLock { $0.loop } }

    /// Queues `delivery` of the connection numbered `epoch` for the loop; the first of a batch
    /// queues one run of the batch there (one wake-up of the loop per batch, not per callback).
    /// With `wakingLoop` false the run is not queued: the caller must call ``wakeLoop()`` when this
    /// returns true (it started a batch).
    @discardableResult
    func deliver(epoch: Int, _ delivery: Delivery, wakingLoop: Bool = true) -> Bool {
        let (loop, modes, first) = target.withLock { target -> (EventRunLoop?, [RunLoopMode], Bool) in
            guard target.loop != nil else { return (nil, target.modes, false) }
            target.batch.append(DeliveryBox(epoch: epoch, delivery: delivery))
            return (target.loop, target.modes, target.batch.count == 1)
        }
        guard let loop, first else { return false }
        guard wakingLoop else { return true }
        sendBatch(to: loop, modes: modes)
        return false
    }

    /// Queues a run of the waiting batch on the loop (after ``deliver(epoch:_:wakingLoop:)`` started
    /// one without it).
    func wakeLoop() {
        let (loop, modes, pending) = target.withLock { target -> (EventRunLoop?, [RunLoopMode], Bool) in
            (target.loop, target.modes, !target.batch.isEmpty)
        }
        guard let loop, pending else { return }
        sendBatch(to: loop, modes: modes)
    }

    /// Queues a run of the batch on `loop`: from the loop's own thread with the item kept for it (no
    /// allocation and no weak load per batch), from elsewhere with a cross-thread perform.
    private func sendBatch(to loop: EventRunLoop, modes: [RunLoopMode]) {
        guard loop.isCurrent else {
            guard let backend else { return }
            loop.perform(inModes: modes) { backend.runBatch() }
            return
        }
        let kept = target.withLock { target -> PerformItem? in
            guard let kept = target.batchItem, kept.loop === loop else { return nil }
            kept.item.modes = modes
            return kept.item
        }
        guard let item = kept ?? makeBatchItem(for: loop, modes: modes) else { return }
        loop.schedule(item)
    }

    /// The item that runs batches on `loop`, kept for the next ones. It holds the backend strongly,
    /// which holds this object: ``discardAll()`` ends that cycle when the backend's public socket
    /// goes away.
    private func makeBatchItem(for loop: EventRunLoop, modes: [RunLoopMode]) -> PerformItem? {
        guard let backend else { return nil }
        let item = PerformItem(modes: modes) { backend.runBatch() }
        target.withLock { $0.batchItem = (loop, item) }
        return item
    }

    /// The backend's public socket is gone, so nothing here will run again: lets go of the kept item
    /// (which holds the backend) and of the deliveries waiting (which may hold QueueSockets, which
    /// hold this object), and takes no more.
    func discardAll() {
        // What was here is handed out of the lock and released there: a QueueSocket freed with it
        // may still deliver on its way out, which takes the lock.
        _ = target.withLock { target in
            defer { target = DeliveryTarget() }
            return target
        }
    }

    /// Changes where callbacks go. A batch already on its way may wait in a loop or modes no longer
    /// run: it is sent again to the new target (running it twice runs each delivery once).
    func retarget(_ change: (inout DeliveryTarget) -> Void) {
        let (loop, modes, pending) = target.withLock { target -> (EventRunLoop?, [RunLoopMode], Bool) in
            change(&target)
            return (target.loop, target.modes, !target.batch.isEmpty)
        }
        guard let loop, pending else { return }
        sendBatch(to: loop, modes: modes)
    }

    /// The deliveries queued so far; ones queued after this form the next batch. Two buffers take
    /// turns (the batch being run and the one filling): give this one back with ``recycle(_:)``.
    func takeBatch() -> [DeliveryBox] {
        target.withLock { target in
            var taken: [DeliveryBox] = []
            swap(&taken, &target.spare)
            swap(&taken, &target.batch)
            return taken
        }
    }

    /// Keeps the emptied buffer of a batch run for the next batch to fill.
    func recycle(_ batch: inout [DeliveryBox]) {
        batch.removeAll(keepingCapacity: true)
        target.withLock { target in
            if target.spare.capacity < batch.capacity {
                target.spare = batch
            }
        }
    }
}

/// What is carried to the loop: a frequent callback as a value, anything else as a closure.
enum Delivery {
    case callback(ConnectionCallback)
    case call((QueueCoreBackend) -> Void)
}

/// A delivery on its way to the loop, with the epoch of the QueueSocket it came from.
// @unchecked Sendable: a closure in it is run on the loop only, by the batch that carries it.
struct DeliveryBox: @unchecked Sendable {
    let epoch: Int
    let delivery: Delivery
}

/// The loop and modes callbacks go to, and the callbacks queued for the next batch.
struct DeliveryTarget {
    var loop: EventRunLoop?
    var modes: [RunLoopMode] = [.default]
    var batch: [DeliveryBox] = []
    /// The emptied buffer of the last batch run, for the next batch to fill.
    var spare: [DeliveryBox] = []
    /// The item that runs batches from the loop's own thread, and the loop it is for (scheduled
    /// only on that loop's thread).
    var batchItem: (loop: EventRunLoop, item: PerformItem)?
}
