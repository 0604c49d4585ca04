import AsyncSocketKit
import Foundation

/// Prints one line of the conversation at once, even into a pipe: who speaks, and whether the line
/// travelled in plaintext or inside TLS.
func say(_ who: String, _ text: String) {
    print("[\(who)] \(text)")
    fflush(nil)
}

/// What a line looked like on the wire, for the transcript.
func channel(_ sock: RunLoopSocket) -> String {
    sock.isSecure ? "tls  " : "plain"
}

/// The text of a line without its CR LF.
func text(of data: Data) -> String {
    var line = data[...]
    while let last = line.last, last == 0x0A || last == 0x0D {
        line = line.dropLast()
    }
    return String(decoding: line, as: UTF8.self)
}

/// Queues `line` with CR LF; `afterTLSMarker` marks a line queued behind a `startTLS` that has not
/// finished yet (it will travel encrypted).
func send(_ line: String, on sock: RunLoopSocket, as who: String, afterTLSMarker: Bool = false) {
    say(who, "\(afterTLSMarker ? "tls  " : channel(sock)) → \(line)")
    sock.write(Data((line + "\r\n").utf8), withTimeout: 10, tag: 0)
}

/// Queues the read of the next line.
func readLine(from sock: RunLoopSocket) {
    sock.readData(to: RunLoopSocket.lfData, withTimeout: 10, maxLength: 4096, tag: 0)
}
