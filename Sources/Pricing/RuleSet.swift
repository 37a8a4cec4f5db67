/// Promotions compiled against a catalog for fast pricing.
///
/// Product codes are resolved once to catalog ids, so pricing a line only walks the promotions that
/// target its product (a per-product candidate list) and compares integers: activation windows,
/// coupons and amounts are all integers here. Disabled promotions and codes missing from the catalog
/// are dropped at compile time: they can never apply.
public struct RuleSet: Sendable {
    public let catalog: Catalog
    /// Every promotion, in file order (the final tie-break).
    public let promotions: [Promotion]

    let compiled: [CompiledRule]
    /// Candidate lists per product, concatenated: product `p` owns `itemRules[itemOffsets[p]..<itemOffsets[p + 1]]`.
    let itemOffsets: [Int32]
    let itemRules: [Int32]
    let cartRules: [Int32]
    /// Upper-cased coupon → its id, and the enabled promotions carrying each coupon id.
    let couponIDs: [String: Int32]
    let rulesByCoupon: [[Int32]]

    public init(promotions: [Promotion], catalog: Catalog) {
        self.catalog = catalog
        self.promotions = promotions
        var couponIDs: [String: Int32] = [:]
        var rulesByCoupon: [[Int32]] = []
        var perProduct = [[Int32]](repeating: [], count: catalog.products.count)
        var cartRules: [Int32] = []
        var compiled: [CompiledRule] = []
        compiled.reserveCapacity(promotions.count)
        for (index, promotion) in promotions.enumerated() {
            var coupon: Int32 = -1
            if let text = promotion.coupon {
                let key = asciiUppercased(text)
                if let id = couponIDs[key] {
                    coupon = id
                } else {
                    coupon = Int32(rulesByCoupon.count)
                    couponIDs[key] = coupon
                    rulesByCoupon.append([])
                }
            }
            compiled.append(CompiledRule(promotion, coupon: coupon))
            guard promotion.isEnabled else { continue }
            let ruleIndex = Int32(index)
            if coupon >= 0 { rulesByCoupon[Int(coupon)].append(ruleIndex) }
            if promotion.rule.isCartRule {
                cartRules.append(ruleIndex)
                continue
            }
            for code in promotion.codes {
                guard let product = catalog.productID(for: code) else { continue }
                if perProduct[product].last != ruleIndex { perProduct[product].append(ruleIndex) }
            }
        }
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(perProduct.count + 1)
        var flat: [Int32] = []
        for list in perProduct {
            flat.append(contentsOf: list)
            offsets.append(Int32(flat.count))
        }
        self.compiled = compiled
        self.itemOffsets = offsets
        self.itemRules = flat
        self.cartRules = cartRules
        self.couponIDs = couponIDs
        self.rulesByCoupon = rulesByCoupon
    }

}

/// A promotion reduced to the integers pricing compares.
struct CompiledRule {
    enum Kind: UInt8 { case combo, bulk, percent, amount, cartPercent, cartAmount }

    var kind: Kind
    /// combo: group size N; bulk: threshold; percent/amount: minimum quantity; cart: minimum subtotal.
    var threshold: Int64
    /// combo: units paid M; bulk: unit price; percent: hundredths of a percent; amount: amount off.
    var value: Int64
    var start: Instant?
    var end: Instant?
    var priority: Int64
    /// Coupon id, or -1 when the promotion needs none.
    var coupon: Int32

    init(_ promotion: Promotion, coupon: Int32) {
        switch promotion.rule {
        case .combo(let n, let m): (kind, threshold, value) = (.combo, n, m)
        case .bulk(let t, let p): (kind, threshold, value) = (.bulk, t, p)
        case .percent(let t, let p): (kind, threshold, value) = (.percent, t, p)
        case .amount(let t, let a): (kind, threshold, value) = (.amount, t, a)
        case .cartPercent(let minimum, let p): (kind, threshold, value) = (.cartPercent, minimum, p)
        case .cartAmount(let minimum, let a): (kind, threshold, value) = (.cartAmount, minimum, a)
        }
        start = promotion.start
        end = promotion.end
        priority = promotion.priority
        self.coupon = coupon
    }

    @inline(__always)
    func isActive(at instant: Instant) -> Bool {
        if let start, instant < start { return false }
        if let end, !(instant < end) { return false }
        return true
    }

    /// The discount on a line of `quantity` units at `unitPrice` (SPEC §5.3). Never more than
    /// quantity × unitPrice, which the caller has checked fits in 64 bits.
    @inline(__always)
    func itemDiscount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        // The guards on `value` keep a definition that skipped validation from trapping or raising a price.
        switch kind {
        // Every discount is at most q × u, which the caller has checked fits in 64 bits, so plain
        // multiplications cannot overflow, except inside a percentage, done in 64 bits when it fits.
        case .combo:
            guard threshold > value, value >= 0 else { return 0 }
            return (q / threshold) * (threshold - value) * u
        case .bulk:
            return q >= threshold && value >= 0 && value < u ? q * (u - value) : 0
        case .percent:
            guard q >= threshold, value > 0, value <= 10_000 else { return 0 }
            let (product, overflow) = (q * u).multipliedReportingOverflow(by: value)
            if !overflow, product <= Int64.max - 5_000 { return (product + 5_000) / 10_000 }
            return Int64(roundedQuotient(Int128(q) * Int128(u) * Int128(value), 10_000))
        case .amount:
            return q >= threshold && value > 0 ? q * min(value, u) : 0
        case .cartPercent, .cartAmount:
            return 0
        }
    }

    /// The discount on a cart whose total after item promotions is `s` (SPEC §5.4).
    @inline(__always)
    func cartDiscount(subtotal s: Int64) -> Int64 {
        guard s >= threshold else { return 0 }
        switch kind {
        case .cartPercent:
            guard value > 0, value <= 10_000 else { return 0 }
            let (product, overflow) = s.multipliedReportingOverflow(by: value)
            if !overflow, product <= Int64.max - 5_000 { return (product + 5_000) / 10_000 }
            return Int64(roundedQuotient(Int128(s) * Int128(value), 10_000))
        case .cartAmount: return max(0, min(value, s))
        default: return 0
        }
    }
}

/// `x / d` rounded half away from zero (d > 0).
@inline(__always)
func roundedQuotient(_ x: Int128, _ d: Int128) -> Int128 {
    let half = d / 2
    return x >= 0 ? (x + half) / d : -((-x + half) / d)
}

/// Upper-cases ASCII letters only, as coupon comparison requires.
func asciiUppercased(_ text: String) -> String {
    var bytes = Array(text.utf8)
    var changed = false
    for i in bytes.indices where bytes[i] >= UInt8(ascii: "a") && bytes[i] <= UInt8(ascii: "z") {
        bytes[i] -= 32
        changed = true
    }
    return changed ? String(decoding: bytes, as: UTF8.self) : text
}
