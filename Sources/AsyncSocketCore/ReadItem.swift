import Foundation

/// A queued read: what was asked (kind, tag, timeout, the caller's `NSMutableData` if any). Its
/// progress, once it is current, is the engine's (``ReadState``).
package final class ReadItem {
    package let kind: ReadKind
    package let tag: Int
    /// The timeout asked for (extensions are added to the engine's copy, see ``ReadState``).
    package let timeout: TimeInterval
    let callerBuffer: NSMutableData?
    let callerOffset: Int
    let callerOriginalLength: Int

    package init(_ request: ReadRequest) {
        kind = request.kind
        tag = request.tag
        timeout = request.timeout
        callerBuffer = request.buffer
        callerOffset = request.bufferOffset
        callerOriginalLength = request.buffer?.length ?? 0
    }

    var isAvailableKind: Bool {
        if case .available = kind { return true }
        return false
    }
}
