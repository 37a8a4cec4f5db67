import Testing

@testable import Receipts

/// Amounts as receipts write them, against the amount written out plainly: the one-word writer of
/// 0.00 to 99.99, the quick writer of two-decimal amounts below 1,000,000.00 and the general one,
/// for every currency's digits.
@Suite("Amounts written into receipts")
struct AmountWritingTests {
    /// `"-12.05"`: the plain form, from the decimal digits of the magnitude.
    static func plain(_ value: Int64, _ digits: Int) -> String {
        var text = String(value.magnitude)
        if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
        if digits > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -digits)) }
        return "\"" + (value < 0 ? "-" : "") + text + "\""
    }

    /// What `writeAmount` writes, into a buffer of the room it asks for, filled with 0xFF first:
    /// what it says it wrote, and whether it wrote past its room.
    static func written(_ value: Int64, _ digits: Int) -> (text: String, withinRoom: Bool) {
        let room = amountRoom(digits)
        var buffer = [UInt8](repeating: 0xFF, count: room + 8)
        let length = buffer.withUnsafeMutableBufferPointer { writeAmount(value, digits, at: $0.baseAddress!) }
        return (String(decoding: buffer[..<length], as: UTF8.self), buffer[room...].allSatisfy { $0 == 0xFF })
    }

    @Test("by hand")
    func examples() {
        #expect(Self.written(7450, 2).text == #""74.50""#)
        #expect(Self.written(-5, 2).text == #""-0.05""#)
        #expect(Self.written(0, 2).text == #""0.00""#)
        // Either side of the one-word writer's edges: one digit before the point, two, three.
        #expect(Self.written(999, 2).text == #""9.99""#)
        #expect(Self.written(1000, 2).text == #""10.00""#)
        #expect(Self.written(9999, 2).text == #""99.99""#)
        #expect(Self.written(10_000, 2).text == #""100.00""#)
        #expect(Self.written(-999, 2).text == #""-9.99""#)
        #expect(Self.written(99_999_999, 2).text == #""999999.99""#)
        #expect(Self.written(100_000_000, 2).text == #""1000000.00""#)
        #expect(Self.written(-123_456_789, 0).text == #""-123456789""#)
        #expect(Self.written(1, 3).text == #""0.001""#)
    }

    @Test("two decimals: every amount to ±100,000 cents, every length's edges, and 200,000 random amounts")
    func twoDecimals() {
        var values = Array(Int64(-100_000)...100_000)
        for power in 1...18 {
            let edge = (0..<power).reduce(Int64(1)) { n, _ in n * 10 }
            values += [edge - 1, edge, edge + 1, -(edge - 1), -edge, -(edge + 1)]
        }
        values += [.max, .min, .min + 1]
        var state: UInt64 = 28
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Mostly below 1,000,000.00; some up to 2⁵³ (larger ones are among the edges).
            let bound: UInt64 = state & 7 == 0 ? .max : 100_000_000
            let magnitude = Int64(truncatingIfNeeded: (state >> 11) % bound)
            values.append(state & 8 == 0 ? magnitude : -magnitude)
        }
        var wrong = 0
        for value in values {
            let (text, withinRoom) = Self.written(value, 2)
            if text != Self.plain(value, 2) || !withinRoom { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test("other decimals (0, 3): the general writer", arguments: [0, 3])
    func otherDigits(digits: Int) {
        for value: Int64 in [0, 1, -1, 9, 10, 999, 1000, -1001, 123_456_789, .max, .min] {
            let (text, withinRoom) = Self.written(value, digits)
            #expect(text == Self.plain(value, digits))
            #expect(withinRoom)
        }
    }
}
