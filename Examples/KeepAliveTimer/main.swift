// An NSTimer keep-alive ported to EventRunLoop. A client pings its server every 200 ms and gives
// each PING 150 ms to be answered; the server answers three and then hangs, so the fourth PING's
// deadline fires and the client gives up. Beside it, a Foundation `Timer`, a
// `RunLoop.current.perform` block (`perform(_:with:afterDelay:)` does not exist without Objective-C),
// a `DispatchQueue.main.async` block and a `Task` on the main actor, made at the start, show what does
// not work: none of them runs while the thread sits in `EventRunLoop.run()`. Everything is printed
// in order; the program ends by itself in about a second.
//
//   swift run KeepAliveTimer
//
// The original client, in Objective-C on the run-loop AsyncSocket:
//
//   - (void)onSocket:(AsyncSocket *)sock didConnectToHost:(NSString *)host port:(UInt16)port {
//       keepAliveTimer = [NSTimer scheduledTimerWithTimeInterval:0.2 target:self
//                                 selector:@selector(sendKeepAlive:) userInfo:nil repeats:YES];
//       [sock readDataToData:[AsyncSocket LFData] withTimeout:-1 tag:0];
//   }
//
//   - (void)sendKeepAlive:(NSTimer *)timer {
//       [socket writeData:[@"PING\n" dataUsingEncoding:NSUTF8StringEncoding] withTimeout:-1 tag:0];
//       [self performSelector:@selector(pongMissing) withObject:nil afterDelay:0.15];
//   }
//
//   - (void)onSocket:(AsyncSocket *)sock didReadData:(NSData *)data withTag:(long)tag {
//       [NSObject cancelPreviousPerformRequestsWithTarget:self selector:@selector(pongMissing)
//                                                  object:nil];
//       [sock readDataToData:[AsyncSocket LFData] withTimeout:-1 tag:0];
//   }
//
//   - (void)pongMissing {
//       NSLog(@"no PONG within 150 ms: the server is gone");
//       [socket disconnect];
//   }
//
//   - (void)onSocketDidDisconnect:(AsyncSocket *)sock {
//       [keepAliveTimer invalidate];
//       keepAliveTimer = nil;
//   }
//
// The port: `scheduledTimerWithTimeInterval:…repeats:YES` → `addTimer(after:repeating:)`,
// `performSelector:withObject:afterDelay:` → `addTimer(after:)` (keep the RunLoopTimer it returns),
// `cancelPreviousPerformRequestsWithTarget:…` → `invalidate()` on that timer, `-[NSTimer invalidate]`
// → `invalidate()`.
import AsyncSocketKit
import Dispatch
import Foundation

let started = Date()

/// How many "[foundation]" lines have been printed. Every line is printed on the main thread, the
/// only one that touches this.
nonisolated(unsafe) var foundationLines = 0

/// Prints a line at once, stamped with the milliseconds since the start and who speaks.
func say(_ who: String, _ text: String) {
    if who == "foundation" {
        foundationLines += 1
    }
    print(String(format: "%5.0f ms  ", Date().timeIntervalSince(started) * 1000) + "[\(who)] \(text)")
    fflush(nil)
}

/// The text of a line without its LF.
func text(of data: Data) -> String {
    String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
}

/// The server: answers the first three PINGs with PONG, then hangs (reads on, answers nothing).
final class PingServer: RunLoopSocketDelegate {
    let listener = RunLoopSocket()
    private var connections: [RunLoopSocket] = []
    private var answered = 0

    init() {
        listener.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didAcceptNewSocket newSocket: RunLoopSocket) {
        connections.append(newSocket)
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        if answered < 3 {
            answered += 1
            sock.write(Data("PONG \(answered)\n".utf8), withTimeout: -1, tag: 0)
        } else {
            say("server", "got \(text(of: data)), and hangs")
        }
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        guard sock !== listener else { return }
        say("server", "the client closed the connection; the server stops")
        connections.removeAll { $0 === sock }
        listener.disconnect()
    }
}

/// The port of the Objective-C client above.
final class KeepAliveClient: RunLoopSocketDelegate {
    let socket = RunLoopSocket()
    /// `NSTimer *keepAliveTimer`.
    private var keepAliveTimer: RunLoopTimer?
    /// The pending `performSelector:@selector(pongMissing) … afterDelay:`, kept to cancel it.
    private var pongDeadline: RunLoopTimer?
    private var pings = 0

    init() {
        socket.delegate = self
    }

    func onSocket(_ sock: RunLoopSocket, didConnectToHost host: String, port: UInt16) {
        say("client", "connected; a PING every 200 ms")
        keepAliveTimer = EventRunLoop.current.addTimer(after: 0.2, repeating: 0.2) { [weak self] _ in
            self?.sendKeepAlive()
        }
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    private func sendKeepAlive() {
        pings += 1
        say("client", "PING \(pings)")
        socket.write(Data("PING \(pings)\n".utf8), withTimeout: -1, tag: 0)
        pongDeadline?.invalidate()
        pongDeadline = EventRunLoop.current.addTimer(after: 0.15) { [weak self] _ in
            self?.pongMissing()
        }
    }

    func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int) {
        pongDeadline?.invalidate()  // cancelPreviousPerformRequestsWithTarget:selector:object:
        pongDeadline = nil
        say("client", "\(text(of: data)): the deadline is cancelled")
        sock.readData(to: RunLoopSocket.lfData, withTimeout: -1, tag: 0)
    }

    private func pongMissing() {
        say("client", "no PONG within 150 ms: the server is gone; disconnecting")
        socket.disconnect()
    }

    func onSocketDidDisconnect(_ sock: RunLoopSocket) {
        keepAliveTimer?.invalidate()
        keepAliveTimer = nil
        pongDeadline?.invalidate()
        pongDeadline = nil
        say("client", "disconnected; the keep-alive timer is invalidated")
    }
}

// What does not work: Foundation's Timer and the main dispatch queue (which also runs the main
// actor's jobs) are serviced by Foundation's RunLoop, which does not run while this thread sits in
// EventRunLoop.run().
let foundationTimer = Timer.scheduledTimer(withTimeInterval: 0.05, repeats: false) { _ in
    say("foundation", "the Foundation Timer (due at 50 ms) fires")
}
DispatchQueue.main.async {
    say("foundation", "the DispatchQueue.main.async block runs")
}
Task { @MainActor in
    say("foundation", "the Task on the main actor runs")
}
RunLoop.current.perform {
    say("foundation", "the RunLoop.current.perform block runs")
}

let server = PingServer()
let client = KeepAliveClient()
do {
    try server.listener.acceptOnInterface("127.0.0.1", port: 0)
    try client.socket.connectToHost("127.0.0.1", onPort: server.listener.localPort, withTimeout: 2)
} catch {
    say("main", "could not start: \(error)")
    exit(1)
}
EventRunLoop.current.run()
say("main", "EventRunLoop.run() returned (nothing left to wait for)")
say("main", "now Foundation's run loop runs until those four have run (at most 5 s)")
let foundationDeadline = Date(timeIntervalSinceNow: 5)
while foundationLines < 4 && Date() < foundationDeadline {
    RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
}
say("main", "done")
