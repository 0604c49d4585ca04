// Swift spellings are names with their argument labels, as in `readData(to:withTimeout:tag:)`. A name
// followed by `(` opens a call frame whose labels are read from the arguments directly inside it: an
// argument that starts `label:` has that label, any other `_`. After `func`, the frame is a
// declaration, whose parameters' first names are the labels (`_ sock: AsyncSocket` is `_`) and whose
// types are kept for the delegate near-miss check. A frame holding only `label:` pairs is a reference
// (`#selector(onSocket(_:didRead:withTag:))`); `@objc(onSocket:didReadData:withTag:)` names an
// Objective-C selector. A call that is not in the catalog is looked up by its name alone
// (`AsyncSocket(delegate: self)` is a use of `AsyncSocket`), as is every other name.
//
// Receivers: names declared or initialised with a legacy class (`let udp = GCDAsyncUdpSocket(…)`,
// `var sock: AsyncUdpSocket!`, a parameter `_ sock: AsyncUdpSocket`, the first parameter of a method
// named `onUdpSocket`/`udpSocket`) are remembered, a function's parameters and locals until its body
// ends, so `udp.localPort()` is the UDP class's member; `RunLoop.current` and `RunLoop.main` are run
// loops.

/// Finds the catalog's Swift spellings in a stream of tokens.
struct SwiftMatcher {
    private let index: CatalogIndex
    private let source: UnsafeBufferPointer<UInt8>
    private var frames = FrameStack<Frame>()
    private var pendingName: SourceToken?
    private var pendingIsDeclaration = false
    private var pendingReceiver: LegacyAPI?
    private var pendingIsAttribute = false
    /// The last three tokens, newest last.
    private var recent: [SourceToken] = []
    /// What was found so far, in the order found.
    private(set) var candidates: [MatchCandidate] = []
    /// Delegate methods that nearly match a requirement (settled at the end, when the file's protocols
    /// are known).
    private(set) var nearMisses: [MadeUpFinding] = []

    /// Names standing for a legacy class outside functions.
    private var fileBindings: [String: LegacyAPI] = [:]
    /// Names standing for a legacy class in each open function body, innermost last.
    private var localBindings: [[String: LegacyAPI]] = []
    /// The parameters of a function declaration whose body has not opened yet.
    private var pendingParameters: [String: LegacyAPI]?
    /// The value of the last operand: for `x.member`, the class of `x`.
    private var operand: LegacyAPI?
    private var dotReceiver: LegacyAPI?
    /// A function declaration whose return type is being read.
    private var signature: Signature?
    private var declarations: [DelegateNearMiss.Declaration] = []
    private var mentionsRunLoopDelegate = false
    private var mentionsQueueDelegate = false
    /// A call not in the catalog, waiting to see whether a trailing closure follows.
    private var trailing: (call: Call, spelling: String)?

    /// Argument lists with more labels than this are not assembled (none in the catalog comes close).
    private static let maximumLabels = 12

    private struct Frame {
        let closer: UInt8
        var call: Call?
        var isFunctionBody = false
    }

    /// A declaration's parameters and return type, until the body opens.
    private struct Signature {
        let call: Call
        var sawArrow = false
        var returnStart: Int?
        var returnEnd = 0
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
        let receiver: LegacyAPI?
        let isAttribute: Bool
        var labels: [String] = []
        var argument = Argument.start
        var isEmpty = true
        var tooManyLabels = false
        /// Whether everything so far is `label:` pairs, and the pending label of the current pair.
        var isReference = true
        var referenceLabels: [String] = []
        var referenceName: String?
        /// A declaration's parameters: internal names, type texts, and the type being read.
        var parameterNames: [String] = []
        var types: [String] = []
        var typeStart: Int?
        var typeEnd = 0
        var inType = false
        var typeEnded = false
        var lastName: String?
    }

    /// A token directly inside a call's argument list.
    private enum Role {
        case name(SourceToken)
        case colon
        case comma
        case other(SourceToken)
    }

    /// A matcher for tokens of `source`, looking spellings up in `index`.
    init(index: CatalogIndex, source: UnsafeBufferPointer<UInt8>) {
        self.index = index
        self.source = source
    }

    /// Takes the next token.
    mutating func consume(_ token: SourceToken) {
        readSignature(token)
        if let waiting = trailing {
            trailing = nil
            if token.isPunctuation(ASCII.openBrace), let options = index.swiftTrailingClosureCalls[waiting.spelling] {
                let name = waiting.call.name
                let full = options[0].mapping.swift ?? waiting.spelling
                candidates.append(
                    MatchCandidate(
                        options: options, found: full, line: name.line, column: name.column,
                        receiver: waiting.call.receiver))
            } else {
                lookUp(waiting.call.name, receiver: waiting.call.receiver)
            }
        }
        if let name = pendingName {
            pendingName = nil
            if token.isPunctuation(ASCII.openParen) {
                openCall(name)
                remember(token)
                return
            }
            lookUp(name, receiver: pendingReceiver)
        }
        switch token.kind {
        case .identifier:
            identifier(token)
        case .punctuation:
            punctuation(token)
        case .literal, .number, .header:
            note(.other(token))
            operand = nil
        }
        remember(token)
    }

    /// Looks up a name left pending at the end of the source, and settles the near-misses.
    mutating func finish() {
        if let waiting = trailing {
            trailing = nil
            lookUp(waiting.call.name, receiver: waiting.call.receiver)
        }
        if let name = pendingName {
            pendingName = nil
            lookUp(name, receiver: pendingReceiver)
        }
        endSignature()
        var protocols = Set<String>()
        if mentionsRunLoopDelegate { protocols.insert("RunLoopSocketDelegate") }
        if mentionsQueueDelegate { protocols.insert("QueueSocketDelegate") }
        for declaration in declarations {
            var allowed = protocols
            switch declaration.types.first.map(DelegateNearMiss.normalized) {
            case "RunLoopSocket": allowed.insert("RunLoopSocketDelegate")
            case "QueueSocket": allowed.insert("QueueSocketDelegate")
            default: break
            }
            guard !allowed.isEmpty, let mapping = DelegateNearMiss.swift(declaration, protocols: allowed) else {
                continue
            }
            nearMisses.append(
                MadeUpFinding(
                    mapping: mapping, found: declaration.spelling, line: declaration.line, column: declaration.column))
        }
    }

    private mutating func remember(_ token: SourceToken) {
        recent.append(token)
        if recent.count > 3 { recent.removeFirst() }
    }

    private var previous: SourceToken? { recent.last }

    private func recentToken(_ back: Int) -> SourceToken? {
        recent.count >= back ? recent[recent.count - back] : nil
    }

    // MARK: Names and receivers

    private mutating func identifier(_ token: SourceToken) {
        let name = text(token)
        note(.name(token))
        if name == "RunLoopSocketDelegate" { mentionsRunLoopDelegate = true }
        if name == "QueueSocketDelegate" { mentionsQueueDelegate = true }
        let afterDot = previous?.isPunctuation(ASCII.dot) == true
        pendingReceiver = afterDot ? dotReceiver : nil
        pendingIsDeclaration = previous.map { $0.kind == .identifier && text($0) == "func" } ?? false
        pendingIsAttribute = previous?.isPunctuation(ASCII.at) == true
        pendingName = token
        // The value this name stands for, for a `.` that follows.
        if afterDot {
            if name == "current" || name == "main", let receiver = dotReceiver, receiver == .runLoop {
                operand = .runLoop
            } else {
                operand = binding(of: name)
            }
        } else {
            operand = binding(of: name) ?? LegacyAPI(className: name)
        }
        // `name: AsyncUdpSocket` (a property or a parameter), `name = AsyncSocket(…)` is bound at the call.
        if let api = LegacyAPI(className: name), api.isSocketClass, let colon = previous,
            colon.isPunctuation(ASCII.colon), let bound = recentToken(2), bound.kind == .identifier
        {
            bind(text(bound), to: api)
        }
    }

    private func binding(of name: String) -> LegacyAPI? {
        for scope in localBindings.reversed() {
            if let api = scope[name] { return api }
        }
        return fileBindings[name]
    }

    private mutating func bind(_ name: String, to api: LegacyAPI) {
        if let call = frames.top?.call, call.isDeclaration {
            pendingParameters = (pendingParameters ?? [:]).merging([name: api]) { _, new in new }
        } else if localBindings.isEmpty {
            fileBindings[name] = api
        } else {
            localBindings[localBindings.count - 1][name] = api
        }
    }

    private mutating func openCall(_ name: SourceToken) {
        let nameText = text(name)
        if pendingIsDeclaration {
            endSignature()
            pendingParameters = [:]
        }
        // `let sock = AsyncSocket(…)`, `udp = GCDAsyncUdpSocket(…)` (the name itself is the newest token).
        if let api = LegacyAPI(className: nameText), api.isSocketClass, let equals = recentToken(2),
            equals.isPunctuation(ASCII.equals), let bound = recentToken(3), bound.kind == .identifier
        {
            bind(text(bound), to: api)
        }
        frames.push(
            Frame(
                closer: ASCII.closeParen,
                call: Call(
                    name: name, isDeclaration: pendingIsDeclaration, receiver: pendingReceiver,
                    isAttribute: pendingIsAttribute)))
        operand = nil
    }

    // MARK: Punctuation and frames

    private mutating func punctuation(_ token: SourceToken) {
        switch token.byte {
        case ASCII.openParen, ASCII.openBracket, ASCII.openBrace:
            note(.other(token))
            let closer =
                token.byte == ASCII.openParen
                ? ASCII.closeParen : token.byte == ASCII.openBracket ? ASCII.closeBracket : ASCII.closeBrace
            var frame = Frame(closer: closer)
            if token.byte == ASCII.openBrace, let parameters = pendingParameters {
                frame.isFunctionBody = true
                localBindings.append(parameters)
                pendingParameters = nil
            }
            frames.push(frame)
            operand = nil
        case ASCII.closeParen, ASCII.closeBracket, ASCII.closeBrace:
            guard let frame = frames.close(where: { $0.closer == token.byte }) else { return }
            if frame.isFunctionBody, !localBindings.isEmpty { localBindings.removeLast() }
            if let call = frame.call { finish(call) }
            note(.other(token))
            operand = frame.call.flatMap { LegacyAPI(className: text($0.name)) }
        case ASCII.colon:
            note(.colon)
            operand = nil
        case ASCII.comma:
            note(.comma)
            operand = nil
        case ASCII.dot:
            note(.other(token))
            dotReceiver = operand
        case ASCII.question, ASCII.exclamation:
            note(.other(token))
        default:
            note(.other(token))
            operand = nil
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
        if call.isDeclaration { readType(role, into: &call) }
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
            call.parameterNames.append(text(first))
            call.argument = .inside
        case (.name(let token), .first(let first)) where call.isDeclaration:
            addLabel(text(first), to: &call)
            call.parameterNames.append(text(token))
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

    /// Follows a declaration's parameter types: from the `:` after the names to the `,` (or a default
    /// value's `=`).
    private func readType(_ role: Role, into call: inout Call) {
        switch role {
        case .colon where !call.inType && !call.typeEnded:
            call.inType = true
            call.typeStart = nil
        case .comma:
            endType(&call)
            call.typeEnded = false
        case .name(let token), .other(let token):
            guard call.inType else { return }
            if token.isPunctuation(ASCII.equals) {
                endType(&call)
                call.typeEnded = true
                return
            }
            if call.typeStart == nil { call.typeStart = token.start }
            call.typeEnd = token.end
        case .colon:
            break
        }
    }

    private func endType(_ call: inout Call) {
        guard call.inType else { return }
        call.inType = false
        if let start = call.typeStart, start < call.typeEnd {
            call.types.append(String(decoding: source[start..<call.typeEnd], as: UTF8.self))
        } else {
            call.types.append("")
        }
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
        if call.isDeclaration { endType(&call) }
        let name = text(call.name)
        if call.isAttribute, name == "objc" {
            objectiveCName(call)
            return
        }
        let labels: [String]
        if call.isReference, call.referenceName == nil, !call.referenceLabels.isEmpty {
            labels = call.referenceLabels
        } else {
            labels = call.labels
        }
        let spelling = name + "(" + labels.map { $0 + ":" }.joined() + ")"
        if !call.tooManyLabels, let options = index.swiftCalls[spelling] {
            candidates.append(
                MatchCandidate(
                    options: options, found: spelling, line: call.name.line, column: call.name.column,
                    receiver: call.receiver))
        } else if !call.isDeclaration, !call.tooManyLabels {
            trailing = (call, spelling)
        } else {
            lookUp(call.name, receiver: call.receiver)
        }
        if call.isDeclaration {
            signature = Signature(call: call)
            bindDelegateParameter(call)
        }
    }

    /// `@objc(onSocket:didReadData:withTag:)`: the Objective-C selector a Swift method kept.
    private mutating func objectiveCName(_ call: Call) {
        let selector: String
        if call.isReference, !call.referenceLabels.isEmpty, call.referenceName == nil {
            selector = call.referenceLabels.joined(separator: ":") + ":"
        } else if call.isReference, call.referenceLabels.isEmpty, let unary = call.referenceName {
            selector = unary
        } else {
            return
        }
        if let options = index.selectors[selector] {
            candidates.append(
                MatchCandidate(options: options, found: selector, line: call.name.line, column: call.name.column))
        }
    }

    /// The first parameter of a delegate method named for a UDP class is that class's socket.
    private mutating func bindDelegateParameter(_ call: Call) {
        let name = text(call.name)
        let api: LegacyAPI?
        if name.hasPrefix("onUdpSocket") {
            api = .asyncUdpSocket
        } else if name.hasPrefix("udpSocket") {
            api = .gcdAsyncUdpSocket
        } else {
            api = nil
        }
        if let api, let first = call.parameterNames.first {
            pendingParameters = (pendingParameters ?? [:]).merging([first: api]) { _, new in new }
        }
    }

    // MARK: Return types

    /// Reads `-> Type` after a declaration's parameters, up to its body, `where`, or a new line.
    private mutating func readSignature(_ token: SourceToken) {
        guard var current = signature, token.start > current.call.name.start else { return }
        if token.isPunctuation(ASCII.openBrace) || (token.isFirstOnLine && !current.sawArrow)
            || (token.kind == .identifier && text(token) == "where")
            || (token.isFirstOnLine && current.returnStart != nil)
        {
            endSignature()
            return
        }
        if token.isPunctuation(ASCII.greater), previous?.isPunctuation(ASCII.minus) == true {
            current.sawArrow = true
        } else if current.sawArrow {
            if current.returnStart == nil { current.returnStart = token.start }
            current.returnEnd = token.end
        }
        signature = current
    }

    private mutating func endSignature() {
        guard let current = signature else { return }
        signature = nil
        let call = current.call
        var returnType: String?
        if let start = current.returnStart, start < current.returnEnd {
            returnType = String(decoding: source[start..<current.returnEnd], as: UTF8.self)
        }
        guard !call.tooManyLabels, call.types.count == call.labels.count else { return }
        declarations.append(
            DelegateNearMiss.Declaration(
                name: text(call.name), labels: call.labels, types: call.types, returnType: returnType,
                line: call.name.line, column: call.name.column))
    }

    private mutating func lookUp(_ token: SourceToken, receiver: LegacyAPI?) {
        let name = text(token)
        if let options = index.swiftIdentifiers[name] {
            candidates.append(
                MatchCandidate(
                    options: options, found: name, line: token.line, column: token.column, receiver: receiver))
        }
    }

    private func text(_ token: SourceToken) -> String {
        String(decoding: source[token.start..<token.end], as: UTF8.self)
    }
}
