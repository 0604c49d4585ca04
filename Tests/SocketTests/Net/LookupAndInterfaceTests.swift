import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("HostResolver.lookup: the CFHost-style lookup answered on a run loop, in its modes")
struct HostLookupTests {
    @Test("a name with IPv4 and IPv6 records: both addresses with the port, on the loop, only in the asked mode")
    func answersInModes() async throws {
        let dns = ScriptedDNSServer(records: ["both.test": (v4: "127.0.0.1", v6: "::1")])
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address])
        try await onNewThread {
            let loop = EventRunLoop.current
            let modal = RunLoopMode("com.example.lookup")
            var answer: Result<[Data], NSError>?
            var answeredOnLoop = false
            resolver.lookup("both.test", port: 8080, on: loop, modes: [modal]) { result in
                answer = result
                answeredOnLoop = loop.isCurrent
            }
            #expect(answer == nil, "answered inside the call")
            // A run in the default mode does not deliver it; the modal one does.
            loop.run(mode: .default, timeout: 0.05)
            #expect(answer == nil)
            #expect(runUntil(mode: modal) { answer != nil })
            #expect(answeredOnLoop)
            let addresses = try #require(try answer?.get())
            let hosts = Set(addresses.compactMap(QueueSocket.host(fromAddress:)))
            #expect(hosts == ["127.0.0.1", "::1"])
            #expect(addresses.allSatisfy { QueueSocket.port(fromAddress: $0) == 8080 })
        }
    }

    @Test("an unknown name, an invalid one and a numeric one: NetDB errors and a literal, never inside the call")
    func failuresAndLiterals() async throws {
        let dns = ScriptedDNSServer()
        defer { dns.stop() }
        let resolver = HostResolver(nameservers: [dns.address])
        try await onNewThread {
            var answers: [String: Result<[Data], NSError>] = [:]
            for host in ["unknown.test", "", "127.0.0.1"] {
                resolver.lookup(host, port: 1) { answers[host] = $0 }
            }
            #expect(answers.isEmpty)
            #expect(runUntil { answers.count == 3 })
            for host in ["unknown.test", ""] {
                if case .failure(let error) = answers[host] {
                    #expect(error.domain == "kCFStreamErrorDomainNetDB", "\(host): \(error)")
                } else {
                    Issue.record("\(host): \(String(describing: answers[host]))")
                }
            }
            let literal = try answers["127.0.0.1"]?.get()
            #expect(literal?.compactMap(QueueSocket.host(fromAddress:)) == ["127.0.0.1"])
        }
    }
}

@Suite("NetworkInterface: the interface list that feeds viaInterfaceAddress:")
struct NetworkInterfaceTests {
    @Test("the loopback interface is listed with 127.0.0.1, up and loopback")
    func loopbackListed() throws {
        let all = try NetworkInterface.all()
        let lo = try #require(all.first { $0.family == .ipv4 && $0.host == "127.0.0.1" })
        #expect(lo.flags.contains(.loopback) && lo.flags.contains(.up))
        #expect(lo.index > 0)
        #expect(QueueSocket.host(fromAddress: lo.address) == "127.0.0.1")
        #expect(all.allSatisfy { !$0.name.isEmpty && !$0.host.isEmpty })
    }

    @Test("a connect via the listed loopback address binds to it", arguments: RunLoopSocket.Engine.allCases)
    func connectViaInterface(engine: RunLoopSocket.Engine) async throws {
        let lo = try #require(try NetworkInterface.all().first { $0.family == .ipv4 && $0.flags.contains(.loopback) })
        try await onNewThread {
            let recorder = Recorder()
            let listener = try RawListener()
            let client = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(client, "client")
            try client.connectToAddress(
                loopbackAddress(port: listener.port), viaInterfaceAddress: lo.address, withTimeout: 10)
            #expect(runUntil { client.isConnected })
            #expect(client.localHost == lo.host)
            client.disconnect()
        }
    }
}
