/// One step of the choice between item promotions (docs/pricing.md#choosing): the promotion applied, and the
/// lines whose units it used.
public struct PricingStep: Sendable, Equatable {
    /// The promotion's position in the rule set.
    public var rule: Int
    public var lines: [Int]
}

/// Prices carts against a compiled rule set, exactly as docs/pricing.md say.
public struct PricingEngine: Sendable {
    public let rules: RuleSet
    /// How often limited promotions were redeemed (docs/store.md, "Usage limits"): with it, a
    /// promotion whose `uses`, or `uses_per_customer` for the cart's customer, are used up is not a
    /// candidate. Nil: no limit binds (pricing without a store).
    public var ledger: RedemptionCounts?

    public init(rules: RuleSet) {
        self.rules = rules
    }

    /// Prices `cart`.
    ///
    /// - Parameters:
    ///   - coupons: coupons presented besides the cart's own (from the command line).
    ///   - instant: the instant to price at; when nil, the cart's own `at`, else `now`.
    ///   - now: the current instant, from the caller's clock.
    public func price(_ cart: Cart, coupons: [String] = [], at instant: Instant? = nil, now: Instant)
        throws(PricingError) -> Receipt
    {
        let chooser = LinearChooser(engine: self, instant: instant ?? cart.at ?? now)
        var steps: [PricingStep]?
        var storage = ReceiptStorage()
        return try price(cart, coupons: coupons, chooser: chooser, steps: &steps, storage: &storage)
    }

    /// Prices `cart` as ``price(_:coupons:at:now:)`` does, and tells in `steps` which item
    /// promotions were applied, in the order docs/pricing.md#choosing applied them, and the lines whose units each used.
    public func price(
        _ cart: Cart, coupons: [String] = [], at instant: Instant? = nil, now: Instant,
        steps: inout [PricingStep]
    ) throws(PricingError) -> Receipt {
        let chooser = LinearChooser(engine: self, instant: instant ?? cart.at ?? now)
        var recorded: [PricingStep]? = []
        defer { steps = recorded ?? [] }
        var storage = ReceiptStorage()
        return try price(cart, coupons: coupons, chooser: chooser, steps: &recorded, storage: &storage)
    }

    /// `storage`: arrays the receipt's take (emptied first).
    func price<C: RuleChooser>(
        _ cart: Cart, coupons: [String], chooser: C, steps: inout [PricingStep]?,
        storage: inout ReceiptStorage
    ) throws(PricingError) -> Receipt {
        let catalog = rules.catalog
        if let currency = cart.currency, currency != catalog.currency {
            throw .currencyMismatch(cart: currency.code, catalog: catalog.currency.code)
        }
        var warnings = storage.takeWarnings()
        var eligibility = self.eligibility(of: cart)
        forEachPresentedCoupon(coupons.isEmpty ? cart.coupons : cart.coupons + coupons) { text, id in
            if id >= 0 { eligibility.coupons.insert(id) }
            let standing =
                id >= 0 && chooser.carriesActivePromotion(id) ? couponStanding(id, chooser.instant, eligibility) : .none
            switch standing {
            case .carried: break
            case .usedUp: warnings.append(.couponLimitReached(text))
            case .none: warnings.append(.unmatchedCoupon(text))
            }
        }

        // The lines, with their subtotals.
        var lines = storage.takeLines()
        lines.reserveCapacity(cart.lines.count)
        var subtotal: Int64 = 0
        for line in cart.lines {
            let product = catalog[line.product]
            let (lineSubtotal, overflow) = line.quantity.multipliedReportingOverflow(by: product.price)
            if overflow || line.quantity < 0 {
                throw .lineOverflow(
                    code: product.code, quantity: line.quantity, unitPrice: product.price, currency: catalog.currency)
            }
            let (sum, sumOverflow) = subtotal.addingReportingOverflow(lineSubtotal)
            if sumOverflow { throw .subtotalOverflow(currency: catalog.currency) }
            subtotal = sum
            lines.append(
                Receipt.Line(
                    product: line.product, code: product.code, name: product.name, quantity: line.quantity,
                    unitPrice: product.price, subtotal: lineSubtotal, taxRate: product.taxRate))
        }

        // Item promotions (docs/pricing.md#choosing). Each discount is at most the value of the units it uses, so their
        // sum stays ≤ the subtotal.
        var itemDiscount: Int64 = 0
        let lineIndex = rules.hasGroupPromotions ? CartLineIndex(cart.lines, productCount: catalog.products.count) : nil
        let groupRules =
            lineIndex.map { candidateGroupRules(cart, lines: $0, instant: chooser.instant, eligibility: eligibility) }
            ?? []
        if groupRules.isEmpty {
            // Line promotions only: every application uses a whole line, so each line simply gets its
            // best promotion (docs/pricing.md#line-promotions-combo-bulk-percent-amount).
            for index in lines.indices {
                guard
                    let best = chooser.bestItemRule(
                        for: cart.lines[index], unitPrice: lines[index].unitPrice, eligibility: eligibility)
                else { continue }
                lines[index].promotions.append(
                    AppliedPromotion(
                        rules, best.rule, discount: best.discount, units: lines[index].quantity,
                        ruleIndex: best.rule))
                itemDiscount += best.discount
            }
            if case .some = steps {
                // The order docs/pricing.md#choosing would have applied them in: by the tie rule.
                var order: [(line: Int, promotion: AppliedPromotion)] = []
                for (index, line) in lines.enumerated() {
                    if let promotion = line.promotions.first { order.append((index, promotion)) }
                }
                let promotions = rules.promotions
                order.sort { a, b in
                    if a.promotion.discount != b.promotion.discount {
                        return a.promotion.discount > b.promotion.discount
                    }
                    let pa = promotions[a.promotion.ruleIndex!].priority
                    let pb = promotions[b.promotion.ruleIndex!].priority
                    if pa != pb { return pa > pb }
                    if a.promotion.ruleIndex != b.promotion.ruleIndex {
                        return a.promotion.ruleIndex! < b.promotion.ruleIndex!
                    }
                    return a.line < b.line
                }
                steps = order.map { PricingStep(rule: $0.promotion.ruleIndex!, lines: [$0.line]) }
            }
        } else if let lineIndex {
            itemDiscount = chooseUnits(
                cart, groupRules: groupRules, lineIndex: lineIndex, chooser: chooser, lines: &lines,
                eligibility: eligibility, steps: &steps)
        }

        // One cart promotion (docs/pricing.md#cart-promotions), allocated to lines (docs/pricing.md#allocation).
        let afterItems = subtotal - itemDiscount
        var cartPromotion: AppliedPromotion?
        // A cart promotion on part of the cart works out its own total (a closure that does not
        // escape: nothing is allocated for it per cart).
        let best = chooser.bestCartRule(
            subtotal: afterItems, partialTotal: { self.partialTotal($0, lines) }, eligibility: eligibility)
        if let best {
            cartPromotion = AppliedPromotion(
                rules, best.rule, discount: best.discount, units: 0, ruleIndex: best.rule)
            if let selected = rules.partialProducts[Int32(best.rule)] {
                let products = lines.map(\.product)
                allocate(best.discount, over: &lines, total: partialTotal(best.rule, lines)) {
                    selected.containsSorted(products[$0])
                }
            } else {
                allocate(best.discount, over: &lines, total: afterItems)
            }
        }
        var receipt = Receipt(
            id: cart.id, currency: catalog.currency, at: chooser.instant, lines: lines, cartPromotion: cartPromotion,
            subtotal: subtotal,
            itemDiscount: itemDiscount, cartDiscount: cartPromotion?.discount ?? 0, warnings: warnings)
        try catalog.applyTaxes(to: &receipt, storage: &storage)  // docs/taxes.md: from the finished receipt
        return receipt
    }

    /// With group promotions among the candidates (docs/pricing.md#choosing): the promotions are applied one at a time,
    /// best first, each to the units it uses. Returns the item discount.
    ///
    /// A function of its own so that its copy of the rules is made when the cart needs it: inlined,
    /// the copy was made for every cart, and the threads of a batch all wrote its reference counts.
    @inline(never)
    private func chooseUnits<C: RuleChooser>(
        _ cart: Cart, groupRules: [Int], lineIndex: CartLineIndex, chooser: C, lines: inout [Receipt.Line],
        eligibility: CartEligibility, steps: inout [PricingStep]?
    ) -> Int64 {
        var choice = UnitChoice(
            rules: rules, lines: cart.lines, prices: lines.map(\.unitPrice), groupRules: groupRules,
            lineOf: lineIndex.line(of:))
        let applied = choice.run { line, free in
            chooser.bestItemRule(
                for: Cart.Line(product: cart.lines[line].product, quantity: free), unitPrice: lines[line].unitPrice,
                eligibility: eligibility)
        }
        var itemDiscount: Int64 = 0
        for application in applied {
            for share in application.shares {
                lines[share.line].promotions.append(
                    AppliedPromotion(
                        rules, application.rule, discount: share.discount, units: share.units,
                        ruleIndex: application.rule))
            }
            itemDiscount += application.discount
        }
        steps = steps.map { _ in applied.map { PricingStep(rule: $0.rule, lines: $0.shares.map(\.line)) } }
        return itemDiscount
    }

    /// The group promotions that could apply to `cart`: enabled, active, their
    /// coupon presented, touching one of its products, and with enough units in the cart for one
    /// group (units only ever get fewer as the choice goes on, so one that lacks them now never
    /// applies). Ascending.
    func candidateGroupRules(_ cart: Cart, lines: CartLineIndex, instant: Instant, eligibility: CartEligibility)
        -> [Int]
    {
        func quantity(_ product: ProductID) -> Int64 { lines.quantity(of: product) }
        return rules.groupProducts.withUnsafeBufferPointer { products in
            rules.groupSpans.withUnsafeBufferPointer { spans in
                rules.compiled.withUnsafeBufferPointer { compiled in
                    func units(_ range: Range<Int32>) -> Int64 {
                        var sum: Int64 = 0
                        for position in range { sum = sum.addingSaturating(quantity(Int(products[Int(position)]))) }
                        return sum
                    }
                    /// Whether the cart has the units for one group of the rule.
                    func enough(_ rule: CompiledRule) -> Bool {
                        let span = spans[Int(rule.group)]
                        guard let needed = rule.rule.group?.unitsNeeded(hasRewards: span.hasTargets) else {
                            return false
                        }
                        return units(span.codes) >= needed.products
                            && (!span.hasTargets || units(span.rewards) >= needed.rewards)
                    }
                    var found: [Int] = []
                    rules.groupProbes.withUnsafeBufferPointer { probes in
                        func units(_ codes: (Int32, Int32, Int32)) -> Int64 {
                            var sum: Int64 = 0
                            if codes.0 >= 0 { sum = sum.addingSaturating(quantity(Int(codes.0))) }
                            if codes.1 >= 0 { sum = sum.addingSaturating(quantity(Int(codes.1))) }
                            if codes.2 >= 0 { sum = sum.addingSaturating(quantity(Int(codes.2))) }
                            return sum
                        }
                        var cartUnits: Int64 = 0
                        for line in cart.lines { cartUnits = cartUnits.addingSaturating(line.quantity) }
                        for line in cart.lines {
                            for position in Int(
                                rules.groupOffsets[line.product])..<Int(rules.groupOffsets[line.product + 1])
                            {
                                // Most promotions lack the units: ruled out from the product's own list, read in order.
                                let probe = probes[position]
                                guard Int64(probe.need) <= cartUnits else { continue }
                                if probe.inline {
                                    guard units(probe.codes) >= Int64(probe.need) else { continue }
                                    if probe.hasTargets {
                                        guard units(probe.rewards) >= Int64(probe.rewardNeed) else { continue }
                                    }
                                }
                                let ruleIndex = Int(rules.groupRules[position])
                                let rule = compiled[ruleIndex]
                                guard rule.isActive(at: instant), rules.isEligible(ruleIndex, rule, eligibility),
                                    probe.inline || enough(rule)
                                else { continue }
                                found.append(ruleIndex)
                            }
                        }
                    }
                    found.sortAndRemoveDuplicates()
                    return found
                }
            }
        }
    }

    // MARK: Candidates

    /// What `cart` brings that decides which promotions are candidates: its customer's groups and
    /// id, and the limited promotions used up for it (``ledger``). Its coupons are added as they are read.
    func eligibility(of cart: Cart) -> CartEligibility {
        var eligibility = CartEligibility()
        guard let customer = cart.customer else {
            if let ledger, !rules.limitedRules.isEmpty {
                eligibility.exhausted = ledger.exhausted(in: rules, customer: nil)
            }
            return eligibility
        }
        for group in customer.groups {
            if let id = rules.groupIDs[ExactText(group)], !eligibility.groups.contains(id) {
                eligibility.groups.insert(id)
            }
        }
        eligibility.hasCustomerID = customer.id != nil
        if let ledger, !rules.limitedRules.isEmpty {
            eligibility.exhausted = ledger.exhausted(in: rules, customer: customer.id)
        }
        return eligibility
    }

    /// What a presented coupon that an active promotion carries does for `eligibility`: carried by a
    /// candidate, carried only by used-up promotions, or by none the cart is eligible for.
    func couponStanding(_ coupon: Int32, _ instant: Instant, _ eligibility: CartEligibility) -> CouponStanding {
        var usedUp = false
        for index in rules.rulesByCoupon[Int(coupon)] {
            let rule = rules.compiled[Int(index)]
            guard rule.isActive(at: instant) else { continue }
            var others = eligibility
            others.coupons.insert(coupon)
            if rules.isEligible(Int(index), rule, others) { return .carried }
            others.exhausted = []
            if rule.isLimited, rules.isEligible(Int(index), rule, others) { usedUp = true }
        }
        return usedUp ? .usedUp : .none
    }

    enum CouponStanding {
        case carried, usedUp, none
    }

    /// Whether `cart`'s customer may have promotion `index` (its window and coupon aside).
    public enum CustomerStanding: Sendable {
        case eligible
        /// Not one of its customer groups, or no customer id for a per-customer limit.
        case notEligible
        /// Its usage limit is reached (``ledger``).
        case exhausted
    }

    /// Each promotion's standing for `customer` (by position; its window and coupon aside): the
    /// customer's eligibility (groups, the ledger's used-up limits) worked out once for all of them,
    /// and once more without the ledger, which tells a used-up promotion from one not theirs.
    public func customerStandings(for customer: Cart.Customer?) -> @Sendable (Int) -> CustomerStanding {
        let eligibility = self.eligibility(of: Cart(lines: [], customer: customer))
        var withoutLedger = eligibility
        withoutLedger.exhausted = []
        let unlimited = withoutLedger
        let rules = self.rules
        return { index in
            var rule = rules.compiled[index]
            rule.coupon = -1
            if rules.isEligible(index, rule, eligibility) { return .eligible }
            return rules.isEligible(index, rule, unlimited) ? .exhausted : .notEligible
        }
    }

    /// Whether `customer` may have each promotion: the ``CustomerStanding/eligible`` ones of
    /// ``customerStandings(for:)``.
    public func eligiblePromotions(for customer: Cart.Customer?) -> @Sendable (Int) -> Bool {
        let standing = customerStandings(for: customer)
        return { standing($0) == .eligible }
    }

    /// The standing of promotion `index` for the customer of `cart` (``customerStandings(for:)``,
    /// for one promotion).
    public func customerStanding(ofPromotion index: Int, in cart: Cart) -> CustomerStanding {
        customerStandings(for: cart.customer)(index)
    }

    /// The total a cart promotion works on in a cart priced into `lines`: every line's total after
    /// item promotions, or only its products' lines for a cart promotion with `products`.
    public func cartSubtotal(ofPromotion index: Int, lines: [Receipt.Line]) -> Int64 {
        guard rules.compiled[index].isPartial else {
            return lines.reduce(0) { $0 + max(0, $1.subtotal - $1.itemDiscount) }
        }
        return partialTotal(index, lines)
    }

    /// The total after item promotions of the lines of cart promotion `rule`'s products.
    func partialTotal(_ rule: Int, _ lines: [Receipt.Line]) -> Int64 {
        guard let selected = rules.partialProducts[Int32(rule)] else { return 0 }
        var total: Int64 = 0
        for line in lines where selected.containsSorted(line.product) {
            total += max(0, line.subtotal - line.itemDiscount)
        }
        return total
    }

    // MARK: Coupons

    /// Calls `body` with each coupon, compared ASCII-case-insensitively (repeats count once, the
    /// first spelling is kept), and its id in the rule set, -1 when no promotion carries it.
    func forEachPresentedCoupon(_ coupons: [String], _ body: (String, Int32) -> Void) {
        guard !coupons.isEmpty else { return }
        // A cart presents a coupon or two: a repeat is found by comparing with the coupons before
        // it, without building a set; a long list gets one.
        var seen: Set<CouponKey>? = coupons.count > 8 ? [] : nil
        for (index, coupon) in coupons.enumerated() {
            let key = CouponKey(coupon)
            if case .some = seen {
                guard seen!.insert(key).inserted else { continue }
            } else if coupons[..<index].contains(where: { CouponKey($0) == key }) {
                continue
            }
            body(coupon, rules.couponIDs[key] ?? -1)
        }
    }

    // MARK: Allocation

    /// Splits the cart discount `d` over lines in proportion to their totals `t` after item
    /// discounts: ⌊d·t/s⌋ each, then the leftover minor units one by one to the largest remainders
    /// (d·t mod s), ties to the earlier line (`largestRemainderShares`, without allocating: this
    /// runs for every cart with a cart promotion).
    /// `among`: the lines that share it (a cart promotion on part of the cart); the others get none.
    func allocate(
        _ d: Int64, over lines: inout [Receipt.Line], total s: Int64, among: (Int) -> Bool = { _ in true }
    ) {
        guard d > 0, s > 0 else { return }
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * lines.count) { scratch in
            let weights = UnsafeMutableBufferPointer(rebasing: scratch[..<lines.count])
            let shares = UnsafeMutableBufferPointer(rebasing: scratch[lines.count...])
            for index in lines.indices {
                weights[index] = among(index) ? max(0, lines[index].subtotal - lines[index].itemDiscount) : 0
            }
            largestRemainderShares(d, weights: UnsafeBufferPointer(weights), into: shares)
            for index in lines.indices { lines[index].cartDiscount = shares[index] }
        }
    }
}
