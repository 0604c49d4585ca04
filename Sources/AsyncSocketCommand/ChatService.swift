import AsyncSocketCore
import Foundation

/// Relays every line to every other client, as "name: line"; greets newcomers and announces joins
/// and departures with lines starting "* ".
final class ChatService: LineService {
    private let members = Lock<[ObjectIdentifier: any LineConnection]>([:])

    func connected(_ connection: any LineConnection) {
        let others = members.withLock { members in
            defer { members[ObjectIdentifier(connection)] = connection }
            return Array(members.values)
        }
        connection.send(Data("* welcome \(connection.name), \(others.count) others here\n".utf8))
        broadcast("* \(connection.name) joined\n", to: others)
    }

    func received(_ line: Data, from connection: any LineConnection) {
        var text = line[...]
        while let last = text.last, last == 0x0A || last == 0x0D {
            text = text.dropLast()
        }
        let others = members.withLock { $0.values.filter { $0 !== connection } }
        broadcast("\(connection.name): \(String(decoding: text, as: UTF8.self))\n", to: others)
    }

    func disconnected(_ connection: any LineConnection) {
        let others = members.withLock { members in
            members[ObjectIdentifier(connection)] = nil
            return Array(members.values)
        }
        broadcast("* \(connection.name) left\n", to: others)
    }

    private func broadcast(_ text: String, to connections: [any LineConnection]) {
        let data = Data(text.utf8)
        for connection in connections {
            connection.send(data)
        }
    }
}
