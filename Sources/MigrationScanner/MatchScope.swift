/// Where a spelling counts as a use of the v4 API.
///
/// Some spellings belong to the run-loop `AsyncSocket` alone (`onSocket:didReadData:withTag:`,
/// `AsyncSocketErrorDomain`); others are shared with GCDAsyncSocket or are common words
/// (`disconnect`, `readDataToData:withTimeout:tag:`), and in Swift, AsyncSocketKit kept many of the
/// original spellings. Those count only in a file that uses the v4 API unmistakably.
public enum MatchScope: String, Sendable, Hashable, CaseIterable, Codable {
    /// Every occurrence is a use.
    case anywhere
    /// An occurrence is a use only in a file with an ``anywhere`` use of a legacy socket class's own
    /// API (its class or protocol name, its header, a delegate method, …); for a member several
    /// classes share, of that class.
    case filesUsingV4 = "files-using-v4"
    /// An occurrence is a use only where the receiver is known to be the API's class: a variable
    /// declared or allocated as it (`AsyncSocket *sock`, `[[AsyncSocket alloc] initWithDelegate:self]`,
    /// `let s = GCDAsyncSocket(…)`), or the class itself (`init`, `setDelegate:`, `run`).
    case knownReceiver = "known-receiver"
    /// Too common to scan for (`init`, `delegate`); listed in the mapping tables only.
    case mappingOnly = "mapping-only"
}
