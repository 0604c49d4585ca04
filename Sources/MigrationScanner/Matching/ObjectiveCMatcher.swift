// Objective-C selectors are assembled from the keyword parts (`name:`) met directly inside one
// frame: a message send `[receiver readDataToData:x withTimeout:-1 tag:0]` (its arguments may span
// lines and hold nested sends, blocks and casts, which are frames of their own), a method declaration
// from a `-` or `+` that starts a line outside every bracket up to its `;` or `{`, or `@selector(…)`.
// A `:` after a `?` in a send closes the conditional, not a keyword. A send without keyword parts
// has the unary selector of its last name (`[sock unreadData]`); a `[` right after a name or a `]`
// is a subscript, after `@` an array literal. Every name is also looked up as an identifier, and a
// name after `.` as a property (`sock.userData = 5` is `setUserData:`, `x = sock.connectedHost` is
// `connectedHost`).
//
// Receivers: the matcher remembers which names stand for a legacy class — variables declared with it
// (`AsyncUdpSocket *udp`, `@property … GCDAsyncSocket *socket`, a method's `(AsyncSocket *)sock`
// parameter, or the first parameter of a delegate method named `onUdpSocket:`/`udpSocket:`), names
// assigned a fresh instance (`sock = [[AsyncSocket alloc] init…]`) — and works out the receiver of a
// send (`[udp localPort]`, `[[AsyncSocket alloc] initWithDelegate:self]`, `[(AsyncSocket *)obj …]`,
// `[[NSRunLoop currentRunLoop] run]`). A method's parameters and locals are forgotten at its end.

/// Finds the catalog's Objective-C spellings in a stream of tokens.
struct ObjectiveCMatcher {
    private let index: CatalogIndex
    private let source: UnsafeBufferPointer<UInt8>
    private var frames = FrameStack<Frame>()
    private var previous: SourceToken?
    private var beforePrevious: SourceToken?
    /// What was found so far, in the order found.
    private(set) var candidates: [MatchCandidate] = []
    /// Delegate-looking method declarations that match no delegate method.
    private(set) var nearMisses: [MadeUpFinding] = []

    /// Names standing for a legacy class outside methods (instance variables, properties, globals).
    private(set) var fileBindings: [String: LegacyAPI] = [:]
    /// Names standing for a legacy class inside the current method body.
    private var localBindings: [String: LegacyAPI] = [:]
    /// The parameters of a method declaration just ended with `{`, for its body.
    private var pendingParameters: [String: LegacyAPI]?
    /// The class named by a cast or a parameter type just closed (`(AsyncSocket *)`).
    private var pendingCast: LegacyAPI?
    /// A property name after `.`, waiting to see whether it is assigned.
    private var pendingProperty: PendingProperty?

    /// Selectors with more parts than this are not assembled (none in the catalog comes close).
    private static let maximumParts = 12

    /// Names after which a `[` starts a message send rather than a subscript.
    private static let keywordsBeforeSend: Set<String> = [
        "return", "in", "case", "else", "do", "throw", "sizeof", "typeof", "__typeof__", "yield",
    ]

    /// The receiver of a send, or the value of an expression: a class object or an instance.
    private struct Value {
        let api: LegacyAPI
        let isClass: Bool
    }

    private struct PendingProperty {
        let token: SourceToken
        let receiver: LegacyAPI?
        var sawEquals = false
    }

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
        /// A method body: its end forgets the method's parameters and locals.
        var isMethodBody = false
        /// A send's receiver: the value so far, whether it is complete, and its value when complete.
        var operand: Value?
        var lastWasOperand = false
        var memberAccess = false
        var receiverDone = false
        var receiver: Value?
        /// The name a send's value is assigned to (`sock = [[AsyncSocket alloc] init]`).
        var assignedTo: String?
        /// A group's tokens, while they may still be a cast (`(AsyncSocket *)`): the class, then `*`.
        var castClass: LegacyAPI?
        var castShape = CastShape.start
        /// A declaration's parameters: the type of the one being read, and the named ones.
        var parameterType: LegacyAPI?
        var parameters: [(name: String, api: LegacyAPI?)] = []
        var expectsParameterName = false

        enum CastShape { case start, name, pointer, other }

        var collectsParts: Bool { kind != .group }
    }

    /// A matcher for tokens of `source`, looking spellings up in `index`; `declared` are names other
    /// files (the headers) declare with a legacy class.
    init(index: CatalogIndex, source: UnsafeBufferPointer<UInt8>, declared: [String: LegacyAPI] = [:]) {
        self.index = index
        self.source = source
        fileBindings = declared
    }

    /// Takes the next token.
    mutating func consume(_ token: SourceToken) {
        settleProperty(before: token)
        switch token.kind {
        case .identifier: identifier(token)
        case .header: lookUpHeader(token)
        case .punctuation, .literal, .number: break
        }
        if token.kind == .punctuation {
            punctuation(token)
        } else {
            count(token)
        }
        if token.kind != .punctuation || token.byte != ASCII.closeParen { pendingCast = nil }
        beforePrevious = previous
        previous = token
    }

    /// Settles a property left pending at the end of the source.
    mutating func finish() {
        if let pending = pendingProperty {
            pendingProperty = nil
            property(pending, isSet: false)
        }
    }

    // MARK: Names

    private mutating func identifier(_ token: SourceToken) {
        let name = text(token)
        lookUp(token, in: index.identifiers)
        if let previous, previous.isPunctuation(ASCII.dot) {
            pendingProperty = PendingProperty(token: token, receiver: receiverBeforeDot())
        }
        // `AsyncUdpSocket *udp`, `GCDAsyncSocket * __strong socket`: a declaration of a legacy class.
        if let previous, let beforePrevious, previous.isPunctuation(ASCII.star), beforePrevious.kind == .identifier,
            let api = LegacyAPI(className: text(beforePrevious)), !isInsideSend
        {
            bind(name, to: api)
        }
    }

    /// The class of the name before a `.` (`sock.localPort`, `self.socket.delegate`).
    private func receiverBeforeDot() -> LegacyAPI? {
        guard let beforePrevious, beforePrevious.kind == .identifier else { return nil }
        return binding(of: text(beforePrevious))
    }

    private var isInsideSend: Bool { frames.top?.kind == .message }

    private func binding(of name: String) -> LegacyAPI? {
        localBindings[name] ?? fileBindings[name]
    }

    private mutating func bind(_ name: String, to api: LegacyAPI) {
        if frames.frames.contains(where: \.isMethodBody) {
            localBindings[name] = api
        } else {
            fileBindings[name] = api
            fileBindings["_" + name] = api
        }
    }

    /// A name after `.` is a property: its getter, or its setter when it is assigned (`=` not `==`).
    private mutating func settleProperty(before token: SourceToken) {
        guard var pending = pendingProperty, pending.token.start != token.start else { return }
        if !pending.sawEquals {
            if token.isPunctuation(ASCII.equals) {
                pending.sawEquals = true
                pendingProperty = pending
                return
            }
            pendingProperty = nil
            property(pending, isSet: false)
        } else {
            pendingProperty = nil
            property(pending, isSet: !token.isPunctuation(ASCII.equals))
        }
    }

    private mutating func property(_ pending: PendingProperty, isSet: Bool) {
        let name = text(pending.token)
        let selector: String
        if isSet, let first = name.first {
            selector = "set" + first.uppercased() + name.dropFirst() + ":"
        } else {
            selector = name
        }
        if let options = index.selectors[selector] {
            candidates.append(
                MatchCandidate(
                    options: options, found: selector, line: pending.token.line, column: pending.token.column,
                    receiver: pending.receiver))
        }
    }

    // MARK: Punctuation and frames

    private mutating func punctuation(_ token: SourceToken) {
        switch token.byte {
        case ASCII.openBracket:
            var frame = Frame(kind: startsSend ? .message : .group, closer: ASCII.closeBracket)
            if frame.kind == .message, let previous, let beforePrevious, previous.isPunctuation(ASCII.equals),
                beforePrevious.kind == .identifier
            {
                frame.assignedTo = text(beforePrevious)
            }
            frames.push(frame)
        case ASCII.openParen:
            frames.push(Frame(kind: startsSelectorLiteral ? .selectorLiteral : .group, closer: ASCII.closeParen))
        case ASCII.openBrace:
            let body = endDeclaration()
            var frame = Frame(kind: .group, closer: ASCII.closeBrace)
            if let body {
                frame.isMethodBody = true
                localBindings = body
            }
            frames.push(frame)
        case ASCII.semicolon where frames.top?.kind == .declaration:
            _ = endDeclaration()
        case ASCII.closeBracket, ASCII.closeParen, ASCII.closeBrace:
            guard let frame = frames.close(where: { $0.closer == token.byte }) else { return }
            if frame.isMethodBody { localBindings = [:] }
            let value = finish(frame)
            closed(frame, value: value)
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
            if frame.kind == .declaration {
                frame.expectsParameterName = true
                frame.parameterType = nil
            }
        }
        frames.top = frame
    }

    /// Counts a token directly inside the innermost frame.
    private mutating func count(_ token: SourceToken) {
        guard var frame = frames.top else { return }
        frame.tokens += 1
        frame.last = token
        frame.lastIsName = token.kind == .identifier
        if frame.firstName == nil, token.kind == .identifier { frame.firstName = token }
        if frame.kind == .message, !frame.receiverDone { receiverStep(&frame, token: token) }
        if frame.kind == .group { castStep(&frame, token: token) }
        if frame.kind == .declaration, frame.expectsParameterName, token.kind == .identifier {
            frame.parameters.append((text(token), pendingCast ?? frame.parameterType))
            frame.expectsParameterName = false
        }
        frames.top = frame
    }

    /// A frame just closed inside the innermost one: counts as one operand there.
    private mutating func closed(_ frame: Frame, value: Value?) {
        let isCast = frame.kind == .group && frame.closer == ASCII.closeParen && frame.castShape == .pointer
        if isCast, let api = frame.castClass {
            pendingCast = api
            if var top = frames.top, top.kind == .declaration {
                top.parameterType = api
                frames.top = top
            }
        }
        guard var top = frames.top else { return }
        top.tokens += 1
        top.last = nil
        top.lastIsName = false
        if top.kind == .message, !top.receiverDone {
            if top.lastWasOperand && !top.memberAccess {
                top.receiverDone = true
                top.receiver = top.operand
            } else if !isCast {
                top.operand = value
                top.lastWasOperand = true
                top.memberAccess = false
            }
        }
        frames.top = top
    }

    /// Follows a send's receiver expression up to the first name of its selector.
    private func receiverStep(_ frame: inout Frame, token: SourceToken) {
        if token.kind == .identifier {
            let name = text(token)
            if frame.memberAccess {
                frame.operand = binding(of: name).map { Value(api: $0, isClass: false) }
                frame.memberAccess = false
                frame.lastWasOperand = true
            } else if frame.lastWasOperand {
                frame.receiverDone = true
                frame.receiver = frame.operand
            } else if let cast = pendingCast {
                frame.operand = Value(api: cast, isClass: false)
                frame.lastWasOperand = true
            } else if let api = LegacyAPI(className: name) {
                frame.operand = Value(api: api, isClass: true)
                frame.lastWasOperand = true
            } else {
                frame.operand = binding(of: name).map { Value(api: $0, isClass: false) }
                frame.lastWasOperand = true
            }
        } else if token.isPunctuation(ASCII.dot) || token.isPunctuation(ASCII.greater) {
            frame.memberAccess = true
        } else if token.kind == .punctuation && token.byte == ASCII.minus {
            // The `-` of `->`.
        } else {
            frame.lastWasOperand = false
            frame.operand = nil
        }
    }

    /// Follows a group's tokens while they may be a cast to a legacy class.
    private func castStep(_ frame: inout Frame, token: SourceToken) {
        switch (frame.castShape, token.kind) {
        case (.start, .identifier):
            if let api = LegacyAPI(className: text(token)) {
                frame.castClass = api
                frame.castShape = .name
            } else if Self.qualifiers.contains(text(token)) {
                break
            } else {
                frame.castShape = .other
            }
        case (.name, .punctuation) where token.byte == ASCII.star:
            frame.castShape = .pointer
        case (.pointer, .identifier) where Self.qualifiers.contains(text(token)):
            break
        default:
            frame.castShape = .other
        }
    }

    private static let qualifiers: Set<String> = [
        "__strong", "__weak", "__unsafe_unretained", "__autoreleasing", "nonnull", "nullable", "_Nonnull",
        "_Nullable", "const", "__kindof",
    ]

    /// Ends a method declaration; for one followed by a body, the names its parameters stand for.
    private mutating func endDeclaration() -> [String: LegacyAPI]? {
        guard frames.top?.kind == .declaration, let declaration = frames.pop() else { return nil }
        _ = finish(declaration)
        var parameters: [String: LegacyAPI] = [:]
        let forced = Self.delegateSocketClass(declaration.parts.first)
        for (position, parameter) in declaration.parameters.enumerated() {
            if position == 0, let forced, parameter.api == nil || forced.isUDP {
                parameters[parameter.name] = forced
            } else if let api = parameter.api {
                parameters[parameter.name] = api
            }
        }
        return parameters
    }

    /// The class a delegate method's first parameter is, by the method's name: UDP delegate methods
    /// (`onUdpSocket:…`, `udpSocket:…`) always; TCP ones when the parameter's type does not say.
    private static func delegateSocketClass(_ firstPart: String?) -> LegacyAPI? {
        guard let firstPart else { return nil }
        if firstPart.hasPrefix("onUdpSocket") { return .asyncUdpSocket }
        if firstPart.hasPrefix("udpSocket") { return .gcdAsyncUdpSocket }
        if firstPart.hasPrefix("onSocket") { return .asyncSocket }
        if firstPart == "socket" || firstPart.hasPrefix("socketDid") { return .gcdAsyncSocket }
        return nil
    }

    /// Reports the selector of a closed send, declaration or `@selector`; the value of a send whose
    /// result is known (`[AsyncSocket alloc]`, `[[AsyncSocket alloc] init…]`, `[NSRunLoop currentRunLoop]`).
    private mutating func finish(_ frame: Frame) -> Value? {
        guard frame.collectsParts, !frame.tooManyParts else { return nil }
        let receiver = frame.receiver
        let selector: String
        let at: SourceToken
        if let first = frame.firstPart {
            selector = frame.parts.joined(separator: ":") + ":"
            at = first
        } else {
            let unary: SourceToken?
            switch frame.kind {
            case .message: unary = frame.tokens >= 2 && frame.lastIsName ? frame.last : nil
            case .selectorLiteral: unary = frame.tokens == 1 && frame.lastIsName ? frame.last : nil
            case .declaration: unary = frame.firstName
            case .group: unary = nil
            }
            guard let unary else { return nil }
            selector = text(unary)
            at = unary
        }
        if let options = index.selectors[selector] {
            candidates.append(
                MatchCandidate(
                    options: options, found: selector, line: at.line, column: at.column,
                    receiver: frame.kind == .message ? receiver?.api : nil))
        } else if frame.kind == .declaration {
            checkNearMiss(selector, at: at)
        }
        guard frame.kind == .message, let receiver else { return nil }
        let value = Self.result(of: selector, on: receiver)
        if let value, let name = frame.assignedTo, !value.isClass {
            // An assignment without a declaration: a local declared earlier, else an instance variable.
            if localBindings[name] != nil {
                localBindings[name] = value.api
            } else {
                fileBindings[name] = value.api
                fileBindings["_" + name] = value.api
            }
        }
        return value
    }

    /// What a send returns, where it is a legacy class's instance.
    private static func result(of selector: String, on receiver: Value) -> Value? {
        if receiver.isClass {
            if selector == "alloc" || selector == "new" || selector.hasPrefix("allocWithZone")
                || selector == "currentRunLoop" || selector == "mainRunLoop" || selector.hasPrefix("socketFrom")
            {
                return Value(api: receiver.api, isClass: false)
            }
            return nil
        }
        return selector.hasPrefix("init") ? receiver : nil
    }

    /// An Objective-C method declared like a delegate method (`- (void)onSocket:…`, `- (void)socket:…`)
    /// whose selector no delegate protocol has.
    private mutating func checkNearMiss(_ selector: String, at token: SourceToken) {
        guard let nearMiss = DelegateNearMiss.objectiveC(selector, delegateSelectors: index.delegateSelectors) else {
            return
        }
        nearMisses.append(MadeUpFinding(mapping: nearMiss, found: selector, line: token.line, column: token.column))
    }

    private mutating func lookUp(_ token: SourceToken, in table: [String: [CatalogIndex.Entry]]) {
        let name = text(token)
        if let options = table[name] {
            candidates.append(MatchCandidate(options: options, found: name, line: token.line, column: token.column))
        }
    }

    /// `#import "AsyncSocket.h"`, `#import <CocoaAsyncSocket/AsyncSocket.h>`: by the last path part.
    private mutating func lookUpHeader(_ token: SourceToken) {
        let path = text(token)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let options = index.headers[name] {
            candidates.append(MatchCandidate(options: options, found: name, line: token.line, column: token.column))
        }
    }

    private func text(_ token: SourceToken) -> String {
        String(decoding: source[token.start..<token.end], as: UTF8.self)
    }
}
