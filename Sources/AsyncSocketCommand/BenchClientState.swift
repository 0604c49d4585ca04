import Dispatch

/// The client's side of one `bench` measurement, whatever the socket class: how many payloads to
/// write and when it is over. At most the workload's window is in flight; nothing new is sent after
/// the deadline, and the measurement ends once everything sent has come back.
struct BenchClientState {
    let workload: BenchWorkload
    let duration: Double
    private let payloadSize: Int
    private var startedAt: UInt64 = 0
    private var stopAt: UInt64 = 0
    private(set) var sent = 0
    private(set) var received = 0
    private(set) var finishedAt: UInt64?

    init(workload: BenchWorkload, duration: Double) {
        self.workload = workload
        self.duration = duration
        payloadSize = workload.payload.count
    }

    /// Starts the clock; returns how many payloads to write now.
    mutating func start() -> Int {
        startedAt = Self.now()
        stopAt = startedAt + UInt64(duration * 1e9)
        return payloadsToSend(now: startedAt)
    }

    /// Counts `count` bytes echoed back; returns how many payloads to write now.
    mutating func didReceive(_ count: Int) -> Int {
        received += count
        let now = Self.now()
        if now >= stopAt && received >= sent {
            finishedAt = now
            return 0
        }
        return payloadsToSend(now: now)
    }

    private mutating func payloadsToSend(now: UInt64) -> Int {
        guard now < stopAt else { return 0 }
        var count = 0
        while sent - received + payloadSize <= workload.window {
            sent += payloadSize
            count += 1
        }
        return count
    }

    /// Seconds from the start to now, or to the end once finished.
    var elapsed: Double {
        Double((finishedAt ?? Self.now()) - startedAt) / 1e9
    }

    /// The workload's rate once finished.
    var rate: Double? {
        finishedAt.map { _ in workload.rate(bytes: received, seconds: elapsed) }
    }

    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
