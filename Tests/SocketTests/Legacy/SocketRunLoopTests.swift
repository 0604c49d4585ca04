import AsyncSocketKit
import Foundation
import SocketTestSupport
import Testing

@Suite("RunLoopSocket: run-loop modes and moveToRunLoop")
struct SocketRunLoopTests {
    @Test(
        "a socket is frozen while the loop runs a mode it is not in, and resumes afterwards",
        arguments: RunLoopSocket.Engine.allCases)
    func frozenInForeignMode(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let foreign = RunLoopMode("foreign")
            let keep = EventRunLoop.current.addTimer(after: 3600, modes: [foreign]) { _ in }
            connection.client.readData(toLength: 4, withTimeout: -1, tag: 1)
            connection.peer.send("data")
            #expect(runUntil(mode: foreign, timeout: 0.2) { !connection.events.isEmpty } == false)
            #expect(connection.events.isEmpty)
            #expect(runUntil { !connection.events.isEmpty })
            #expect(connection.events == [.read(Data("data".utf8), tag: 1)])
            keep.invalidate()
            connection.client.disconnect()
        }
    }

    @Test(
        "add/remove/set return values; a removed mode really stops service; accepted sockets inherit modes",
        arguments: RunLoopSocket.Engine.allCases)
    func modeChanges(engine: RunLoopSocket.Engine) async throws {
        try await onNewThread {
            let recorder = Recorder()
            let modal = RunLoopMode("modal")
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            #expect(server.runLoopModes == [.default])
            #expect(server.setRunLoopModes([]) == false)
            #expect(server.setRunLoopModes([.default]) == true)
            #expect(server.addRunLoopMode(nil) == false)
            #expect(server.addRunLoopMode(modal) == true)
            #expect(server.addRunLoopMode(modal) == true)
            #expect(server.runLoopModes == [.default, modal])
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let peer = try RawPeer(port: server.localPort)
            // The listener is serviced in the modal mode: the child is accepted there.
            #expect(runUntil(mode: modal) { recorder.accepted.first?.isConnected == true })
            let child = recorder.accepted[0]
            #expect(child.runLoopModes == [.default, modal])
            #expect(child.removeRunLoopMode(RunLoopMode("absent")) == true)
            #expect(child.removeRunLoopMode(nil) == false)
            #expect(child.removeRunLoopMode(modal) == true)
            #expect(child.removeRunLoopMode(.default) == false)
            #expect(child.runLoopModes == [.default])
            let keep = EventRunLoop.current.addTimer(after: 3600, modes: [modal]) { _ in }
            child.readData(toLength: 2, withTimeout: -1, tag: 1)
            peer.send("hi")
            #expect(runUntil(mode: modal, timeout: 0.2) { recorder.events("child1").count > 2 } == false)
            #expect(runUntil { recorder.events("child1").count > 2 })
            #expect(recorder.events("child1").last == .read(Data("hi".utf8), tag: 1))
            keep.invalidate()
            child.disconnect()
            server.disconnect()
        }
    }

    @Test(
        "moveToRunLoop inside didConnectToHost of an accepted socket: its waiting read completes on the new loop's thread, not the old",
        arguments: RunLoopSocket.Engine.allCases)
    func moveInDidConnect(engine: RunLoopSocket.Engine) async throws {
        let worker = EventRunLoopThread(name: "move-target")
        defer { worker.terminate() }
        try await onNewThread {
            let recorder = Recorder()
            let server = RunLoopSocket(delegate: recorder, engine: engine)
            recorder.name(server, "server")
            try server.acceptOnInterface("127.0.0.1", port: 0)
            let testThread = pthread_self()
            let readOnTestThread = Ref<Bool?>(nil)
            // The read is queued at the accept; the peer's bytes are there before the connection is
            // reported, so a read pass right after didConnectToHost would complete it at once.
            recorder.onAccept = { _, child in child.readData(toLength: 5, withTimeout: 10, tag: 1) }
            recorder.onConnect = { socket in socket.moveToRunLoop(worker.loop) }
            recorder.onRead = { _, _, _ in readOnTestThread.value = pthread_equal(pthread_self(), testThread) != 0 }
            let peer = try RawPeer(port: server.localPort)
            peer.send("hello")
            #expect(runUntil { recorder.events("child1").contains { if case .connected = $0 { true } else { false } } })
            #expect(waitUntil { recorder.events("child1").contains(.read(Data("hello".utf8), tag: 1)) })
            #expect(readOnTestThread.value == false)
            let child = try #require(recorder.accepted.first)
            let closed = DispatchSemaphore(value: 0)
            worker.loop.perform {
                child.disconnect()
                closed.signal()
            }
            closed.wait()
            server.disconnect()
        }
    }

    @Test(
        "moveToRunLoop mid-stream: nil → false, same → true; no byte lost; later callbacks on the new thread",
        arguments: RunLoopSocket.Engine.allCases)
    func moveMidStream(engine: RunLoopSocket.Engine) async throws {
        let worker = EventRunLoopThread(name: "move-target")
        defer { worker.terminate() }
        try await onNewThread {
            let connection = try ClientConnection(engine: engine)
            let client = connection.client
            #expect(client.moveToRunLoop(nil) == false)
            #expect(client.moveToRunLoop(EventRunLoop.current) == true)
            let lines = Ref<[String]>([])
            let threads = Ref<[Bool]>([])
            let testThread = pthread_self()
            let done = DispatchSemaphore(value: 0)
            connection.recorder.onRead = { sock, data, _ in
                lines.value.append(String(decoding: data, as: UTF8.self))
                threads.value.append(pthread_equal(pthread_self(), testThread) != 0)
                if lines.value.count == 100 {
                    done.signal()
                    return
                }
                sock.readData(to: RunLoopSocket.lfData, withTimeout: 30, tag: lines.value.count)
                if lines.value.count == 3 {
                    // Queued reads move along; every call after the move belongs to the new thread.
                    #expect(sock.moveToRunLoop(worker.loop) == true)
                }
            }
            client.readData(to: RunLoopSocket.lfData, withTimeout: 30, tag: 0)
            var text = ""
            for index in 0..<100 {
                text += "line \(index)\n"
            }
            let payload = bytes(text)
            // Run our loop until the socket has moved away, sending the lines in small pieces.
            var sent = 0
            while sent < payload.count {
                let end = min(sent + 7, payload.count)
                connection.peer.send(Array(payload[sent..<end]))
                sent = end
                EventRunLoop.current.run(mode: .default, timeout: 0.001)
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(lines.value == (0..<100).map { "line \($0)\n" })
            #expect(threads.value.prefix(3).allSatisfy { $0 })
            #expect(threads.value.dropFirst(3).allSatisfy { !$0 })
            let closed = DispatchSemaphore(value: 0)
            worker.loop.perform {
                client.disconnect()
                closed.signal()
            }
            closed.wait()
        }
    }
}

@Suite("RunLoopSocket: thread affinity")
struct SocketThreadAffinityTests {
    @Test(
        "using a socket from a thread other than its loop's stops the program, naming the call and threads",
        arguments: RunLoopSocket.Engine.allCases)
    func wrongThread(engine: RunLoopSocket.Engine) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [engine] in
            let worker = EventRunLoopThread(name: "socket-owner")
            let made = DispatchSemaphore(value: 0)
            let box = Ref<RunLoopSocket?>(nil)
            let recorder = Recorder()
            worker.loop.perform {
                let socket = RunLoopSocket(delegate: recorder, engine: engine)
                try? socket.acceptOnInterface("127.0.0.1", port: 0)
                box.value = socket
                made.signal()
            }
            made.wait()
            box.value?.readData(withTimeout: -1, tag: 0)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("RunLoopSocket.readData(withTimeout:tag:) called on thread"))
        #expect(message.contains("'socket-owner'"))
    }
}
