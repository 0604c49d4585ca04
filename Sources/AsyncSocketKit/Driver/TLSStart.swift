import AsyncSocketCore
import Foundation
import Logging

// Starting TLS once both queues reached the marker, for every face and engine: the settings are read
// (typed, or the legacy dictionary), OpenSSL is set up with them, and the bytes already read ahead
// become the handshake's first ciphertext. How a failure is reported is the face's.

enum TLSStart {
    /// Why TLS could not start.
    enum Failure: Error {
        /// The settings are neither `TLSSettings` nor a valid legacy dictionary.
        case settings(any Error)
        /// OpenSSL refused them (a certificate or key that does not load, a bad cipher list, …).
        case engine(TLSError)
    }

    /// A TLS transport over `lower`, fed with `prebuffered`, for the marker's `payload`.
    static func transport(
        payload: Any, prebuffered: Data, connectHost: String?, logger: Logger?, over lower: any ByteTransport
    ) throws(Failure) -> TLSTransport {
        let settings: TLSSettings
        do {
            settings = try self.settings(from: payload)
        } catch {
            throw .settings(error)
        }
        let engine: TLSEngine
        do {
            engine = try TLSEngine(settings: settings, connectHost: connectHost, logger: logger)
        } catch {
            throw .engine(error)
        }
        engine.feedCiphertext(prebuffered)
        return TLSTransport(engine: engine, lower: lower)
    }

    /// The settings a `startTLS` call carried.
    static func settings(from payload: Any) throws -> TLSSettings {
        switch payload {
        case let typed as TLSSettings: return typed
        case let dictionary as [String: Any]: return try TLSSettings(legacyDictionary: dictionary)
        default: throw AsyncSocketUsageError("startTLS settings must be a dictionary or TLSSettings")
        }
    }
}
