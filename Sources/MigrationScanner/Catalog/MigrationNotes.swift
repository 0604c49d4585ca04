// Behavior notes used by more than one catalog entry, taken from Migration/README.md ("Deliberate
// differences").
enum MigrationNotes {
    static let usageErrors =
        "Misuse (no delegate, not disconnected) throws `AsyncSocketUsageError` instead of raising "
        + "`AsyncSocketException`; QueueSocket throws `QueueSocketError` `.badConfig`/`.badParam`."

    static let connectByName =
        usageErrors + " Names resolve asynchronously (evdns, `/etc/resolv.conf` and `/etc/hosts`); a failure "
        + "reports the system error itself (`NSPOSIXErrorDomain`, or `kCFStreamErrorDomainNetDB` for a name that "
        + "does not resolve)."

    static let connectByAddress =
        usageErrors + " A failed connect is error −1 with the errno as `underlying`."

    static let connectTimer = " The connect timer follows `moveToRunLoop:` and mode changes."

    static let listen =
        usageErrors + " A busy port is still error −1, now with the POSIX `EADDRINUSE` as `underlying`."

    static let disconnectAfter =
        "As before: later reads and writes are ignored. QueueSocket reports the close with "
        + "`socketDidDisconnect(_:withError: nil)`."

    static let prebufferChunks =
        "Prebuffering reads ahead up to 64 KiB (not 256 bytes); bytes past the separator go to later reads or "
        + "`unreadData`. With prebuffering off, not a byte past the separator is read, as before."

    static let maxLength =
        "Never takes more than `maxLength` bytes from the prebuffer before failing with `readMaxedOut` (the "
        + "original could overshoot); the bytes not taken are in `unreadData`."

    static let progress = "`readProgress`/`writeProgress` give the same values as a tuple (a Swift addition)."

    static let noRunLoop =
        "delete the call: QueueSocket has no run loop or modes; its callbacks arrive on the delegate queue"

    static let legacyTLSOption =
        "Honoured, and logged as a warning through the socket's `Logger`."

    static let streamProperty =
        "CFStreams do not exist on Linux, so stream properties (network service type, SOCKS proxy, SSL "
        + "settings) cannot be set: use `setsockopt` on `socketFD` for socket options and `startTLS` for TLS."

    static let oldSecurityLevel =
        "Refused: only TLS 1.2 and newer are offered. The socket closes with error −1 naming `kCFStreamSSLLevel` "
        + "when TLS starts; use `kCFStreamSocketSecurityLevelNegotiatedSSL`."

    static let readStream =
        "GCDAsyncSocket's iOS-only CFStreams (for VoIP backgrounding or stream-level TLS) do not exist on Linux."

    static let queueDescriptor = "QueueSocket's `socketFD` answers only inside `perform(_:)`."

    static let modeNames = "An `EventRunLoop` mode with CoreFoundation's name, for the socket's mode methods."

    static let modes = "Modes are `RunLoopMode` values (`.default`, `.common`, or your own)."
}
