import Foundation

/// The files of a private CA made for this run: the CA certificate clients trust, and the server's
/// certificate (for `localhost` and 127.0.0.1, signed by the CA) with its private key.
///
/// ``make()`` runs the `openssl` command (EC P-256, valid for one day) in a new private temporary
/// directory, which ``remove()`` deletes; the CA's own key is deleted as soon as the server
/// certificate is signed.
struct PrivateCA {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let directory: String
    var caPath: String { directory + "/ca.pem" }
    var certificatePath: String { directory + "/server.pem" }
    var keyPath: String { directory + "/server.key" }

    /// Makes the CA and the server certificate in a new temporary directory (mode 0700).
    static func make() throws -> PrivateCA {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PrivateCATLS-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let files = PrivateCA(directory: directory)
        do {
            try Data(configuration.utf8).write(to: URL(fileURLWithPath: directory + "/openssl.cnf"))
            let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try openssl(
                ["req", "-x509", "-config", "openssl.cnf", "-extensions", "ca_ext"] + curve
                    + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=PrivateCATLS private CA"],
                in: directory)
            try openssl(
                ["req", "-new", "-config", "openssl.cnf"] + curve
                    + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost/O=PrivateCATLS"],
                in: directory)
            try openssl(
                [
                    "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "1",
                    "-days", "1", "-extfile", "openssl.cnf", "-extensions", "server_ext", "-out", "server.pem",
                ], in: directory)
            try FileManager.default.removeItem(atPath: directory + "/ca.key")
        } catch {
            files.remove()
            throw error
        }
        return files
    }

    /// Deletes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The DER bytes of every certificate in a PEM file (what ``CertificateChain/certificates`` holds).
    static func derCertificates(inPEMFile path: String) throws -> [Data] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var certificates: [Data] = []
        var base64: String?
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "-----BEGIN CERTIFICATE-----" {
                base64 = ""
            } else if line == "-----END CERTIFICATE-----" {
                if let body = base64, let der = Data(base64Encoded: body) {
                    certificates.append(der)
                }
                base64 = nil
            } else if base64 != nil {
                base64? += line
            }
        }
        return certificates
    }

    private static func openssl(_ arguments: [String], in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "openssl \(arguments.first ?? "") failed: \(String(decoding: message, as: UTF8.self))")
        }
    }

    private static let configuration = """
        [req]
        distinguished_name = dn
        prompt = no
        [dn]
        CN = unused
        [ca_ext]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [server_ext]
        basicConstraints = CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:localhost, IP:127.0.0.1

        """
}
