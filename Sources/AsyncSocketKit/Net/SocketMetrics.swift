import AsyncSocketCore
import CoreMetrics

// Metrics are opt-in: a socket made without a SocketMetrics holds no handles, and every place that
// counts is one nil check of a constant. With one, a socket looks up its face's and engine's handles
// once, when it is made (the lookup is the only lock), and then increments them directly. The handles
// are a `let` of the socket: a `var` would cost a dynamic exclusivity check at every read and write,
// measurable (about 2 %) in a one-connection ping-pong even with metrics off.

/// swift-metrics counters and meters for TCP sockets, dimensioned by face and engine.
///
/// Pass one to a socket's initializer (`metrics:`); sockets a listener accepts report to the
/// listener's. Without one a socket records nothing and pays one `nil` check where it would count.
/// The handles are made through `factory` the first time a face and engine report, and kept.
///
/// | Label (after the prefix) | Kind | Counts |
/// | --- | --- | --- |
/// | `connections` | meter | connections open now (connected, accepted or wrapped, not yet closed) |
/// | `connections_accepted_total` | counter | connections a listener accepted |
/// | `connect_failures_total` | counter | connection attempts that ended in an error before connecting |
/// | `bytes_read_total` | counter | bytes read from the descriptor (ciphertext under TLS) |
/// | `bytes_written_total` | counter | bytes written to the descriptor (ciphertext under TLS) |
/// | `reads_total` | counter | reads completed (each `didReadData` callback) |
/// | `writes_total` | counter | writes completed (each `didWriteData` callback) |
/// | `timeouts_total` | counter | read or write timeouts that fired, extended or not (dimension `direction`) |
/// | `tls_handshakes_total` | counter | TLS handshakes completed |
/// | `tls_handshake_failures_total` | counter | TLS starts or handshakes that failed |
///
/// Every metric has the dimensions `face` (`RunLoopSocket`, `QueueSocket`, `AsyncSocketConnection`;
/// an ``AsyncSocketListener``'s accepts count under `AsyncSocketConnection`) and `engine` (`native`,
/// `queue-core`, `dispatch`). UDP sockets report no metrics.
public final class SocketMetrics: Sendable {
    /// The factory the handles are made with.
    public let factory: any MetricsFactory
    /// What every label starts with, followed by `_` (`asyncsocket` by default).
    public let labelPrefix: String
    private let handlesByFace = Lock<[String: SocketMetricHandles]>([:])

    /// Metrics made with `factory` (by default the one bootstrapped with `MetricsSystem`), their labels
    /// starting with `labelPrefix` and `_`.
    public init(factory: any MetricsFactory = MetricsSystem.factory, labelPrefix: String = "asyncsocket") {
        self.factory = factory
        self.labelPrefix = labelPrefix
    }

    /// The handles of one face and engine, made on first use.
    package func handles(face: String, engine: String) -> SocketMetricHandles {
        handlesByFace.withLock { handles in
            let key = face + "/" + engine
            if let existing = handles[key] { return existing }
            let made = SocketMetricHandles(
                prefix: labelPrefix, dimensions: [("face", face), ("engine", engine)], factory: factory)
            handles[key] = made
            return made
        }
    }
}

/// The counters and meter of one face and engine.
package final class SocketMetricHandles: Sendable {
    package let open: Meter
    package let accepted: Counter
    package let connectFailures: Counter
    package let bytesRead: Counter
    package let bytesWritten: Counter
    package let reads: Counter
    package let writes: Counter
    package let readTimeouts: Counter
    package let writeTimeouts: Counter
    package let tlsHandshakes: Counter
    package let tlsFailures: Counter

    init(prefix: String, dimensions: [(String, String)], factory: any MetricsFactory) {
        func counter(_ name: String, _ extra: [(String, String)] = []) -> Counter {
            Counter(label: prefix + "_" + name, dimensions: dimensions + extra, factory: factory)
        }
        open = Meter(label: prefix + "_connections", dimensions: dimensions, factory: factory)
        accepted = counter("connections_accepted_total")
        connectFailures = counter("connect_failures_total")
        bytesRead = counter("bytes_read_total")
        bytesWritten = counter("bytes_written_total")
        reads = counter("reads_total")
        writes = counter("writes_total")
        readTimeouts = counter("timeouts_total", [("direction", "read")])
        writeTimeouts = counter("timeouts_total", [("direction", "write")])
        tlsHandshakes = counter("tls_handshakes_total")
        tlsFailures = counter("tls_handshake_failures_total")
    }
}

extension SocketMetricHandles {
    /// The socket connected or was accepted: it counts as open until ``closed(_:failed:listening:)``.
    package func opened(_ countedOpen: inout Bool) {
        guard !countedOpen else { return }
        countedOpen = true
        open.increment()
    }

    /// The socket closed; `failed`: with an error. A socket that never opened and failed was an attempt
    /// to connect that did not succeed (a listener's failure is not counted).
    package func closed(_ countedOpen: inout Bool, failed: Bool, listening: Bool) {
        if countedOpen {
            countedOpen = false
            open.decrement()
        } else if failed && !listening {
            connectFailures.increment()
        }
    }
}
