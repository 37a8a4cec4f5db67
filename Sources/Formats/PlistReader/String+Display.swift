extension String {
    /// Text from a file as messages show it: control characters (C0, DEL, C1), line separators and
    /// bidirectional controls written as escapes (`\n`, `\t`, `\u{1}`, `\u{202e}`), so that one
    /// message stays one line in every report format and cannot reorder or colour a terminal.
    public var escapedForDisplay: String {
        // Most text (product codes, ids) is printable ASCII without a backslash: nothing to escape,
        // and nothing to build (a code is escaped for every promotion `validate --catalog` reads).
        func plain(_ bytes: some Sequence<UInt8>) -> Bool {
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
        }
        let isPlain = utf8.withContiguousStorageIfAvailable(plain) ?? plain(utf8)
        return isPlain ? self : escapedScalarByScalar
    }

    /// ``escapedForDisplay`` worked out scalar by scalar, for any text: the plain form the quick
    /// answer for printable ASCII must agree with (the tests compare them).
    var escapedScalarByScalar: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{200E}", "\u{200F}",
                "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}":
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
