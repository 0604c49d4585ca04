import Dispatch
import Foundation

// Closing. `close` is synchronous and drops every queued send without a callback; the delegate
// hears `udpSocketDidClose` only when descriptors existed, as in GCDAsyncUdpSocket. The object
// keeps its configuration (delegate, families, preference, sizes, filters) and may be bound,
// connected or sent from again.
extension QueueUdpSocket {
    /// Closes the socket now (`close`).
    public func close() {
        sync { closeNow(error: nil) }
    }

    /// Closes the socket once every queued send is over (`closeAfterSending`); later sends are still
    /// queued and sent first, as in the original.
    public func closeAfterSending() {
        async { [self] in
            closesAfterSends = true
            if currentSend == nil, sends.isEmpty {
                closeNow(error: nil)
            }
        }
    }

    /// Closes the descriptors, drops the queued sends and tells the delegate (with `error`, `nil`
    /// for a close asked for) if descriptors existed.
    func closeNow(error: (any Error)?) {
        let hadDescriptors = created
        closeDescriptors()
        guard hadDescriptors else { return }
        notify { [self] in $0.udpSocketDidClose(self, withError: error) }
    }

    /// Closes the descriptors and forgets every state but the configuration.
    func closeDescriptors() {
        closeCount += 1
        reader.discardHeld(from: socket4)
        reader.discardHeld(from: socket6)
        reader.coalescing = false
        channel4?.close()
        channel6?.close()
        channel4 = nil
        channel6 = nil
        socket4 = -1
        socket6 = -1
        created = false
        didBind = false
        connecting = false
        didConnect = false
        cachedPeer = nil
        lastSender = nil
        replySources = UdpReplySources()
        sends.removeAll()
        dropHeldSends()
        currentSend = nil
        currentTarget = nil
        sendTimer?.cancel()
        sendTimer = nil
        closesAfterSends = false
        receiveMode = .off
        pendingFilterReplies = 0
        readingPaused.store(false, ordering: .sequentiallyConsistent)
    }
}
