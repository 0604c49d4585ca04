import CoreMetrics
import Synchronization

/// A swift-metrics backend that keeps, in memory, each counter's total and each meter's last value, so
/// that `--metrics` can print them when the server has shut down. A real server bootstraps a backend
/// instead (swift-prometheus, swift-otel, …) and hands `SocketMetrics` that factory.
final class TotalsMetrics: MetricsFactory {
    let totals = Totals()

    /// `label{name="value",…}`, as Prometheus writes a series.
    static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        guard !dimensions.isEmpty else { return label }
        return label + "{" + dimensions.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: ",") + "}"
    }

    private func handler(_ label: String, _ dimensions: [(String, String)]) -> TotalHandler {
        TotalHandler(key: Self.key(label, dimensions), totals: totals)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        handler(label, dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        handler(label, dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        handler(label, dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        handler(label, dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(label, dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}

/// The values, by series.
final class Totals: Sendable {
    private let values = Mutex<[String: Double]>([:])

    func add(_ key: String, _ amount: Double) {
        values.withLock { $0[key, default: 0] += amount }
    }

    func set(_ key: String, _ value: Double) {
        values.withLock { $0[key] = value }
    }

    /// One `series value` line per series, sorted.
    var lines: [String] {
        values.withLock { values in values.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value))" } }
    }
}

/// One series: a counter adds, a meter moves, a recorder or timer keeps its last value.
final class TotalHandler: CounterHandler, FloatingPointCounterHandler, MeterHandler, RecorderHandler, TimerHandler,
    Sendable
{
    let key: String
    let totals: Totals

    init(key: String, totals: Totals) {
        self.key = key
        self.totals = totals
    }

    func increment(by amount: Int64) { totals.add(key, Double(amount)) }
    func increment(by amount: Double) { totals.add(key, amount) }
    func decrement(by amount: Double) { totals.add(key, -amount) }
    func reset() { totals.set(key, 0) }
    func set(_ value: Int64) { totals.set(key, Double(value)) }
    func set(_ value: Double) { totals.set(key, value) }
    func record(_ value: Int64) { totals.set(key, Double(value)) }
    func record(_ value: Double) { totals.set(key, value) }
    func recordNanoseconds(_ duration: Int64) { totals.set(key, Double(duration)) }
}
