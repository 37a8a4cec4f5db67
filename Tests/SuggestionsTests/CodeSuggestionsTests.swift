import Testing

@testable import Suggestions

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
    func batch() {
        var state: UInt64 = 7
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-éÉß")
        for (size, length) in [(3_000, 6), (2_500, 3), (1_500, 7), (6_000, 9)] {
            var seen: Set<String> = []
            var products: [String] = []
            while products.count < size {
                let code = String(
                    (0..<(1 + next(length))).map { _ in alphabet[next(next(4) == 0 ? alphabet.count : 26)] })
                if seen.insert(code).inserted { products.append(code) }
            }
            let one = CodeSuggestions(codes: products)
            let questions = (0..<600).map { _ -> String in
                var chars = Array(products[next(products.count)])
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
            let answers = CodeSuggestions.suggestions(for: questions, codes: products)
            #expect(answers == questions.map(one.suggestion(for:)), "catalog of \(size)")
            #expect(answers.compactMap { $0 }.count > 300)
        }
    }

    /// The nearest code of all within the limit, the earliest on a tie, compared one by one: what
    /// small catalogs answer.
    static func plainNearest(_ query: String, in codes: [String]) -> String? {
        func upper(_ text: String) -> [UInt8] { Array(text.utf8).map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 } }
        let q = upper(query)
        if let exact = codes.first(where: { upper($0) == q }) { return exact }
        let limit = min(3, max(1, query.count / 3))
        let ascii = q.allSatisfy { $0 < 0x80 }
        var best: (Int, Int)?
        for (position, code) in codes.enumerated() {
            let c = upper(code)
            let distance =
                ascii && c.allSatisfy({ $0 < 0x80 })
                ? editDistance(q, c, limit: limit)
                : editDistance(
                    Array(String(decoding: q, as: UTF8.self).unicodeScalars),
                    Array(String(decoding: c, as: UTF8.self).unicodeScalars), limit: limit)
            if distance <= limit, best.map({ (distance, position) < ($0.1, $0.0) }) ?? true {
                best = (position, distance)
            }
        }
        return best.map { codes[$0.0] }
    }

    @Test("small catalogs: the trie answers what comparing every code answers, at every distance up to three")
    func trie() {
        var state: UInt64 = 11
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let alphabet = Array("ABC0123-xyé")
        for round in 0..<60 {
            // Codes sharing long prefixes (SKU000123), short ones, and a few not ASCII.
            var codes: [String] = []
            for _ in 0..<(1 + next(400)) {
                switch next(3) {
                case 0: codes.append("SKU" + String(100_000 + next(900_000)))
                case 1: codes.append(String((0..<(1 + next(12))).map { _ in alphabet[next(alphabet.count)] }))
                default: codes.append("P" + String(next(1_000)))
                }
            }
            let suggestions = CodeSuggestions(codes: codes)
            for _ in 0..<150 {
                var chars = Array(codes[next(codes.count)])
                for _ in 0..<next(5) {
                    switch next(4) {
                    case 0 where chars.count > 1: chars.remove(at: next(chars.count))
                    case 1: chars.insert(alphabet[next(alphabet.count)], at: next(chars.count + 1))
                    case 2 where chars.count > 1:
                        let i = next(chars.count - 1)
                        chars.swapAt(i, i + 1)
                    default: chars[next(chars.count)] = alphabet[next(alphabet.count)]
                    }
                }
                let query = next(5) == 0 ? String(chars).lowercased() : String(chars)
                #expect(
                    suggestions.suggestion(for: query) == Self.plainNearest(query, in: codes),
                    "round \(round): \(query)")
            }
        }
        // Three edits away on a nine-character code: the catalog moved from OLD to SKU.
        let catalog = (0..<1_000).map { "SKU" + String(1_000_000 + $0).dropFirst() }
        #expect(CodeSuggestions(codes: catalog).suggestion(for: "OLD000123") == "SKU000123")
        #expect(
            CodeSuggestions.suggestions(for: ["OLD000123", "old000123", "OLD-000123"], codes: catalog) == [
                "SKU000123", "SKU000123", nil
            ])
    }

    @Test("the banded distance is the full one wherever it is within the limit")
    func banded() {
        var state: UInt64 = 3
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var rows = [Int32](repeating: 0, count: 3 * 40)
        for _ in 0..<20_000 {
            let a = (0..<next(12)).map { _ in UInt8(65 + next(4)) }
            var b = a
            for _ in 0..<next(6) {
                if next(2) == 0, !b.isEmpty {
                    b.remove(at: next(b.count))
                } else {
                    b.insert(UInt8(65 + next(4)), at: next(b.count + 1))
                }
            }
            if next(3) == 0, b.count > 1 { b.swapAt(0, 1) }
            for limit in 1...3 {
                let full = editDistance(a, b, limit: limit)
                let banded = a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        rows.withUnsafeMutableBufferPointer {
                            boundedDistance(a, b, limit: limit, rows: $0.baseAddress!)
                        }
                    }
                }
                #expect((full <= limit ? full : -1) == (banded <= limit ? banded : -1), "\(a) \(b) \(limit)")
            }
        }
    }
}
