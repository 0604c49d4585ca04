// Plain-Dispatch echo server: a stand-in for a GCD-queue socket design (GCDAsyncSocket style):
// one serial DispatchQueue per connection (targeting the default global queue), a
// DispatchSourceRead that is always on unless output backs up, and a DispatchSourceWrite that
// is resumed only while there is pending output.
//   DispatchEchoServer <port>
// port   : raw echo
// port+1 : line echo (memchr for '\n', each complete line memcpy'd into the output buffer)
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

let bufSize = 256 * 1024
let highWater = 4 << 20

final class Conn: @unchecked Sendable {  // all mutable state confined to `queue`
    let fd: Int32
    let line: Bool
    let queue: DispatchQueue
    var readSource: DispatchSourceRead?
    var writeSource: DispatchSourceWrite?
    var readSuspended = false
    var writeSuspended = true
    var closed = false
    var cancelled = 0

    let inBuf: UnsafeMutableRawPointer
    var inLen = 0  // line mode: carried-over partial line
    var out: UnsafeMutableRawPointer
    var outCap: Int
    var outStart = 0
    var outEnd = 0

    init(fd: Int32, line: Bool) {
        self.fd = fd
        self.line = line
        self.queue = DispatchQueue(label: "conn")
        self.inBuf = UnsafeMutableRawPointer.allocate(byteCount: bufSize, alignment: 16)
        self.outCap = bufSize
        self.out = UnsafeMutableRawPointer.allocate(byteCount: bufSize, alignment: 16)
    }

    func start() {
        let rs = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let ws = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        readSource = rs
        writeSource = ws
        // The handlers retain self; the cycle is broken in the last cancel handler.
        rs.setEventHandler { self.onReadable() }
        ws.setEventHandler { self.onWritable() }
        rs.setCancelHandler { self.onCancelled() }
        ws.setCancelHandler { self.onCancelled() }
        // Pitfall (Swift 6, Linux): `any DispatchSourceRead/Write` are not Sendable, so they
        // cannot be captured by the @Sendable closure below; go through the @unchecked Sendable self.
        queue.async {
            self.readSource!.activate()
            self.writeSource!.activate()
            self.writeSource!.suspend()  // on our own queue: the handler cannot have run yet
        }
    }

    private func appendOut(_ p: UnsafeRawPointer, _ n: Int) {
        if outEnd + n > outCap {
            if outStart > 0 {
                memmove(out, out + outStart, outEnd - outStart)
                outEnd -= outStart
                outStart = 0
            }
            if outEnd + n > outCap {
                var cap = outCap
                while cap < outEnd + n { cap *= 2 }
                let nb = UnsafeMutableRawPointer.allocate(byteCount: cap, alignment: 16)
                nb.copyMemory(from: out, byteCount: outEnd)
                out.deallocate()
                out = nb
                outCap = cap
            }
        }
        (out + outEnd).copyMemory(from: p, byteCount: n)
        outEnd += n
    }

    private func onReadable() {
        if closed { return }
        var iterations = 0
        while iterations < 4 && outEnd - outStart < highWater {
            iterations += 1
            let space = bufSize - inLen
            if space == 0 {
                shutdownConn()
                return
            }  // line longer than buffer
            let n = recv(fd, inBuf + inLen, space, 0)
            if n == 0 {
                shutdownConn()
                return
            }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { break }
                shutdownConn()
                return
            }
            if !line {
                appendOut(inBuf, n)
            } else {
                let end = inLen + n
                var start = 0
                while start < end, let hit = memchr(inBuf + start, 0x0A, end - start) {
                    let len = (inBuf + start).distance(to: UnsafeMutableRawPointer(hit)) + 1
                    appendOut(inBuf + start, len)  // one line
                    start += len
                }
                if start > 0 && start < end { memmove(inBuf, inBuf + start, end - start) }
                inLen = end - start
            }
            if n < space { break }  // drained the socket (most likely)
        }
        flush()
    }

    private func onWritable() {
        if closed { return }
        flush()
    }

    private func flush() {
        while outStart < outEnd {
            let w = send(fd, out + outStart, outEnd - outStart, Int32(MSG_NOSIGNAL))
            if w > 0 {
                outStart += w
                continue
            }
            if w < 0 && errno == EINTR { continue }
            if w < 0 && errno == EAGAIN { break }
            shutdownConn()
            return
        }
        if outStart == outEnd {
            outStart = 0
            outEnd = 0
            if !writeSuspended {
                writeSource?.suspend()
                writeSuspended = true
            }
            if readSuspended {
                readSource?.resume()
                readSuspended = false
            }
        } else {
            if writeSuspended {
                writeSource?.resume()
                writeSuspended = false
            }
            if outEnd - outStart >= highWater && !readSuspended {
                readSource?.suspend()
                readSuspended = true
            }
        }
    }

    private func shutdownConn() {
        if closed { return }
        closed = true
        readSource?.cancel()
        writeSource?.cancel()
        // A suspended source never delivers its cancel handler, and releasing a suspended
        // source crashes libdispatch: resume both before letting go.
        if readSuspended {
            readSource?.resume()
            readSuspended = false
        }
        if writeSuspended {
            writeSource?.resume()
            writeSuspended = false
        }
    }

    private func onCancelled() {
        cancelled += 1
        if cancelled == 2 {
            close(fd)  // only after both sources are cancelled
            readSource = nil
            writeSource = nil
            inBuf.deallocate()
            out.deallocate()
        }
    }
}

final class Listener: @unchecked Sendable {  // confined to `queue`
    let fd: Int32
    let line: Bool
    let queue = DispatchQueue(label: "accept")
    var source: DispatchSourceRead?

    init(port: UInt16, line: Bool) {
        self.line = line
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(rc == 0 && listen(fd, 1024) == 0, "bind/listen failed errno=\(errno)")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    func start() {
        let s = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        s.setEventHandler { self.acceptAll() }
        source = s
        s.activate()
    }

    private func acceptAll() {
        while true {
            // Pitfall: accept4 is a _GNU_SOURCE function and is not visible through Glibc.
            let cfd = accept(fd, nil, nil)
            if cfd < 0 { return }
            _ = fcntl(cfd, F_SETFL, fcntl(cfd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(cfd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            Conn(fd: cfd, line: line).start()
        }
    }
}

// Pitfall: Glibc `stdout` is a mutable C global -> error in Swift 6 mode; flush with fflush(nil) instead.
signal(SIGPIPE, SIG_IGN)
let port = CommandLine.arguments.count > 1 ? UInt16(CommandLine.arguments[1])! : 9000
let l1 = Listener(port: port, line: false)
let l2 = Listener(port: port + 1, line: true)
l1.start()
l2.start()
print("READY dispatch port=\(port) lineport=\(port + 1)")
fflush(nil)
dispatchMain()
