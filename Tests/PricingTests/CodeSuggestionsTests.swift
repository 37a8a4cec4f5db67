import Pricing
import Testing

@Suite("Did you mean: product codes")
struct CodeSuggestionsTests {
    @Test("letter case first, then the closest typo, the earlier code on a tie; nothing when far")
    func small() {
        let s = CodeSuggestions(codes: ["VOUCHER", "TSHIRT", "MUG", "CAP", "CUP"])
        #expect(s.suggestion(for: "mug") == "MUG")
        #expect(s.suggestion(for: "TSHRT") == "TSHIRT")
        #expect(s.suggestion(for: "TSHITR") == "TSHIRT")  // a transposition
        #expect(s.suggestion(for: "CXP") == "CAP")  // CAP and CUP are both one away: the earlier
        #expect(s.suggestion(for: "HAT") == nil)
    }

    @Test("a large catalog answers through its index what a code-by-code comparison answers, for every single typo")
    func large() {
        let codes = (0..<50_000).map { number -> String in
            let digits = String(number * 7919 % 1_000_003, radix: 36).uppercased()
            return "SKU-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        }
        let indexed = CodeSuggestions(codes: codes)
        let small = (0..<400).map { codes[$0 * 113] }
        let exhaustive = CodeSuggestions(codes: small)
        for (position, code) in small.enumerated() {
            var chars = Array(code)
            // A deletion, a substitution and a transposition of a code the small catalog also has.
            let deleted = String(chars.enumerated().filter { $0.offset != 4 }.map(\.element))
            chars[5] = chars[5] == "Q" ? "R" : "Q"
            let substituted = String(chars)
            let original = Array(code)
            let transposed = String(original[0..<4] + [original[5], original[4]] + original[6...])
            for typo in [deleted, substituted, transposed] {
                guard let viaIndex = indexed.suggestion(for: typo) else {
                    Issue.record("no suggestion for \(typo) (from \(code))")
                    continue
                }
                // The index finds some code within one edit; the nearest one, checked the slow way, is as near.
                #expect(CodeSuggestions(codes: [viaIndex]).suggestion(for: typo) == viaIndex)
                if position < 50 { #expect(exhaustive.suggestion(for: typo) != nil) }
            }
        }
        #expect(indexed.suggestion(for: "sku-" + String(codes[7].dropFirst(4))) == codes[7])
        #expect(indexed.suggestion(for: "COMPLETELY-DIFFERENT") == nil)
    }

    @Test("many questions at once get what each gets alone, on catalogs large and small, ASCII or not")
    func batch() throws {
        var state: UInt64 = 7
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-éÉß")
        for (size, length) in [(3_000, 6), (2_500, 3), (1_500, 7), (6_000, 9)] {
            var seen: Set<String> = []
            var products: [Product] = []
            while products.count < size {
                let code = String(
                    (0..<(1 + next(length))).map { _ in alphabet[next(next(4) == 0 ? alphabet.count : 26)] })
                if seen.insert(code).inserted { products.append(Product(code: code, name: code, price: 1)) }
            }
            let catalog = try Catalog(products: products)
            let one = CodeSuggestions(codes: products.map(\.code))
            let questions = (0..<600).map { _ -> String in
                var chars = Array(products[next(products.count)].code)
                switch next(6) {
                case 0: return String(chars).lowercased()
                case 1: chars.remove(at: next(chars.count))
                case 2: chars.insert(alphabet[next(alphabet.count)], at: next(chars.count + 1))
                case 3: chars[next(chars.count)] = alphabet[next(alphabet.count)]
                case 4:
                    if chars.count > 1 {
                        let i = next(chars.count - 1)
                        chars.swapAt(i, i + 1)
                    }
                default: return String((0..<(1 + next(8))).map { _ in alphabet[next(alphabet.count)] })
                }
                return String(chars)
            }
            let answers = CodeSuggestions.suggestions(for: questions, in: catalog)
            #expect(answers == questions.map(one.suggestion(for:)), "catalog of \(size)")
            #expect(answers.compactMap { $0 }.count > 300)
        }
    }
}
