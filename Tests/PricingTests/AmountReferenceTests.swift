import Pricing
import SeededRandom
import Testing

/// `Amount.parse` against a reference written the plain way (the digit string collected into an
/// array, as the parser once did), on thousands of random decimal texts.
@Suite("Amounts parse as the reference model does")
struct AmountReferenceTests {
    /// The reference: the same grammar, the digits gathered first, then scaled.
    static func reference(_ text: String, minorDigits: Int) -> Result<Int64, Amount.ParseError> {
        let bytes = Array(text.utf8)
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        var i = start
        let negative = i < end && bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var integer: [UInt8] = []
        while i < end, isDigit(bytes[i]) {
            integer.append(bytes[i] - 48)
            i += 1
        }
        guard !integer.isEmpty else { return .failure(.notANumber) }
        var fraction: [UInt8] = []
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(bytes[i]) {
                fraction.append(bytes[i] - 48)
                i += 1
            }
            guard !fraction.isEmpty else { return .failure(.notANumber) }
        }
        var exponent = 0
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var sign = 1
            if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
            }
            let exponentStart = i
            while i < end, isDigit(bytes[i]) {
                exponent = min(exponent * 10 + Int(bytes[i] - 48), 1_000_000_000)
                i += 1
            }
            guard i > exponentStart else { return .failure(.notANumber) }
            exponent *= sign
        }
        guard i == end else { return .failure(.notANumber) }
        var digits = Array((integer + fraction).drop { $0 == 0 })
        if digits.isEmpty { return .success(0) }
        let scale = exponent - fraction.count + minorDigits
        if scale < 0 {
            guard -scale <= digits.count, digits.suffix(-scale).allSatisfy({ $0 == 0 }) else {
                return .failure(.notWholeMinorUnits(minorDigits: minorDigits))
            }
            digits.removeLast(-scale)
        }
        let zeros = max(scale, 0)
        guard digits.count + zeros <= 19 else { return .failure(.outOfRange) }
        let magnitude = (digits + Array(repeating: 0, count: zeros)).reduce(UInt64(0)) { $0 * 10 + UInt64($1) }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .failure(.outOfRange) }
            return .success(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .failure(.outOfRange) }
        return .success(Int64(magnitude))
    }

    @Test("on random decimal texts, for 0, 2 and 3 minor digits")
    func randomTexts() {
        var random = SplitMix64(seed: 2_026_112_3)
        func pick(_ choices: [String]) -> String { choices[Int(random.next() % UInt64(choices.count))] }
        func digits(_ most: Int) -> String {
            String((0..<Int(random.next() % UInt64(most + 1))).map { _ in pick(["0", "0", "1", "5", "9"]).first! })
        }
        var compared = 0
        var parsed = 0
        for _ in 0..<20_000 {
            var text = pick(["", " ", "\t"]) + pick(["", "", "-", "+"]) + digits(22)
            if random.next() % 2 == 0 { text += "." + digits(6) }
            if random.next() % 4 == 0 { text += pick(["e", "E"]) + pick(["", "+", "-"]) + digits(3) }
            text += pick(["", "", " ", "x"])
            for minorDigits in [0, 2, 3] {
                let expected = Self.reference(text, minorDigits: minorDigits)
                #expect(Amount.parse(text, minorDigits: minorDigits) == expected, "\(text) \(minorDigits)")
                if case .success = expected { parsed += 1 }
                compared += 1
            }
        }
        #expect(compared == 60_000)
        // Most texts are numbers; many of those are whole in minor units, some too large.
        #expect(parsed > 12_000)
    }
}
