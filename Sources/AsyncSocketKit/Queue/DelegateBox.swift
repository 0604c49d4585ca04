/// A delegate reference handed to another queue: the delegate is used only on its delegate queue.
/// Strong, as GCD captures the delegate at the time of dispatch. `QueueSocket` and `QueueUdpSocket`
/// carry their delegates to the delegate queue in it.
struct DelegateBox<Delegate>: @unchecked Sendable {
    // @unchecked Sendable: the reference is only read on the delegate queue it is handed to, and the
    // delegate protocols' calls are made there only.
    let delegate: Delegate?

    init(_ delegate: Delegate?) {
        self.delegate = delegate
    }
}
