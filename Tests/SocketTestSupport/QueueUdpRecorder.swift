import AsyncSocketKit
import Dispatch
import Foundation

/// A ``QueueUdpSocketDelegate`` that records every callback as a line ("received hello from
/// 127.0.0.1", "sent 3", "closed", "not sent 2 GCDAsyncUdpSocketErrorDomain 1", …) with its own
/// serial delegate queue, counts calls that arrive off that queue, and waits with a deadline. Safe
/// from any thread.
package final class QueueUdpRecorder: QueueUdpSocketDelegate, @unchecked Sendable {
    // @unchecked Sendable: the log is locked inside; the rest is constant.
    package let queue = DispatchQueue(label: "QueueUdpRecorder.delegate")
    private let log = RecorderLog<QueueUdpSocket, String>()
    private let key = DispatchSpecificKey<Bool>()
    private let offQueue = NSLock()
    private var offQueueCalls = 0
    private var datagramList: [(data: Data, address: Data, context: String?)] = []

    package init() {
        queue.setSpecific(key: key, value: true)
    }

    /// Every line so far, in arrival order.
    package var events: [String] { log.all.map(\.event) }

    /// The datagrams received so far: bytes, sender `sockaddr`, context (as text).
    package var datagrams: [(data: Data, address: Data, context: String?)] { offQueue.withLock { datagramList } }

    /// Callbacks that arrived on another queue than ``queue``.
    package var callsOffQueue: Int { offQueue.withLock { offQueueCalls } }

    /// Waits until `count` events were recorded, or `timeout` passes.
    @discardableResult
    package func wait(for count: Int, timeout: TimeInterval = 10) -> Bool {
        log.wait(timeout: timeout) { events.count >= count }
    }

    private func record(_ sock: QueueUdpSocket, _ line: String) {
        if DispatchQueue.getSpecific(key: key) != true {
            offQueue.withLock { offQueueCalls += 1 }
        }
        log.append(sock, line)
    }

    private static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "nil" }
        let bridged = error as NSError
        return "\(bridged.domain) \(bridged.code)"
    }

    /// The numeric host of `sockaddr` bytes.
    package static func host(of address: Data) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = address.withUnsafeBytes { Int32($0.load(as: sa_family_t.self)) }
        address.withUnsafeBytes { raw in
            _ = inet_ntop(family, raw.baseAddress! + (family == AF_INET6 ? 8 : 4), &text, socklen_t(text.count))
        }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The port of `sockaddr` bytes.
    package static func port(of address: Data) -> UInt16 {
        address.withUnsafeBytes { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
    }

    package func udpSocket(_ sock: QueueUdpSocket, didConnectToAddress address: Data) {
        record(sock, "connected \(Self.host(of: address)) \(Self.port(of: address))")
    }

    package func udpSocket(_ sock: QueueUdpSocket, didNotConnect error: (any Error)?) {
        record(sock, "not connected \(Self.describe(error))")
    }

    package func udpSocket(_ sock: QueueUdpSocket, didSendDataWithTag tag: Int) {
        record(sock, "sent \(tag)")
    }

    package func udpSocket(_ sock: QueueUdpSocket, didNotSendDataWithTag tag: Int, dueToError error: (any Error)?) {
        record(sock, "not sent \(tag) \(Self.describe(error))")
    }

    package func udpSocket(
        _ sock: QueueUdpSocket, didReceive data: Data, fromAddress address: Data,
        withFilterContext filterContext: (any Sendable)?
    ) {
        let context = filterContext.map { "\($0)" }
        offQueue.withLock { datagramList.append((data, address, context)) }
        let text = String(decoding: data, as: UTF8.self)
        record(sock, "received \(text) from \(Self.host(of: address))" + (context.map { " context \($0)" } ?? ""))
    }

    package func udpSocketDidClose(_ sock: QueueUdpSocket, withError error: (any Error)?) {
        record(sock, error == nil ? "closed" : "closed \(Self.describe(error))")
    }
}
