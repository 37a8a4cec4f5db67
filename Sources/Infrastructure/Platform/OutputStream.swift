/// A failed write: the output was cut short (closed pipe, full disk).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    /// The reader of a pipe went away (EPIPE), as `checkout … | head` does.
    public var isBrokenPipe = false
    public var description: String { "cannot write the output: \(reason)" }
}

/// Where bytes go: an output stream, or a counter in benchmarks.
public protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// Counts bytes and throws them away.
public final class DiscardingSink: ByteSink {
    public private(set) var count = 0

    public init() {}

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) { count += bytes.count }
}

/// Buffered writing to a file descriptor that reports every failure instead of dying of SIGPIPE or
/// losing output silently. Callers `flush()` at the end and treat an error as a failed run.
public final class OutputStream: ByteSink {
    private let fd: FileDescriptor
    private var buffer: [UInt8] = []
    private let capacity: Int
    public private(set) var failure: OutputError?
    /// When set, a write to a pipe whose reader has gone ends the process at once with this status,
    /// silently, as if SIGPIPE had killed it; otherwise it is a failure like any other.
    public var brokenPipeExitStatus: Int32?

    /// Standard output and error. Like any `OutputStream`, each is used from one thread at a time.
    nonisolated(unsafe) public static let standardOutput = OutputStream(fd: .standardOutput)
    nonisolated(unsafe) public static let standardError = OutputStream(fd: .standardError, capacity: 0)

    public init(fd: FileDescriptor, capacity: Int = 1 << 16) {
        self.fd = fd
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Whether the stream goes to a terminal.
    public var isTerminal: Bool { fd.isTerminal }

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
        guard failure == nil, !bytes.isEmpty else { return }
        do {
            try fd.writeAll(bytes)
        } catch {
            if error.isBrokenPipe, let status = brokenPipeExitStatus { Machine.exitNow(status) }
            failure = OutputError(reason: error.description, isBrokenPipe: error.isBrokenPipe)
        }
    }
}
