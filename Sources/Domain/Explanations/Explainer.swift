import Pricing

/// Works out, for one cart, why each promotion that concerns it did or did not apply (docs/explanations.md), and
/// the near misses worth a hint. Standard library only, like the pricing core it asks.
public struct Explainer: Sendable {
    public let engine: PricingEngine

    public init(engine: PricingEngine) {
        self.engine = engine
    }

    /// How many hints a text receipt shows at most, and how many "what if" carts may be priced for them.
    public static let maxHints = 3
    public static let maxHintPricings = 10

    /// The cart priced, and an explanation per promotion that targets one of its products (by
    /// `code`/`codes` or `targets`) and per cart promotion, in file order.
    public func explain(_ cart: Cart, coupons: [String] = [], at instant: Instant? = nil, now: Instant)
        throws(PricingError)
        -> (receipt: Receipt, explanations: [Explanation])
    {
        var steps: [PricingStep] = []
        let receipt = try engine.price(cart, coupons: coupons, at: instant, now: now, steps: &steps)
        return (receipt, explanations(for: cart, receipt: receipt, steps: steps, coupons: coupons))
    }

    /// The explanations of a cart already priced into `receipt`, with the `steps` of its choice.
    public func explanations(for cart: Cart, receipt: Receipt, steps: [PricingStep], coupons: [String]) -> [Explanation]
    {
        let rules = engine.rules
        let first = FirstStep(engine: engine, cart: cart)
        let presented = Set((cart.coupons + coupons).map(CouponKey.init))
        let instant = receipt.at
        // Per line, the position of the first step that used its units.
        var firstUse = [Int](repeating: Int.max, count: cart.lines.count)
        for (position, step) in steps.enumerated() {
            for line in step.lines where line < firstUse.count { firstUse[line] = min(firstUse[line], position) }
        }
        var applied: [Int: Int64] = [:]
        for line in receipt.lines {
            for promotion in line.promotions {
                if let index = promotion.ruleIndex { applied[index, default: 0] += promotion.discount }
            }
        }
        let afterItems = receipt.subtotal - receipt.itemDiscount

        // The customer's standing, worked out once for every promotion asked about.
        let standings = engine.customerStandings(for: cart.customer)
        var result: [Explanation] = []
        // Those that may concern the cart, in file order: not every promotion of the file.
        for index in rules.explanationCandidates(products: cart.lines.map(\.product)) {
            let promotion = rules.promotions[index]
            let isCart = promotion.rule.isCartRule
            guard isCart || rules.products.anyConcerned(by: index, { first.line(of: $0) != nil }) else {
                continue
            }
            var explanation = Explanation(promotion, at: index, status: .noDiscount)
            if !promotion.isEnabled {
                explanation.status = .disabled
            } else if let start = promotion.start, instant < start {
                explanation.status = .notStarted
                explanation.start = start
            } else if let end = promotion.end, !(instant < end) {
                explanation.status = .ended
                explanation.end = end
            } else if let coupon = promotion.coupon, !presented.contains(CouponKey(coupon)) {
                explanation.status = .needsCoupon
            } else if case let standing = standings(index), standing != .eligible {
                explanation.status = standing == .exhausted ? .exhausted : .notEligible
            } else if isCart {
                // A cart promotion on part of the cart works on its products' lines only.
                let subtotal =
                    rules.promotions[index].productSelectors == nil
                    ? afterItems : engine.cartSubtotal(ofPromotion: index, lines: receipt.lines)
                if receipt.cartPromotion?.ruleIndex == index {
                    explanation.status = .applied
                    explanation.discount = receipt.cartDiscount
                } else if first.cartDiscount(ofPromotion: index, subtotal: subtotal) > 0 {
                    explanation.status = .outranked
                    explanation.by = receipt.cartPromotion?.id
                } else if let extra = leastSpend(promotion: index, subtotal: subtotal, first: first) {
                    explanation.status = .belowThreshold
                    explanation.missing = .amount(extra)
                }
            } else if let discount = applied[index] {
                explanation.status = .applied
                explanation.discount = discount
            } else {
                let applications = first.applications(ofPromotion: index)
                if !applications.isEmpty {
                    explanation.status = .outranked
                    let position =
                        applications.flatMap(\.lines).map { $0 < firstUse.count ? firstUse[$0] : Int.max }.min()
                        ?? Int.max
                    explanation.by = position < steps.count ? rules.promotions[steps[position].rule].id : nil
                } else if let missing = missingUnits(promotion: index, first: first) {
                    explanation.status = .belowThreshold
                    explanation.missing = .units(code: missing.code, units: missing.units)
                }
            }
            result.append(explanation)
        }
        return result
    }

    /// The least extra spend that gives the cart promotion an application: the cart total after item
    /// promotions reaching its minimum with a positive discount. A cart promotion on part of the
    /// cart counts spend on its products only: with none to spend on (its selectors select nothing,
    /// or only products that cost nothing) it never applies, and no spend is missing.
    func leastSpend(promotion index: Int, subtotal: Int64, first: FirstStep) -> Int64? {
        let rules = engine.rules
        if rules.promotions[index].productSelectors != nil,
            !rules.products.products(of: index).contains(where: { rules.catalog[$0].price > 0 })
        {
            return nil
        }
        return leastValue(in: 1...(Int64.max - max(0, subtotal))) {
            first.cartDiscount(ofPromotion: index, subtotal: subtotal + $0) > 0
        }
    }

    /// The code needing the fewest more units for item promotion `index` to have an application on
    /// all the cart's units: its products then its rewarded products, each alone; ties to a code
    /// already in the cart (earlier line first), then to the promotion's order. No line may pass
    /// the quantity limit; the promotion's kind says what counts (``MissingUnitsRule``).
    func missingUnits(promotion index: Int, first: FirstStep) -> (code: String, units: Int64)? {
        let rules = engine.rules
        let rule = rules.promotions[index].rule.kind.missingUnits
        // Every product it could reward worth nothing as a reward (priced at or below a reward
        // price, or free): no units give an application (one worth nothing does not exist), as
        // `validate` warns (`promotion.no-discount`).
        if case .firstGroup(let floor) = rule,
            !rules.products.anyRewarded(by: index, { rules.catalog[$0].price > floor })
        {
            return nil
        }
        // A line promotion that gives nothing now (the only kind asked here) gives something with
        // units added exactly when the line they are added to does; on a product the cart lacks,
        // how many depends on its price alone, worked out once per price.
        // (Not when it names rewards apart, which only the API lets a line promotion do: adding
        // to a rewarded product is then asked the general way.)
        let isLine = rules.promotions[index].rule.type.scope == .line && rules.products.rewards(of: index) == nil
        var unitsAtPrice: [Int64: Int64?] = [:]
        var best: (code: String, units: Int64, line: Int, order: Int)?
        for (order, product) in rules.products.concerned(by: index).enumerated() {
            let line = first.line(of: product)
            // Once one unit is enough, no product the cart lacks comes before the best (fewer
            // units, then a line of the cart, then order decide).
            if line == nil, let best, best.units == 1 { continue }
            let quantity = line.map { first.lines[$0].quantity } ?? 0
            var most = Cart.itemQuantities.upperBound - quantity
            let givesApplication: (Int64) -> Bool
            switch rule {
            case .firstApplication(let atMost):
                if let atMost { most = min(most, atMost) }
                givesApplication =
                    isLine
                    ? { first.lineGives(ofPromotion: index, product: product, adding: $0) }
                    : {
                        !first.applications(
                            ofPromotion: index, adding: FirstStep.Addition(product: product, units: $0)
                        ).isEmpty
                    }
            case .firstGroup:
                givesApplication = {
                    first.applicationCount(ofPromotion: index, adding: FirstStep.Addition(product: product, units: $0))
                        > 0
                }
            case .spend:
                return nil
            }
            func leastUnits() -> Int64? { most >= 1 ? leastValue(in: 1...most, where: givesApplication) : nil }
            let units: Int64?
            if isLine, line == nil {
                let price = rules.catalog[product].price
                if let known = unitsAtPrice[price] {
                    units = known
                } else {
                    units = leastUnits()
                    unitsAtPrice[price] = units
                }
            } else {
                units = leastUnits()
            }
            guard let units else { continue }
            let candidate = (code: rules.catalog[product].code, units: units, line: line ?? Int.max, order: order)
            if let current = best, !Self.precedes(candidate, current) { continue }
            best = candidate
        }
        return best.map { ($0.code, $0.units) }
    }

    /// Whether a product wanting `candidate.units` comes before the best so far: fewer units, then
    /// a line earlier in the cart (one the cart lacks last), then its order among the promotion's products.
    static func precedes(
        _ candidate: (code: String, units: Int64, line: Int, order: Int),
        _ current: (code: String, units: Int64, line: Int, order: Int)
    ) -> Bool {
        if candidate.units != current.units { return candidate.units < current.units }
        if candidate.line != current.line { return candidate.line < current.line }
        return candidate.order <= current.order
    }

    /// The least value of `range` for which `holds` is true, `holds` being false and then true as
    /// the value grows (discounts never shrink when units or spend are added); nil when it never holds.
    func leastValue(in range: ClosedRange<Int64>, where holds: (Int64) -> Bool) -> Int64? {
        guard holds(range.upperBound) else { return nil }
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Up to three near misses for a text receipt (docs/explanations.md): among the promotions below their
    /// threshold for want of units, ranked by their own first-step discount with the units added
    /// (ties: file order), the cart with the units added is priced, at the receipt's instant and with
    /// the same coupons, and the hint kept when the promotion applies there, until three are kept or
    /// ten carts were priced. Largest saving first (ties: file order).
    public func hints(for cart: Cart, receipt: Receipt, explanations: [Explanation], coupons: [String] = []) -> [Hint] {
        let catalog = engine.rules.catalog
        let first = FirstStep(engine: engine, cart: cart)
        var candidates: [(explanation: Explanation, product: ProductID, units: Int64, discount: Int64)] = []
        for explanation in explanations where explanation.status == .belowThreshold {
            guard case .units(let code, let units)? = explanation.missing, let product = catalog.productID(for: code)
            else { continue }
            let discount =
                first.applications(
                    ofPromotion: explanation.promotion, adding: FirstStep.Addition(product: product, units: units)
                )
                .map(\.discount).max() ?? 0
            candidates.append((explanation, product, units, discount))
        }
        candidates.sort {
            $0.discount != $1.discount ? $0.discount > $1.discount : $0.explanation.promotion < $1.explanation.promotion
        }
        var kept: [Hint] = []
        for candidate in candidates.prefix(Self.maxHintPricings) where kept.count < Self.maxHints {
            var bigger = cart
            if let line = first.line(of: candidate.product) {
                bigger.lines[line].quantity += candidate.units
            } else {
                bigger.lines.append(Cart.Line(product: candidate.product, quantity: candidate.units))
            }
            guard let priced = try? engine.price(bigger, coupons: coupons, at: receipt.at, now: receipt.at) else {
                continue
            }
            let saving = priced.lines.reduce(Int64(0)) { sum, line in
                sum
                    + line.promotions.filter { $0.ruleIndex == candidate.explanation.promotion }.reduce(0) {
                        $0 + $1.discount
                    }
            }
            guard saving > 0 else { continue }
            let product = catalog[candidate.product]
            kept.append(
                Hint(
                    promotion: candidate.explanation.promotion, promotionName: candidate.explanation.name,
                    code: product.code,
                    productName: product.name, units: candidate.units, saving: saving))
        }
        return kept.sorted { $0.saving != $1.saving ? $0.saving > $1.saving : $0.promotion < $1.promotion }
    }
}
