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

@Suite("Did you mean: a word cut short")
struct CompletionTests {
    @Test("a near spelling first; else the shortest candidate the word begins, letter case aside")
    func completion() {
        let categories = ["Clothing", "Clothing > Shirts", "Home", "Home > Kitchen"]
        // "Cloth" is three edits from "Clothing": too many for five letters (one), but it begins it.
        #expect(closestMatch(to: "Cloth", in: categories) == nil)
        #expect(closestMatchOrCompletion(of: "Cloth", in: categories) == "Clothing")
        #expect(closestMatchOrCompletion(of: "home > kit", in: categories) == "Home > Kitchen")
        // A near spelling wins over a completion: "Hme" is one edit from "Home".
        #expect(closestMatchOrCompletion(of: "Hme", in: categories) == "Home")
        #expect(closestMatchOrCompletion(of: "Garden", in: categories) == nil)
        #expect(closestMatchOrCompletion(of: "Cloth", in: []) == nil)
    }

    @Test("ties: the shortest, then the first by bytes, whatever the candidates' order")
    func ties() {
        var generator = SplitMix64(seed: 5)
        var candidates = ["shirt", "Shoes", "Shirt", "Shirts > Long", "shawl"]
        for _ in 0..<200 {
            candidates.shuffle(using: &generator)
            // "sh": no candidate within one edit; five begin with it, "Shirt" < "Shoes" < "shawl" < "shirt" by bytes.
            #expect(closestMatchOrCompletion(of: "sh", in: candidates) == "Shirt")
            #expect(closestMatchOrCompletion(of: "Shirts >", in: candidates) == "Shirts > Long")
        }
    }
}
