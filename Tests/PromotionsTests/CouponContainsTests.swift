import Testing

@testable import Promotions

@Suite("A coupon in an id or a name")
struct CouponContainsTests {
    @Test("comparing bytes answers as String.contains does, on 20,000 random pairs")
    func sameAsContains() {
        let pieces: [String] = ["a", "b", "x", "1", " ", "-", "é", "e\u{301}", "\r", "\n", "\r\n", "😀", "ab", "ba"]
        var state: UInt64 = 5
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func text(_ most: Int) -> String { (0..<next(most + 1)).map { _ in pieces[next(pieces.count)] }.joined() }
        for _ in 0..<20_000 {
            let (whole, part) = (text(8), text(3))
            guard !part.isEmpty else { continue }
            #expect(
                Diagnostic.contains(whole, part) == whole.contains(part),
                "\(whole.debugDescription) ⊇ \(part.debugDescription)")
        }
        #expect(Diagnostic.contains("xmas-sale", "xmas"))
        #expect(!Diagnostic.contains("xma", "xmas"))
        #expect(Diagnostic.contains("a\r\nb", "a\r") == "a\r\nb".contains("a\r"))
    }
}
