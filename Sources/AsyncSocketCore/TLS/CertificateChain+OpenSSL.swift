import CAsyncSocketShims
import COpenSSL
import Foundation

extension CertificateChain {
    /// The chain `ssl`'s peer presented, with `verifyResult` as the verification outcome.
    init(peerOf ssl: OpaquePointer, verifyResult: Int32) {
        var certificates: [Data] = []
        var subjects: [String] = []
        for index in 0..<ask_tls_peer_chain_count(ssl) {
            guard let certificate = ask_tls_peer_chain_at(ssl, index) else { continue }
            certificates.append(Self.der(certificate))
            subjects.append(Self.subject(certificate))
        }
        self.init(
            certificates: certificates, subjectSummaries: subjects, verifyResult: verifyResult,
            verifyResultDescription: String(cString: X509_verify_cert_error_string(Int(verifyResult))))
    }

    private static func der(_ certificate: OpaquePointer) -> Data {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return Data() }
        var data = Data(count: Int(length))
        data.withUnsafeMutableBytes { bytes in
            var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            _ = i2d_X509(certificate, &cursor)
        }
        return data
    }

    private static func subject(_ certificate: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        let length = ask_tls_subject_line(certificate, &buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
