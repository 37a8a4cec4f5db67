import Testing

@testable import Pricing

@Suite("Text from input, as outputs show it")
struct DisplayTextTests {
    /// Every scalar the escaping names, its neighbours, and ordinary text.
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", " ", "\\", "é", "€", "\u{0}", "\u{1B}", "\n", "\u{1F}", "\u{20}", "\u{7E}", "\u{7F}", "\u{80}",
        "\u{85}", "\u{9F}", "\u{A0}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{2010}", "\u{2027}", "\u{2028}",
        "\u{2029}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "\u{20AC}",
        "\u{1F600}"
    ]

    /// The contract, scalar by scalar.
    static func naive(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            let v = $0.value
            return v < 0x20 || (0x7F..<0xA0).contains(v) || v == 0x200E || v == 0x200F || (0x2028...0x202E).contains(v)
                || (0x2066...0x2069).contains(v)
        }
    }

    @Test("the byte scan finds exactly the characters to escape, on 20,000 random texts")
    func byteScan() {
        var state: UInt64 = 7
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var escaped = 0
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<(next() % 6) { text.append(Self.alphabet[next() % Self.alphabet.count]) }
            let string = String(text)
            #expect(string.hasCharactersToEscape == Self.naive(string), "\(string.unicodeScalars.map(\.value))")
            if Self.naive(string) {
                escaped += 1
                #expect(!string.withoutControlCharacters.hasCharactersToEscape)
            } else {
                #expect(string.withoutControlCharacters == string)
            }
        }
        #expect(escaped > 5_000)
    }

    @Test("escapes as written")
    func examples() {
        #expect("MUG\n1".withoutControlCharacters == "MUG\\n1")
        #expect("a\u{202E}b".withoutControlCharacters == "a\\u{202e}b")
        #expect("7.50 €".withoutControlCharacters == "7.50 €")
        #expect("x\u{85}".forDisplay() == "x\\u{85}")
    }
}
