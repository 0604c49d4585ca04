import Foundation

/// How two traces are brought to a comparable form before the side-by-side runner compares them.
///
/// The recorders already apply the rules that always hold between the two APIs (one disconnect
/// event with a normalized ``CloseReason``; legacy `readMaxedOut` 3 ≡ GCD 6 and the other renumbered
/// codes; no `didConnectToHost` for accepted sockets; no ports). These rules add the ones that depend
/// on what a scenario cares about. Traces are compared socket by socket, since events of different
/// sockets may interleave differently from run to run, and by default each socket's reads and writes
/// apart from one another.
public struct EquivalenceRules: Sendable {
    /// Leave out partial-progress reports (how bytes are split into passes depends on timing).
    public var ignoresPartialProgress = true
    /// Join consecutive reads with the same tag on the same socket into one (for read-any reads,
    /// whose chunking depends on timing).
    public var mergesConsecutiveReads = false
    /// Leave out `readStreamClosed` (GCD only: with auto-disconnect off).
    public var ignoresReadStreamClosed = false
    /// Compare each socket's reads, its writes and the rest (connect, accept, TLS, disconnect) as
    /// three sequences (for a UDP socket: datagrams received, sends, the close): the read and write
    /// queues are independent, and when a read completion and a write completion fall close together
    /// their order differs between the run-loop class (the next item starts on a later pass) and GCD
    /// (at once).
    public var comparesReadsAndWritesSeparately = true
    /// Compare the tags of reads, writes and their timeouts (the runner leaves them out of any
    /// comparison with a run that records none: an async port's).
    public var comparesTags = true
    /// Sockets whose events are left out, by label.
    public var ignoredSockets: Set<String> = []
    /// Further rules of the program's own, applied in order: each maps an entry to its comparable
    /// form, or to `nil` to leave it out.
    public var custom: [@Sendable (TraceEntry) -> TraceEntry?] = []

    /// The defaults: partial progress ignored, everything else compared.
    public static let standard = EquivalenceRules()

    /// The rules with defaults.
    public init() {}

    /// `trace` in comparable form.
    public func normalize(_ trace: [TraceEntry]) -> [TraceEntry] {
        var result: [TraceEntry] = []
        for entry in trace {
            guard var kept = keep(entry).flatMap(applyCustom) else { continue }
            if !comparesTags {
                kept.event = kept.event.untagged
            }
            if mergesConsecutiveReads, case .read(let tag, let data) = kept.event,
                let last = result.indices.last(where: { result[$0].socket == kept.socket }),
                case .read(tag, let earlier) = result[last].event
            {
                result[last].event = .read(tag: tag, data: earlier + data)
                continue
            }
            result.append(kept)
        }
        return result
    }

    /// The events of `trace` in the sequences that are compared — one per socket, or three per
    /// socket (reads, writes, the rest) — in order of first appearance, each event with its position
    /// in the normalized trace.
    func sequences(_ trace: [TraceEntry]) -> [(name: String, events: [(event: TraceEvent, position: Int)])] {
        var order: [String] = []
        var events: [String: [(event: TraceEvent, position: Int)]] = [:]
        for (position, entry) in normalize(trace).enumerated() {
            let name = sequenceName(of: entry)
            if events[name] == nil {
                order.append(name)
            }
            events[name, default: []].append((entry.event, position))
        }
        return order.map { ($0, events[$0] ?? []) }
    }

    private func sequenceName(of entry: TraceEntry) -> String {
        guard comparesReadsAndWritesSeparately else { return entry.socket }
        switch entry.event {
        case .read, .partialRead, .readTimeout, .readStreamClosed, .datagramReceived, .datagramNotReceived:
            return "\(entry.socket) reads"
        case .wrote, .partialWrite, .writeTimeout, .datagramSent, .datagramNotSent: return "\(entry.socket) writes"
        case .connected, .accepted, .secured, .disconnected: return entry.socket
        }
    }

    private func keep(_ entry: TraceEntry) -> TraceEntry? {
        if ignoredSockets.contains(entry.socket) {
            return nil
        }
        switch entry.event {
        case .partialRead, .partialWrite: return ignoresPartialProgress ? nil : entry
        case .readStreamClosed: return ignoresReadStreamClosed ? nil : entry
        default: return entry
        }
    }

    private func applyCustom(_ entry: TraceEntry) -> TraceEntry? {
        var current = entry
        for rule in custom {
            guard let mapped = rule(current) else { return nil }
            current = mapped
        }
        return current
    }
}
