import Pricing
import Promotions

/// A report being written as UTF-8 bytes, handed out a chunk at a time: tens of thousands of
/// diagnostics are written without a `String` per piece, and a large report is never held whole.
/// The text and JSON reporters write through it; what they write is the same, byte for byte, as
/// their plain forms (``TextReporter/line(_:file:)``, ``JSONReporter/renderPlain(_:)``), which the
/// tests compare it with.
struct ReportBytes {
    private var bytes: [UInt8] = []
    private let chunk: Int
    private let write: (UnsafeBufferPointer<UInt8>) -> Void

    /// `write` is given the bytes each time `chunk` of them are ready, and the rest at ``finish()``.
    init(chunk: Int = 1 << 16, write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.chunk = chunk
        self.write = write
        bytes.reserveCapacity(chunk + 4096)
    }

    /// Bytes kept until ``take()``: a block of a report written on another core.
    private init(block: Void) {
        chunk = .max
        write = { _ in }
    }

    /// Hands out what is ready once a chunk is full: call between items, never inside one.
    mutating func flushIfFull() {
        if bytes.count >= chunk { flush() }
    }

    private mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { write($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func finish() {
        flush()
    }

    /// Items `0..<count`, in order, each written by `item(i, &out)`. With `parts`, blocks of them
    /// are written at once, each into bytes of its own, a window of blocks at a time (a report is
    /// still never held whole), then appended in order: the same bytes as one after the other.
    mutating func appendItems(
        _ count: Int, parts: PartRunner?, _ item: @escaping @Sendable (Int, inout ReportBytes) -> Void
    ) {
        // A window of 2,048 items, some 400 KB of text: enough for two cores to share, little
        // enough not to raise the command's peak memory.
        let blockSize = 512
        let window = 4
        guard let parts, count >= 2 * blockSize else {
            for index in 0..<count {
                item(index, &self)
                flushIfFull()
            }
            return
        }
        var start = 0
        while start < count {
            let end = min(count, start + blockSize * window)
            let blocks = (end - start + blockSize - 1) / blockSize
            var written = [[UInt8]](repeating: [], count: blocks)
            written.withUnsafeMutableBufferPointer { written in
                let slots = BlockSlots(buffer: written)
                parts.run(blocks) { [start] block in
                    var out = ReportBytes(block: ())
                    for index in (start + block * blockSize)..<min(end, start + (block + 1) * blockSize) {
                        item(index, &out)
                    }
                    slots.buffer[block] = out.bytes
                }
            }
            for block in written {
                bytes.append(contentsOf: block)
                flushIfFull()
            }
            start = end
        }
    }

    /// Where the blocks of ``appendItems(_:parts:_:)`` are left: each part writes its own.
    private struct BlockSlots: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<[UInt8]>
    }

    mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// `n` in decimal, as `String(n)` writes it.
    mutating func append(decimal n: Int) {
        if n < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        var magnitude = n.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude != 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// `value` as a JSON string literal, quoted and escaped as `JSONWriter.escaped` does: quotes,
    /// backslashes, control characters, U+007F and U+2028/U+2029 escaped, everything else as is.
    mutating func appendJSONString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Most text needs nothing: look for a byte that does before going byte by byte.
            if Self.needsNoJSONEscape(utf8) {
                bytes.append(contentsOf: utf8)
                return
            }
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                let escape: StaticString?
                var advance = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x00..<0x20, 0x7F: escape = nil
                case 0xE2
                where index + 2 < utf8.count && utf8[index + 1] == 0x80
                    && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    advance = 3
                default:
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                if let escape {
                    append(escape)
                } else {
                    // \u00XX, upper-case hex.
                    let hex: StaticString = "0123456789ABCDEF"
                    append("\\u00")
                    bytes.append(hex.utf8Start[Int(byte >> 4)])
                    bytes.append(hex.utf8Start[Int(byte & 0xF)])
                }
                index += advance
                start = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether no byte of `utf8` is one ``appendJSONString(_:)`` escapes or looks at twice: below
    /// 0x20, `"`, `\`, 0x7F, or 0xE2 (the lead byte of U+2028/U+2029). Eight bytes at a time.
    static func needsNoJSONEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always) func special(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2
        }
        guard let base = utf8.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// A high bit in each byte of `word` that is zero (exact for the lowest such byte, and
        /// never none when there is one).
        @inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        var index = 0
        while index + 8 <= utf8.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // Bytes below 0x20: (byte − 0x20) borrows into its high bit when the byte's is clear.
            let low = (word &- ones &* 0x20) & ~word & highs
            let hits =
                low | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
                | zeroBytes(word ^ (ones &* 0x7F)) | zeroBytes(word ^ (ones &* 0xE2))
            if hits != 0 { return false }
            index += 8
        }
        while index < utf8.count {
            if special(utf8[index]) { return false }
            index += 1
        }
        return true
    }
}
