import Pricing

/// A line promotion's discount as a function of a line's quantity q and unit price u, in the few
/// forms the shadowed check compares (docs/diagnostics.md, `promotion.shadowed`): zero below
/// `minimumQuantity`, and from it on the sum of
///
/// - groups: ⌊q / groupSize⌋ × freeUnits × u (`combo`),
/// - a share: round(q × u × hundredths / 10000), half away from zero, at most `cap` (`percent`),
/// - a saving per unit: q × max(0, min(offEachUnit, u − lowestUnitPrice)) (`bulk`, `amount`).
///
/// Every kind of line promotion is one of these; the check knows nothing else about kinds. The one
/// place that says which form a kind takes is ``init(_:)``.
public struct ShadowShape: Hashable, Sendable, BitwiseCopyable {
    public var minimumQuantity: Int64 = 0
    /// 0: no group term.
    public var groupSize: Int64 = 0
    public var freeUnits: Int64 = 0
    /// 0: no share term.
    public var hundredths: Int64 = 0
    /// The share term's cap; `hasCap` false: none.
    public var cap: Int64 = 0
    public var hasCap = false
    /// Whether the saving per unit applies.
    public var savesPerUnit = false
    public var lowestUnitPrice: Int64 = 0
    public var offEachUnit: Int64 = 0

    /// A shape that never gives a discount (a definition the engine would also price at zero).
    public static let nothing = ShadowShape()

    /// The shape of `promotion`'s line discount, or nil when it is not a line promotion (its
    /// discount is not a function of one line: not comparable).
    public init?(_ promotion: Promotion) {
        switch promotion.rule {
        case .combo(let n, let m):
            guard n > m, m >= 0 else { return }
            groupSize = n
            freeUnits = n - m
        case .bulk(let threshold, let price):
            guard price >= 0 else { return }
            minimumQuantity = threshold
            savesPerUnit = true
            lowestUnitPrice = price
            offEachUnit = .max
        case .percent(let threshold, let hundredths, let cap):
            guard hundredths > 0, hundredths <= 10_000 else { return }
            minimumQuantity = threshold
            self.hundredths = hundredths
            if let cap {
                self.cap = cap
                hasCap = true
            }
        case .amount(let threshold, let amount):
            guard amount > 0 else { return }
            minimumQuantity = threshold
            savesPerUnit = true
            offEachUnit = amount
        case .bundle, .bxgy, .cartPercent, .cartAmount:
            return nil
        }
    }

    init() {}

    /// The discount on a line of `q` units at `u`, exactly as the engine works it out on free
    /// units (``LineDiscount``): 0 when q × u does not fit in 64 bits.
    @inline(__always)
    public func discount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        let (line, overflow) = q.multipliedReportingOverflow(by: u)
        guard q >= 0, u >= 0, !overflow, q >= minimumQuantity else { return 0 }
        var total: Int64 = 0
        if groupSize > 0 { total = (q / groupSize) * freeUnits * u }
        if hundredths > 0 {
            var share = percentage(line, hundredths)
            if hasCap { share = min(share, max(0, cap)) }
            total = total.addingReportingOverflow(share).partialValue
        }
        if savesPerUnit { total = total.addingReportingOverflow(q * perUnit(u)).partialValue }
        return total
    }

    /// The saving on each unit at `u`.
    @inline(__always)
    func perUnit(_ u: Int64) -> Int64 {
        guard u > lowestUnitPrice else { return 0 }
        return min(offEachUnit, u - lowestUnitPrice)
    }

    /// How the discount behaves on a product at `u` (docs/diagnostics.md): from `start` on it is a
    /// linear function of slope `slope` plus one of period `period`.
    func profile(unitPrice u: Int64) -> Profile {
        var profile = Profile(slope: Fraction(0, 1), period: 1, start: 1)
        var terms = 0
        if groupSize > 0 {
            terms += 1
            profile = Profile(
                slope: Fraction(Int128(freeUnits) * Int128(u), Int128(groupSize)), period: groupSize, start: groupSize)
        }
        if hundredths > 0 {
            terms += 1
            let k = Int128(u) * Int128(hundredths)
            var slope = Fraction(k, 10_000)
            var period = k == 0 ? 1 : Int64(10_000 / gcd(k, 10_000))
            // Positive from ⌈5000 / k⌉ on; with a cap, constant from where it binds.
            let positive = k == 0 ? 1 : Int64(min((5_000 + k - 1) / k, Int128(Int64.max / 4)))
            var start = max(minimumQuantity, positive)
            if hasCap, k > 0 {
                // round(q·k/10000) ≥ cap from q ≥ ⌈(cap − 0.5)·10000 / k⌉.
                let binds = Int64(min((Int128(cap) * 10_000 - 5_000 + k - 1) / k, Int128(Int64.max / 4)))
                start = max(start, binds)
                slope = Fraction(0, 1)
                period = 1
            }
            profile =
                terms == 1 ? Profile(slope: slope, period: period, start: start) : profile.adding(slope, period, start)
        }
        if savesPerUnit {
            terms += 1
            let slope = Fraction(Int128(perUnit(u)), 1)
            profile =
                terms == 1
                ? Profile(slope: slope, period: 1, start: minimumQuantity)
                : profile.adding(slope, 1, minimumQuantity)
        }
        return profile
    }

    /// The slope of ``profile(unitPrice:)``, approximately: for filters that allow for the error.
    func approximateSlope(unitPrice u: Int64) -> Double {
        var slope = 0.0
        if groupSize > 0 { slope += Double(freeUnits) * Double(u) / Double(groupSize) }
        if hundredths > 0, !hasCap { slope += Double(u) * Double(hundredths) / 10_000 }
        if savesPerUnit { slope += Double(perUnit(u)) }
        return slope
    }

    /// A discount that is linear plus periodic from `start` on.
    struct Profile {
        /// Discount per unit beyond `start`.
        var slope: Fraction
        var period: Int64
        /// From here on the discount is linear plus periodic (thresholds, rounding to positive, a cap binding).
        var start: Int64

        func adding(_ slope: Fraction, _ period: Int64, _ start: Int64) -> Profile {
            Profile(
                slope: self.slope + slope, period: lcm(self.period, period), start: max(self.start, start))
        }
    }
}

/// An exact fraction for slopes; comparisons that would not fit in 128 bits answer "unknown".
struct Fraction {
    var numerator: Int128
    var denominator: Int128

    init(_ numerator: Int128, _ denominator: Int128) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Whether `self < other`, or nil when the products do not fit.
    func isLess(than other: Fraction) -> Bool? {
        let (a, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (b, o2) = other.numerator.multipliedReportingOverflow(by: denominator)
        return o1 || o2 ? nil : a < b
    }

    static func + (a: Fraction, b: Fraction) -> Fraction {
        let (x, o1) = a.numerator.multipliedReportingOverflow(by: b.denominator)
        let (y, o2) = b.numerator.multipliedReportingOverflow(by: a.denominator)
        let (d, o3) = a.denominator.multipliedReportingOverflow(by: b.denominator)
        let (n, o4) = x.addingReportingOverflow(y)
        // Out of range: a slope no real promotion has; the largest fraction makes any comparison unknown.
        return o1 || o2 || o3 || o4 ? Fraction(.max, 1) : Fraction(n, d)
    }
}

/// round(`amount` × `hundredths` / 10000), half away from zero, for 0 ≤ amount and 0 ≤ hundredths ≤
/// 10000, as the engine rounds a percentage (docs/pricing.md).
@inline(__always)
func percentage(_ amount: Int64, _ hundredths: Int64) -> Int64 {
    let (product, overflow) = amount.multipliedReportingOverflow(by: hundredths)
    if !overflow, product >= 0, product <= Int64.max - 5_000 { return (product + 5_000) / 10_000 }
    let x = Int128(amount) * Int128(hundredths)
    return Int64(x >= 0 ? (x + 5_000) / 10_000 : -((-x + 5_000) / 10_000))
}

func gcd(_ a: Int128, _ b: Int128) -> Int128 {
    var (a, b) = (a.magnitude, b.magnitude)
    // In 64 bits when both fit, as they do for any real price: a 128-bit remainder is far slower.
    if a <= UInt64.max, b <= UInt64.max {
        var (x, y) = (UInt64(a), UInt64(b))
        while y != 0 { (x, y) = (y, x % y) }
        return Int128(x)
    }
    while b != 0 { (a, b) = (b, a % b) }
    return Int128(a)
}

func lcm(_ a: Int64, _ b: Int64) -> Int64 {
    let g = Int64(gcd(Int128(a), Int128(b)))
    guard g != 0 else { return 0 }
    let (product, overflow) = (a / g).multipliedReportingOverflow(by: b)
    return overflow ? Int64.max : product
}
