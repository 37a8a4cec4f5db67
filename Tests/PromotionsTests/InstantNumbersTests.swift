import Pricing
import ReferenceModels
import SeededRandom
import Testing

@testable import Promotions

/// The shadowed check's numbering of instants against a dictionary doing the same.
@Suite("Instants numbered in the order first seen")
struct InstantNumbersTests {
    @Test("equal instants get one number, others the next, through every growth of the table")
    func againstDictionary() {
        var random = SplitMix64(seed: 3_011)
        for round in 0..<40 {
            // Few distinct instants in some rounds (a file's dates), up to thousands in others;
            // seconds a day apart (as dates are) or anywhere, nanoseconds mostly 0.
            let distinct = [1, 3, 60, 2_000, 20_000][round % 5]
            let pool = (0..<distinct).map { _ in
                Instant(
                    seconds: round % 2 == 0
                        ? Int64(random.draw(0...100_000)) * 86_400 : Int64(bitPattern: random.next()),
                    nanoseconds: random.draw(0...9) == 0 ? Int32(random.draw(0...999_999_999)) : 0)
            }
            var numbers = InstantNumbers()
            var expected: [Instant: Int32] = [:]
            var order: [Instant] = []
            for _ in 0..<(3 * distinct + 10) {
                let instant = pool[random.draw(0...(distinct - 1))]
                let number = numbers.number(of: instant)
                if expected[instant] == nil {
                    expected[instant] = Int32(order.count)
                    order.append(instant)
                }
                #expect(number == expected[instant], "round \(round)")
            }
            #expect(numbers.instants == order, "round \(round)")
        }
    }

    @Test("instants that differ only in nanoseconds, or only in sign, are apart")
    func nearInstants() {
        var numbers = InstantNumbers()
        let instants = [
            Instant(seconds: 0), Instant(seconds: 0, nanoseconds: 1), Instant(seconds: -1), Instant(seconds: 1),
            Instant(seconds: 0, nanoseconds: 1), Instant(seconds: .min), Instant(seconds: .max), Instant(seconds: -1)
        ]
        #expect(instants.map { numbers.number(of: $0) } == [0, 1, 2, 3, 1, 4, 5, 2])
        #expect(numbers.instants.count == 6)
    }
}
