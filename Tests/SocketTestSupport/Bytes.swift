import Foundation

/// The UTF-8 bytes of `text`.
package func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}

/// An `NSMutableData` holding `text`'s bytes.
package func mutableData(_ text: String) -> NSMutableData {
    let data = NSMutableData()
    data.append(Array(text.utf8), length: text.utf8.count)
    return data
}

extension NSMutableData {
    package var byteArray: [UInt8] { Array(self as Data) }
}
