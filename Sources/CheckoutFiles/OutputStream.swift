#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed write: the output was cut short (closed pipe, full disk).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "cannot write the output: \(reason)" }
}

/// Buffered writing to a file descriptor that reports every failure instead of dying of SIGPIPE or
/// losing output silently. Callers `flush()` at the end and treat an error as a failed run.
public final class OutputStream {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    public private(set) var failure: OutputError?

    /// Standard output and error. Like any `OutputStream`, each is used from one thread at a time.
    nonisolated(unsafe) public static let standardOutput = OutputStream(fd: STDOUT_FILENO)
    nonisolated(unsafe) public static let standardError = OutputStream(fd: STDERR_FILENO, capacity: 0)

    public init(fd: Int32, capacity: Int = 1 << 16) {
        self.fd = fd
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Stops the process from dying of SIGPIPE: a closed pipe becomes an `EPIPE` error instead.
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil else { return }
        if bytes.count >= capacity, capacity > 0 {
            // Large writes go straight out, after what is buffered, instead of being copied.
            try? flush()
            guard failure == nil else { return }
            writeOut(UnsafeRawBufferPointer(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try? flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws(OutputError) {
        if let failure { throw failure }
        buffer.withUnsafeBytes { writeOut($0) }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }

    /// Writes all of `bytes`, or records why not.
    private func writeOut(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, failure == nil {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = OutputError(reason: String(cString: strerror(errno)))
                return
            }
            offset += written
        }
    }
}
