import CLibevent
import Foundation
import Logging

// libevent writes its own warnings (evdns's "Nameserver … has failed", for one) to stderr unless a
// log callback is installed. The callback is process-wide, but libevent calls it on the thread whose
// base is working, so each message goes to the Logger of that thread's EventRunLoop (the one a user
// gave it), and is dropped where none was given: the library never writes to stderr by itself.
enum LibeventLog {
    /// Installs the callback; called once, before the first base is made.
    static func install() {
        event_set_log_callback(libeventLogged)
    }

    /// The swift-log level of a libevent severity (`EVENT_LOG_DEBUG` … `EVENT_LOG_ERR`).
    static func level(_ severity: Int32) -> Logger.Level {
        switch severity {
        case EVENT_LOG_DEBUG: .debug
        case EVENT_LOG_MSG: .info
        case EVENT_LOG_WARN: .warning
        default: .error
        }
    }

    /// Hands one libevent message to the calling thread's loop's logger, if it has one.
    static func forward(severity: Int32, message: String) {
        guard let stored = pthread_getspecific(LoopThreadStorage.key) else { return }
        let loop = Unmanaged<EventRunLoop>.fromOpaque(stored).takeUnretainedValue()
        guard let logger = loop.libeventLogger else { return }
        logger.log(level: level(severity), "\(message)", metadata: ["source": "libevent"])
    }
}

private func libeventLogged(_ severity: Int32, _ message: UnsafePointer<CChar>?) {
    LibeventLog.forward(severity: severity, message: message.map { String(cString: $0) } ?? "")
}
