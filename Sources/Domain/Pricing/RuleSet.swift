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
    /// The products each promotion concerns, resolved against the catalog once.
    public let products: PromotionProducts

    let compiled: [CompiledRule]
    /// Line promotions per product, concatenated: product `p` owns `itemRules[itemOffsets[p]..<itemOffsets[p + 1]]`.
    let itemOffsets: [Int32]
    let itemRules: [Int32]
    /// Group promotions per product they target or reward, laid out the same way,
    /// each with what it needs to apply at all (``GroupProbe``), so that a cart rules most of them
    /// out reading one product's list in order rather than each promotion's definition.
    let groupOffsets: [Int32]
    let groupRules: [Int32]
    let groupProbes: [GroupProbe]
    /// The products of each group promotion, by its ``CompiledRule/group`` index.
    let groups: [GroupRule]
    /// The same, flat, for the per-cart check of which group promotions have the units to apply:
    /// group `g`'s codes are `groupProducts[groupSpans[g].codes]`, its rewards (when it has
    /// targets) `groupProducts[groupSpans[g].rewards]`.
    let groupProducts: [Int32]
    let groupSpans: [GroupSpan]
    let cartRules: [Int32]
    /// The promotions the lists above leave out that an explanation may still list: the disabled
    /// ones, and line promotions that name rewards apart (only the API makes them), ascending.
    let explainedApart: [Int32]
    /// Upper-cased coupon → its id, and the enabled promotions carrying each coupon id.
    let couponIDs: [CouponKey: Int32]
    let rulesByCoupon: [[Int32]]
    /// Customer group (compared byte for byte) → its id; each rule's groups are
    /// `ruleGroups[compiled[r].groups]`.
    let groupIDs: [ExactText: Int32]
    let ruleGroups: [Int32]
    /// The limited promotions (`uses`, `uses_per_customer`), ascending.
    public let limitedRules: [Int32]
    /// Cart promotions with `products`: each one's selected products, ascending, by rule index.
    let partialProducts: [Int32: [ProductID]]

    /// `parts`: how the selectors of a large file may be resolved at once (the caller's threads).
    public init(promotions: [Promotion], catalog: Catalog, parts: PartRunner = .oneAfterAnother) {
        self.catalog = catalog
        self.promotions = promotions
        let products = PromotionProducts(promotions, catalog: catalog, parts: parts)
        self.products = products
        var couponIDs: [CouponKey: Int32] = [:]
        var rulesByCoupon: [[Int32]] = []
        var groupIDs: [ExactText: Int32] = [:]
        var ruleGroups: [Int32] = []
        var limitedRules: [Int32] = []
        var partialProducts: [Int32: [ProductID]] = [:]
        var perProduct = PerProductLists(productCount: catalog.products.count)
        var groupsPerProduct = PerProductLists(productCount: catalog.products.count)
        var groups: [GroupRule] = []
        // Per group promotion, what pricing probes of it, made once (see `groupProbes` below).
        var probes: [GroupProbe] = []
        // Per promotion, the position of its group, or -1.
        var groupOfRule = [Int32](repeating: -1, count: promotions.count)
        var cartRules: [Int32] = []
        var explainedApart: [Int32] = []
        var compiled: [CompiledRule] = []
        compiled.reserveCapacity(promotions.count)
        // By index, each field read in place through the buffer (an array's subscript copied each
        // promotion once, its strings retained and released).
        promotions.withUnsafeBufferPointer { promotions in
            for index in promotions.indices {
                var coupon: Int32 = -1
                if let text = promotions[index].coupon {
                    let key = CouponKey(text)
                    if let id = couponIDs[key] {
                        coupon = id
                    } else {
                        coupon = Int32(rulesByCoupon.count)
                        couponIDs[key] = coupon
                        rulesByCoupon.append([])
                    }
                }
                var rule = CompiledRule(promotions[index], coupon: coupon)
                let ruleIndex = Int32(index)
                if let groups = promotions[index].customerGroups {
                    let start = Int32(ruleGroups.count)
                    for name in groups {
                        let group = ExactText(name)
                        let id = groupIDs[group] ?? Int32(groupIDs.count)
                        groupIDs[group] = id
                        ruleGroups.append(id)
                    }
                    rule.groups = start..<Int32(ruleGroups.count)
                }
                if promotions[index].isLimited { limitedRules.append(ruleIndex) }
                if promotions[index].rule.isCartRule, promotions[index].productSelectors != nil {
                    rule.isPartial = true
                    partialProducts[ruleIndex] = products.products(of: index).sorted()
                }
                let scope = promotions[index].rule.type.scope
                if scope == .group {
                    rule.group = Int32(groups.count)
                    groupOfRule[index] = rule.group
                    groups.append(GroupRule(products: products, of: index))
                    probes.append(GroupProbe(rule, groups[groups.count - 1]))
                }
                compiled.append(rule)
                if !promotions[index].isEnabled || (scope == .line && products.rewards(of: index) != nil) {
                    explainedApart.append(ruleIndex)
                }
                guard promotions[index].isEnabled else { continue }
                if coupon >= 0 { rulesByCoupon[Int(coupon)].append(ruleIndex) }
                switch scope {
                case .cart:
                    cartRules.append(ruleIndex)
                case .line:
                    products.forEachProduct(of: index) { perProduct.add(ruleIndex, to: $0) }
                case .group:
                    let group = groups[Int(rule.group)]
                    for product in group.codes { groupsPerProduct.add(ruleIndex, to: product) }
                    for product in group.rewards ?? [] { groupsPerProduct.add(ruleIndex, to: product) }
                }
            }
        }
        self.compiled = compiled
        (itemOffsets, itemRules) = perProduct.flattened()
        (groupOffsets, groupRules) = groupsPerProduct.flattened()
        // An entry per product of each group promotion: the probe made once per promotion, found
        // through a table of 4 bytes a promotion (not the promotion's compiled rule, nor its
        // products' arrays, retained and released for every entry).
        groupProbes = groupRules.map { probes[Int(groupOfRule[Int($0)])] }
        self.groups = groups
        var flat: [Int32] = []
        var spans: [GroupSpan] = []
        for group in groups {
            let codes = Int32(flat.count)..<Int32(flat.count + group.codes.count)
            flat += group.codes.map { Int32($0) }
            let rewards = group.rewards.map { rewards in
                defer { flat += rewards.map { Int32($0) } }
                return Int32(flat.count)..<Int32(flat.count + rewards.count)
            }
            spans.append(GroupSpan(codes: codes, rewards: rewards ?? 0..<0, hasTargets: group.rewards != nil))
        }
        groupProducts = flat
        groupSpans = spans
        self.cartRules = cartRules
        self.explainedApart = explainedApart
        self.couponIDs = couponIDs
        self.rulesByCoupon = rulesByCoupon
        self.groupIDs = groupIDs
        self.ruleGroups = ruleGroups
        self.limitedRules = limitedRules
        self.partialProducts = partialProducts
    }

    /// Whether any enabled promotion works across lines: without one, every cart takes the
    /// per-line path.
    public var hasGroupPromotions: Bool { !groupRules.isEmpty }
}

/// What a group promotion needs before it can apply to a cart: at least `need` units of its codes
/// and, when it rewards other products, `rewardNeed` units of those (its kind says how many). Up to three codes and three rewards are kept inline; with more, `inline` is false
/// and the promotion's definition decides.
struct GroupProbe: Sendable {
    /// Clamped to `Int32.max`: no cart line holds more units than a line may.
    var need: Int32
    var rewardNeed: Int32
    var codes: (Int32, Int32, Int32) = (-1, -1, -1)
    var rewards: (Int32, Int32, Int32) = (-1, -1, -1)
    var inline: Bool
    var hasTargets: Bool

    init(_ rule: CompiledRule, _ group: GroupRule) {
        let needed = rule.rule.group!.unitsNeeded(hasRewards: group.rewards != nil)
        need = Int32(clamping: needed.products)
        rewardNeed = Int32(clamping: needed.rewards)
        hasTargets = group.rewards != nil
        inline = group.codes.count <= 3 && (group.rewards?.count ?? 0) <= 3
        func triple(_ products: [ProductID]) -> (Int32, Int32, Int32) {
            (
                products.count > 0 ? Int32(products[0]) : -1, products.count > 1 ? Int32(products[1]) : -1,
                products.count > 2 ? Int32(products[2]) : -1
            )
        }
        if inline {
            codes = triple(group.codes)
            rewards = triple(group.rewards ?? [])
        }
    }
}

/// Where a group promotion's products are in ``RuleSet/groupProducts``.
struct GroupSpan: Sendable {
    var codes: Range<Int32>
    var rewards: Range<Int32>
    var hasTargets: Bool
}

/// A group promotion's products, resolved against the catalog (codes it lacks dropped, each
/// product once).
struct GroupRule: Sendable {
    /// The products whose units it works on, ascending.
    let codes: [ProductID]
    /// The products whose units it rewards when they are not `codes`, ascending; nil: `codes`.
    let rewards: [ProductID]?

    init(products: PromotionProducts, of index: Int) {
        codes = products.products(of: index).sorted()
        rewards = products.rewards(of: index)?.sorted()
    }
}

/// A promotion reduced to what pricing compares: its rule, its window, its priority and its coupon
/// as an integer.
struct CompiledRule {
    var rule: Promotion.Rule
    /// The rule's type, as receipts name it.
    var type: PromotionType
    /// Group promotions: their index in ``RuleSet/groups``; -1 otherwise.
    var group: Int32 = -1
    var start: Instant?
    var end: Instant?
    var priority: Int64
    /// Coupon id, or -1 when the promotion needs none.
    var coupon: Int32
    /// Its customer groups in ``RuleSet/ruleGroups``; empty: any customer.
    var groups: Range<Int32> = 0..<0
    /// `uses_per_customer`: a cart without a customer id is not eligible.
    var needsCustomerID: Bool
    /// `uses` or `uses_per_customer`: the ledger may have used it up.
    var isLimited: Bool
    /// A cart promotion with `products`: it works on the lines of its products only.
    var isPartial = false

    /// Whether some carts are not eligible for it whatever their lines: it needs a coupon, a
    /// customer group or id, or may be used up.
    var isConditional: Bool { coupon >= 0 || !groups.isEmpty || needsCustomerID || isLimited }

    init(_ promotion: Promotion, coupon: Int32) {
        rule = promotion.rule
        type = promotion.rule.type
        start = promotion.start
        end = promotion.end
        priority = promotion.priority
        self.coupon = coupon
        needsCustomerID = promotion.usesPerCustomer != nil
        isLimited = promotion.isLimited
    }

    @inline(__always)
    func isActive(at instant: Instant) -> Bool {
        if let start, instant < start { return false }
        if let end, !(instant < end) { return false }
        return true
    }

    /// The discount on a line of `quantity` units at `unitPrice`, for line promotions (0 for
    /// others). Never more than quantity × unitPrice, which the caller has checked fits in 64 bits.
    @inline(__always)
    func itemDiscount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        rule.lineDiscount(quantity: q, unitPrice: u)
    }

    /// The discount on a cart whose total after item promotions is `s`, for cart promotions.
    @inline(__always)
    func cartDiscount(subtotal s: Int64) -> Int64 { rule.cartDiscount(subtotal: s) }

    /// A cart promotion's minimum total.
    var cartMinimum: Int64 { rule.cartMinimum }
}

extension RuleSet {
    /// Whether a cart with `eligibility` may have rule `index` as a candidate (its window aside): its
    /// coupon presented, one of its customer groups held, a customer id when it needs one, and not
    /// used up.
    @inline(__always)
    func isEligible(_ index: Int, _ rule: CompiledRule, _ eligibility: CartEligibility) -> Bool {
        guard rule.isConditional else { return true }
        if rule.coupon >= 0, !eligibility.coupons.contains(rule.coupon) { return false }
        if !rule.groups.isEmpty, !rule.groups.contains(where: { eligibility.groups.contains(ruleGroups[Int($0)]) }) {
            return false
        }
        if rule.needsCustomerID, !eligibility.hasCustomerID { return false }
        if rule.isLimited, eligibility.exhausted.contains(Int32(index)) { return false }
        return true
    }
}

/// round(`amount` × `hundredths` / 10000), half away from zero, for 0 ≤ amount and 0 ≤ hundredths ≤ 10000:
/// in 64 bits when the product fits, else in 128.
@inline(__always)
@inlinable
func percentage(_ amount: Int64, _ hundredths: Int64) -> Int64 {
    let (product, overflow) = amount.multipliedReportingOverflow(by: hundredths)
    if !overflow, product >= 0, product <= Int64.max - 5_000 { return (product + 5_000) / 10_000 }
    return Int64(roundedQuotient(Int128(amount) * Int128(hundredths), 10_000))
}

/// `x / d` rounded half away from zero (d > 0).
@inlinable @inline(__always)
func roundedQuotient(_ x: Int128, _ d: Int128) -> Int128 {
    let half = d / 2
    return x >= 0 ? (x + half) / d : -((-x + half) / d)
}

extension RuleSet {
    /// The promotions an explanation of a cart holding `products` may list (docs/explanations.md:
    /// those concerning one of its products, and the cart promotions), ascending, each once, read
    /// from the per-product lists: a superset, for the explainer to check each, that does not grow
    /// with the promotions of other products (a batch's carts against 100,000 promotions).
    public func explanationCandidates(products: some Sequence<ProductID>) -> [Int] {
        var candidates = cartRules + explainedApart
        for product in products {
            candidates += itemRules[Int(itemOffsets[product])..<Int(itemOffsets[product + 1])]
            candidates += groupRules[Int(groupOffsets[product])..<Int(groupOffsets[product + 1])]
        }
        candidates.sort()
        var result: [Int] = []
        result.reserveCapacity(candidates.count)
        for candidate in candidates where result.last != Int(candidate) { result.append(Int(candidate)) }
        return result
    }
}
