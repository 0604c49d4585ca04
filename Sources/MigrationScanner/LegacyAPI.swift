/// Which legacy class (or which part of the platform) an ``APIMapping`` belongs to. The scanner uses
/// it to decide what a member belongs to: `[udp localPort]` on an `AsyncUdpSocket` is the UDP class's
/// `localPort`, never `RunLoopSocket`'s.
public enum LegacyAPI: String, Sendable, Hashable, CaseIterable, Codable {
    /// The run-loop `AsyncSocket` ("v4") and its informal delegate protocol.
    case asyncSocket = "AsyncSocket"
    /// `GCDAsyncSocket` and `GCDAsyncSocketDelegate`.
    case gcdAsyncSocket = "GCDAsyncSocket"
    /// The run-loop `AsyncUdpSocket`.
    case asyncUdpSocket = "AsyncUdpSocket"
    /// `GCDAsyncUdpSocket`.
    case gcdAsyncUdpSocket = "GCDAsyncUdpSocket"
    /// Foundation's run loop (`NSRunLoop`, Swift's `RunLoop`), its modes, performs and timers.
    case runLoop = "NSRunLoop"
    /// Other Foundation, CoreFoundation, Security and system API used around the socket.
    case platform

    /// The class names whose instances (and class objects) have this API's members.
    public var classNames: [String] {
        switch self {
        case .asyncSocket: return ["AsyncSocket"]
        case .gcdAsyncSocket: return ["GCDAsyncSocket"]
        case .asyncUdpSocket: return ["AsyncUdpSocket"]
        case .gcdAsyncUdpSocket: return ["GCDAsyncUdpSocket"]
        case .runLoop: return ["NSRunLoop", "RunLoop"]
        case .platform: return []
        }
    }

    /// Whether this is one of the legacy socket classes (a file using one unmistakably "uses the legacy
    /// API", which turns on the spellings that count only there).
    public var isSocketClass: Bool {
        switch self {
        case .asyncSocket, .gcdAsyncSocket, .asyncUdpSocket, .gcdAsyncUdpSocket: return true
        case .runLoop, .platform: return false
        }
    }

    /// Whether this is one of the UDP classes, which AsyncSocketKit does not support yet.
    public var isUDP: Bool { self == .asyncUdpSocket || self == .gcdAsyncUdpSocket }

    /// The API whose class is named `name`, if any.
    public init?(className name: String) {
        guard let api = Self.allCases.first(where: { $0.classNames.contains(name) }) else { return nil }
        self = api
    }
}
