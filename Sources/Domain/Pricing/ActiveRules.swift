/// The rules that can apply at one instant, indexed so that pricing many carts at that instant
/// (a batch) costs little per cart whatever the number of rules. Built once, shared by threads.
///
/// Item rules: per product, the active rules without a coupon, and those with one. Cart rules
/// without a coupon: percent rules by percentage and amount rules by amount, both descending, in
/// blocks that remember their smallest `minimum` so that rules a cart's total cannot reach are
/// skipped. Rules with a coupon or a cap (whose discount no longer grows with the percentage) are
/// few and checked one by one.
public final class ActiveRules: Sendable {
    /// Room that keeps the fields every thread reads for every cart off the cache lines of whatever
    /// is allocated next to this object, which a thread may write for every cart.
    private let before = CacheLinePadding()
    public let instant: Instant
    let rules: RuleSet
    /// Per product: active coupon-free item rules `free[freeOffsets[p]..<freeOffsets[p + 1]]`.
    let freeOffsets: [Int32]
    let free: [Int32]
    /// Per product: active item rules some carts are not eligible for (a coupon, customer groups
    /// or id, a usage limit), checked per cart.
    let couponOffsets: [Int32]
    let couponed: [Int32]
    /// Whether one of them needs no coupon (a cart without coupons may still be eligible for it).
    let hasConditionalItemRulesWithoutCoupon: Bool
    let cartPercent: RankedCartRules
    let cartAmount: RankedCartRules
    /// Active cart rules some carts are not eligible for, with a cap, or on part of the cart,
    /// checked one by one.
    let otherCartRules: [Int32]
    /// Per coupon id: whether an active rule carries it.
    let couponActive: [Bool]

    private let after = CacheLinePadding()

    public init(rules: RuleSet, at instant: Instant) {
        self.rules = rules
        self.instant = instant
        let compiled = rules.compiled
        // Each rule's standing, read from the rules in order (0: inactive, 1: active without a coupon,
        // 2: active with one); the per-product lists then look rules up in this small table rather
        // than in the rules themselves, scattered over megabytes. A batch waits for this index.
        let standing = [UInt8](unsafeUninitializedCapacity: compiled.count) { buffer, count in
            for index in compiled.indices {
                let rule = compiled[index]
                buffer[index] = rule.isActive(at: instant) ? (rule.isConditional ? 2 : 1) : 0
            }
            count = compiled.count
        }
        var freeOffsets: [Int32] = [0]
        var free: [Int32] = []
        var couponOffsets: [Int32] = [0]
        var couponed: [Int32] = []
        let productCount = rules.itemOffsets.count - 1
        freeOffsets.reserveCapacity(productCount + 1)
        couponOffsets.reserveCapacity(productCount + 1)
        free.reserveCapacity(rules.itemRules.count)
        for product in 0..<productCount {
            for index in Int(rules.itemOffsets[product])..<Int(rules.itemOffsets[product + 1]) {
                let rule = rules.itemRules[index]
                switch standing[Int(rule)] {
                case 1: free.append(rule)
                case 2: couponed.append(rule)
                default: break
                }
            }
            freeOffsets.append(Int32(free.count))
            couponOffsets.append(Int32(couponed.count))
        }
        var percent: [Int32] = []
        var amount: [Int32] = []
        var otherCart: [Int32] = []
        for rule in rules.cartRules where compiled[Int(rule)].isActive(at: instant) {
            guard !compiled[Int(rule)].isConditional, !compiled[Int(rule)].isPartial,
                let ranking = compiled[Int(rule)].rule.cartRanking
            else {
                otherCart.append(rule)
                continue
            }
            if ranking.family == 0 { percent.append(rule) } else { amount.append(rule) }
        }
        self.freeOffsets = freeOffsets
        self.free = free
        self.couponOffsets = couponOffsets
        self.couponed = couponed
        hasConditionalItemRulesWithoutCoupon = couponed.contains { compiled[Int($0)].coupon < 0 }
        cartPercent = RankedCartRules(percent, compiled: compiled)
        cartAmount = RankedCartRules(amount, compiled: compiled)
        otherCartRules = otherCart
        couponActive = rules.rulesByCoupon.map { carriers in
            carriers.contains { compiled[Int($0)].isActive(at: instant) }
        }
    }
}

/// Coupon-free cart rules of one kind, by value descending (ties: priority descending, then file
/// order), in blocks of 32 with each block's smallest minimum.
struct RankedCartRules: Sendable {
    let rules: [Int32]
    let minimums: [Int64]
    let values: [Int64]
    /// Per position: where the run of rules with the same value ends.
    let groupEnds: [Int32]
    let blockMinimums: [Int64]
    static let blockSize = 32

    init(_ unsorted: [Int32], compiled: [CompiledRule]) {
        func value(_ rule: Int32) -> Int64 { compiled[Int(rule)].rule.cartRanking!.value }
        let sorted = unsorted.sorted { a, b in
            let (va, vb) = (value(a), value(b))
            if va != vb { return va > vb }
            let (pa, pb) = (compiled[Int(a)].priority, compiled[Int(b)].priority)
            if pa != pb { return pa > pb }
            return a < b
        }
        let minimums = sorted.map { compiled[Int($0)].cartMinimum }
        rules = sorted
        let values = sorted.map(value)
        self.values = values
        blockMinimums = stride(from: 0, to: sorted.count, by: Self.blockSize).map { start in
            minimums[start..<min(start + Self.blockSize, sorted.count)].min()!
        }
        self.minimums = minimums
        var groupEnds = [Int32](repeating: Int32(sorted.count), count: sorted.count)
        var end = sorted.count
        for position in stride(from: sorted.count - 1, through: 0, by: -1) {
            if position + 1 < sorted.count, values[position] != values[position + 1] { end = position + 1 }
            groupEnds[position] = Int32(end)
        }
        self.groupEnds = groupEnds
    }

    /// The first position at or after `start` whose rule the total `s` reaches.
    @inline(__always)
    func nextEligible(from start: Int, total s: Int64) -> Int? {
        var position = start
        while position < rules.count {
            let block = position / Self.blockSize
            if blockMinimums[block] > s {
                position = (block + 1) * Self.blockSize
                continue
            }
            let blockEnd = min((block + 1) * Self.blockSize, rules.count)
            while position < blockEnd {
                if minimums[position] <= s { return position }
                position += 1
            }
        }
        return nil
    }
}

/// Per-thread memory of the best coupon-free item rule per product and small quantity at one
/// instant: a line then costs a table lookup.
struct BestItemRuleCache: Sendable {
    /// Quantities 1…`maxQuantity` are remembered.
    static let maxQuantity = 16
    /// Per (product, quantity): 0 unknown, -1 no rule, else rule index + 1. Discounts are recomputed.
    var entries: [Int32]

    init(productCount: Int) {
        entries = [Int32](repeating: 0, count: productCount * Self.maxQuantity)
    }

    /// Where the entry of `product` and `quantity` lies; nil for a quantity not remembered.
    @inline(__always)
    static func slot(product: Int, quantity: Int64) -> Int? {
        guard quantity >= 1, quantity <= Int64(maxQuantity) else { return nil }
        return product * maxQuantity + Int(quantity) - 1
    }
}
