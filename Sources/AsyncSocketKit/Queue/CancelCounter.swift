import Foundation
import Synchronization

/// Closes a connected descriptor once every holder is done with it: the read source's cancel
/// handler, the close, and the write source once one is made. The count is an atomic, not a lock:
/// every connection has one for its whole life (Benchmarks/IDLE-MEMORY.md).
final class CancelCounter: Sendable {
    private let remaining: Atomic<Int>
    private let descriptor: Int32

    init(count: Int, closing descriptor: Int32) {
        remaining = Atomic(count)
        self.descriptor = descriptor
    }

    /// One more holder (a source made after the counter).
    func addHolder() {
        remaining.add(1, ordering: .sequentiallyConsistent)
    }

    func done() {
        if remaining.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
            close(descriptor)
        }
    }
}
