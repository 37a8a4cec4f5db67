import SeededRandom
import Testing

@testable import Suggestions

@Suite("Did you mean: words (keys, types, a catalog's brands, tags and categories)")
struct ClosestMatchTests {
    @Test("a letter-case difference first, then the fewest edits, within one edit per three letters")
    func closest() {
        #expect(closestMatch(to: "PERCENT", in: ["percent", "bulk"]) == "percent")
        #expect(closestMatch(to: "bulck", in: ["combo", "bulk", "percent"]) == "bulk")
        #expect(closestMatch(to: "pecrent", in: ["percent", "priority"]) == "percent")  // a transposition
        // "cap" is 3 letters: one edit allowed; "cop" → "cap" is one, "cup" also one; "hat" two.
        #expect(closestMatch(to: "hat", in: ["cap", "cup"]) == nil)
        #expect(closestMatch(to: "Clothng", in: ["Home", "Clothing", "Home > Kitchen"]) == "Clothing")
    }

    @Test("ties: closer as written (letter case counted), then the first by bytes, whatever the order")
    func ties() {
        // Both are one edit from "cabif" once lower-cased; as written, "Cabify" is one, "cabify" two.
        #expect(closestMatch(to: "Cabif", in: ["cabify", "Cabify"]) == "Cabify")
        #expect(closestMatch(to: "Cabif", in: ["Cabify", "cabify"]) == "Cabify")
        #expect(closestMatch(to: "cabif", in: ["Cabify", "cabify"]) == "cabify")
        // Both differ in case only; "SALE" is closer as written to "SALe" (one) than "sale" (three).
        #expect(closestMatch(to: "SALe", in: ["sale", "SALE"]) == "SALE")
        // The same distance every way: the first by bytes ("CAP" < "CUP").
        #expect(closestMatch(to: "CXP", in: ["CUP", "CAP"]) == "CAP")
        #expect(closestMatch(to: "CXP", in: ["CAP", "CUP"]) == "CAP")
    }

    @Test("the answer does not depend on the candidates' order (1,000 shuffled lists)")
    func orderIndependent() {
        var generator = SplitMix64(seed: 17)
        let words = ["Cabif", "cabif", "CABIF", "sal", "Sal", "SAL", "Shirts", "shirt", "tee"]
        for _ in 0..<1000 {
            var candidates = ["Cabify", "cabify", "CABIFY", "sale", "Sale", "SALE", "Shirt", "shirts", "Tea", "tea"]
            let answers = words.map { closestMatch(to: $0, in: candidates) }
            candidates.shuffle(using: &generator)
            #expect(words.map { closestMatch(to: $0, in: candidates) } == answers)
        }
        #expect(closestMatch(to: "Cabif", in: ["CABIFY", "cabify", "Cabify"]) == "Cabify")
        #expect(closestMatch(to: "Sal", in: ["SALE", "sale", "Sale"]) == "Sale")
    }
}
