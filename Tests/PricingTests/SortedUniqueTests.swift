import Testing

@testable import Pricing

@Suite("Sorting without repeats in place")
struct SortedUniqueTests {
    @Test("gives what a set then sorting gives, on thousands of random arrays")
    func sameAsSet() {
        var state: UInt64 = 2026
        for length in 0..<2_000 {
            var values: [Int] = []
            for _ in 0..<(length % 9) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                values.append(Int(state >> 60))
            }
            var sorted = values
            sorted.sortAndRemoveDuplicates()
            #expect(sorted == Array(Set(values)).sorted(), "\(values)")
        }
        var mixed = [3, 1, 3, 2, 1]
        mixed.sortAndRemoveDuplicates()
        #expect(mixed == [1, 2, 3])
    }
}
