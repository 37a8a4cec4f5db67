import Pricing

/// The shadowed check (docs/diagnostics.md, `promotion.shadowed`) as it was first written: every
/// pair of promotions sharing a product compared product by product, each discount worked out by the
/// engine's own `LineDiscount`, one budget of quantities for the whole file, a selector's
/// products read by ``NaiveSelection``. The reference the check in Promotions must agree with.
///
/// How "every quantity" is decided without trying them all. On one product at list price U, each
/// line promotion's discount d(q) is zero below a threshold and, from a point B on, a linear function
/// plus a periodic one: combo ⌊q/N⌋(N−M)U has period N and slope (N−M)U/N; bulk and amount are
/// linear; percent round(q·U·p/10000) is linear plus a rounding error of period 10000/gcd(U·p, 10000),
/// and constant once its cap binds. So the difference of two of them is, from B on, linear plus
/// periodic with the common period L: checking every quantity up to B + L, and comparing the slopes
/// beyond, decides every quantity. A pair whose window would be too long to walk is left alone: the
/// check may then miss a shadowed promotion, but it never warns about one that some cart could apply.
public struct PlainShadowCheck {
    let catalog: Catalog
    /// Quantities walked per pair at most, and in all.
    static let maxWindow: Int64 = 100_000
    var budget: Int64 = 20_000_000

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// For each promotion shadowed by another, the position of the first such one in file order.
    public mutating func shadowed(_ promotions: [Promotion]) -> [(promotion: Int, by: Int)] {
        // Each enabled line promotion's catalog products (ascending), and the promotions per product, in file order.
        var productsOf = [[ProductID]](repeating: [], count: promotions.count)
        var byProduct: [ProductID: [Int]] = [:]
        for (index, promotion) in promotions.enumerated()
        where promotion.isEnabled && promotion.rule.type.scope == .line {
            // A selector's products as if written with `codes` (docs/selectors.md).
            let codes = NaiveSelection.products(of: promotion, in: catalog).codes
            productsOf[index] = Array(Set(codes.compactMap(catalog.productID(for:)))).sorted()
            for product in productsOf[index] { byProduct[product, default: []].append(index) }
        }
        // What the pairs compare, in plain arrays: no promotion is copied in the loop.
        let starts = promotions.map(\.start)
        let ends = promotions.map(\.end)
        let priorities = promotions.map(\.priority)
        let coupons = promotions.map { $0.coupon.map { String(decoding: $0.utf8.map(Self.upper), as: UTF8.self) } }
        // Customer groups compare byte for byte; a promotion with a usage limit can run out.
        let groups = promotions.map { Set(($0.customerGroups ?? []).map { Array($0.utf8) }) }
        let limited = promotions.map(\.isLimited)
        /// Q is for everyone P is for: Q needs nothing, or (neither limited) what P needs. A
        /// limited Q shadows nothing.
        func forWhomever(_ q: Int, _ p: Int) -> Bool {
            guard !limited[q] else { return false }
            if coupons[q] == nil, groups[q].isEmpty { return true }
            return !limited[p] && coupons[q] == coupons[p] && groups[q] == groups[p]
        }
        let rules = promotions.map(\.rule)
        var result: [(Int, Int)] = []
        for index in promotions.indices where !productsOf[index].isEmpty {
            let products = productsOf[index]
            let first = products.min { byProduct[$0, default: []].count < byProduct[$1, default: []].count }!
            guard let candidates = byProduct[first] else { continue }
            for candidate in candidates where candidate != index {
                guard isSubset(products, of: productsOf[candidate]),
                    covers(start: starts[candidate], end: ends[candidate], startP: starts[index], endP: ends[index]),
                    forWhomever(candidate, index)
                else { continue }
                let winsTies =
                    priorities[candidate] > priorities[index]
                    || (priorities[candidate] == priorities[index] && candidate < index)
                if products.allSatisfy({
                    beats(rules[candidate], rules[index], unitPrice: catalog[$0].price, winsTies: winsTies)
                }) {
                    result.append((index, candidate))
                    break
                }
            }
        }
        return result
    }

    /// Whether every element of the ascending `a` is in the ascending `b`.
    func isSubset(_ a: [ProductID], of b: [ProductID]) -> Bool {
        var j = 0
        for x in a {
            while j < b.count, b[j] < x { j += 1 }
            guard j < b.count, b[j] == x else { return false }
        }
        return true
    }

    /// Q is active whenever P is: its window covers P's.
    func covers(start: Instant?, end: Instant?, startP: Instant?, endP: Instant?) -> Bool {
        let startOK: Bool
        switch (start, startP) {
        case (nil, _): startOK = true
        case (.some, nil): startOK = false
        case (let a?, let b?): startOK = a <= b
        }
        let endOK: Bool
        switch (end, endP) {
        case (nil, _): endOK = true
        case (.some, nil): endOK = false
        case (let a?, let b?): endOK = a >= b
        }
        return startOK && endOK
    }

    private static func upper(_ byte: UInt8) -> UInt8 { byte >= 97 && byte <= 122 ? byte - 32 : byte }

    /// Whether, on a product at `unitPrice`, Q's discount beats P's at every quantity where P gives one.
    mutating func beats(_ q: Promotion.Rule, _ p: Promotion.Rule, unitPrice u: Int64, winsTies: Bool) -> Bool {
        let sp = Shape(p, unitPrice: u)
        let sq = Shape(q, unitPrice: u)
        // Beyond B both are linear plus periodic: a smaller slope for Q loses in the end whenever P keeps giving.
        if sp.slope.numerator > 0, sq.slope < sp.slope { return false }
        let b = max(sp.start, sq.start)
        let l = lcm(sp.period, sq.period)
        guard l > 0, l <= Self.maxWindow, b <= Self.maxWindow, b + l <= Self.maxWindow, budget >= b + l else {
            return false
        }
        let discountP = LineDiscount(p)
        let discountQ = LineDiscount(q)
        func holds(at quantity: Int64) -> Bool {
            let dp = discountP(quantity: quantity, unitPrice: u)
            guard dp > 0 else { return true }
            let dq = discountQ(quantity: quantity, unitPrice: u)
            return dq > dp || (dq == dp && winsTies)
        }
        // Most pairs fail at once: P's own threshold, or the far end of the window.
        guard holds(at: max(1, sp.start)), holds(at: b + l) else { return false }
        budget -= b + l
        var quantity: Int64 = 1
        while quantity <= b + l {
            let dp = discountP(quantity: quantity, unitPrice: u)
            if dp > 0 {
                let dq = discountQ(quantity: quantity, unitPrice: u)
                if dq < dp || (dq == dp && !winsTies) { return false }
            }
            quantity += 1
        }
        // Equal slopes repeat the window's pattern; a larger one for Q only widens its lead.
        return true
    }

    /// What a line promotion's discount looks like on one product: linear plus periodic from `start`.
    struct Shape {
        /// Discount per unit beyond `start`, as a fraction.
        var slope: Fraction
        var period: Int64
        /// From here on the discount is linear plus periodic (thresholds, rounding to positive, a cap binding).
        var start: Int64

        init(_ rule: Promotion.Rule, unitPrice u: Int64) {
            switch NaiveRule(rule) {
            case .combo(let n, let m):
                slope = Fraction(Int128(n - m) * Int128(u), Int128(n))
                period = max(1, n)
                start = n
            case .bulk(let t, let price):
                slope = Fraction(price < u ? Int128(u - price) : 0, 1)
                period = 1
                start = t
            case .percent(let t, let h, let cap):
                let k = Int128(u) * Int128(h)
                slope = Fraction(k, 10_000)
                period = k == 0 ? 1 : Int64(10_000 / gcd(k, 10_000))
                // Positive from ⌈5000 / k⌉ on; with a cap, constant from where it binds.
                let positive = k == 0 ? 1 : Int64(min((5_000 + k - 1) / k, Int128(Int64.max / 4)))
                start = max(t, positive)
                if let cap, k > 0 {
                    // round(q·k/10000) ≥ cap from q ≥ ⌈(cap − 0.5)·10000 / k⌉.
                    let binds = Int64(min((Int128(cap) * 10_000 - 5_000 + k - 1) / k, Int128(Int64.max / 4)))
                    start = max(start, binds)
                    slope = Fraction(0, 1)
                    period = 1
                }
            case .amount(let t, let a):
                slope = Fraction(Int128(min(a, u)), 1)
                period = 1
                start = t
            case .bundle, .bxgy, .cartPercent, .cartAmount:
                slope = Fraction(0, 1)
                period = 1
                start = 1
            }
        }
    }

    struct Fraction: Comparable {
        var numerator: Int128
        var denominator: Int128

        init(_ numerator: Int128, _ denominator: Int128) {
            self.numerator = numerator
            self.denominator = denominator
        }

        static func < (a: Fraction, b: Fraction) -> Bool { a.numerator * b.denominator < b.numerator * a.denominator }
        static func == (a: Fraction, b: Fraction) -> Bool { a.numerator * b.denominator == b.numerator * a.denominator }
    }
}

private func gcd(_ a: Int128, _ b: Int128) -> Int128 {
    var (a, b) = (a.magnitude, b.magnitude)
    while b != 0 { (a, b) = (b, a % b) }
    return Int128(a)
}

private func lcm(_ a: Int64, _ b: Int64) -> Int64 {
    let g = Int64(gcd(Int128(a), Int128(b)))
    let (product, overflow) = (a / g).multipliedReportingOverflow(by: b)
    return overflow ? Int64.max : product
}
