// A CFHost lookup on the run loop, ported: look a name up with the answer delivered on the main
// thread's run loop, pick the interface to leave from, connect to the address through it. The name
// is answered from a hosts file the program writes to a temporary directory, and the server is a
// listener it starts on 127.0.0.1, so nothing leaves the machine and no real DNS server is involved.
// A name the hosts file does not have fails the way a failed CFHost resolution did. The client is a
// `@MainActor` class whose delegate methods assume the main actor — safe because the socket runs on
// `EventRunLoop.main`, whose callbacks arrive on the main thread. The program ends by itself.
//
//   swift run HostLookup
//
// The original, in Objective-C (CFNetwork, SystemConfiguration's getifaddrs walk, AsyncSocket):
//
//   - (void)lookUp:(NSString *)name {
//       host = CFHostCreateWithName(kCFAllocatorDefault, (__bridge CFStringRef)name);
//       CFHostClientContext context = { 0, (__bridge void *)self, NULL, NULL, NULL };
//       CFHostSetClient(host, HostResolved, &context);
//       CFHostScheduleWithRunLoop(host, CFRunLoopGetMain(), kCFRunLoopDefaultMode);
//       CFHostStartInfoResolution(host, kCFHostAddresses, NULL);
//   }
//
//   static void HostResolved(CFHostRef host, CFHostInfoType type, const CFStreamError *error,
//                            void *info) {
//       LookupClient *client = (__bridge LookupClient *)info;
//       if (error != NULL && error->error != 0) { [client lookupFailed:error->error]; return; }
//       NSArray *addresses = (__bridge NSArray *)CFHostGetAddressing(host, NULL);
//       [client connectToAddresses:addresses];      // sockaddr NSData, port 0: patched below
//   }
//
//   - (void)connectToAddresses:(NSArray *)addresses {
//       NSData *via = [self loopbackInterfaceAddress];   // getifaddrs: the IFF_LOOPBACK AF_INET one
//       NSMutableData *address = [addresses[0] mutableCopy];
//       ((struct sockaddr_in *)address.mutableBytes)->sin_port = htons(port);
//       [socket connectToAddress:address viaInterfaceAddress:via withTimeout:5 error:NULL];
//   }
//
// The port: `CFHostCreateWithName` … `CFHostStartInfoResolution` → `HostResolver.lookup(_:port:on:
// modes:completion:)` (the addresses come with the port already in them), the getifaddrs walk →
// `NetworkInterface.all()`, `connectToAddress:viaInterfaceAddress:` → the same call.
import AsyncSocketKit
import Foundation

let started = Date()

/// Prints a line at once, stamped with the milliseconds since the start and who speaks.
func say(_ who: String, _ text: String) {
    print(String(format: "%5.0f ms  ", Date().timeIntervalSince(started) * 1000) + "[\(who)] \(text)")
    fflush(nil)
}

/// "host:port" of a sockaddr.
func describe(_ address: Data) -> String {
    guard let (host, port) = QueueSocket.getHost(fromAddress: address) else { return "?" }
    return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
}

/// The server: greets every client with one line and closes; stops listening after the first.
final class GreetingServer: RunLoopSocketDelegate {
    let listener = RunLoopSocket()
    private var connections: [RunLoopSocket] = []

    init() {
        listener.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("server", "accepted \(host):\(port)")
        sock.write(Data("hello from the server on 127.0.0.1\n".utf8), withTimeout: 5, tag: 0)
        sock.disconnectAfterWriting()
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        guard sock !== listener else { return }
        connections.removeAll { $0 === sock }
        listener.disconnect()
    }
}

/// The client: main-actor state, delegate methods that step onto the main actor.
@MainActor
final class LookupClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    let resolver: HostResolver
    private(set) var succeeded = false

    init(resolver: HostResolver) {
        self.resolver = resolver
        socket.delegate = self
    }

    /// `CFHostStartInfoResolution` on the main run loop: the completion runs on the main thread.
    func lookUp(_ name: String, port: UInt16, then next: @escaping @MainActor () -> Void = {}) {
        say("client", "looking up \(name)")
        resolver.lookup(name, port: port, on: .main, modes: [.default]) { result in
            switch result {
            case .success(let addresses):
                say("client", "\(name) is \(addresses.map(describe).joined(separator: ", "))")
                self.connect(to: addresses)
            case .failure(let error):
                say("client", "\(name) did not resolve: \(error.domain) \(error.code) (\(error.localizedDescription))")
            }
            next()
        }
    }

    /// Picks the loopback interface of the address's family and connects through it.
    private func connect(to addresses: [Data]) {
        do {
            let interfaces = try NetworkInterface.all()
            guard
                let address = addresses.first(where: QueueSocket.isIPv4Address),
                let via = interfaces.first(where: { $0.flags.contains(.loopback) && $0.family == .ipv4 })
            else {
                say("client", "no IPv4 address, or no IPv4 loopback interface among \(interfaces)")
                return
            }
            say("client", "leaving through interface \(via.name) (\(via.host)) to \(describe(address))")
            try socket.connectToAddress(address, viaInterfaceAddress: via.address, withTimeout: 5)
        } catch {
            say("client", "could not connect: \(error)")
        }
    }

    // The protocol's methods are not main-actor methods. The socket calls them on its loop's thread,
    // which for EventRunLoop.main is the main thread, so they may assume the main actor.

    nonisolated func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        MainActor.assumeIsolated {
            say("client", "connected to \(host):\(port) from \(sock.localHost ?? "?")")
            sock.readData(to: RunLoopSocket.lfData, withTimeout: 5, tag: 0)
        }
    }

    nonisolated func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        MainActor.assumeIsolated {
            say("client", "read \"\(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))\"")
            succeeded = true
        }
    }

    nonisolated func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        MainActor.assumeIsolated {
            if let error {
                say("client", "error: \(error)")
            }
        }
    }

    nonisolated func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        MainActor.assumeIsolated {
            say("client", "disconnected")
        }
    }
}

// The hosts file, in a private temporary directory.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("HostLookup-\(UUID().uuidString)")
let hostsFile = directory.appendingPathComponent("hosts").path
do {
    try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try Data("127.0.0.1 service.example.test\n::1 service.example.test\n".utf8)
        .write(to: URL(fileURLWithPath: hostsFile))
} catch {
    say("main", "could not write the hosts file: \(error)")
    exit(1)
}
say("main", "hosts file \(hostsFile): service.example.test is 127.0.0.1 and ::1")

// Names in the hosts file never reach a server; others go to the nameserver given, a port on
// 127.0.0.1 where nobody answers, so they fail after the timeout (two attempts).
let resolver = HostResolver(nameservers: ["127.0.0.1:9"], hostsFile: hostsFile, timeout: 0.2)
let server = GreetingServer()
do {
    try server.listener.acceptOnInterface("127.0.0.1", port: 0)
} catch {
    say("main", "could not listen: \(error)")
    exit(1)
}
say("server", "listening on 127.0.0.1 port \(server.listener.localPort)")

let client = LookupClient(resolver: resolver)
let port = server.listener.localPort
client.lookUp("missing.example.test", port: port) {
    client.lookUp("service.example.test", port: port)
}
EventRunLoop.main.run()
try? FileManager.default.removeItem(at: directory)
say("main", client.succeeded ? "done" : "done, without the server's line")
exit(client.succeeded ? 0 : 1)
