// An HTTP/1.1 GET client on RunLoopSocket, in the way the run-loop AsyncSocket was used for HTTP:
// one read to the blank line that ends the header (readData(to: CR LF CR LF)), the Content-Length
// parsed from it, then one read of exactly that many bytes (readData(toLength:)). A response without
// Content-Length is read until the server closes. Prints the status and the body's length, and the
// body itself with --body. Every step is bounded by --timeout.
//
//   swift run HTTPGetClient [--timeout 5] [--body] http://127.0.0.1:8000/index.html
import AsyncSocketKit
import Foundation

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

let requestTag = 0
let headerTag = 1
let bodyTag = 2
let untilCloseTag = 3
let headerEnd = Data("\r\n\r\n".utf8)
let maximumHeaderLength = 64 * 1024

/// The parts of a response header this client uses.
struct ResponseHeader {
    let statusCode: Int
    let statusLine: String
    let fields: [(name: String, value: String)]

    /// Parses "HTTP/1.x CODE REASON" and the "Name: value" lines after it; `nil` if malformed.
    init?(_ data: Data) {
        let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let first = lines.first, first.hasPrefix("HTTP/") else { return nil }
        let parts = first.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let code = Int(parts[1]) else { return nil }
        statusCode = code
        statusLine = parts.dropFirst().joined(separator: " ")
        fields = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]).lowercased(),
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
    }

    func value(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Whether the status forbids a body (1xx, 204, 304).
    var hasNoBody: Bool { statusCode / 100 == 1 || statusCode == 204 || statusCode == 304 }
}

/// Sends one GET and reads one response.
final class HTTPGetClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    let url: URL
    let timeout: TimeInterval
    let printsBody: Bool
    private var header: ResponseHeader?
    private var body = Data()
    private var readingUntilClose = false
    /// `true` once the response was read, `false` after a failure, `nil` meanwhile.
    private var succeeded: Bool?
    /// The exit status once the client has finished, `nil` before.
    private(set) var status: Int32?

    init(url: URL, timeout: TimeInterval, printsBody: Bool) {
        self.url = url
        self.timeout = timeout
        self.printsBody = printsBody
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        let path = url.path.isEmpty ? "/" : url.path
        let target = url.query.map { path + "?" + $0 } ?? path
        let request =
            "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: AsyncSocketKit-HTTPGetClient\r\n"
            + "Accept: */*\r\nConnection: close\r\n\r\n"
        say("GET \(target) from \(host):\(port)")
        sock.write(Data(request.utf8), withTimeout: timeout, tag: requestTag)
        sock.readData(to: headerEnd, withTimeout: timeout, maxLength: maximumHeaderLength, tag: headerTag)
    }

    private var hostHeader: String {
        let host = url.host ?? ""
        let literal = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(literal):\($0)" } ?? literal
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        switch tag {
        case headerTag: handleHeader(data, sock)
        case bodyTag: finish(body: data, sock)
        default:
            body.append(data)
            sock.readData(withTimeout: timeout, tag: untilCloseTag)
        }
    }

    private func handleHeader(_ data: Data, _ sock: RunLoopSocket) {
        guard let header = ResponseHeader(data) else {
            fail("malformed response header", sock)
            return
        }
        self.header = header
        say("Status: \(header.statusLine)")
        if header.hasNoBody {
            finish(body: Data(), sock)
        } else if header.value("transfer-encoding").map({ $0.lowercased() != "identity" }) == true {
            fail("Transfer-Encoding \(header.value("transfer-encoding") ?? "") is not supported here", sock)
        } else if let text = header.value("content-length") {
            guard let length = Int(text), length >= 0 else {
                fail("bad Content-Length \(text)", sock)
                return
            }
            say("Content-Length: \(length)")
            if length == 0 {
                finish(body: Data(), sock)
            } else {
                sock.readData(toLength: length, withTimeout: timeout, tag: bodyTag)
            }
        } else {
            say("No Content-Length: reading until the server closes")
            readingUntilClose = true
            sock.readData(withTimeout: timeout, tag: untilCloseTag)
        }
    }

    private func finish(body: Data, _ sock: RunLoopSocket) {
        report(body)
        sock.disconnect()
    }

    private func report(_ body: Data) {
        say("Body: \(body.count) bytes")
        if printsBody {
            FileHandle.standardOutput.write(body)
        }
        succeeded = true
    }

    private func fail(_ reason: String, _ sock: RunLoopSocket) {
        say("Failed: \(reason)")
        succeeded = false
        sock.disconnect()
    }

    func onSocket(_ sock: RunLoopSocket, willDisconnectWithError error: (any Error)?) {
        if readingUntilClose, error == nil {
            body.append(sock.unreadData() ?? Data())
            report(body)
        } else if succeeded == nil {
            say("Failed: \(error.map { "\($0)" } ?? "the server closed the connection early")")
            succeeded = false
        }
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        status = succeeded == true ? 0 : 1
        EventRunLoop.current.stop()
    }
}

var timeout: TimeInterval = 5
var printsBody = false
var address: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--timeout": timeout = arguments.next().flatMap(TimeInterval.init) ?? timeout
    case "--body": printsBody = true
    default: address = argument
    }
}
guard let address, let url = URL(string: address), url.scheme == "http", let host = url.host, !host.isEmpty else {
    say("usage: HTTPGetClient [--timeout SECONDS] [--body] http://HOST[:PORT]/PATH")
    exit(2)
}
let client = HTTPGetClient(url: url, timeout: timeout, printsBody: printsBody)
do {
    let bareHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
    try client.socket.connectToHost(bareHost, onPort: UInt16(url.port ?? 80), withTimeout: timeout)
} catch {
    say("Could not connect: \(error)")
    exit(1)
}
EventRunLoop.current.run()
exit(client.status ?? 1)
