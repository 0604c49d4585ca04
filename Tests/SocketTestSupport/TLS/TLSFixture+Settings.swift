import AsyncSocketCore
import Foundation

extension TLSFixture {
    /// A client that trusts only the test CA.
    package func clientSettings() -> TLSSettings {
        var settings = TLSSettings(role: .client)
        settings.trustRoots = .only([caPath])
        return settings
    }

    /// A server presenting `certificate` (the valid `localhost` certificate by default) with the server key.
    package func serverSettings(certificate: String? = nil) -> TLSSettings {
        var settings = TLSSettings(role: .server)
        settings.identity = .pem(
            certificatePath: certificate ?? serverCertificatePath, keyPath: serverKeyPath, password: nil)
        settings.trustRoots = .only([caPath])
        return settings
    }

    /// The client certificate and its unencrypted key.
    package var clientIdentity: TLSSettings.Identity {
        .pem(certificatePath: clientCertificatePath, keyPath: clientKeyPath, password: nil)
    }
}
