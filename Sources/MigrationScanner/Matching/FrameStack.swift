/// The open brackets, parentheses and braces of a matcher, innermost last.
///
/// A closing byte closes the nearest frame it matches; frames left open inside it (unbalanced or
/// junk input) are abandoned. Only the innermost ``searchLimit`` frames are searched, so a stray
/// closing byte costs a bounded amount of work and the matchers stay linear.
struct FrameStack<Frame> {
    /// How many frames a closing byte may look through for its opener.
    static var searchLimit: Int { 8 }

    private(set) var frames: [Frame] = []

    /// Whether no frame is open.
    var isEmpty: Bool { frames.isEmpty }

    /// The innermost frame.
    var top: Frame? {
        get { frames.last }
        set {
            guard let newValue, !frames.isEmpty else { return }
            frames[frames.count - 1] = newValue
        }
    }

    /// Opens `frame`.
    mutating func push(_ frame: Frame) {
        frames.append(frame)
    }

    /// Closes the innermost frame, whatever closes it.
    mutating func pop() -> Frame? {
        frames.popLast()
    }

    /// Closes the nearest frame for which `closes` is true, abandoning the frames inside it; `nil`
    /// (and nothing closed) when there is none within ``searchLimit``.
    mutating func close(where closes: (Frame) -> Bool) -> Frame? {
        var position = frames.count - 1
        while position >= 0, frames.count - position <= Self.searchLimit {
            if closes(frames[position]) {
                frames.removeSubrange((position + 1)...)
                return frames.removeLast()
            }
            position -= 1
        }
        return nil
    }
}
