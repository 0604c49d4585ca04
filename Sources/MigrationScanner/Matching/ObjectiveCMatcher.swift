// Objective-C selectors are assembled from the keyword parts (`name:`) met directly inside one
// frame: a message send `[receiver readDataToData:x withTimeout:-1 tag:0]` (its arguments may span
// lines and hold nested sends, blocks and casts, which are frames of their own), a method declaration
// from a `-` or `+` that starts a line outside every bracket up to its `;` or `{`, or `@selector(…)`.
// A `:` after a `?` in a send closes the conditional, not a keyword. A send without keyword parts
// has the unary selector of its last name (`[sock unreadData]`); a `[` right after a name or a `]`
// is a subscript, after `@` an array literal. Every name is also looked up as an identifier.

/// Finds the catalog's Objective-C spellings in a stream of tokens.
struct ObjectiveCMatcher {
    private let index: CatalogIndex
    private let source: UnsafeBufferPointer<UInt8>
    private var frames = FrameStack<Frame>()
    private var previous: SourceToken?
    private var beforePrevious: SourceToken?
    /// What was found so far, in the order found.
    private(set) var candidates: [MatchCandidate] = []

    /// Selectors with more parts than this are not assembled (none in the catalog comes close).
    private static let maximumParts = 12

    /// Names after which a `[` starts a message send rather than a subscript.
    private static let keywordsBeforeSend: Set<String> = [
        "return", "in", "case", "else", "do", "throw", "sizeof", "typeof", "__typeof__", "yield",
    ]

    private struct Frame {
        enum Kind { case message, group, selectorLiteral, declaration }

        let kind: Kind
        /// The byte that closes it; a declaration ends at `;` or `{` instead.
        let closer: UInt8
        var parts: [String] = []
        var firstPart: SourceToken?
        var tooManyParts = false
        var tokens = 0
        var last: SourceToken?
        var lastIsName = false
        var firstName: SourceToken?
        var openConditionals = 0

        var collectsParts: Bool { kind != .group }
    }

    /// A matcher for tokens of `source`, looking spellings up in `index`.
    init(index: CatalogIndex, source: UnsafeBufferPointer<UInt8>) {
        self.index = index
        self.source = source
    }

    /// Takes the next token.
    mutating func consume(_ token: SourceToken) {
        switch token.kind {
        case .identifier: lookUp(token, in: index.identifiers)
        case .header: lookUpHeader(token)
        case .punctuation, .literal, .number: break
        }
        if token.kind == .punctuation {
            punctuation(token)
        } else {
            count(token)
        }
        beforePrevious = previous
        previous = token
    }

    private mutating func punctuation(_ token: SourceToken) {
        switch token.byte {
        case ASCII.openBracket:
            frames.push(Frame(kind: startsSend ? .message : .group, closer: ASCII.closeBracket))
        case ASCII.openParen:
            frames.push(Frame(kind: startsSelectorLiteral ? .selectorLiteral : .group, closer: ASCII.closeParen))
        case ASCII.openBrace:
            endDeclaration()
            frames.push(Frame(kind: .group, closer: ASCII.closeBrace))
        case ASCII.semicolon where frames.top?.kind == .declaration:
            endDeclaration()
        case ASCII.closeBracket, ASCII.closeParen, ASCII.closeBrace:
            guard let frame = frames.close(where: { $0.closer == token.byte }) else { return }
            finish(frame)
            count(nil)
        case ASCII.minus, ASCII.plus:
            if token.isFirstOnLine && frames.isEmpty {
                frames.push(Frame(kind: .declaration, closer: 0))
            } else {
                count(token)
            }
        case ASCII.colon:
            keywordColon()
            count(token)
        case ASCII.question:
            if frames.top?.kind == .message { frames.top?.openConditionals += 1 }
            count(token)
        default:
            count(token)
        }
    }

    /// Whether a `[` here starts a message send: not after a name (a subscript), a `]` or an `@`.
    private var startsSend: Bool {
        guard let previous else { return true }
        switch previous.kind {
        case .identifier: return Self.keywordsBeforeSend.contains(text(previous))
        case .punctuation: return previous.byte != ASCII.closeBracket && previous.byte != ASCII.at
        case .literal, .number, .header: return true
        }
    }

    private var startsSelectorLiteral: Bool {
        guard let previous, let beforePrevious, previous.kind == .identifier else { return false }
        return beforePrevious.isPunctuation(ASCII.at) && text(previous) == "selector"
    }

    /// A `:` right after a name, directly inside a send, a declaration or `@selector`, makes the name a
    /// keyword part (unless it ends a `?:` conditional in a send).
    private mutating func keywordColon() {
        guard var frame = frames.top, frame.collectsParts else { return }
        if frame.kind == .message, frame.openConditionals > 0 {
            frame.openConditionals -= 1
        } else if frame.lastIsName, let name = frame.last {
            if frame.parts.count < Self.maximumParts {
                if frame.parts.isEmpty { frame.firstPart = name }
                frame.parts.append(text(name))
            } else {
                frame.tooManyParts = true
            }
        }
        frames.top = frame
    }

    /// Counts a token (or, for `nil`, a frame just closed) directly inside the innermost frame.
    private mutating func count(_ token: SourceToken?) {
        guard var frame = frames.top else { return }
        frame.tokens += 1
        frame.last = token
        frame.lastIsName = token?.kind == .identifier
        if frame.firstName == nil, let token, token.kind == .identifier { frame.firstName = token }
        frames.top = frame
    }

    private mutating func endDeclaration() {
        guard frames.top?.kind == .declaration, let declaration = frames.pop() else { return }
        finish(declaration)
    }

    /// Reports the selector of a closed send, declaration or `@selector`.
    private mutating func finish(_ frame: Frame) {
        guard frame.collectsParts, !frame.tooManyParts else { return }
        if let first = frame.firstPart {
            let selector = frame.parts.joined(separator: ":") + ":"
            if let entry = index.selectors[selector] {
                candidates.append(MatchCandidate(entry: entry, found: selector, line: first.line, column: first.column))
            }
            return
        }
        let unary: SourceToken?
        switch frame.kind {
        case .message: unary = frame.tokens >= 2 && frame.lastIsName ? frame.last : nil
        case .selectorLiteral: unary = frame.tokens == 1 && frame.lastIsName ? frame.last : nil
        case .declaration: unary = frame.firstName
        case .group: unary = nil
        }
        if let unary { lookUp(unary, in: index.selectors) }
    }

    private mutating func lookUp(_ token: SourceToken, in table: [String: CatalogIndex.Entry]) {
        let name = text(token)
        if let entry = table[name] {
            candidates.append(MatchCandidate(entry: entry, found: name, line: token.line, column: token.column))
        }
    }

    /// `#import "AsyncSocket.h"`, `#import <CocoaAsyncSocket/AsyncSocket.h>`: by the last path part.
    private mutating func lookUpHeader(_ token: SourceToken) {
        let path = text(token)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let entry = index.headers[name] {
            candidates.append(MatchCandidate(entry: entry, found: name, line: token.line, column: token.column))
        }
    }

    private func text(_ token: SourceToken) -> String {
        String(decoding: source[token.start..<token.end], as: UTF8.self)
    }
}
