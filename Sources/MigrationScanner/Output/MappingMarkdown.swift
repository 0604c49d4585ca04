import Foundation

/// The mapping tables of `Migration/README.md`, rendered from ``APICatalog``: one table per group of
/// kinds, one row per entry. `asyncsocket migrate-scan --mapping-markdown` prints them; a test checks
/// that the README holds exactly this text between `<!-- mapping:begin -->` and `<!-- mapping:end -->`.
public enum MappingMarkdown {
    /// The marker line before the tables in the README.
    public static let beginMarker = "<!-- mapping:begin -->"
    /// The marker line after the tables in the README.
    public static let endMarker = "<!-- mapping:end -->"
    /// The marker line before the GCDAsyncSocket → QueueSocket table in the README.
    public static let gcdBeginMarker = "<!-- gcd-mapping:begin -->"
    /// The marker line after the GCDAsyncSocket → QueueSocket table in the README.
    public static let gcdEndMarker = "<!-- gcd-mapping:end -->"
    /// The marker line before the UDP table in the README.
    public static let udpBeginMarker = "<!-- udp-mapping:begin -->"
    /// The marker line after the UDP table in the README.
    public static let udpEndMarker = "<!-- udp-mapping:end -->"

    private static let gcdGroups: [(title: String, kinds: Set<APIKind>)] = [
        ("GCDAsyncSocket: classes, protocols and headers", [.type, .header]),
        ("GCDAsyncSocket: methods", [.method]),
        ("GCDAsyncSocket: delegate methods", [.delegateMethod]),
        ("GCDAsyncSocket: constants, error codes and TLS settings", [.constant, .errorCode, .tlsSetting]),
    ]

    private static let groups: [(title: String, kinds: Set<APIKind>)] = [
        ("Classes, protocols and headers", [.type, .header]),
        ("Methods", [.method]),
        ("Delegate methods", [.delegateMethod]),
        ("Constants and error codes", [.constant, .errorCode]),
        ("TLS settings", [.tlsSetting]),
        ("Platform API around the socket", [.platformMethod, .platformSymbol]),
    ]

    /// The tables for `entries`, ending with a newline.
    public static func render(_ entries: [APIMapping] = APICatalog.entries) -> String {
        var lines: [String] = []
        for group in groups {
            let rows = entries.filter { group.kinds.contains($0.kind) }
            guard !rows.isEmpty else { continue }
            lines += [
                "### \(group.title)", "",
                "| v4 (Objective-C) | Swift (bridged) | RunLoopSocket | QueueSocket | Linux | Note |",
                "|---|---|---|---|---|---|",
            ]
            lines += rows.map(row)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The GCDAsyncSocket → QueueSocket table for `entries`, ending with a newline: one table per group
    /// of kinds, with the QueueSocket spelling (or "none" and what to use instead) for every entry.
    /// `asyncsocket migrate-scan --gcd-mapping-markdown` prints it.
    public static func renderGCD(_ entries: [APIMapping] = APICatalog.gcdEntries) -> String {
        var lines: [String] = []
        for group in gcdGroups {
            let rows = entries.filter { group.kinds.contains($0.kind) }
            guard !rows.isEmpty else { continue }
            lines += [
                "### \(group.title)", "",
                "| GCDAsyncSocket (Objective-C) | Swift (bridged) | QueueSocket | Linux | Note |",
                "|---|---|---|---|---|",
            ]
            lines += rows.map { mapping in
                [
                    ([mapping.v4] + mapping.aliases).map(code).joined(separator: ", "), mapping.swift.map(code) ?? "",
                    queueCell(mapping), linuxCell(mapping), mapping.note ?? "",
                ]
            }.map(tableRow)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The UDP table for `entries`, ending with a newline: every member, delegate method, constant and
    /// error code of `AsyncUdpSocket` (with its `RunLoopUdpSocket` spelling) and `GCDAsyncUdpSocket` (with
    /// its `QueueUdpSocket` one). `asyncsocket migrate-scan --udp-mapping-markdown` prints it.
    public static func renderUDP(_ entries: [APIMapping] = APICatalog.udpEntries) -> String {
        var lines = [
            "### UDP: `AsyncUdpSocket` → `RunLoopUdpSocket`, `GCDAsyncUdpSocket` → `QueueUdpSocket`", "",
            "`AsyncUdpSocket` is `RunLoopUdpSocket` (either engine), `GCDAsyncUdpSocket` is `QueueUdpSocket`. "
                + "Where each differs from its original, the sections `RunLoopUdpSocket` and `QueueUdpSocket` "
                + "under \"Deliberate differences\" say so.",
            "",
            "| Objective-C | class | Swift (bridged) | AsyncSocketKit | Note |",
            "|---|---|---|---|---|",
        ]
        lines += entries.map { mapping in
            let ours: String
            switch (mapping.support, mapping.api) {
            case (.supported, .asyncUdpSocket): ours = code(mapping.runLoopSocket)
            case (.supported, _): ours = mapping.queueSocket.spelling.map(code) ?? ""
            default: ours = "**none** — " + (mapping.queueSocket.instead ?? "")
            }
            return [
                code(mapping.v4), mapping.api.rawValue, mapping.swift.map(code) ?? "", ours,
                (mapping.note ?? "").trimmingCharacters(in: .whitespaces),
            ]
        }.map(tableRow)
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// The text between the markers in `readme`, or `nil` when the markers are missing.
    public static func section(in readme: String) -> String? {
        section(in: readme, begin: beginMarker, end: endMarker)
    }

    /// The text between the lines `begin` and `end` in `readme`, or `nil` when they are missing.
    public static func section(in readme: String, begin beginMarker: String, end endMarker: String) -> String? {
        guard let begin = readme.range(of: beginMarker + "\n"),
            let end = readme.range(of: endMarker, range: begin.upperBound..<readme.endIndex)
        else { return nil }
        return String(readme[begin.upperBound..<end.lowerBound])
    }

    private static func tableRow(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }

    private static func queueCell(_ mapping: APIMapping) -> String {
        mapping.queueSocket.spelling.map(code) ?? "none — \(mapping.queueSocket.instead ?? "")"
    }

    private static func linuxCell(_ mapping: APIMapping) -> String {
        switch mapping.support {
        case .supported: return "yes"
        case .standIn: return "stand-in"
        case .unsupported: return "**no**"
        }
    }

    private static func row(_ mapping: APIMapping) -> String {
        let v4 = ([mapping.v4] + mapping.aliases).map(code).joined(separator: ", ")
        let queue = mapping.queueSocket.spelling.map(code) ?? "none — \(mapping.queueSocket.instead ?? "")"
        let linux: String
        switch mapping.support {
        case .supported: linux = "yes"
        case .standIn: linux = "stand-in"
        case .unsupported: linux = "**no**"
        }
        let runLoop = mapping.runLoopSocket == "none" ? "none" : code(mapping.runLoopSocket)
        let cells = [v4, mapping.swift.map(code) ?? "", runLoop, queue, linux, mapping.note ?? ""]
        return "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }

    private static func code(_ text: String) -> String {
        "`\(text)`"
    }
}
