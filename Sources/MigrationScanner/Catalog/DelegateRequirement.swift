/// One method requirement of `RunLoopSocketDelegate` or `QueueSocketDelegate`, for the near-miss check:
/// a Swift method whose name, labels or types are slightly off does not satisfy the requirement, and
/// Swift silently calls the protocol extension's default instead.
public struct DelegateRequirement: Sendable, Hashable {
    /// The protocol: `RunLoopSocketDelegate` or `QueueSocketDelegate`.
    public let protocolName: String
    /// The base name (`onSocket`).
    public let name: String
    /// The argument labels, `_` for none.
    public let labels: [String]
    /// The parameter types as declared.
    public let types: [String]
    /// The return type, or `nil` for none.
    public let returnType: String?
    /// The Objective-C selector it stands for.
    public let selector: String

    /// A requirement.
    public init(
        _ protocolName: String, _ selector: String, name: String,
        _ parameters: [(label: String, name: String, type: String)],
        returns returnType: String? = nil
    ) {
        self.protocolName = protocolName
        self.selector = selector
        self.name = name
        labels = parameters.map(\.label)
        types = parameters.map(\.type)
        self.returnType = returnType
        signatureParameters = parameters.map {
            $0.label == $0.name ? "\($0.label): \($0.type)" : "\($0.label) \($0.name): \($0.type)"
        }
    }

    private let signatureParameters: [String]

    /// The Swift spelling, `onSocket(_:didRead:withTag:)`.
    public var spelling: String { name + "(" + labels.map { $0 + ":" }.joined() + ")" }

    /// The exact declaration to write: `func onSocket(_ sock: RunLoopSocket, didRead data: Data, withTag tag: Int)`.
    public var signature: String {
        "func \(name)(" + signatureParameters.joined(separator: ", ") + ")" + (returnType.map { " -> \($0)" } ?? "")
    }
}

extension APICatalog {
    /// The requirements of `RunLoopSocketDelegate` and `QueueSocketDelegate`, as declared in
    /// `Sources/AsyncSocketKit/Legacy/RunLoopSocketDelegate.swift` and
    /// `Sources/AsyncSocketKit/Queue/QueueSocketDelegate.swift`.
    public static let delegateRequirements: [DelegateRequirement] = runLoopSocketDelegate + queueSocketDelegate

    private static let runLoopSocketDelegate: [DelegateRequirement] = {
        let p = "RunLoopSocketDelegate"
        let sock = (label: "_", name: "sock", type: "RunLoopSocket")
        return [
            DelegateRequirement(
                p, "onSocket:willDisconnectWithError:", name: "onSocket",
                [sock, ("willDisconnectWithError", "error", "(any Error)?")]),
            DelegateRequirement(p, "onSocketDidDisconnect:", name: "onSocketDidDisconnect", [sock]),
            DelegateRequirement(
                p, "onSocket:didAcceptNewSocket:", name: "onSocket",
                [sock, ("didAcceptNewSocket", "newSocket", "RunLoopSocket")]),
            DelegateRequirement(
                p, "onSocket:wantsRunLoopForNewSocket:", name: "onSocket",
                [sock, ("wantsRunLoopForNewSocket", "newSocket", "RunLoopSocket")], returns: "EventRunLoop?"),
            DelegateRequirement(p, "onSocketWillConnect:", name: "onSocketWillConnect", [sock], returns: "Bool"),
            DelegateRequirement(
                p, "onSocket:didConnectToHost:port:", name: "onSocket",
                [sock, ("didConnectToHost", "host", "String"), ("port", "port", "UInt16")]),
            DelegateRequirement(
                p, "onSocket:didReadData:withTag:", name: "onSocket",
                [sock, ("didRead", "data", "Data"), ("withTag", "tag", "Int")]),
            DelegateRequirement(
                p, "onSocket:didReadPartialDataOfLength:tag:", name: "onSocket",
                [sock, ("didReadPartialDataOfLength", "partialLength", "Int"), ("tag", "tag", "Int")]),
            DelegateRequirement(
                p, "onSocket:didWriteDataWithTag:", name: "onSocket", [sock, ("didWriteDataWithTag", "tag", "Int")]),
            DelegateRequirement(
                p, "onSocket:didWritePartialDataOfLength:tag:", name: "onSocket",
                [sock, ("didWritePartialDataOfLength", "partialLength", "Int"), ("tag", "tag", "Int")]),
            DelegateRequirement(
                p, "onSocket:shouldTimeoutReadWithTag:elapsed:bytesDone:", name: "onSocket",
                [
                    sock, ("shouldTimeoutReadWithTag", "tag", "Int"), ("elapsed", "elapsed", "TimeInterval"),
                    ("bytesDone", "length", "Int"),
                ], returns: "TimeInterval"),
            DelegateRequirement(
                p, "onSocket:shouldTimeoutWriteWithTag:elapsed:bytesDone:", name: "onSocket",
                [
                    sock, ("shouldTimeoutWriteWithTag", "tag", "Int"), ("elapsed", "elapsed", "TimeInterval"),
                    ("bytesDone", "length", "Int"),
                ], returns: "TimeInterval"),
            DelegateRequirement(p, "onSocketDidSecure:", name: "onSocketDidSecure", [sock]),
        ]
    }()

    private static let queueSocketDelegate: [DelegateRequirement] = {
        let p = "QueueSocketDelegate"
        let sock = (label: "_", name: "sock", type: "QueueSocket")
        return [
            DelegateRequirement(
                p, "newSocketQueueForConnectionFromAddress:onSocket:", name: "newSocketQueueForConnection",
                [("fromAddress", "address", "Data"), ("on", "sock", "QueueSocket")], returns: "DispatchQueue?"),
            DelegateRequirement(
                p, "socket:didAcceptNewSocket:", name: "socket",
                [sock, ("didAcceptNewSocket", "newSocket", "QueueSocket")]),
            DelegateRequirement(
                p, "socket:didConnectToHost:port:", name: "socket",
                [sock, ("didConnectToHost", "host", "String"), ("port", "port", "UInt16")]),
            DelegateRequirement(p, "socket:didConnectToUrl:", name: "socket", [sock, ("didConnectTo", "url", "URL")]),
            DelegateRequirement(
                p, "socket:didReadData:withTag:", name: "socket",
                [sock, ("didRead", "data", "Data"), ("withTag", "tag", "Int")]),
            DelegateRequirement(
                p, "socket:didReadPartialDataOfLength:tag:", name: "socket",
                [sock, ("didReadPartialDataOfLength", "partialLength", "Int"), ("tag", "tag", "Int")]),
            DelegateRequirement(
                p, "socket:didWriteDataWithTag:", name: "socket", [sock, ("didWriteDataWithTag", "tag", "Int")]),
            DelegateRequirement(
                p, "socket:didWritePartialDataOfLength:tag:", name: "socket",
                [sock, ("didWritePartialDataOfLength", "partialLength", "Int"), ("tag", "tag", "Int")]),
            DelegateRequirement(
                p, "socket:shouldTimeoutReadWithTag:elapsed:bytesDone:", name: "socket",
                [
                    sock, ("shouldTimeoutReadWithTag", "tag", "Int"), ("elapsed", "elapsed", "TimeInterval"),
                    ("bytesDone", "length", "Int"),
                ], returns: "TimeInterval"),
            DelegateRequirement(
                p, "socket:shouldTimeoutWriteWithTag:elapsed:bytesDone:", name: "socket",
                [
                    sock, ("shouldTimeoutWriteWithTag", "tag", "Int"), ("elapsed", "elapsed", "TimeInterval"),
                    ("bytesDone", "length", "Int"),
                ], returns: "TimeInterval"),
            DelegateRequirement(p, "socketDidCloseReadStream:", name: "socketDidCloseReadStream", [sock]),
            DelegateRequirement(
                p, "socketDidDisconnect:withError:", name: "socketDidDisconnect",
                [sock, ("withError", "error", "(any Error)?")]),
            DelegateRequirement(p, "socketDidSecure:", name: "socketDidSecure", [sock]),
            DelegateRequirement(
                p, "socket:didReceiveTrust:completionHandler:", name: "socket",
                [
                    sock, ("didReceiveTrust", "trust", "CertificateChain"),
                    ("completionHandler", "completionHandler", "@escaping @Sendable (Bool) -> Void"),
                ]),
        ]
    }()
}
