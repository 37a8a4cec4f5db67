/// Prices carts against a compiled rule set, exactly as SPEC §5 says.
public struct PricingEngine: Sendable {
    public let rules: RuleSet

    public init(rules: RuleSet) {
        self.rules = rules
    }

    /// Prices `cart`.
    ///
    /// - Parameters:
    ///   - coupons: coupons presented besides the cart's own (from the command line).
    ///   - instant: the instant to price at; when nil, the cart's own `at`, else `now`.
    ///   - now: the current instant, from the caller's clock.
    public func price(_ cart: Cart, coupons: [String] = [], at instant: Instant? = nil, now: Instant) throws(PricingError) -> Receipt {
        var chooser = LinearChooser(engine: self, instant: instant ?? cart.at ?? now)
        return try price(cart, coupons: coupons, chooser: &chooser)
    }

    /// Prices `cart` with the rules active at one instant indexed beforehand (`active`) and a
    /// thread's memory of best item rules (`cache`): the same receipt as
    /// ``price(_:coupons:at:now:)``, at a cost that does not grow with the number of rules. A cart
    /// priced at another instant than `active.instant` takes the general path.
    public func price(_ cart: Cart, coupons: [String] = [], at instant: Instant? = nil, now: Instant,
                      active: ActiveRules, cache: inout BestItemRuleCache) throws(PricingError) -> Receipt {
        let instant = instant ?? cart.at ?? now
        guard instant == active.instant else { return try price(cart, coupons: coupons, at: instant, now: now) }
        return try withUnsafeMutablePointer(to: &cache) { (cache) throws(PricingError) -> Receipt in
            var chooser = IndexedChooser(engine: self, active: active, cache: cache)
            return try price(cart, coupons: coupons, chooser: &chooser)
        }
    }

    private func price<C: RuleChooser>(_ cart: Cart, coupons: [String], chooser: inout C) throws(PricingError) -> Receipt {
        let catalog = rules.catalog
        if let currency = cart.currency, currency != catalog.currency {
            throw .currencyMismatch(cart: currency.code, catalog: catalog.currency.code)
        }
        let presented = presentedCoupons(cart.coupons.isEmpty && coupons.isEmpty ? [] : cart.coupons + coupons)

        var warnings: [String] = []
        for coupon in presented where !(coupon.id >= 0 && chooser.carriesActivePromotion(coupon.id)) {
            warnings.append("coupon \"\(coupon.text)\" matches no active promotion")
        }
        let couponIDs = presented.compactMap { $0.id >= 0 ? $0.id : nil }

        // Item promotions, per line (§5.3).
        var lines: [Receipt.Line] = []
        lines.reserveCapacity(cart.lines.count)
        var subtotal: Int64 = 0
        var itemDiscount: Int64 = 0
        for line in cart.lines {
            let product = catalog[line.product]
            let (lineSubtotal, overflow) = line.quantity.multipliedReportingOverflow(by: product.price)
            if overflow || line.quantity < 0 {
                throw .lineOverflow(code: product.code, quantity: line.quantity, unitPrice: product.price, currency: catalog.currency)
            }
            let (sum, sumOverflow) = subtotal.addingReportingOverflow(lineSubtotal)
            if sumOverflow { throw .subtotalOverflow(currency: catalog.currency) }
            subtotal = sum
            var promotion: AppliedPromotion?
            if let best = chooser.bestItemRule(for: line, unitPrice: product.price, coupons: couponIDs) {
                promotion = AppliedPromotion(rules.promotions[best.rule], discount: best.discount, ruleIndex: best.rule)
                itemDiscount += best.discount  // ≤ the line subtotal, so the sum stays ≤ subtotal
            }
            lines.append(Receipt.Line(
                product: line.product, code: product.code, name: product.name, quantity: line.quantity,
                unitPrice: product.price, subtotal: lineSubtotal, promotion: promotion, cartDiscount: 0))
        }

        // One cart promotion (§5.4), allocated to lines (§5.5).
        let afterItems = subtotal - itemDiscount
        var cartPromotion: AppliedPromotion?
        if let best = chooser.bestCartRule(subtotal: afterItems, coupons: couponIDs) {
            cartPromotion = AppliedPromotion(rules.promotions[best.rule], discount: best.discount, ruleIndex: best.rule)
            allocate(best.discount, over: &lines, total: afterItems)
        }
        return Receipt(
            currency: catalog.currency, at: chooser.instant, lines: lines, cartPromotion: cartPromotion, subtotal: subtotal,
            itemDiscount: itemDiscount, cartDiscount: cartPromotion?.discount ?? 0, warnings: warnings)
    }

    // MARK: Coupons

    struct PresentedCoupon {
        var text: String
        /// The coupon's id in the rule set, or -1 when no promotion carries it.
        var id: Int32
    }

    /// Coupons compared ASCII-case-insensitively; repeats count once, the first spelling is kept.
    func presentedCoupons(_ coupons: [String]) -> [PresentedCoupon] {
        guard !coupons.isEmpty else { return [] }
        var seen: Set<String> = []
        var result: [PresentedCoupon] = []
        for coupon in coupons {
            let key = asciiUppercased(coupon)
            guard seen.insert(key).inserted else { continue }
            result.append(PresentedCoupon(text: coupon, id: rules.couponIDs[key] ?? -1))
        }
        return result
    }

    // MARK: Allocation

    /// Splits the cart discount `d` over lines in proportion to their totals `t` after item
    /// discounts: ⌊d·t/s⌋ each, then the leftover minor units one by one to the largest remainders
    /// (d·t mod s), ties to the earlier line.
    func allocate(_ d: Int64, over lines: inout [Receipt.Line], total s: Int64) {
        guard d > 0, s > 0 else { return }
        var remainders: [(line: Int, remainder: Int128)] = []
        var allocated: Int64 = 0
        for index in lines.indices {
            let t = lines[index].subtotal - lines[index].itemDiscount
            guard t > 0 else { continue }
            let product = Int128(d) * Int128(t)
            let share = Int64(product / Int128(s))
            lines[index].cartDiscount = share
            allocated += share
            remainders.append((index, product % Int128(s)))
        }
        var leftover = d - allocated
        guard leftover > 0 else { return }
        remainders.sort { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.line < $1.line }
        for entry in remainders where leftover > 0 {
            lines[entry.line].cartDiscount += 1
            leftover -= 1
        }
    }
}
