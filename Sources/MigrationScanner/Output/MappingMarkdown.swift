import Foundation

/// The mapping tables of `Migration/README.md`, rendered from ``APICatalog``: one table per group of
/// kinds, one row per entry. `asyncsocket migrate-scan --mapping-markdown` prints them; a test checks
/// that the README holds exactly this text between `<!-- mapping:begin -->` and `<!-- mapping:end -->`.
public enum MappingMarkdown {
    /// The marker line before the tables in the README.
    public static let beginMarker = "<!-- mapping:begin -->"
    /// The marker line after the tables in the README.
    public static let endMarker = "<!-- mapping:end -->"

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

    /// The text between the markers in `readme`, or `nil` when the markers are missing.
    public static func section(in readme: String) -> String? {
        guard let begin = readme.range(of: beginMarker + "\n"),
            let end = readme.range(of: endMarker, range: begin.upperBound..<readme.endIndex)
        else { return nil }
        return String(readme[begin.upperBound..<end.lowerBound])
    }

    private static func row(_ mapping: APIMapping) -> String {
        let v4 = ([mapping.v4] + mapping.aliases).map(code).joined(separator: ", ")
        let queue = mapping.queueSocket.spelling.map(code) ?? "none — \(mapping.queueSocket.instead ?? "")"
        let linux: String
        switch mapping.support {
        case .supported: linux = "yes"
        case .standIn: linux = "stand-in"
        case .unsupported: linux = "**no**"
        case .notYetSupported: linux = "**not yet**"
        }
        let runLoop = mapping.runLoopSocket == "none" ? "none" : code(mapping.runLoopSocket)
        let cells = [v4, mapping.swift.map(code) ?? "", runLoop, queue, linux, mapping.note ?? ""]
        return "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }

    private static func code(_ text: String) -> String {
        "`\(text)`"
    }
}
