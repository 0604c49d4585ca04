// Swift spellings are names with their argument labels, as in `readData(to:withTimeout:tag:)`. A name
// followed by `(` opens a call frame whose labels are read from the arguments directly inside it: an
// argument that starts `label:` has that label, any other `_`. After `func`, the frame is a
// declaration, whose parameters' first names are the labels (`_ sock: AsyncSocket` is `_`). A
// frame holding only `label:` pairs is a reference (`#selector(onSocket(_:didRead:withTag:))`). A call
// that is not in the catalog is looked up by its name alone (`AsyncSocket(delegate: self)` is a use of
// `AsyncSocket`), as is every other name.

/// Finds the catalog's Swift spellings in a stream of tokens.
struct SwiftMatcher {
    private let index: CatalogIndex
    private let source: UnsafeBufferPointer<UInt8>
    private var frames = FrameStack<Frame>()
    private var pendingName: SourceToken?
    private var pendingIsDeclaration = false
    private var previous: SourceToken?
    /// What was found so far, in the order found.
    private(set) var candidates: [MatchCandidate] = []

    /// Argument lists with more labels than this are not assembled (none in the catalog comes close).
    private static let maximumLabels = 12

    private struct Frame {
        let closer: UInt8
        var call: Call?
    }

    /// The argument list of a call or a function declaration.
    private struct Call {
        enum Argument {
            case start
            case first(SourceToken)
            case inside
        }

        let name: SourceToken
        let isDeclaration: Bool
        var labels: [String] = []
        var argument = Argument.start
        var isEmpty = true
        var tooManyLabels = false
        /// Whether everything so far is `label:` pairs, and the pending label of the current pair.
        var isReference = true
        var referenceLabels: [String] = []
        var referenceName: String?
    }

    /// A token directly inside a call's argument list.
    private enum Role {
        case name(SourceToken)
        case colon
        case comma
        case other
    }

    /// A matcher for tokens of `source`, looking spellings up in `index`.
    init(index: CatalogIndex, source: UnsafeBufferPointer<UInt8>) {
        self.index = index
        self.source = source
    }

    /// Takes the next token.
    mutating func consume(_ token: SourceToken) {
        if let name = pendingName {
            pendingName = nil
            if token.isPunctuation(ASCII.openParen) {
                frames.push(
                    Frame(closer: ASCII.closeParen, call: Call(name: name, isDeclaration: pendingIsDeclaration)))
                previous = token
                return
            }
            lookUp(name)
        }
        switch token.kind {
        case .identifier:
            note(.name(token))
            pendingIsDeclaration = previous.map { $0.kind == .identifier && text($0) == "func" } ?? false
            pendingName = token
        case .punctuation:
            punctuation(token)
        case .literal, .number, .header:
            note(.other)
        }
        previous = token
    }

    /// Looks up a name left pending at the end of the source.
    mutating func finish() {
        if let name = pendingName {
            pendingName = nil
            lookUp(name)
        }
    }

    private mutating func punctuation(_ token: SourceToken) {
        switch token.byte {
        case ASCII.openParen, ASCII.openBracket, ASCII.openBrace:
            note(.other)
            let closer =
                token.byte == ASCII.openParen
                ? ASCII.closeParen : token.byte == ASCII.openBracket ? ASCII.closeBracket : ASCII.closeBrace
            frames.push(Frame(closer: closer))
        case ASCII.closeParen, ASCII.closeBracket, ASCII.closeBrace:
            guard let frame = frames.close(where: { $0.closer == token.byte }) else { return }
            if let call = frame.call { finish(call) }
            note(.other)
        case ASCII.colon:
            note(.colon)
        case ASCII.comma:
            note(.comma)
        default:
            note(.other)
        }
    }

    /// Feeds a token directly inside the innermost frame to its argument list, if it has one.
    private mutating func note(_ role: Role) {
        guard var frame = frames.top, var call = frame.call else { return }
        call.isEmpty = false
        if call.isReference {
            switch (role, call.referenceName) {
            case (.name(let token), nil): call.referenceName = text(token)
            case (.colon, .some(let label)) where call.referenceLabels.count < Self.maximumLabels:
                call.referenceLabels.append(label)
                call.referenceName = nil
            default: call.isReference = false
            }
        }
        switch (role, call.argument) {
        case (.comma, .first):
            addLabel("_", to: &call)
            call.argument = .start
        case (.comma, _):
            call.argument = .start
        case (.name(let token), .start):
            call.argument = .first(token)
        case (.colon, .first(let first)):
            addLabel(text(first), to: &call)
            call.argument = .inside
        case (.name, .first(let first)) where call.isDeclaration:
            addLabel(text(first), to: &call)
            call.argument = .inside
        case (_, .start), (_, .first):
            addLabel("_", to: &call)
            call.argument = .inside
        case (_, .inside):
            break
        }
        frame.call = call
        frames.top = frame
    }

    private func addLabel(_ label: String, to call: inout Call) {
        if call.labels.count < Self.maximumLabels {
            call.labels.append(label)
        } else {
            call.tooManyLabels = true
        }
    }

    /// Reports a closed call by its full spelling, or else by its name.
    private mutating func finish(_ call: Call) {
        var call = call
        if case .first = call.argument { addLabel("_", to: &call) }
        let labels: [String]
        if call.isReference, call.referenceName == nil, !call.referenceLabels.isEmpty {
            labels = call.referenceLabels
        } else {
            labels = call.labels
        }
        let name = text(call.name)
        let spelling = name + "(" + labels.map { $0 + ":" }.joined() + ")"
        if !call.tooManyLabels, let entry = index.swiftCalls[spelling] {
            candidates.append(
                MatchCandidate(entry: entry, found: spelling, line: call.name.line, column: call.name.column))
        } else {
            lookUp(call.name)
        }
    }

    private mutating func lookUp(_ token: SourceToken) {
        let name = text(token)
        if let entry = index.swiftIdentifiers[name] {
            candidates.append(MatchCandidate(entry: entry, found: name, line: token.line, column: token.column))
        }
    }

    private func text(_ token: SourceToken) -> String {
        String(decoding: source[token.start..<token.end], as: UTF8.self)
    }
}
