import Platform

/// Counts the attributes of each start tag in the bytes handed to libxml2, before it parses them:
/// libxml2 (2.9) checks a tag's attributes for repeats two by two, in time that grows with the
/// square of their number (200,000 attributes on one element took 36 s). A tag with more than
/// ``limit`` stops the reading as forbidden XML (docs/safety.md). No property list element has an
/// attribute but `<plist version="1.0">`.
///
/// A small state machine fed the bytes in order, chunk by chunk: text is skipped by the C
/// library's search for `<`; in a tag, `=` outside quoted values counts an attribute. Comments,
/// CDATA sections, processing instructions and declarations end, for this count, at their first
/// `>`: a rough end that can only count too few.
struct AttributeGuard {
    static let limit = 256

    private enum Mode {
        case text, open, tag, quoted, markup
    }

    private var mode = Mode.text
    private var quote: UInt8 = 0
    private var count = 0
    /// Where the byte last looked at is: its line, and its column in characters.
    private var line = 1
    private var column = 0
    /// Where the tag being counted starts.
    private var tag = SourceLocation(line: 1, column: 1)

    /// Looks at the next bytes of the input; where the tag is when one has more than ``limit``
    /// attributes.
    mutating func check(_ bytes: UnsafeRawBufferPointer) -> SourceLocation? {
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let end = start + bytes.count
        var p = start
        while p < end {
            if mode == .text {
                // To the next `<`, the lines and characters skipped counted.
                let next = findByte(UInt8(ascii: "<"), from: p, to: end) ?? end
                advance(over: p, to: next)
                p = next
                guard p < end else { break }
            }
            let byte = p[0]
            advance(over: p, to: p + 1)
            p += 1
            switch mode {
            case .text:
                mode = .open
                tag = SourceLocation(line: line, column: column)
            case .open:
                if byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") {
                    mode = .markup
                } else if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<") || byte <= 0x20 {
                    mode = byte == UInt8(ascii: "<") ? .open : .text
                } else {
                    mode = .tag
                    count = 0
                }
            case .tag:
                if byte == UInt8(ascii: ">") {
                    mode = .text
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    mode = .quoted
                    quote = byte
                } else if byte == UInt8(ascii: "=") {
                    count += 1
                    if count > Self.limit { return tag }
                }
            case .quoted:
                if byte == quote { mode = .tag }
            case .markup:
                if byte == UInt8(ascii: ">") { mode = .text }
            }
        }
        return nil
    }

    /// Counts the lines and characters (bytes that do not continue a UTF-8 sequence) of `from..<to`.
    @inline(__always)
    private mutating func advance(over from: UnsafePointer<UInt8>, to: UnsafePointer<UInt8>) {
        var q = from
        while q < to {
            let byte = q[0]
            if byte == 0x0A {
                line += 1
                column = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            q += 1
        }
    }
}
