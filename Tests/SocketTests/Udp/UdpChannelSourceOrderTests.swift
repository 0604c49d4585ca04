import AsyncSocketKit
import Dispatch
import Foundation
import Testing

@Suite("UdpChannel: reads watched after a write waits for room")
struct UdpChannelSourceOrderTests {
    // On Linux, libdispatch keeps one epoll registration per descriptor for all of its sources, and a
    // read source registered while the descriptor's write source is armed is filed with the writers:
    // it hears of room to write, never of bytes to read (Benchmarks/QUEUE-CORE.md, "A stall found by
    // the run-all"). A datagram socket whose sends waited for room before it first received would
    // have watched for reads so. Loopback never makes a datagram send wait, so the channel is tried on
    // a stream socket pair whose sending side is full: the write is watched (armed, and it stays so),
    // then the read, then the other side sends one byte.
    @Test("a byte sent after both are watched is reported readable")
    func readWatchedAfterWrite() throws {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[1]) }
        let chunk = [UInt8](repeating: 1, count: 1 << 16)
        var filled = 0
        while true {
            let sent = chunk.withUnsafeBytes { send(fds[0], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard sent > 0 else { break }
            filled += sent
        }
        #expect(filled > 0 && errno == EAGAIN)
        let queue = DispatchQueue(label: "UdpChannelSourceOrderTests")
        let heard = DispatchSemaphore(value: 0)
        let fd = fds[0]
        let channel = queue.sync {
            UdpChannel(
                fd: fd, queue: queue,
                readable: {
                    var byte: UInt8 = 0
                    if recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) == 1 {
                        heard.signal()
                    }
                }, writable: {})
        }
        queue.sync {
            channel.watchWritable(true)
            channel.watchReadable(true)
        }
        var byte: UInt8 = 9
        #expect(send(fds[1], &byte, 1, 0) == 1)
        #expect(heard.wait(timeout: .now() + 5) == .success, "the byte was never reported readable")
        queue.sync { channel.close() }
    }
}
