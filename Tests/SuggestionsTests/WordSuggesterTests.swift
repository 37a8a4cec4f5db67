import SeededRandom
import Testing

@testable import Suggestions

/// `closestMatchOrCompletion(of:in:)` compares the word with every value: the reference the
/// suggester is checked against.
@Suite("Did you mean: many values, many questions (WordSuggester)")
struct WordSuggesterTests {
    /// Values of a few letters from a small alphabet, so that many are one or two edits apart, in
    /// mixed letter case; some with a space and ` > ` as category paths have.
    private func values(_ count: Int, _ generator: inout SplitMix64) -> [String] {
        let letters = Array("abcdeABC")
        var made = Set<String>()
        while made.count < count {
            let length = 3 + Int(generator.next() % 6)
            var value = String((0..<length).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
            if generator.next() % 5 == 0 { value += " > " + value.prefix(2) }
            made.insert(value)
        }
        return made.sorted()
    }

    /// A value with up to three edits (deletion, insertion, substitution, swap, letter case), cut
    /// short, or made up.
    private func question(from values: [String], _ generator: inout SplitMix64) -> String {
        var word = Array(values[Int(generator.next() % UInt64(values.count))])
        switch generator.next() % 8 {
        case 0:
            return String((0..<(2 + Int(generator.next() % 5))).map { _ in "abcdez".randomElement(using: &generator)! })
        case 1: return String(word.prefix(1 + Int(generator.next() % UInt64(word.count))))
        default: break
        }
        for _ in 0..<Int(generator.next() % 4) where !word.isEmpty {
            let at = Int(generator.next() % UInt64(word.count))
            switch generator.next() % 5 {
            case 0: word.remove(at: at)
            case 1: word.insert("abcde".randomElement(using: &generator)!, at: at)
            case 2: word[at] = "abcdeB".randomElement(using: &generator)!
            case 3 where at + 1 < word.count: word.swapAt(at, at + 1)
            default: word[at] = Character(word[at].uppercased())
            }
        }
        return String(word)
    }

    @Test("up to 2,000 values: the reference's answer exactly, 3,000 questions")
    func smallLists() {
        var generator = SplitMix64(seed: 41)
        for round in 0..<30 {
            let list = values(1 + round * 60, &generator)
            let suggester = WordSuggester(list)
            for _ in 0..<100 {
                let word = question(from: list, &generator)
                #expect(suggester.suggestion(for: word) == closestMatchOrCompletion(of: word, in: list), "\(word)")
            }
        }
    }

    @Test("more than 2,000: the reference's answer whenever it is within one edit, or a completion, 1,200 questions")
    func largeLists() {
        var generator = SplitMix64(seed: 43)
        var agreed = 0
        for _ in 0..<2 {
            let list = values(2_500, &generator)
            let suggester = WordSuggester(list)
            for _ in 0..<600 {
                let word = question(from: list, &generator)
                let expected = closestMatchOrCompletion(of: word, in: list)
                let answer = suggester.suggestion(for: word)
                let match = closestMatch(to: word, in: list)
                let distance = match.map {
                    editDistance(Array(word.lowercased().unicodeScalars), Array($0.lowercased().unicodeScalars))
                }
                if match == nil || distance! <= 1 {
                    // Every value within one edit is found; a word with no near value gets the
                    // same completion.
                    #expect(answer == expected, "\(word)")
                    agreed += 1
                } else if let answer, answer != expected {
                    // Two or three edits away the index may miss the nearest: what it offers is
                    // still a near value, or one the word begins.
                    let lowered = Array(answer.lowercased().unicodeScalars)
                    let near =
                        editDistance(Array(word.lowercased().unicodeScalars), lowered, limit: 3)
                        <= min(3, max(1, word.count / 3))
                    #expect(near || answer.lowercased().hasPrefix(word.lowercased()), "\(word) → \(answer)")
                }
            }
        }
        // Most questions are one edit or less away, or far from everything.
        #expect(agreed > 600)
    }

    @Test("by hand: letter case, one edit, a word cut short, nothing near, in a large list")
    func byHand() {
        let list = (0..<3_000).map { "Brand\($0)" } + ["Clothing > Shirts", "Clothing", "Cabify"]
        let suggester = WordSuggester(list)
        #expect(suggester.suggestion(for: "brand17") == "Brand17")
        #expect(suggester.suggestion(for: "Brnd2999") == "Brand2999")
        #expect(suggester.suggestion(for: "Cabfy") == "Cabify")
        #expect(suggester.suggestion(for: "cloth") == "Clothing")
        #expect(suggester.suggestion(for: "Clothing > Sh") == "Clothing > Shirts")
        #expect(suggester.suggestion(for: "Garden") == nil)
        #expect(WordSuggester([]).suggestion(for: "x") == nil)
    }

    @Test("letters, not bytes: one edit of a letter of two bytes; values longer than the index keeps, one by one")
    func lettersAndLongValues() {
        let path = "Department \(String(repeating: "X", count: 40)) > Aisle"  // 55 letters
        #expect(path.unicodeScalars.count > WordSuggester.indexedScalars)
        // The longest value the index keeps, and a word one letter longer than it (not kept whole
        // in the index: its deletions are looked up all the same).
        let longest = "Aisle " + String(repeating: "y", count: WordSuggester.indexedScalars - 6)
        let list = (0..<3_000).map { "Brand\($0)" } + ["Müller", "Küche", path, longest]
        let suggester = WordSuggester(list)
        // "u" for "ü" is one substitution of a letter, two bytes for one.
        #expect(suggester.suggestion(for: "Muller") == "Müller")
        #expect(suggester.suggestion(for: "MÜLLER") == "Müller")
        #expect(suggester.suggestion(for: "Kuche") == "Küche")
        // The long path: in letter case, with a letter missing, or cut short.
        #expect(suggester.suggestion(for: path.uppercased()) == path)
        #expect(suggester.suggestion(for: String(path.dropLast())) == path)
        #expect(suggester.suggestion(for: "department xx") == path)
        #expect(suggester.suggestion(for: longest + "y") == longest)
        #expect(suggester.suggestion(for: "x" + longest) == longest)
        // As the reference answers.
        for word in ["Muller", "Kuche", String(path.dropLast()), "department xx", longest + "y"] {
            #expect(suggester.suggestion(for: word) == closestMatchOrCompletion(of: word, in: list))
        }
    }
}
