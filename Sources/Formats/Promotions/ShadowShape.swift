import Pricing

extension ShadowShape {
    /// The shape of `promotion`'s line discount, as its kind says, or nil when it is not a line
    /// promotion (its discount is not a function of one line: not comparable).
    public init?(_ promotion: Promotion) {
        guard let shape = promotion.rule.shadowShape else { return nil }
        self = shape
    }

    /// How the discount behaves on a product at `u` (docs/diagnostics.md): from `start` on it is a
    /// linear function of slope `slope` plus one of period `period`.
    func profile(unitPrice u: Int64) -> Profile {
        var profile = Profile(slope: Fraction(0, 1), period: 1, start: 1)
        var terms = 0
        if groupSize > 0 {
            terms += 1
            // ⌊q/N⌋·F·u = q·F·u/N − (q mod N)·F·u/N: below the line by up to (N − 1)·F·u/N, and
            // so by less than F·u, the bound taken when (N − 1)·F·u does not fit.
            let perGroup = Int128(freeUnits) * Int128(u)
            let (below, overflow) = (Int128(groupSize) - 1).multipliedReportingOverflow(by: perGroup)
            profile = Profile(
                slope: Fraction(perGroup, Int128(groupSize)), period: groupSize, start: groupSize,
                low: overflow ? Fraction(-perGroup, 1) : Fraction(-below, Int128(groupSize)), high: Fraction(0, 1))
        }
        if hundredths > 0 {
            terms += 1
            let k = Int128(u) * Int128(hundredths)
            var slope = Fraction(k, 10_000)
            var period = k == 0 ? 1 : Int64(10_000 / gcd(k, 10_000))
            // Positive from ⌈5000 / k⌉ on; with a cap, constant from where it binds.
            let positive = k == 0 ? 1 : Int64(min((5_000 + k - 1) / k, Int128(Int64.max / 4)))
            var start = max(minimumQuantity, positive)
            // Rounding puts the share within half a unit of the line.
            var (low, high) = (Fraction(-1, 2), Fraction(1, 2))
            if hasCap, k > 0 {
                // round(q·k/10000) ≥ cap from q ≥ ⌈(cap − 0.5)·10000 / k⌉.
                let binds = Int64(min((Int128(cap) * 10_000 - 5_000 + k - 1) / k, Int128(Int64.max / 4)))
                start = max(start, binds)
                slope = Fraction(0, 1)
                period = 1
                (low, high) = (Fraction(Int128(max(0, cap)), 1), Fraction(Int128(max(0, cap)), 1))
            }
            profile =
                terms == 1
                ? Profile(slope: slope, period: period, start: start, low: low, high: high)
                : profile.adding(slope, period, start, low: low, high: high)
        }
        if savesPerUnit {
            terms += 1
            let slope = Fraction(Int128(perUnit(u)), 1)
            let zero = Fraction(0, 1)
            profile =
                terms == 1
                ? Profile(slope: slope, period: 1, start: minimumQuantity, low: zero, high: zero)
                : profile.adding(slope, 1, minimumQuantity, low: zero, high: zero)
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
        /// From `start` on, the discount less `slope` × the quantity lies between these (the
        /// periodic part, and a cap's constant).
        var low = Fraction(0, 1)
        var high = Fraction(0, 1)

        func adding(_ slope: Fraction, _ period: Int64, _ start: Int64, low: Fraction, high: Fraction) -> Profile {
            Profile(
                slope: self.slope + slope, period: lcm(self.period, period), start: max(self.start, start),
                low: self.low + low, high: self.high + high)
        }

        /// The quantity from which this discount is larger than `other`'s at every quantity (both
        /// past their starts): where the difference of the slopes has outgrown the most the
        /// periodic parts can take back, (`other.high` − `low`) / (slope − `other.slope`). Nil when
        /// the slope is not larger, or the numbers do not fit.
        func outruns(_ other: Profile) -> Int64? {
            guard let gap = slope.minus(other.slope), gap.numerator > 0, let spread = other.high.minus(low) else {
                return nil
            }
            // gap·q > spread ⟺ q > spread / gap, the denominators positive.
            let (numerator, o1) = spread.numerator.multipliedReportingOverflow(by: gap.denominator)
            let (denominator, o2) = spread.denominator.multipliedReportingOverflow(by: gap.numerator)
            guard !o1, !o2, denominator > 0 else { return nil }
            let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
            let floor = Int64(clamping: remainder < 0 ? quotient &- 1 : quotient)
            return floor == .max ? .max : floor + 1
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

    /// `self − other`, or nil when it does not fit (denominators positive).
    func minus(_ other: Fraction) -> Fraction? {
        let (x, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (y, o2) = other.numerator.multipliedReportingOverflow(by: denominator)
        let (d, o3) = denominator.multipliedReportingOverflow(by: other.denominator)
        let (n, o4) = x.subtractingReportingOverflow(y)
        return o1 || o2 || o3 || o4 || numerator == .max || other.numerator == .max ? nil : Fraction(n, d)
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
