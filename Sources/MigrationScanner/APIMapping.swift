/// One entry of the migration table: a piece of the run-loop `AsyncSocket` ("v4") API, how an
/// Objective-C-bridging Swift program spelled it, its spelling on `RunLoopSocket`, its `QueueSocket`
/// counterpart, where the port behaves differently, and whether Linux supports it.
///
/// ``APICatalog/entries`` holds every entry; the scanner, the command's output and the mapping tables
/// of `Migration/README.md` are all made from it.
public struct APIMapping: Sendable, Hashable {
    /// The Objective-C spelling: a selector (`readDataToData:withTimeout:tag:`), an identifier
    /// (`AsyncSocketErrorDomain`) or a header name (`AsyncSocket.h`).
    public let v4: String
    /// What the entry is, and so how it is matched.
    public let kind: APIKind
    /// How Swift imported the API from the Objective-C header (`readData(to:withTimeout:tag:)`,
    /// `AsyncSocket.crlfData()` is `crlfData()`), or `nil` when Swift code is not scanned for it.
    public let swift: String?
    /// The spelling on `RunLoopSocket` (or the AsyncSocketKit symbol that replaces it); "none"
    /// when the port has nothing.
    public let runLoopSocket: String
    /// The counterpart on `QueueSocket` and `QueueSocketDelegate`.
    public let queueSocket: QueueSocketEquivalent
    /// How the port behaves differently from the original, or `nil` when it does not.
    public let note: String?
    /// Whether Linux supports the API, through a stand-in, or not at all.
    public let support: LinuxSupport
    /// Where the Objective-C spelling counts as a use of the v4 API.
    public let scope: MatchScope
    /// Where the Swift spelling counts as a use of the v4 API.
    public let swiftScope: MatchScope
    /// Other Objective-C spellings of the same API (`NSStreamSocketSecurityLevelSSLv3` for
    /// `kCFStreamSocketSecurityLevelSSLv3`).
    public let aliases: [String]
    /// The class (or part of the platform) the API belongs to.
    public let api: LegacyAPI

    /// An entry. `swiftScope` defaults to `scope`; give ``MatchScope/filesUsingV4`` when
    /// AsyncSocketKit kept the Swift spelling, so ported code does not report itself. `api` defaults to
    /// ``LegacyAPI/platform`` for the platform kinds and to ``LegacyAPI/asyncSocket`` otherwise.
    public init(
        _ v4: String, kind: APIKind, swift: String?, runLoopSocket: String, queueSocket: QueueSocketEquivalent,
        note: String? = nil, support: LinuxSupport = .supported, scope: MatchScope, swiftScope: MatchScope? = nil,
        aliases: [String] = [], api: LegacyAPI? = nil
    ) {
        self.v4 = v4
        self.kind = kind
        self.swift = swift
        self.runLoopSocket = runLoopSocket
        self.queueSocket = queueSocket
        self.note = note
        self.support = support
        self.scope = scope
        self.swiftScope = swiftScope ?? scope
        self.aliases = aliases
        self.api = api ?? (kind.isAsyncSocketAPI ? .asyncSocket : .platform)
    }
}
