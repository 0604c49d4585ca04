import AsyncSocketCore
import Foundation

// Opening the listening sockets of an accept, for every face: SO_REUSEADDR on IP sockets, IPV6_V6ONLY
// on IPv6 ones (so the two families can share a port), a backlog of 1024; with port 0 and both
// families, the IPv6 listener takes the port the kernel gave the IPv4 one. With `reusePort`,
// SO_REUSEPORT before the bind: listeners of the same user may then share the port, and the kernel
// spreads the incoming connections over them (several processes or loops serving one port).

/// A listening socket that could not be made: what failed, for the face to report in its terms.
struct ListenFailure: Error {
    /// The system call that failed ("socket", "bind", "listen").
    let operation: String
    let error: NSError
    let address: SocketAddress
}

enum ListenSockets {
    /// Listening sockets for `v4` and `v6` (either may be absent). With `toleratingMissingIPv6`, an
    /// IPv6 listener the machine cannot make (no IPv6: EAFNOSUPPORT, EADDRNOTAVAIL) is left out when
    /// an IPv4 one exists. On a failure every socket made so far is closed.
    static func open(
        v4: SocketAddress?, v6: SocketAddress?, toleratingMissingIPv6: Bool, reusePort: Bool = false
    ) throws(ListenFailure) -> (v4: Int32?, v6: Int32?) {
        var socket4: Int32?
        var v6 = v6
        if var v4 {
            let socket = try open(v4, reusePort: reusePort)
            socket4 = socket
            v4.port = SocketOps.localAddress(socket)?.port ?? v4.port
            if v6?.port == 0 {
                v6?.port = v4.port
            }
        }
        guard let v6 else { return (socket4, nil) }
        do {
            return (socket4, try open(v6, reusePort: reusePort))
        } catch {
            let missing = error.error.code == Int(EAFNOSUPPORT) || error.error.code == Int(EADDRNOTAVAIL)
            if toleratingMissingIPv6 && missing && socket4 != nil {
                return (socket4, nil)
            }
            if let socket4 {
                close(socket4)
            }
            throw error
        }
    }

    /// One listening socket bound to `address`.
    static func open(_ address: SocketAddress, reusePort: Bool = false) throws(ListenFailure) -> Int32 {
        let socket: Int32
        switch SocketOps.makeStreamSocket(family: address.family) {
        case .success(let made): socket = made
        case .failure(let error): throw ListenFailure(operation: "socket", error: error, address: address)
        }
        if address.isIP {
            SocketOps.setOption(socket, level: SOL_SOCKET, name: SO_REUSEADDR)
            if reusePort {
                SocketOps.setOption(socket, level: SOL_SOCKET, name: SO_REUSEPORT)
            }
        }
        if address.isIPv6 {
            SocketOps.setOption(socket, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY)
        }
        for (operation, call) in [
            ("bind", { SocketOps.bind(socket, to: address) }), ("listen", { SocketOps.listen(socket) }),
        ] {
            if let code = call() {
                close(socket)
                throw ListenFailure(operation: operation, error: SystemError.posix(code, operation), address: address)
            }
        }
        return socket
    }
}
