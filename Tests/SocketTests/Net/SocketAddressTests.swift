import AsyncSocketKit
import Foundation
import Testing

@Suite("SocketAddress: sockaddr bytes in, host, port and bytes out, for every family and length")
struct SocketAddressTests {
    @Test("IPv4: 16 bytes, the numeric host and the port, equal after a round trip through its bytes")
    func ipv4() throws {
        var address = try #require(SocketAddress.numeric("192.0.2.7", port: 8080))
        #expect(address.isIPv4 && !address.isIPv6)
        #expect(address.host == "192.0.2.7")
        #expect(address.port == 8080)
        #expect(address.data.count == MemoryLayout<sockaddr_in>.size)
        #expect(SocketAddress(data: address.data) == address)
        address.port = 443
        #expect(address.port == 443 && address.host == "192.0.2.7")
        let (family, length) = address.withSockaddr { (Int32($0.pointee.sa_family), $1) }
        #expect(family == AF_INET && length == socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    @Test("IPv6: 28 bytes, the numeric host and the port")
    func ipv6() throws {
        var address = try #require(SocketAddress.numeric("2001:db8::1", port: 53))
        #expect(address.isIPv6 && !address.isIPv4)
        #expect(address.host == "2001:db8::1")
        #expect(address.port == 53)
        #expect(address.data.count == MemoryLayout<sockaddr_in6>.size)
        #expect(SocketAddress(data: address.data) == address)
        address.port = 5353
        #expect(address.port == 5353 && address.description == "[2001:db8::1]:5353")
    }

    @Test("Unix-domain: the path, whole or as short as getpeername returns it, and its bytes unchanged")
    func unixDomain() throws {
        let address = try #require(SocketAddress.unix(path: "/tmp/some.sock"))
        #expect(address.family == AF_UNIX)
        #expect(address.host == "/tmp/some.sock" && address.port == 0)
        #expect(SocketAddress(data: address.data) == address)
        // The family and the path with its terminating zero, no padding.
        let short = address.data.prefix(2 + "/tmp/some.sock".utf8.count + 1)
        let parsed = try #require(SocketAddress(data: Data(short)))
        #expect(parsed.unixPath == "/tmp/some.sock")
        #expect(parsed.data == Data(short))
        let (family, length) = parsed.withSockaddr { (Int32($0.pointee.sa_family), $1) }
        #expect(family == AF_UNIX && length == socklen_t(short.count))
    }

    @Test("bytes too short for their family, or longer than any sockaddr, are no address")
    func rejected() {
        #expect(SocketAddress(data: Data([2])) == nil)
        let inet = SocketAddress.ipv4(loopback: true, port: 1).data
        #expect(SocketAddress(data: inet.prefix(8)) == nil)
        let inet6 = SocketAddress.ipv6(loopback: true, port: 1).data
        #expect(SocketAddress(data: inet6.prefix(20)) == nil)
        #expect(SocketAddress(data: Data(count: MemoryLayout<sockaddr_storage>.size + 1)) == nil)
    }

    @Test("an unknown family keeps its bytes and has no host and port 0; padding after an IPv4 address is dropped")
    func unusualButKept() throws {
        var unknown = Data(count: 6)
        unknown[0] = 99
        let other = try #require(SocketAddress(data: unknown))
        #expect(other.host == nil && other.port == 0 && other.data == unknown)
        let plain = try #require(SocketAddress.numeric("198.51.100.1", port: 7))
        let long = try #require(SocketAddress(data: plain.data + Data(count: 16)))
        #expect(long.host == "198.51.100.1" && long.port == 7 && long.data.count == MemoryLayout<sockaddr_in>.size)
        #expect(long == plain)
    }

    @Test("an address is small: sockets keep theirs for their whole life")
    func small() {
        #expect(MemoryLayout<SocketAddress>.size <= 40)
    }
}
