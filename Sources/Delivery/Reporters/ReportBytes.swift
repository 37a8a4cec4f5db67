/// A report being written as UTF-8 bytes, handed out a chunk at a time: tens of thousands of
/// diagnostics are written without a `String` per piece, and a large report is never held whole.
/// The text and JSON reporters write through it; what they write is the same, byte for byte, as
/// their plain forms (``TextReporter/line(_:file:)``, ``JSONReporter/renderPlain(_:)``), which the
/// tests compare it with.
struct ReportBytes: ~Copyable {
    private var bytes: [UInt8] = []
    private let chunk: Int
    private let write: (UnsafeBufferPointer<UInt8>) -> Void

    /// `write` is given the bytes each time `chunk` of them are ready, and the rest at ``finish()``.
    init(chunk: Int = 1 << 16, write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.chunk = chunk
        self.write = write
        bytes.reserveCapacity(chunk + 4096)
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

    consuming func finish() {
        flush()
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
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

    /// A newline and `depth` levels of two-space indentation.
    mutating func newline(depth: Int) {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<depth {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
        }
    }

    /// `value` as a JSON string literal, quoted and escaped as `JSONWriter.escaped` does: quotes,
    /// backslashes, control characters, U+007F and U+2028/U+2029 escaped, everything else as is.
    mutating func appendJSONString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
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
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80
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
}
