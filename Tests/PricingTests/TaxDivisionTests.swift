import SeededRandom
import Testing

@testable import Pricing

/// The tax step's division by a multiplication (`TaxDivision`) against the plain division, and the
/// tax entries against the contract written plainly (docs/taxes.md): the tax is G × b over
/// 10000 + b (prices with tax) or 10000 (without), rounded half away from zero.
@Suite("Tax division by reciprocal")
struct TaxDivisionTests {
    @Test("⌊x / d⌋ for every gross divisor (10000 + every rate) and the net one, at each multiple's edges and near 2³²")
    func quotients() {
        var random = SplitMix64(seed: 16)
        for divisor in [UInt32(10_000)] + (10_000...20_000).map(UInt32.init) {
            let division = TaxDivision(divisor: divisor)
            let d = UInt64(divisor)
            var xs: [UInt64] = [0, 1, d - 1, d, d + 1, UInt64(UInt32.max), UInt64(UInt32.max) - 1]
            let top = UInt64(UInt32.max) / d
            for k in [1, 2, top / 2, top - 1, top] {
                let base = k * d
                xs += [base - 1, base, base + d / 2 - 1, base + d / 2, base + d - 1]
            }
            for _ in 0..<20 { xs.append(random.next() >> 32) }
            for x in xs where x <= UInt64(UInt32.max) {
                #expect(division.quotient(UInt32(x)) == UInt32(x / d), "x \(x), divisor \(divisor)")
            }
        }
    }

    /// The entry as docs/taxes.md defines it, in 128-bit arithmetic.
    static func reference(rate: Int64, total: Int64, gross: Bool) -> TaxAmount {
        let divisor = Int128(gross ? 10_000 + rate : 10_000)
        let x = Int128(total) * Int128(rate)
        let (quotient, remainder) = x.quotientAndRemainder(dividingBy: divisor)
        let away = remainder.magnitude * 2 >= divisor.magnitude
        let tax = Int64(away ? (x < 0 ? quotient - 1 : quotient + 1) : quotient)
        return TaxAmount(rate: rate, base: gross ? total - tax : total, tax: tax)
    }

    @Test(
        "the tax entry, through the reciprocal and the public initializer, is the contract's for every rate, both bases, totals at the halves"
    )
    func entries() {
        var random = SplitMix64(seed: 17)
        for rate in Int64(0)...10_000 {
            let gross = TaxDivision(divisor: UInt32(10_000 + rate))
            var totals: [Int64] = [0, 1, 5, 50, 99, 100, 101, 429_496, 429_497, -1, -250, 1 << 40]
            for _ in 0..<8 { totals.append(Int64(random.next() % 429_497)) }
            for total in totals {
                for (pricesIncludeTax, division) in [(true, gross), (false, TaxDivision.net)] {
                    let fast = TaxAmount(
                        rate: rate, total: total, pricesIncludeTax: pricesIncludeTax, division: division)
                    let plain = TaxAmount(rate: rate, total: total, pricesIncludeTax: pricesIncludeTax)
                    let expected = Self.reference(rate: rate, total: total, gross: pricesIncludeTax)
                    #expect(fast == expected, "rate \(rate), total \(total), gross \(pricesIncludeTax)")
                    #expect(plain == expected, "rate \(rate), total \(total), gross \(pricesIncludeTax)")
                }
            }
        }
    }

    @Test("the count of rates met, by the word of 4-bit counts for the first eight and the library's count past them")
    func ratesMet() {
        for met in UInt64(0)..<256 {
            var bits = 0
            for position in 0..<8 where met & (1 << position) != 0 { bits += 1 }
            #expect(TaxTable.count(met) == bits, "met \(met)")
        }
        #expect(TaxTable.count(256) == 1)
        #expect(TaxTable.count(0x8000_0000_0000_00FF) == 9)
        #expect(TaxTable.count(UInt64.max) == 64)
    }
}
