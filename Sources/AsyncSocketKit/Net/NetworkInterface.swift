import Foundation

/// One IPv4 or IPv6 address of a network interface, as `getifaddrs` lists it: what ported code used to
/// pick a local address for ``RunLoopSocket/connectToAddress(_:viaInterfaceAddress:withTimeout:)`` (it
/// walked `getifaddrs` or `SCNetworkInterface` on macOS).
///
/// ```swift
/// let loopback = try NetworkInterface.all().first { $0.flags.contains(.loopback) && $0.family == .ipv4 }
/// try socket.connectToAddress(server, viaInterfaceAddress: loopback?.address, withTimeout: 5)
/// ```
public struct NetworkInterface: Sendable, Equatable, CustomStringConvertible {
    /// An address family.
    public enum Family: Sendable, Equatable {
        /// `AF_INET`.
        case ipv4
        /// `AF_INET6`.
        case ipv6
    }

    /// The interface's state and kind (`IFF_…`).
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `IFF_UP`: administratively up.
        public static let up = Flags(rawValue: UInt32(IFF_UP))
        /// `IFF_BROADCAST`: has a broadcast address.
        public static let broadcast = Flags(rawValue: UInt32(IFF_BROADCAST))
        /// `IFF_LOOPBACK`.
        public static let loopback = Flags(rawValue: UInt32(IFF_LOOPBACK))
        /// `IFF_POINTOPOINT`.
        public static let pointToPoint = Flags(rawValue: UInt32(IFF_POINTOPOINT))
        /// `IFF_RUNNING`: resources allocated, link up.
        public static let running = Flags(rawValue: UInt32(IFF_RUNNING))
        /// `IFF_MULTICAST`: supports multicast.
        public static let multicast = Flags(rawValue: UInt32(IFF_MULTICAST))
    }

    /// The interface's name ("lo", "eth0").
    public let name: String
    /// The interface's index (`if_nametoindex`), for IPv6 scope ids and multicast options.
    public let index: UInt32
    /// The address's family.
    public let family: Family
    /// The address as `sockaddr_in`/`sockaddr_in6` bytes with port 0 (what `viaInterfaceAddress:` takes).
    public let address: Data
    /// The address in numeric form ("127.0.0.1", "::1", "fe80::1%eth0").
    public let host: String
    /// The netmask as `sockaddr` bytes, when the system gives one.
    public let netmask: Data?
    /// The interface's flags.
    public let flags: Flags

    /// One line: name, address, flags.
    public var description: String { "\(name) \(host) flags 0x\(String(flags.rawValue, radix: 16))" }

    /// Every IPv4 and IPv6 address of every interface, in the system's order. Throws the POSIX error
    /// (`NSPOSIXErrorDomain`) when `getifaddrs` fails.
    public static func all() throws -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { throw SystemError.posix(errno, "getifaddrs") }
        defer { freeifaddrs(list) }
        var result: [NetworkInterface] = []
        var node = list
        while let current = node {
            defer { node = current.pointee.ifa_next }
            guard let raw = current.pointee.ifa_addr else { continue }
            let family = Int32(raw.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(
                family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            let address = SocketAddress(pointer: raw, length: length)
            let name = String(cString: current.pointee.ifa_name)
            let netmask = current.pointee.ifa_netmask.map { SocketAddress(pointer: $0, length: length).data }
            result.append(
                NetworkInterface(
                    name: name, index: if_nametoindex(current.pointee.ifa_name),
                    family: family == AF_INET ? .ipv4 : .ipv6,
                    address: address.data, host: address.host ?? "", netmask: netmask,
                    flags: Flags(rawValue: current.pointee.ifa_flags)))
        }
        return result
    }
}
