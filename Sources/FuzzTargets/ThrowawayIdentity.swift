import AsyncSocketCore
import Foundation

/// A self-signed EC certificate and key for `localhost`, made once per process with the `openssl`
/// command in a temporary directory that is removed at once; no key is ever committed. `nil` when the
/// command is missing or fails.
///
/// LeakSanitizer cannot follow the tagged pointers of a `Data` held in a global (here, and in the
/// TLS context cache's entries), so Tests/Fuzz/lsan.supp names this type.
enum ThrowawayIdentity {
    static let pem = make()

    private static func make() -> TLSSettings.Identity? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-identity-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-subj", "/CN=localhost", "-days", "2", "-keyout", directory.appendingPathComponent("key.pem").path,
            "-out", directory.appendingPathComponent("certificate.pem").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            return .pemData(
                certificate: try Data(contentsOf: directory.appendingPathComponent("certificate.pem")),
                key: try Data(contentsOf: directory.appendingPathComponent("key.pem")), password: nil)
        } catch {
            return nil
        }
    }
}
