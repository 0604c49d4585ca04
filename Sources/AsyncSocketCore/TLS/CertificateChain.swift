import Foundation

/// The certificates a peer presented, for manual trust evaluation and inspection.
public struct CertificateChain: Sendable, Equatable {
    /// The certificates in DER, the peer's own first, then the intermediates it sent.
    public var certificates: [Data]
    /// One line per certificate: its subject in RFC 2253 form (e.g. "CN=localhost,O=Example").
    public var subjectSummaries: [String]
    /// What OpenSSL's verification said (an `X509_V_ERR_…` value, 0 = ok), after the opt-outs in the
    /// settings forgave what they cover.
    public var verifyResult: Int32
    /// `X509_verify_cert_error_string(verifyResult)`, e.g. "ok" or "certificate has expired".
    public var verifyResultDescription: String

    /// A chain with the given parts.
    public init(certificates: [Data], subjectSummaries: [String], verifyResult: Int32, verifyResultDescription: String)
    {
        self.certificates = certificates
        self.subjectSummaries = subjectSummaries
        self.verifyResult = verifyResult
        self.verifyResultDescription = verifyResultDescription
    }
}
