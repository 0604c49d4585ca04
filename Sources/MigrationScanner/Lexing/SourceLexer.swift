// A single forward pass over the bytes of a source file: every byte is looked at a bounded number of
// times, so the cost is linear in the file's size whatever it holds. Comments and the text of string
// and character literals are skipped; a literal that does not end (binary junk, a stray quote) ends at
// its line's end, an unterminated block comment at the end of the file. Bytes that are not ASCII count
// as identifier characters, so a name is never split in two by a non-ASCII letter.
//
// Swift strings may hold code in interpolations (`"\(sock.unreadData())"`): the lexer keeps a stack of
// open interpolations and returns to the string when an interpolation's parentheses close.

/// Splits Objective-C or Swift source into ``SourceToken``s, one at a time.
struct SourceLexer {
    private let source: UnsafeBufferPointer<UInt8>
    private let language: SourceLanguage
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var tokenOnLine = false
    private var interpolations: [Interpolation] = []

    /// An open Swift string interpolation: the parentheses opened inside it, and the string to go
    /// back to.
    private struct Interpolation {
        var depth = 0
        let string: SwiftString
    }

    /// The delimiters of a Swift string literal.
    private struct SwiftString {
        let hashes: Int
        let multiline: Bool
    }

    /// A lexer over `source`.
    init(_ source: UnsafeBufferPointer<UInt8>, language: SourceLanguage) {
        self.source = source
        self.language = language
    }

    /// The next token, or `nil` at the end of the source.
    mutating func next() -> SourceToken? {
        while index < source.count {
            let byte = source[index]
            switch byte {
            case ASCII.newline:
                newline(after: index)
                index += 1
            case ASCII.space, ASCII.tab, ASCII.carriageReturn, 0..<0x20, 0x7F:
                index += 1
            case ASCII.slash where peek(1) == ASCII.slash:
                skipLineComment()
            case ASCII.slash where peek(1) == ASCII.star:
                skipBlockComment()
            case ASCII.quote:
                return language == .swift ? swiftString(hashes: 0) : cLiteral(closing: ASCII.quote)
            case ASCII.apostrophe where language == .objectiveC:
                return cLiteral(closing: ASCII.apostrophe)
            case ASCII.hash where language == .objectiveC && !tokenOnLine:
                if let header = directive() { return header }
            case ASCII.hash where language == .swift:
                return swiftHashes()
            case ASCII.backtick where language == .swift:
                return backtickIdentifier()
            case ASCII.openParen where !interpolations.isEmpty:
                interpolations[interpolations.count - 1].depth += 1
                return single(.punctuation)
            case ASCII.closeParen where !interpolations.isEmpty:
                if interpolations[interpolations.count - 1].depth == 0 {
                    let string = interpolations.removeLast().string
                    index += 1
                    return swiftStringBody(string, from: index - 1)
                }
                interpolations[interpolations.count - 1].depth -= 1
                return single(.punctuation)
            default:
                if ASCII.isIdentifierStart(byte) { return run(.identifier, while: ASCII.isIdentifierPart) }
                if ASCII.isDigit(byte) { return run(.number, while: ASCII.isNumberPart) }
                return single(.punctuation)
            }
        }
        return nil
    }

    // MARK: Tokens

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < source.count ? source[index + offset] : nil
    }

    private mutating func newline(after position: Int) {
        line += 1
        lineStart = position + 1
        tokenOnLine = false
    }

    /// A token from `start` to the current index, which began on `line` (starting at `lineStart`).
    private mutating func token(_ kind: SourceToken.Kind, from start: Int, line: Int, lineStart: Int) -> SourceToken {
        let token = SourceToken(
            kind: kind, start: start, end: index, line: line, column: start - lineStart + 1,
            isFirstOnLine: !tokenOnLine, byte: source[start])
        tokenOnLine = true
        return token
    }

    private mutating func single(_ kind: SourceToken.Kind) -> SourceToken {
        let start = index
        index += 1
        return token(kind, from: start, line: line, lineStart: lineStart)
    }

    private mutating func run(_ kind: SourceToken.Kind, while belongs: (UInt8) -> Bool) -> SourceToken {
        let start = index
        index += 1
        while index < source.count, belongs(source[index]) { index += 1 }
        return token(kind, from: start, line: line, lineStart: lineStart)
    }

    private mutating func backtickIdentifier() -> SourceToken {
        var end = index + 1
        while end < source.count, ASCII.isIdentifierPart(source[end]) { end += 1 }
        guard end > index + 1, end < source.count, source[end] == ASCII.backtick else { return single(.punctuation) }
        index += 1
        let name = run(.identifier, while: ASCII.isIdentifierPart)
        index += 1
        return name
    }

    // MARK: Comments

    private mutating func skipLineComment() {
        while index < source.count, source[index] != ASCII.newline { index += 1 }
    }

    /// Skips a block comment; Swift's nest, Objective-C's do not.
    private mutating func skipBlockComment() {
        var depth = 0
        while index < source.count {
            let byte = source[index]
            if byte == ASCII.slash, peek(1) == ASCII.star {
                depth = language == .swift ? depth + 1 : 1
                index += 2
            } else if byte == ASCII.star, peek(1) == ASCII.slash {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                if byte == ASCII.newline { newline(after: index) }
                index += 1
            }
        }
    }

    // MARK: Objective-C literals and directives

    /// A C string or character literal: up to the closing quote, or the line's end.
    private mutating func cLiteral(closing: UInt8) -> SourceToken {
        let start = index
        let (startLine, startLineStart) = (line, lineStart)
        index += 1
        while index < source.count {
            let byte = source[index]
            if byte == closing {
                index += 1
                break
            }
            if byte == ASCII.newline { break }
            if byte == ASCII.backslash, peek(1) == ASCII.newline { newline(after: index + 1) }
            index += byte == ASCII.backslash ? 2 : 1
        }
        index = min(index, source.count)
        return token(.literal, from: start, line: startLine, lineStart: startLineStart)
    }

    /// A preprocessor line starting at `#`: the file name of an `#import`/`#include`, nothing for the
    /// others (whose text is lexed as code, except a `#pragma`, `#error` or `#warning` line's).
    private mutating func directive() -> SourceToken? {
        index += 1
        skipBlanks()
        let nameStart = index
        while index < source.count, ASCII.isIdentifierPart(source[index]) { index += 1 }
        let name = String(decoding: source[nameStart..<index], as: UTF8.self)
        tokenOnLine = true
        switch name {
        case "import", "include", "include_next":
            skipBlanks()
            guard index < source.count else { return nil }
            let closing: UInt8
            switch source[index] {
            case ASCII.quote: closing = ASCII.quote
            case ASCII.less: closing = ASCII.greater
            default: return nil
            }
            let start = index + 1
            var end = start
            while end < source.count, source[end] != closing, source[end] != ASCII.newline { end += 1 }
            guard end < source.count, source[end] == closing, end > start else { return nil }
            let header = SourceToken(
                kind: .header, start: start, end: end, line: line, column: start - lineStart + 1, isFirstOnLine: false,
                byte: source[start])
            index = end + 1
            return header
        case "pragma", "error", "warning":
            skipLineComment()
            return nil
        default:
            return nil
        }
    }

    private mutating func skipBlanks() {
        while index < source.count, source[index] == ASCII.space || source[index] == ASCII.tab { index += 1 }
    }

    // MARK: Swift strings

    /// `#` and what follows: a raw string (`#"…"#`) or the punctuation of `#selector`, `#if`, ….
    private mutating func swiftHashes() -> SourceToken {
        var hashes = 0
        while index + hashes < source.count, source[index + hashes] == ASCII.hash { hashes += 1 }
        guard index + hashes < source.count, source[index + hashes] == ASCII.quote else { return single(.punctuation) }
        let start = index
        index += hashes
        return swiftString(hashes: hashes, from: start)
    }

    /// A Swift string literal whose opening quote is at the current index.
    private mutating func swiftString(hashes: Int, from start: Int? = nil) -> SourceToken {
        let start = start ?? index
        let multiline = peek(1) == ASCII.quote && peek(2) == ASCII.quote
        index += multiline ? 3 : 1
        return swiftStringBody(SwiftString(hashes: hashes, multiline: multiline), from: start)
    }

    /// The rest of a Swift string, up to its closing delimiter (or the line's end for a single-line
    /// string), or up to an interpolation, which is then lexed as code.
    private mutating func swiftStringBody(_ string: SwiftString, from start: Int) -> SourceToken {
        let (startLine, startLineStart) = (line, lineStart)
        while index < source.count {
            let byte = source[index]
            if byte == ASCII.quote, closesString(string) {
                index += (string.multiline ? 3 : 1) + string.hashes
                break
            }
            if byte == ASCII.newline {
                if !string.multiline { break }
                newline(after: index)
            }
            if byte == ASCII.backslash, hashesFollow(string.hashes, at: index + 1) {
                let escaped = index + 1 + string.hashes
                if escaped < source.count, source[escaped] == ASCII.openParen {
                    index = escaped + 1
                    interpolations.append(Interpolation(string: string))
                    return token(.literal, from: start, line: startLine, lineStart: startLineStart)
                }
                if escaped < source.count, source[escaped] == ASCII.newline { newline(after: escaped) }
                index = escaped + 1
                continue
            }
            index += 1
        }
        index = min(index, source.count)
        return token(.literal, from: start, line: startLine, lineStart: startLineStart)
    }

    private func closesString(_ string: SwiftString) -> Bool {
        let quotes = string.multiline ? 3 : 1
        for offset in 0..<quotes where index + offset >= source.count || source[index + offset] != ASCII.quote {
            return false
        }
        return hashesFollow(string.hashes, at: index + quotes)
    }

    private func hashesFollow(_ count: Int, at position: Int) -> Bool {
        guard position + count <= source.count else { return false }
        for offset in 0..<count where source[position + offset] != ASCII.hash {
            return false
        }
        return true
    }
}
