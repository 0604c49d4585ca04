/// One timer's place in one mode: its entry in that mode's ``TimerHeap``.
final class TimerSlot {
    unowned let context: ModeContext
    var timer: RunLoopTimer?
    var deadline: UInt64 = 0
    /// Breaks ties between equal deadlines: earlier arming fires first.
    var sequence: UInt64 = 0
    /// Position in the heap's array, or -1 when not in the heap (disarmed).
    var heapIndex = -1

    init(context: ModeContext, timer: RunLoopTimer) {
        self.context = context
        self.timer = timer
    }

    var isInHeap: Bool { heapIndex >= 0 }
}

/// A binary min-heap of armed timer slots ordered by (deadline, sequence), with removal by slot.
struct TimerHeap {
    private(set) var slots: [TimerSlot] = []

    var top: TimerSlot? { slots.first }
    var isEmpty: Bool { slots.isEmpty }

    mutating func insert(_ slot: TimerSlot) {
        slot.heapIndex = slots.count
        slots.append(slot)
        siftUp(slot.heapIndex)
    }

    mutating func remove(_ slot: TimerSlot) {
        let index = slot.heapIndex
        guard index >= 0 else { return }
        let last = slots.count - 1
        if index != last {
            slots.swapAt(index, last)
            slots[index].heapIndex = index
        }
        slots.removeLast()
        slot.heapIndex = -1
        if index < slots.count {
            siftDown(index)
            siftUp(index)
        }
    }

    private func precedes(_ a: TimerSlot, _ b: TimerSlot) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard precedes(slots[index], slots[parent]) else { return }
            swapSlots(index, parent)
            index = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            guard left < slots.count else { return }
            var smallest = left
            let right = left + 1
            if right < slots.count && precedes(slots[right], slots[left]) {
                smallest = right
            }
            guard precedes(slots[smallest], slots[index]) else { return }
            swapSlots(index, smallest)
            index = smallest
        }
    }

    private mutating func swapSlots(_ a: Int, _ b: Int) {
        slots.swapAt(a, b)
        slots[a].heapIndex = a
        slots[b].heapIndex = b
    }
}
