extension String {
    /// Text that came from input (a code, a name, a coupon, a file name), as text outputs and
    /// messages show it: control characters (C0, DEL, C1), line and paragraph separators and
    /// bidirectional controls written as escapes (`\n`, `\t`, `\u{1b}`), a backslash doubled, so that
    /// it can neither move the cursor, colour a terminal, nor start a line of its own; cut after
    /// `limit` characters, saying how many more there were (a 1 MB code in a message stays short).
    public func forDisplay(limit: Int = .max) -> String {
        var out = ""
        var count = 0
        for scalar in unicodeScalars {
            if count == limit {
                return out + "… (\(unicodeScalars.count - limit) more characters)"
            }
            count += 1
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// How long a value from input may be in a message before it is cut.
    public static let messageValueLimit = 200

    /// A whole message, with its control characters escaped as in ``forDisplay(limit:)`` (backslashes
    /// kept: the values in it are escaped already), for a last line of defence where it is written.
    public var withoutControlCharacters: String {
        guard
            unicodeScalars.contains(where: {
                $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            })
        else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x5C: out.unicodeScalars.append(scalar)
            default: out += String(scalar).forDisplay()
            }
        }
        return out
    }
}
