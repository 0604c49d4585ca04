import AsyncSocketKit
import Foundation

/// Reads standard input line by line on a run loop: a file source while it is a terminal, a pipe or
/// a socket; read whole at once when it is something epoll cannot watch (a regular file, /dev/null).
/// Hands each complete line (without its LF or CR LF) to `line`, a last unterminated one too, then
/// calls `end` once.
final class StandardInputReader {
    private let line: (String) -> Void
    private let end: () -> Void
    private var source: RunLoopFileSource?
    private var pending: [UInt8] = []
    private var finished = false

    init(loop: EventRunLoop, line: @escaping (String) -> Void, end: @escaping () -> Void) {
        self.line = line
        self.end = end
        if Self.isPollable(STDIN_FILENO) {
            let source = loop.addFileSource(STDIN_FILENO, modes: [.common]) { [weak self] _ in self?.readAvailable() }
            source.wantsReadable = true
            self.source = source
        } else {
            loop.enqueue { [weak self] in self?.readToEnd() }
        }
    }

    /// Stops reading; no more calls.
    func stop() {
        source?.cancel()
        source = nil
        finished = true
    }

    private static func isPollable(_ fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK || isatty(fd) != 0
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 {
            take(buffer[0..<count])
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            finish()
        }
    }

    private func readToEnd() {
        take(FileHandle.standardInput.readDataToEndOfFile()[...])
        finish()
    }

    private func take<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        pending.append(contentsOf: bytes)
        while !finished, let newline = pending.firstIndex(of: 0x0A) {
            var text = pending[..<newline]
            if text.last == 0x0D {
                text = text.dropLast()
            }
            pending.removeSubrange(...newline)
            line(String(decoding: text, as: UTF8.self))
        }
    }

    private func finish() {
        guard !finished else { return }
        if !pending.isEmpty {
            line(String(decoding: pending, as: UTF8.self))
            pending.removeAll()
        }
        stop()
        end()
    }
}
