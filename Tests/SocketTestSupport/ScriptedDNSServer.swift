import Foundation
import Synchronization

/// A tiny DNS responder on 127.0.0.1 for name-resolution tests (this machine has no DNS server).
/// It answers A and AAAA questions for the names it knows, NXDOMAIN for the rest, or, when
/// `silent`, nothing at all. It runs on its own thread until `stop()`.
package final class ScriptedDNSServer: @unchecked Sendable {
    package let port: UInt16
    private let fd: Int32
    private let records: [String: (v4: [UInt8]?, v6: [UInt8]?)]
    private let silent: Bool
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)
    /// How many questions arrived.
    package let questions = Atomic<Int>(0)

    /// `records` maps lower-case names to an IPv4 and/or IPv6 literal.
    package init(records: [String: (v4: String?, v6: String?)] = [:], silent: Bool = false) {
        var parsed: [String: (v4: [UInt8]?, v6: [UInt8]?)] = [:]
        for (name, addresses) in records {
            var v4: [UInt8]?
            var v6: [UInt8]?
            if let text = addresses.v4 {
                var address = in_addr()
                inet_pton(AF_INET, text, &address)
                v4 = withUnsafeBytes(of: &address) { Array($0) }
            }
            if let text = addresses.v6 {
                var address = in6_addr()
                inet_pton(AF_INET6, text, &address)
                v6 = withUnsafeBytes(of: &address) { Array($0) }
            }
            parsed[name.lowercased()] = (v4, v6)
        }
        self.records = parsed
        self.silent = silent
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.fd = fd
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// "127.0.0.1:PORT", for `HostResolver(nameservers:)`.
    package var address: String { "127.0.0.1:\(port)" }

    package func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
        close(fd)
    }

    deinit {
        stop()
    }

    private func serve() {
        defer { finished.signal() }
        var buffer = [UInt8](repeating: 0, count: 512)
        while running.load(ordering: .relaxed) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            var from = sockaddr_storage()
            var fromLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let n = withUnsafeMutablePointer(to: &from) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, &buffer, buffer.count, 0, $0, &fromLength)
                }
            }
            guard n > 12 else { continue }
            questions.add(1, ordering: .relaxed)
            guard !silent, let reply = answer(Array(buffer[0..<n])) else { continue }
            _ = withUnsafePointer(to: &from) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, reply, reply.count, 0, $0, fromLength)
                }
            }
        }
    }

    private func answer(_ query: [UInt8]) -> [UInt8]? {
        var position = 12
        var labels: [String] = []
        while position < query.count, query[position] != 0 {
            let length = Int(query[position])
            guard position + 1 + length <= query.count else { return nil }
            labels.append(String(decoding: query[(position + 1)..<(position + 1 + length)], as: UTF8.self))
            position += 1 + length
        }
        guard position + 5 <= query.count else { return nil }
        let questionEnd = position + 5
        let type = UInt16(query[position + 1]) << 8 | UInt16(query[position + 2])
        let name = labels.joined(separator: ".").lowercased()
        var answers: [[UInt8]] = []
        var rcode: UInt8 = 3
        if let record = records[name] {
            rcode = 0
            if type == 1, let v4 = record.v4 { answers.append(v4) }
            if type == 28, let v6 = record.v6 { answers.append(v6) }
        }
        var reply = Array(query[0..<2])
        reply += [0x84 | (query[2] & 0x01), 0x80 | rcode]
        reply += [0, 1, 0, UInt8(answers.count), 0, 0, 0, 0]
        reply += query[12..<questionEnd]
        for data in answers {
            reply += [0xC0, 0x0C, UInt8(type >> 8), UInt8(type & 0xFF), 0, 1, 0, 0, 0, 60, 0, UInt8(data.count)]
            reply += data
        }
        return reply
    }
}
