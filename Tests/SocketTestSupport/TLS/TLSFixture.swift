import AsyncSocketCore
import Foundation

/// Throw-away certificates and keys (EC P-256), made with the `openssl` command once per test process
/// in a temporary directory that is removed when the process exits. No private key is ever committed.
///
/// - a CA, and a server certificate it signed for `localhost`, 127.0.0.1 and ::1;
/// - a client certificate, an expired server certificate and one for the wrong host name, same CA
///   (the server certificates share the server key);
/// - a second, unrelated CA;
/// - an expired root and a (valid) server certificate it signed;
/// - the server identity as PKCS#12 (password "p12-secret"), the client key encrypted ("key-secret").
package struct TLSFixture: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static let p12Password = "p12-secret"
    package static let keyPassword = "key-secret"

    package let directory: String
    package var caPath: String { path("ca.pem") }
    package var otherCAPath: String { path("other-ca.pem") }
    package var expiredRootPath: String { path("expired-root.pem") }
    package var serverCertificatePath: String { path("server.pem") }
    package var serverKeyPath: String { path("server.key") }
    package var clientCertificatePath: String { path("client.pem") }
    package var clientKeyPath: String { path("client.key") }
    package var encryptedClientKeyPath: String { path("client-encrypted.key") }
    package var expiredServerCertificatePath: String { path("expired.pem") }
    package var wrongHostCertificatePath: String { path("wrong-host.pem") }
    package var expiredRootServerCertificatePath: String { path("expired-root-server.pem") }
    package var serverPKCS12Path: String { path("server.p12") }

    package func path(_ name: String) -> String { directory + "/" + name }

    package func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The fixture, generated on first use (thread-safe: a static `let`).
    package static func shared() throws -> TLSFixture {
        try generated.get()
    }

    private static let generated = Result { () throws -> TLSFixture in
        try FileManager.default.createDirectory(atPath: temporaryDirectory, withIntermediateDirectories: true)
        let fixture = TLSFixture(directory: temporaryDirectory)
        try fixture.generate()
        return fixture
    }

    /// A new directory under the system's temporary directory, removed when the process exits.
    private static let temporaryDirectory: String = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("AsyncSocketKitTLS-\(UUID().uuidString)").path
        atexit { try? FileManager.default.removeItem(atPath: TLSFixture.temporaryDirectory) }
        return directory
    }()

    // MARK: Generation

    private func generate() throws {
        try Data(Self.configuration.utf8).write(to: URL(fileURLWithPath: path("openssl.cnf")))
        try Data().write(to: URL(fileURLWithPath: path("index.txt")))
        try Data("1000\n".utf8).write(to: URL(fileURLWithPath: path("serial")))
        try makeRoot("ca", subject: "/CN=AsyncSocketKit Test CA/O=AsyncSocketKit Tests")
        try makeRoot("other-ca", subject: "/CN=Unrelated Test CA")
        try makeRequest("server", subject: "/CN=localhost/O=AsyncSocketKit Tests")
        try sign("server", by: "ca", serial: 2, extensions: "server_ext", output: "server.pem")
        try makeRequest("client", subject: "/CN=Test Client")
        try sign("client", by: "ca", serial: 3, extensions: "client_ext", output: "client.pem")
        try openssl(
            "req", "-new", "-config", "openssl.cnf", "-key", "server.key", "-out", "wrong-host.csr",
            "-subj", "/CN=wrong.example")
        try sign("wrong-host", by: "ca", serial: 4, extensions: "wrong_host_ext", output: "wrong-host.pem")
        try openssl(
            "ca", "-batch", "-config", "openssl.cnf", "-notext", "-cert", "ca.pem", "-keyfile", "ca.key",
            "-extensions", "server_ext", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z",
            "-in", "server.csr", "-out", "expired.pem")
        try makeRequest("expired-root", subject: "/CN=Expired Test Root")
        try openssl(
            "ca", "-batch", "-config", "openssl.cnf", "-selfsign", "-notext", "-keyfile", "expired-root.key",
            "-extensions", "ca_ext", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z",
            "-in", "expired-root.csr", "-out", "expired-root.pem")
        try sign("server", by: "expired-root", serial: 5, extensions: "server_ext", output: "expired-root-server.pem")
        try openssl(
            "pkcs12", "-export", "-inkey", "server.key", "-in", "server.pem", "-certfile", "ca.pem",
            "-passout", "pass:" + Self.p12Password, "-out", "server.p12")
        try openssl(
            "pkey", "-in", "client.key", "-aes256", "-passout", "pass:" + Self.keyPassword,
            "-out", "client-encrypted.key")
    }

    private func makeRoot(_ name: String, subject: String) throws {
        try openssl(
            "req", "-x509", "-config", "openssl.cnf", "-extensions", "ca_ext", "-newkey", "ec",
            "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", name + ".key", "-out", name + ".pem",
            "-days", "30", "-subj", subject)
    }

    private func makeRequest(_ name: String, subject: String) throws {
        try openssl(
            "req", "-new", "-config", "openssl.cnf", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", name + ".key", "-out", name + ".csr", "-subj", subject)
    }

    private func sign(_ name: String, by issuer: String, serial: Int, extensions: String, output: String) throws {
        try openssl(
            "x509", "-req", "-in", name + ".csr", "-CA", issuer + ".pem", "-CAkey", issuer + ".key",
            "-set_serial", String(serial), "-days", "30", "-extfile", "openssl.cnf",
            "-extensions", extensions, "-out", output)
    }

    private func openssl(_ arguments: String...) throws {
        let child = try ChildProcess(tool: "openssl", arguments, directory: directory)
        guard let status = child.waitForExit(timeout: 60), status == 0 else {
            child.stop()
            throw Failure(
                description: "openssl \(arguments.joined(separator: " ")) failed: \(child.errorOutput)")
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
        [wrong_host_ext]
        basicConstraints = CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:wrong.example
        [client_ext]
        basicConstraints = CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = clientAuth
        [ca]
        default_ca = test_ca
        [test_ca]
        database = index.txt
        serial = serial
        new_certs_dir = .
        default_md = sha256
        policy = any_policy
        unique_subject = no
        [any_policy]
        commonName = supplied

        """
}
