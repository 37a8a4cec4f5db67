import Testing

@testable import PlistReader

@Suite("Text as messages show it")
struct DisplayEscapeTests {
    @Test("the quick answer for plain text is the scalar-by-scalar one, on 20,000 random texts")
    func quickAnswer() {
        let pieces: [String] = [
            "a", "Z", "0", " ", "~", "`", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}",
            "\u{A0}", "é", "😀", "\u{200E}", "\u{2028}", "\u{202E}", "\u{2066}", "\u{2069}", "\r\n", "P0001"
        ]
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<20_000 {
            let text = (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            #expect(text.escapedForDisplay == text.escapedScalarByScalar)
        }
        #expect("SKU000123".escapedForDisplay == "SKU000123")
        #expect("a\\b\u{7F}".escapedForDisplay == "a\\\\b\\u{7f}")
    }
}
