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
        guard hasCharactersToEscape else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x5C: out.unicodeScalars.append(scalar)
            default: out += String(scalar).forDisplay()
            }
        }
        return out
    }

    /// Whether the text holds a character ``forDisplay(limit:)`` escapes (a backslash aside), read
    /// from its UTF-8 bytes: this runs for every line of a text receipt and every batch line, whose
    /// text (a `€`, an accented name) almost never has one.
    var hasCharactersToEscape: Bool {
        var text = self
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0..<0x20, 0x7F: return true
                case 0xC2:
                    // U+0080–U+009F (C1 controls): C2 80–C2 9F.
                    if index + 1 < bytes.count, (0x80..<0xA0).contains(bytes[index + 1]) { return true }
                case 0xE2:
                    // U+200E–U+200F, U+2028–U+202E: E2 80 8E–8F, E2 80 A8–AE; U+2066–U+2069: E2 81 A6–A9.
                    guard index + 2 < bytes.count else { break }
                    let (second, third) = (bytes[index + 1], bytes[index + 2])
                    if second == 0x80, third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third) { return true }
                    if second == 0x81, (0xA6...0xA9).contains(third) { return true }
                default: break
                }
                index += 1
            }
            return false
        }
    }
}

/// `1 cart`, `2 carts`: a count and its noun, with an s but for one (the nouns of reports and
/// messages all take one).
public func counted(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
