// TLS on both sockets beside OpenSSL's own tools on this machine: handshakes per second (our clients
// against `openssl s_server`, `openssl s_time` against our servers, and s_time against s_server),
// and bulk MiB/s (our client to our server in one process, and s_time fetching a large page from
// s_server -WWW). Throw-away certificates are made at start and removed at the end.
//
// With `--nio-ssl PATH`, also s_time against the SwiftNIO-SSL peer (Peers/swift-nio-ssl-echo).
//
//   swift run -c release --package-path Benchmarks TLSBench [seconds] [--nio-ssl PATH]
import AsyncSocketKit
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let seconds = arguments.first.flatMap(Double.init) ?? 3
let nioSSLServer = arguments.firstIndex(of: "--nio-ssl").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let certificates = try Certificates()
defer { certificates.remove() }

func clientSettings() -> TLSSettings {
    var settings = TLSSettings(role: .client)
    settings.trustRoots = .only([certificates.caPath])
    return settings
}

func serverSettings() -> TLSSettings {
    var settings = TLSSettings(role: .server)
    settings.identity = .pem(
        certificatePath: certificates.certificatePath, keyPath: certificates.keyPath, password: nil)
    return settings
}

/// `openssl s_time` for `seconds` against `port`: connections per real second and bytes per connection.
func sTime(port: UInt16, page: String? = nil) throws -> (perSecond: Double, bytesPerConnection: Double) {
    var arguments = ["s_time", "-connect", "127.0.0.1:\(port)", "-new", "-time", String(Int(seconds))]
    if let page { arguments += ["-www", page] }
    let text = try OpenSSLProcess(arguments).waitUntilExit()
    // "236 connections in 4 real seconds, 16777261 bytes read per connection"
    guard let line = text.split(separator: "\n").last(where: { $0.contains("real seconds") }) else { return (0, 0) }
    let words = line.split(separator: " ")
    let connections = Double(words[0]) ?? 0
    let realSeconds = words.firstIndex(of: "real").flatMap { Double(words[$0 - 1]) } ?? seconds
    let bytes = words.firstIndex(of: "bytes").flatMap { Double(words[$0 - 1]) } ?? 0
    return (connections / max(realSeconds, 1), bytes)
}

let rows = Lock<[(String, String)]>([])
func report(_ name: String, _ value: String) {
    rows.set(rows.get() + [(name, value)])
    print("\(name): \(value)")
    fflush(nil)
}

// MARK: OpenSSL alone

let page = certificates.directory + "/bulk.bin"
_ = FileManager.default.createFile(atPath: page, contents: Data(count: 32 << 20))
let (referenceServer, referencePort) = try OpenSSLProcess.server(
    ["-cert", certificates.certificatePath, "-key", certificates.keyPath, "-WWW"],
    directory: certificates.directory)
let referenceHandshakes = try sTime(port: referencePort)
report(
    "handshakes/s, openssl s_time → openssl s_server (TLS 1.3)", String(format: "%.0f", referenceHandshakes.perSecond))
let referenceBulk = try sTime(port: referencePort, page: "/bulk.bin")
report(
    "bulk MiB/s, openssl s_time fetching 32 MiB pages from s_server -WWW (new connection each)",
    String(format: "%.0f", referenceBulk.perSecond * referenceBulk.bytesPerConnection / 1_048_576))

// MARK: Our clients against s_server

report(
    "handshakes/s, RunLoopSocket client → openssl s_server",
    String(format: "%.0f", RunLoopHandshakes.run(port: referencePort)))
report(
    "handshakes/s, QueueSocket client → openssl s_server",
    String(format: "%.0f", QueueHandshakes.run(port: referencePort)))
referenceServer.stop()

// MARK: s_time against our servers

do {
    let worker = EventRunLoopThread(name: "tls-server")
    let port = RunLoopTLSServer.start(on: worker.loop)
    report(
        "handshakes/s, openssl s_time → RunLoopSocket server", String(format: "%.0f", try sTime(port: port).perSecond))
    worker.terminate()
}
do {
    let server = QueueTLSServer()
    report(
        "handshakes/s, openssl s_time → QueueSocket server",
        String(format: "%.0f", try sTime(port: server.port).perSecond))
}

if let nioSSLServer {
    let server = try OpenSSLProcess(
        ["0", certificates.certificatePath, certificates.keyPath], executable: nioSSLServer)
    guard server.waitFor("listening on "),
        let line = server.text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
        let port = line.split(separator: " ").last.flatMap({ UInt16($0) })
    else {
        print("the SwiftNIO-SSL server did not start: \(server.text)")
        exit(1)
    }
    report(
        "handshakes/s, openssl s_time → SwiftNIO-SSL server (NIOSSLEchoServer)",
        String(format: "%.0f", try sTime(port: port).perSecond))
    server.stop()
}

// MARK: Bulk between our own sockets

report(
    "bulk MiB/s, RunLoopSocket → RunLoopSocket over TLS (256 MiB, two loop threads)",
    String(format: "%.0f", RunLoopBulk.run(megabytes: 256)))
report(
    "bulk MiB/s, QueueSocket → QueueSocket over TLS (256 MiB)", String(format: "%.0f", QueueBulk.run(megabytes: 256)))

print("")
print("| measure | value |")
print("|---|---|")
for (name, value) in rows.get() {
    print("| \(name) | \(value) |")
}
