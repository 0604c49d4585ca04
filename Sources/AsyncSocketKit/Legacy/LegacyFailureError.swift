import AsyncSocketCore
import Foundation

extension ConnectionFailure {
    /// The error a legacy delegate's willDisconnect receives for this failure (the native engine and
    /// AsyncSocketTesting's embedded connection). `tlsError` is the TLS engine's last error, which a
    /// transport failure with a negative code stands for.
    package func legacyError(tlsError: (any Error)?) -> any Error {
        switch self {
        case .readMaxedOut: return AsyncSocketError(.readMaxedOut)
        case .readTimeout: return AsyncSocketError(.readTimeout)
        case .writeTimeout: return AsyncSocketError(.writeTimeout)
        case .transport(let code, let operation):
            if code < 0, let tlsError { return tlsError }
            return SystemError.posix(code, operation)
        case .tlsStart(let failure):
            switch failure as? TLSStart.Failure {
            case .settings(let reason)?:
                return AsyncSocketError(.socketError, message: "Could not apply the TLS settings: \(reason)")
            case .engine(let reason)?:
                return AsyncSocketError(
                    .socketError, message: "Could not apply the TLS settings: \(reason.message)",
                    underlying: reason as NSError)
            case nil:
                return failure
            }
        case .handshake(let error): return error
        }
    }
}
