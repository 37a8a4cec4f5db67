import StrictJSON
import Testing

/// The byte escaper against JSON's escaping written scalar by scalar, as the format says it.
@Suite("JSON string escaping")
struct JSONEscapeTests {
    /// The reference: each scalar in turn, `\uXXXX` for the controls without a short escape.
    static func reference(_ value: String) -> String {
        var text = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Characters escaping treats differently: quotes, backslashes, control characters, DEL,
    /// U+2028/U+2029, other characters whose first byte is 0xE2 (U+2026, U+2027, U+202A, U+2FFF: not
    /// escaped), and two-, three- and four-byte characters (U+00E2 among them, whose UTF-8 is C3 A2).
    static let pieces: [String] = [
        "a", "Z", "0", " ", "`", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{8}", "\u{C}", "\u{1B}", "\u{1F}",
        "\u{7F}", "\u{80}", "\u{9F}", "é", "€", "😀", "\u{2026}", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}",
        "\u{2FFF}", "\u{E2}", "\r\n", "promotion"
    ]

    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test("by hand: each escape, and plain text returned as it is")
    func examples() {
        #expect(JSONEscape.escaped(#"say "hi" \ bye"#) == #"say \"hi\" \\ bye"#)
        #expect(JSONEscape.escaped("a\nb\rc\td\u{8}e\u{C}f") == #"a\nb\rc\td\be\ff"#)
        #expect(JSONEscape.escaped("\u{0}\u{1B}\u{1F}\u{7F}") == #"\u0000\u001B\u001F\u007F"#)
        #expect(JSONEscape.escaped("x\u{2028}y\u{2029}z\u{2027}") == "x\\u2028y\\u2029z\u{2027}")
        #expect(JSONEscape.escaped("Crème brûlée 7.50 €") == "Crème brûlée 7.50 €")
        #expect(JSONWriter.escaped("\"") == "\\\"")
    }

    @Test("20,000 random strings: the same as the reference, appended after other bytes too")
    func randomStrings() {
        var random = Random(state: 11)
        for _ in 0..<20_000 {
            let text = (0..<random.next(24)).map { _ in Self.pieces[random.next(Self.pieces.count)] }.joined()
            let expected = Self.reference(text)
            #expect(JSONEscape.escaped(text) == expected, "\(text.debugDescription)")
            var bytes: [UInt8] = Array("{".utf8)
            var copy = text
            copy.withUTF8 { JSONEscape.append($0, to: &bytes) }
            #expect(bytes == Array(("{" + expected).utf8))
        }
    }

    @Test("the quick scan for bytes to escape misses none, at every length and alignment")
    func quickScan() {
        func special(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2
        }
        var random = Random(state: 3)
        let plain = (0...255).map(UInt8.init).filter { !special($0) }
        for length in 0..<40 {
            for _ in 0..<200 {
                var bytes = (0..<length).map { _ in plain[random.next(plain.count)] }
                #expect(bytes.withUnsafeBufferPointer(JSONEscape.isPlain))
                guard length > 0 else { continue }
                // One byte of any value at any place: the scan says what a byte at a time says.
                bytes[random.next(length)] = UInt8(random.next(256))
                let expected = !bytes.contains(where: special)
                #expect(bytes.withUnsafeBufferPointer(JSONEscape.isPlain) == expected)
            }
        }
    }
}
