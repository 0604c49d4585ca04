import Foundation

/// Bytes as short, escaped text for reports: `"OK\r\n"`, with a length note when cut.
enum ByteText {
    static func describe(_ data: Data, limit: Int = 48) -> String {
        var text = "\""
        for byte in data.prefix(limit) {
            switch byte {
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x22: text += "\\\""
            case 0x5C: text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(UnicodeScalar(byte))
            default: text += String(format: "\\x%02X", byte)
            }
        }
        text += "\""
        if data.count > limit {
            text += "… (\(data.count) bytes)"
        }
        return text
    }
}
