import Foundation

// Receives: queued, one datagram each, the current one served from a later pass of the loop. The
// socket reads only while a receive is current, from both families in turn (the one tried first
// alternates, so neither starves); the datagrams a read brings beyond the first wait in the reader for
// the next receives (DatagramReader.swift). The delegate's answer decides: `true` completes the receive,
// `false` treats the datagram as never received and the same receive (same tag, same timer) takes
// the next one. A datagram too large for maxReceiveBufferSize, or a read error, is reported to the
// current receive and the next receive goes on; the socket stays open.
extension RunLoopUdpSocket {
    /// At most this many datagrams are read in one pass for one receive (the delegate answering
    /// `false` to each); the rest wait for the next pass, so one busy socket cannot hold the loop.
    static let datagramsPerPass = 64

    /// Queues a receive of one datagram (`receiveWithTimeout:tag:`); a negative `timeout` waits for
    /// good. Ignored once the socket is closed or closing.
    public func receive(withTimeout timeout: TimeInterval, tag: Int) {
        checkThread("receive(withTimeout:tag:)")
        guard !closed, operations.enqueue(UdpReceive(timeout: timeout, tag: tag)) else { return }
        scheduleReceiveDequeue()
    }

    /// Runs the next receive from a later pass of the loop (coalesced: at most one pending).
    func scheduleReceiveDequeue() {
        let item =
            receiveDequeue
            ?? PerformItem(modes: modes) { [weak self] in
                self?.fromLoop { $0.maybeDequeueReceive() }
            }
        receiveDequeue = item
        loop.schedule(item)
    }

    private func maybeDequeueReceive() {
        guard !closed else { return }
        if operations.currentReceive != nil {
            receivePass()
            return
        }
        guard let receive = operations.startNextReceive() else {
            wantsDatagrams(false)
            maybeScheduleClose()
            return
        }
        if receive.timeout >= 0 {
            armTimer(send: false, after: receive.timeout)
        }
        receivePass()
    }

    /// Reads for the current receive until a datagram completes it, an error ends it, or nothing is
    /// left to read (then the loop watches for more).
    func receivePass() {
        for _ in 0..<Self.datagramsPerPass {
            guard let receive = operations.currentReceive else {
                wantsDatagrams(false)
                return
            }
            switch readOne() {
            case .none:
                wantsDatagrams(true)
                return
            case .datagram(let data, let source)?:
                let accepted =
                    delegateForCallbacks?.onUdpSocket(
                        self, didReceive: data, withTag: receive.tag, fromHost: source.host ?? "", port: source.port)
                    ?? true
                guard !closed, operations.currentReceive != nil else { return }
                if accepted {
                    // Even when the delegate moved the socket: the answer ends this receive.
                    finishReceive(receive, error: nil)
                    return
                }
                guard loop.isCurrent else { return }
            case .failed(let error)?:
                finishReceive(receive, error: error)
                return
            }
        }
        // Datagrams were left after a full pass: the level-triggered source brings the next pass.
        wantsDatagrams(true)
    }

    private enum Read {
        case datagram(Data, from: SocketAddress)
        case failed(any Error)
    }

    /// One datagram from either family (the first tried alternates); `nil` when neither has one.
    private func readOne() -> Read? {
        let first = readsIPv6First ? socket6 : socket4
        let second = readsIPv6First ? socket4 : socket6
        readsIPv6First.toggle()
        if first >= 0, let read = read(from: first) {
            return read
        }
        if second >= 0, let read = read(from: second) {
            return read
        }
        return nil
    }

    /// One datagram from `fd`, skipping what a connected socket must not take; `nil` when none waits.
    private func read(from fd: Int32) -> Read? {
        while true {
            switch reader.receive(fd, maxSize: Int(maxReceive)) {
            case .wouldBlock:
                return nil
            case .datagram(let data, let source, let local):
                // Queued before the connect, from someone else: the original dropped it silently.
                if didConnect, let peer = cachedPeer, source != peer { continue }
                if let local {
                    replySources.remember(local, for: source)
                }
                return .datagram(data, from: source)
            case .tooLarge(let size, let source):
                if didConnect, let peer = cachedPeer, source != peer { continue }
                return .failed(Self.tooLargeError(size: size, limit: Int(maxReceive)))
            case .failed(let code):
                return .failed(SystemError.posix(code, "recvfrom"))
            }
        }
    }

    private func finishReceive(_ receive: UdpReceive, error: (any Error)?) {
        disarmTimer(send: false)
        pendingArrival?.receiveRemaining = nil
        operations.finishReceive()
        if let error {
            delegateForCallbacks?.onUdpSocket(self, didNotReceiveDataWithTag: receive.tag, dueToError: error)
        }
        // A callback that closed the socket or moved it to another loop decides what comes next.
        guard !closed, loop.isCurrent else { return }
        if !operations.hasReceives {
            wantsDatagrams(false)
        }
        scheduleReceiveDequeue()
    }

    func receiveTimedOut() {
        guard let receive = operations.currentReceive else { return }
        finishReceive(receive, error: AsyncUdpSocketError(.receiveTimeout))
    }

    /// `EMSGSIZE`, saying the datagram's size and the limit it passed.
    static func tooLargeError(size: Int, limit: Int) -> NSError {
        NSError(
            domain: NSPOSIXErrorDomain, code: Int(EMSGSIZE),
            userInfo: [
                NSLocalizedDescriptionKey: SystemError.errnoText(EMSGSIZE),
                NSLocalizedFailureReasonErrorKey:
                    "A datagram of \(size) bytes arrived for a receive of at most \(limit) (maxReceiveBufferSize);"
                    + " it was dropped",
            ])
    }
}
