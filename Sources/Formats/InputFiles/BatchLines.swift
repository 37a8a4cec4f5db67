import Platform

/// A batch file's carts: one per line (NDJSON), with physical line numbers; blank lines skipped.
public struct BatchLines: Sequence {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether a file is a batch by its name: `*.ndjson` or `*.jsonl`, in any letter case
    /// (`DAY.NDJSON`, as some systems write names).
    public static func isBatchName(_ path: String) -> Bool {
        let name = path.lowercased()
        return name.hasSuffix(".ndjson") || name.hasSuffix(".jsonl")
    }

    public func makeIterator() -> Array<(line: Int, range: Range<Int>)>.Iterator {
        bytes.withUnsafeBufferPointer { all in
            var lines = LineWalker(bytes: all)
            var result: [(line: Int, range: Range<Int>)] = []
            while let next = lines.next() { result.append(next) }
            return result.makeIterator()
        }
    }

    /// Walks the lines of bytes that outlive it.
    public struct LineWalker {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Lines longer than this are returned whatever they hold, unread, for the caller to refuse.
        let maxLength: Int
        var position = 0
        var line = 0

        public init(bytes: UnsafeBufferPointer<UInt8>, maxLength: Int = .max) {
            self.bytes = bytes
            self.maxLength = maxLength
        }

        /// The next non-blank line (or the next too long): its number (from 1) and its byte range,
        /// without the line break.
        public mutating func next() -> (line: Int, range: Range<Int>)? {
            guard let base = bytes.baseAddress else { return nil }
            while position < bytes.count {
                line += 1
                let start = position
                let end =
                    findByte(UInt8(ascii: "\n"), from: base + start, to: base + bytes.count).map { $0 - base }
                    ?? bytes.count
                position = end + 1
                if end - start > maxLength { return (line, start..<end) }
                for i in start..<end where !(bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D) {
                    return (line, start..<end)
                }
            }
            return nil
        }
    }
}
