/// A promotion chosen for a line or a cart, and what it saves.
struct Choice {
    var rule: Int
    var discount: Int64
    var priority: Int64

    /// docs/pricing.md#line-promotions-combo-bulk-percent-amount: the largest discount wins; ties go to the higher priority, then to the promotion
    /// defined first.
    @inline(__always)
    func beats(_ other: Choice) -> Bool {
        if discount != other.discount { return discount > other.discount }
        if priority != other.priority { return priority > other.priority }
        return rule < other.rule
    }
}

extension Optional where Wrapped == Choice {
    /// Keeps the better of the current choice and `candidate`; a zero discount is no promotion.
    @inline(__always)
    mutating func consider(_ candidate: Choice) {
        guard candidate.discount > 0 else { return }
        if let current = self, !candidate.beats(current) { return }
        self = candidate
    }
}

/// How the engine finds the best promotions: by looking at every candidate, or through an index.
protocol RuleChooser {
    var instant: Instant { get }
    func carriesActivePromotion(_ coupon: Int32) -> Bool
    func bestItemRule(for line: Cart.Line, unitPrice: Int64, eligibility: CartEligibility) -> Choice?
    /// `partialTotal`: the total of a cart promotion on part of the cart.
    func bestCartRule(subtotal: Int64, partialTotal: (Int) -> Int64, eligibility: CartEligibility) -> Choice?
}

/// Every candidate, checked for activation and coupon: right for any instant, and the reference the
/// indexed chooser is tested against.
struct LinearChooser: RuleChooser {
    let engine: PricingEngine
    let instant: Instant

    func carriesActivePromotion(_ coupon: Int32) -> Bool {
        engine.rules.rulesByCoupon[Int(coupon)].contains { engine.rules.compiled[Int($0)].isActive(at: instant) }
    }

    @inline(__always)
    private func isCandidate(_ index: Int, _ rule: CompiledRule, _ eligibility: CartEligibility) -> Bool {
        rule.isActive(at: instant) && engine.rules.isEligible(index, rule, eligibility)
    }

    func bestItemRule(for line: Cart.Line, unitPrice: Int64, eligibility: CartEligibility) -> Choice? {
        let rules = engine.rules
        var best: Choice?
        for index in Int(rules.itemOffsets[line.product])..<Int(rules.itemOffsets[line.product + 1]) {
            let ruleIndex = Int(rules.itemRules[index])
            let rule = rules.compiled[ruleIndex]
            guard isCandidate(ruleIndex, rule, eligibility) else { continue }
            best.consider(
                Choice(
                    rule: ruleIndex, discount: rule.itemDiscount(quantity: line.quantity, unitPrice: unitPrice),
                    priority: rule.priority))
        }
        return best
    }

    func bestCartRule(subtotal all: Int64, partialTotal: (Int) -> Int64, eligibility: CartEligibility) -> Choice? {
        var best: Choice?
        for ruleIndex in engine.rules.cartRules {
            let rule = engine.rules.compiled[Int(ruleIndex)]
            guard isCandidate(Int(ruleIndex), rule, eligibility) else { continue }
            let subtotal = rule.isPartial ? partialTotal(Int(ruleIndex)) : all
            best.consider(
                Choice(rule: Int(ruleIndex), discount: rule.cartDiscount(subtotal: subtotal), priority: rule.priority))
        }
        return best
    }
}

/// The rules active at one instant, through ``ActiveRules`` and a thread's ``BestItemRuleCache``.
/// A thread keeps one from cart to cart (``ActivePricer``), an object so that handing it to the
/// engine copies one reference the thread alone uses: a value holding the shared rules would copy
/// references whose reference counts every thread then writes.
final class IndexedChooser: RuleChooser {
    let compiled: [CompiledRule]
    let active: ActiveRules
    @exclusivity(unchecked) var cache: BestItemRuleCache

    init(compiled: [CompiledRule], active: ActiveRules, cache: BestItemRuleCache) {
        self.compiled = compiled
        self.active = active
        self.cache = cache
    }

    var instant: Instant { active.instant }

    func carriesActivePromotion(_ coupon: Int32) -> Bool { active.couponActive[Int(coupon)] }

    func bestItemRule(for line: Cart.Line, unitPrice: Int64, eligibility: CartEligibility) -> Choice? {
        let quantity = line.quantity
        let product = line.product
        let cached: Int32
        if let slot = BestItemRuleCache.slot(product: product, quantity: quantity) {
            let entry = cache.entries[slot]
            if entry != 0 {
                cached = entry
            } else {
                cached = bestFreeRule(product: product, quantity: quantity, unitPrice: unitPrice)
                cache.entries[slot] = cached
            }
        } else {
            cached = bestFreeRule(product: product, quantity: quantity, unitPrice: unitPrice)
        }
        var best: Choice?
        if cached > 0 {
            let rule = compiled[Int(cached) - 1]
            best = Choice(
                rule: Int(cached) - 1, discount: rule.itemDiscount(quantity: quantity, unitPrice: unitPrice),
                priority: rule.priority)
        }
        // Rules some carts are not eligible for: a coupon, customer groups or id, a usage limit.
        if !eligibility.coupons.isEmpty || active.hasConditionalItemRulesWithoutCoupon {
            for index in Int(active.couponOffsets[product])..<Int(active.couponOffsets[product + 1]) {
                let ruleIndex = Int(active.couponed[index])
                let rule = compiled[ruleIndex]
                guard active.rules.isEligible(ruleIndex, rule, eligibility) else { continue }
                best.consider(
                    Choice(
                        rule: ruleIndex, discount: rule.itemDiscount(quantity: quantity, unitPrice: unitPrice),
                        priority: rule.priority))
            }
        }
        return best
    }

    /// The best coupon-free rule of `product` for `quantity` units, as the cache holds it: its index
    /// + 1, or -1 for none.
    private func bestFreeRule(product: Int, quantity: Int64, unitPrice: Int64) -> Int32 {
        var best: Choice?
        for index in Int(active.freeOffsets[product])..<Int(active.freeOffsets[product + 1]) {
            let ruleIndex = Int(active.free[index])
            let rule = compiled[ruleIndex]
            best.consider(
                Choice(
                    rule: ruleIndex, discount: rule.itemDiscount(quantity: quantity, unitPrice: unitPrice),
                    priority: rule.priority))
        }
        return best.map { Int32($0.rule + 1) } ?? -1
    }

    func bestCartRule(subtotal: Int64, partialTotal: (Int) -> Int64, eligibility: CartEligibility) -> Choice? {
        var best = bestRanked(active.cartPercent, subtotal: subtotal, compiled: compiled)
        if let amount = bestRanked(active.cartAmount, subtotal: subtotal, compiled: compiled) { best.consider(amount) }
        for ruleIndex in active.otherCartRules {
            let rule = compiled[Int(ruleIndex)]
            guard active.rules.isEligible(Int(ruleIndex), rule, eligibility) else { continue }
            let s = rule.isPartial ? partialTotal(Int(ruleIndex)) : subtotal
            best.consider(
                Choice(rule: Int(ruleIndex), discount: rule.cartDiscount(subtotal: s), priority: rule.priority))
        }
        return best
    }

    /// In value-descending order a rule's discount never exceeds the one before it: the first rule
    /// the total reaches gives the largest discount, and only the rules right after it that give the
    /// same discount can still win the tie. Rules of equal value are ordered by the tie rule, so the
    /// first reachable one of each value beats the rest of its run, which is skipped.
    private func bestRanked(_ ranked: RankedCartRules, subtotal: Int64, compiled: [CompiledRule]) -> Choice? {
        guard var position = ranked.nextEligible(from: 0, total: subtotal) else { return nil }
        var best: Choice?
        var top: Int64 = -1
        while true {
            let ruleIndex = Int(ranked.rules[position])
            let rule = compiled[ruleIndex]
            let discount = rule.cartDiscount(subtotal: subtotal)
            if top < 0 { top = discount }
            guard discount == top, discount > 0 else { break }
            best.consider(Choice(rule: ruleIndex, discount: discount, priority: rule.priority))
            guard let next = ranked.nextEligible(from: Int(ranked.groupEnds[position]), total: subtotal) else { break }
            position = next
        }
        return best
    }
}
