import Foundation

/// A file's bytes for the lexer, mapped into memory (so a file of any size is read without a copy)
/// and read as they are: no text decoding, so bytes that are not UTF-8 cannot fail a scan.
enum SourceFile {
    /// Calls `body` with the bytes of the regular file at `path`; throws a problem naming the system
    /// error when the file cannot be opened or mapped, or is not a regular file.
    static func withBytes<T>(atPath path: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) throws(ScanProblem) -> T {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then refuses it).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw systemProblem(path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemProblem(path) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ScanProblem(path: path, message: "not a regular file")
        }
        let size = Int(status.st_size)
        guard size > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else { throw systemProblem(path) }
        defer { munmap(mapped, size) }
        return body(UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: size))
    }

    /// A problem with `path` saying what `errno` says.
    static func systemProblem(_ path: String) -> ScanProblem {
        ScanProblem(path: path, message: String(cString: strerror(errno)))
    }
}
