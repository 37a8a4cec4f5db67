/// The content of a JSON string literal, written from UTF-8 bytes: quotes, backslashes, control
/// characters and U+007F escaped, and U+2028/U+2029 too (they end lines in JavaScript); every other
/// byte copied as is. The one escaper of JSON output: `JSONWriter`, receipts and reports use it.
public enum JSONEscape {
    /// Whether no byte of `utf8` is one ``append(_:to:)`` escapes or looks at twice: below 0x20,
    /// `"`, `\`, 0x7F, or 0xE2 (the lead byte of U+2028/U+2029). Eight bytes at a time: most text
    /// needs nothing, and is then copied whole.
    public static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
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
            if isSpecial(utf8[index]) { return false }
            index += 1
        }
        return true
    }

    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2
    }

    /// Appends `utf8` escaped, without the quotes around it: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`,
    /// `\f`, `\u2028`, `\u2029`, and `\u00XX` (upper-case hex) for the other control characters.
    public static func append(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if isPlain(utf8) {
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
                escape.withUTF8Buffer { bytes.append(contentsOf: $0) }
            } else {
                let hex: StaticString = "0123456789ABCDEF"
                let prefix: StaticString = "\\u00"
                prefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            }
            index += advance
            start = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    /// ``append(_:to:)`` as a string: `value` itself when nothing needs escaping.
    public static func escaped(_ value: String) -> String {
        var value = value
        return value.withUTF8 { utf8 in
            guard !isPlain(utf8) else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count + 16)
            append(utf8, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        } ?? value
    }
}
