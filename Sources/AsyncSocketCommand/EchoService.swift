import Foundation

/// Sends every line back to its sender.
struct EchoService: LineService {
    func connected(_ connection: any LineConnection) {}

    func received(_ line: Data, from connection: any LineConnection) {
        connection.send(line)
    }

    func disconnected(_ connection: any LineConnection) {}
}
