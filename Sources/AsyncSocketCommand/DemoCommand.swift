import ArgumentParser
import AsyncSocketKit
import Foundation

/// `asyncsocket demo`: a short tour that ends by itself.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show EventRunLoop at work: modes, a modal run, timers and a worker thread."
    )

    func run() throws {
        let loop = EventRunLoop.current
        let modal = RunLoopMode("com.example.modal")
        let start = Date()
        @Sendable func say(_ text: String) {
            print(String(format: "%6.1f ms  ", Date().timeIntervalSince(start) * 1000) + text)
        }

        say("a default-mode timer is due in 20 ms; a worker thread will post a block in 40 ms")
        loop.addTimer(after: 0.02) { _ in say("default-mode timer fired (after the modal run)") }
        let worker = EventRunLoopThread(name: "demo-worker")
        worker.loop.perform {
            usleep(40_000)
            loop.perform(inModes: [.default, modal]) { say("block from the worker thread ran") }
        }

        loop.enqueue(inModes: [.default]) {
            say("entering a modal run: only \(modal) sources are serviced until it ends")
            var done = false
            var ticks = 0
            loop.addTimer(after: 0.01, repeating: 0.015, modes: [modal]) { timer in
                ticks += 1
                say("modal timer tick \(ticks)")
                if ticks == 4 {
                    timer.invalidate()
                    done = true
                }
            }
            while !done {
                loop.run(mode: modal, before: Date(timeIntervalSinceNow: 5))
            }
            say("modal run ended; back in \(loop.currentMode ?? .default)")
        }
        loop.run()
        worker.terminate()
        say("nothing left to wait for: run() returned")
    }
}
