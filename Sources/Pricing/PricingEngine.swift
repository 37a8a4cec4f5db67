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
        let catalog = rules.catalog
        if let currency = cart.currency, currency != catalog.currency {
            throw .currencyMismatch(cart: currency.code, catalog: catalog.currency.code)
        }
        let instant = instant ?? cart.at ?? now
        let presented = presentedCoupons(cart.coupons + coupons)

        var warnings: [String] = []
        for coupon in presented where !carriesActivePromotion(coupon.id, at: instant) {
            warnings.append("coupon \"\(coupon.text)\" matches no active promotion")
        }
        let couponIDs = presented.map(\.id)

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
            if let best = bestItemRule(for: line, unitPrice: product.price, at: instant, coupons: couponIDs) {
                promotion = AppliedPromotion(rules.promotions[best.rule], discount: best.discount)
                itemDiscount += best.discount  // ≤ the line subtotal, so the sum stays ≤ subtotal
            }
            lines.append(Receipt.Line(
                product: line.product, code: product.code, name: product.name, quantity: line.quantity,
                unitPrice: product.price, subtotal: lineSubtotal, promotion: promotion, cartDiscount: 0))
        }

        // One cart promotion (§5.4), allocated to lines (§5.5).
        let afterItems = subtotal - itemDiscount
        var cartPromotion: AppliedPromotion?
        if let best = bestCartRule(subtotal: afterItems, at: instant, coupons: couponIDs) {
            cartPromotion = AppliedPromotion(rules.promotions[best.rule], discount: best.discount)
            allocate(best.discount, over: &lines, total: afterItems)
        }
        return Receipt(
            currency: catalog.currency, at: instant, lines: lines, cartPromotion: cartPromotion, subtotal: subtotal,
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
        var seen: Set<String> = []
        var result: [PresentedCoupon] = []
        for coupon in coupons {
            let key = asciiUppercased(coupon)
            guard seen.insert(key).inserted else { continue }
            result.append(PresentedCoupon(text: coupon, id: rules.couponIDs[key] ?? -1))
        }
        return result
    }

    /// Whether an enabled promotion active at `instant` carries this coupon.
    func carriesActivePromotion(_ coupon: Int32, at instant: Instant) -> Bool {
        guard coupon >= 0 else { return false }
        return rules.rulesByCoupon[Int(coupon)].contains { rules.compiled[Int($0)].isActive(at: instant) }
    }

    // MARK: Choosing promotions

    struct Choice {
        var rule: Int
        var discount: Int64
        var priority: Int64
    }

    /// Largest discount wins; ties go to the higher priority, then to the promotion defined first.
    /// Candidates arrive in file order, so keeping the first of equals settles the last tie.
    @inline(__always)
    private func consider(_ rule: Int32, discount: Int64, into best: inout Choice?) {
        guard discount > 0 else { return }
        let priority = rules.compiled[Int(rule)].priority
        if let current = best {
            guard discount > current.discount || (discount == current.discount && priority > current.priority) else { return }
        }
        best = Choice(rule: Int(rule), discount: discount, priority: priority)
    }

    @inline(__always)
    private func isCandidate(_ rule: CompiledRule, at instant: Instant, coupons: [Int32]) -> Bool {
        rule.isActive(at: instant) && (rule.coupon < 0 || coupons.contains(rule.coupon))
    }

    func bestItemRule(for line: Cart.Line, unitPrice: Int64, at instant: Instant, coupons: [Int32]) -> Choice? {
        var best: Choice?
        let from = Int(rules.itemOffsets[line.product])
        let to = Int(rules.itemOffsets[line.product + 1])
        for index in from..<to {
            let ruleIndex = rules.itemRules[index]
            let rule = rules.compiled[Int(ruleIndex)]
            guard isCandidate(rule, at: instant, coupons: coupons) else { continue }
            consider(ruleIndex, discount: rule.itemDiscount(quantity: line.quantity, unitPrice: unitPrice), into: &best)
        }
        return best
    }

    func bestCartRule(subtotal: Int64, at instant: Instant, coupons: [Int32]) -> Choice? {
        var best: Choice?
        for ruleIndex in rules.cartRules {
            let rule = rules.compiled[Int(ruleIndex)]
            guard isCandidate(rule, at: instant, coupons: coupons) else { continue }
            consider(ruleIndex, discount: rule.cartDiscount(subtotal: subtotal), into: &best)
        }
        return best
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
