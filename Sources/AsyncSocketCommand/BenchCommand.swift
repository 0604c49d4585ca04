import ArgumentParser
import Foundation

/// `asyncsocket bench`: a quick in-process benchmark of both socket classes on loopback.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure RunLoopSocket and QueueSocket on loopback: ping-pong round trips/s and bulk MiB/s.",
        discussion: """
            For each socket class, an echo server and a client in this process: first one small message at a \
            time (ping-pong), then large writes with several in flight (bulk; the MiB/s count bytes that came \
            back). Four measurements of --duration seconds each; progress on standard error, the results \
            table on standard output.
            """
    )

    @Option(help: "Seconds per measurement (0.01 to 10).")
    var duration: Double = 1

    @Option(help: "Bytes per ping-pong message.")
    var messageSize = 64

    @Option(help: "Bytes per bulk write.")
    var chunkSize = 65_536

    @Option(help: "The engine behind RunLoopSocket.")
    var engine: EngineChoice = .native

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0.01...10).contains(duration) else { throw ValidationError("--duration must be 0.01 to 10 seconds") }
        guard (1...65_536).contains(messageSize) else { throw ValidationError("--message-size must be 1 to 65536") }
        guard (1024...4_194_304).contains(chunkSize) else {
            throw ValidationError("--chunk-size must be 1 KiB to 4 MiB")
        }
    }

    func run() throws {
        let logger = logging.makeLogger(label: "asyncsocket.bench")
        let progress = BenchProgress()
        let legacy = LegacyBench(factory: RunLoopSocketFactory(engine: engine, logger: logger), progress: progress)
        let queue = QueueBench(logger: logger, progress: progress)
        let pingPong = BenchWorkload.pingPong(messageSize: messageSize)
        let bulk = BenchWorkload.bulk(chunkSize: chunkSize)
        let rows = [
            (
                "RunLoopSocket (\(engine.rawValue))", try legacy.measure(pingPong, duration: duration),
                try legacy.measure(bulk, duration: duration)
            ),
            (
                "QueueSocket", try queue.measure(pingPong, duration: duration),
                try queue.measure(bulk, duration: duration)
            ),
        ]
        print("\(messageSize)-byte ping-pong and \(chunkSize)-byte bulk echo on 127.0.0.1, \(duration) s each")
        print(pad("socket", 24) + pad("round trips/s", 16, right: true) + pad("MiB/s", 12, right: true))
        for (name, roundTrips, mebibytes) in rows {
            print(
                pad(name, 24) + pad(String(format: "%.0f", roundTrips), 16, right: true)
                    + pad(String(format: "%.1f", mebibytes), 12, right: true))
        }
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
