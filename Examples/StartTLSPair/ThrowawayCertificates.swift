import Foundation

/// The certificate files of the pair: a CA the client trusts, and the server's certificate (for
/// `localhost`, 127.0.0.1 and ::1, signed by that CA) with its private key.
///
/// ``generate()`` makes throw-away ones with the `openssl` command (EC P-256, valid for one day) in a
/// new private temporary directory, which ``removeTemporaryFiles()`` deletes; the CA's own key is
/// deleted as soon as the server certificate is signed.
struct ThrowawayCertificates {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let caPath: String
    let certificatePath: String
    let keyPath: String
    /// The directory ``generate()`` made, `nil` for files given on the command line.
    let temporaryDirectory: String?

    /// Files given on the command line.
    init(caPath: String, certificatePath: String, keyPath: String) {
        self.caPath = caPath
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        temporaryDirectory = nil
    }

    private init(directory: String) {
        caPath = directory + "/ca.pem"
        certificatePath = directory + "/server.pem"
        keyPath = directory + "/server.key"
        temporaryDirectory = directory
    }

    /// Makes a CA and a server certificate with `openssl` in a new temporary directory (mode 0700).
    static func generate() throws -> ThrowawayCertificates {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("StartTLSPair-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let files = ThrowawayCertificates(directory: directory)
        do {
            try Data(configuration.utf8).write(to: URL(fileURLWithPath: directory + "/openssl.cnf"))
            let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try openssl(
                ["req", "-x509", "-config", "openssl.cnf", "-extensions", "ca_ext"] + curve
                    + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=StartTLSPair throw-away CA"],
                in: directory)
            try openssl(
                ["req", "-new", "-config", "openssl.cnf"] + curve
                    + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
                in: directory)
            try openssl(
                [
                    "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "1",
                    "-days", "1", "-extfile", "openssl.cnf", "-extensions", "server_ext", "-out", "server.pem",
                ], in: directory)
            try FileManager.default.removeItem(atPath: directory + "/ca.key")
        } catch {
            files.removeTemporaryFiles()
            throw error
        }
        return files
    }

    /// Deletes the generated files (nothing for files given on the command line).
    func removeTemporaryFiles() {
        if let temporaryDirectory {
            try? FileManager.default.removeItem(atPath: temporaryDirectory)
        }
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
        subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1

        """
}
