/// Fuzz input read front to back as small decisions. Past the end every read gives 0, so any input,
/// even an empty one, decodes to something.
package struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package init(_ buffer: UnsafeRawBufferPointer) {
        self.init(Array(buffer))
    }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { position >= bytes.count }

    /// The next byte (0 past the end).
    package mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Every byte not read yet.
    package mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }

    /// A number in `range`, from one byte (two when the range is wider than 256 values).
    package mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = range.upperBound - range.lowerBound + 1
        var raw = Int(byte())
        if width > 256 {
            raw = raw << 8 | Int(byte())
        }
        return range.lowerBound + raw % width
    }

    package mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// One of `choices`.
    package mutating func pick<T>(_ choices: [T]) -> T {
        choices[int(in: 0...choices.count - 1)]
    }

    /// `count` bytes, each mapped into `alphabet` (a small alphabet makes separators likely).
    package mutating func bytes(_ count: Int, from alphabet: [UInt8]) -> [UInt8] {
        (0..<count).map { _ in alphabet[Int(byte()) % alphabet.count] }
    }

    /// A string of up to `maxLength` characters from `alphabet`.
    package mutating func string(maxLength: Int, from alphabet: [Character]) -> String {
        String((0..<int(in: 0...maxLength)).map { _ in alphabet[Int(byte()) % alphabet.count] })
    }
}
