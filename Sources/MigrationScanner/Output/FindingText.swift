import Foundation

/// The `migrate-scan` command's output: one line per use, a summary, or a JSON array.
public enum FindingText {
    /// `file:line:column: v4 → RunLoopSocket | QueueSocket: … | note`, marking stand-ins and
    /// unsupported API. A Swift spelling or an alias is shown beside the v4 spelling.
    public static func line(_ finding: ScanFinding) -> String {
        let mapping = finding.mapping
        if mapping.kind == .delegateNearMiss {
            // v4 holds what was found, runLoopSocket the exact requirement, the note the explanation.
            return "\(finding.file):\(finding.line):\(finding.column): warning: \(mapping.v4) → "
                + "\(mapping.runLoopSocket) | \(mapping.note ?? "")"
        }
        var v4 = finding.found == mapping.v4 ? mapping.v4 : "\(mapping.v4) (as \(finding.found))"
        if mapping.api.isSocketClass, mapping.api != .asyncSocket, mapping.kind.isSelector {
            v4 = "\(mapping.api.rawValue) " + v4
        }
        let queue = mapping.queueSocket.spelling ?? "none — \(mapping.queueSocket.instead ?? "")"
        var text = "\(finding.file):\(finding.line):\(finding.column): \(v4) → "
        switch mapping.api {
        case .gcdAsyncSocket:
            // The GCD classes' counterparts are the queue faces alone.
            text += "QueueSocket: " + queue
        case .gcdAsyncUdpSocket:
            text += "QueueUdpSocket: " + queue
        case .asyncUdpSocket:
            text += mapping.runLoopSocket + " | QueueUdpSocket: " + queue
        default:
            text += mapping.runLoopSocket + " | QueueSocket: " + queue
        }
        let label: String
        switch mapping.support {
        case .supported: label = "note"
        case .standIn: label = "stand-in"
        case .unsupported: label = "unsupported on Linux"
        }
        if let note = mapping.note {
            text += " | \(label): \(note)"
        } else if mapping.support != .supported {
            text += " | \(label)"
        }
        return text
    }

    /// One line: how many uses in how many files, how many unsupported, how many with stand-ins, how
    /// many delegate near-misses, and how many paths could not be read.
    public static func summary(_ report: ScanReport) -> String {
        var text =
            "\(count(report.findings.count, "use")) of the v4 API in \(report.filesWithFindings) of "
            + "\(count(report.filesScanned, "file")) scanned: \(report.unsupported.count) unsupported on Linux"
            + ", \(report.standIns.count) with stand-ins"
        if !report.nearMisses.isEmpty {
            let misses = report.nearMisses.count
            text += ", \(misses) delegate near-miss\(misses == 1 ? "" : "es")"
        }
        if !report.problems.isEmpty {
            text += "; \(count(report.problems.count, "path")) could not be read"
        }
        return text + "."
    }

    /// The findings as a JSON array of flat objects with sorted keys (see ``ScanFinding``'s encoding).
    public static func json(_ findings: [ScanFinding]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and booleans cannot fail.
        let data = (try? encoder.encode(findings)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
