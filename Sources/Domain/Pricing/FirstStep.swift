/// What each promotion could do on all of a cart's units before any is applied: the first step of
/// the choice (docs/pricing.md#choosing), which explanations start from. Each promotion is looked at alone, on the
/// lines it targets, optionally with units added, so asking costs what the promotion touches and not
/// what the cart holds.
public struct FirstStep: Sendable {
    public let engine: PricingEngine
    public let lines: [Cart.Line]
    private let lineOf: [ProductID: Int]

    public init(engine: PricingEngine, cart: Cart) {
        self.engine = engine
        lines = cart.lines
        var lineOf: [ProductID: Int] = [:]
        for (index, line) in cart.lines.enumerated() { lineOf[line.product] = index }
        self.lineOf = lineOf
    }

    /// One application: its discount and the cart lines whose units it would use (`lines.count`
    /// stands for a line of added units the cart does not have yet).
    public struct Application: Sendable, Equatable {
        public var discount: Int64
        public var lines: [Int]
    }

    /// Units added to the cart, for "what if" questions.
    public struct Addition: Sendable, Equatable {
        public var product: ProductID
        public var units: Int64

        public init(product: ProductID, units: Int64) {
            self.product = product
            self.units = units
        }
    }

    /// The line of `product` in the cart, if it has one.
    public func line(of product: ProductID) -> Int? { lineOf[product] }

    /// The quantity of `product` in the cart with `addition`, and its line (a new one after the
    /// others when the cart has none).
    private func quantity(of product: ProductID, adding addition: Addition?) -> (line: Int, quantity: Int64)? {
        let extra = addition?.product == product ? addition!.units : 0
        if let line = lineOf[product] { return (line, lines[line].quantity + extra) }
        return extra > 0 ? (lines.count, extra) : nil
    }

    /// The applications of item promotion `index` (its position in the rule set) on every unit of the
    /// cart with `addition`, whether or not it is a candidate (active, coupon presented). Line
    /// promotions have one per line with a positive discount; group promotions at most one.
    public func applications(ofPromotion index: Int, adding addition: Addition? = nil) -> [Application] {
        let rules = engine.rules
        let promotion = rules.promotions[index]
        let rule = rules.compiled[index]
        let catalog = rules.catalog
        switch promotion.rule.type.scope {
        case .cart:
            return []
        case .line:
            var result: [Application] = []
            for product in rules.products.products(of: index) {
                guard let (line, quantity) = quantity(of: product, adding: addition) else { continue }
                let price = catalog[product].price
                guard !quantity.multipliedReportingOverflow(by: price).overflow else { continue }
                let discount = rule.itemDiscount(quantity: quantity, unitPrice: price)
                if discount > 0 { result.append(Application(discount: discount, lines: [line])) }
            }
            return result.sorted { $0.lines[0] < $1.lines[0] }
        case .group:
            guard let (free, prices, lines, local) = groupLines(rules.groups[Int(rule.group)], adding: addition) else {
                return []
            }
            guard
                let application = rule.rule.groupApplication(lines: lines, free: free, prices: prices, record: true)
            else { return [] }
            return [
                Application(discount: application.discount, lines: application.parts.map { local[$0.line] }.sorted())
            ]
        }
    }

    /// Whether line promotion `index` gives a discount on `product`'s line with `units` added to
    /// it. When the promotion gives nothing on the cart as it is, this is whether
    /// `applications(ofPromotion:adding:)` finds any (its other lines are unchanged), at the cost of
    /// one line instead of all its products: a selector's may be tens of thousands.
    public func lineGives(ofPromotion index: Int, product: ProductID, adding units: Int64) -> Bool {
        guard let (_, quantity) = quantity(of: product, adding: Addition(product: product, units: units)) else {
            return false
        }
        let price = engine.rules.catalog[product].price
        guard !quantity.multipliedReportingOverflow(by: price).overflow else { return false }
        return engine.rules.compiled[index].itemDiscount(quantity: quantity, unitPrice: price) > 0
    }

    /// How many times group promotion `index` applies to every unit of the cart with `addition`
    /// (a buy-X-get-Y's k), for kinds that count so; 0 for other promotions.
    public func applicationCount(ofPromotion index: Int, adding addition: Addition? = nil) -> Int64 {
        let rule = engine.rules.compiled[index]
        guard let kind = rule.rule.group,
            let (free, _, lines, _) = groupLines(engine.rules.groups[Int(rule.group)], adding: addition)
        else { return 0 }
        return kind.applicationCount(lines: lines, free: free) ?? 0
    }

    /// A group promotion's own lines, numbered locally in cart order: their free units (all of
    /// them), prices, orders, and each one's cart line. Nil when a line's value would not fit in 64 bits.
    private func groupLines(_ group: GroupRule, adding addition: Addition?)
        -> (free: [Int64], prices: [Int64], lines: GroupApplication.Lines, cartLines: [Int])?
    {
        let catalog = engine.rules.catalog
        // The cart's lines of its products (ascending lists: a selector's may be tens of thousands,
        // the cart's lines few), then the added units' product when the cart lacks it.
        func isOwn(_ product: ProductID) -> Bool {
            group.codes.containsSorted(product) || (group.rewards?.containsSorted(product) ?? false)
        }
        var local: [(line: Int, product: ProductID, quantity: Int64)] = []
        // A product's last line stands for it, as in `quantity(of:adding:)`.
        for (line, item) in lines.enumerated() where lineOf[item.product] == line && isOwn(item.product) {
            let extra = addition?.product == item.product ? addition!.units : 0
            local.append((line, item.product, item.quantity + extra))
        }
        if let addition, addition.units > 0, lineOf[addition.product] == nil, isOwn(addition.product) {
            local.append((lines.count, addition.product, addition.units))
        }
        let prices = local.map { catalog[$0.product].price }
        let free = local.map(\.quantity)
        for index in local.indices where free[index].multipliedReportingOverflow(by: prices[index]).overflow {
            return nil
        }
        let codes = Set(group.codes)
        let codeLines = local.indices.filter { codes.contains(local[$0].product) }
        let rewardLines =
            group.rewards.map { rewards in local.indices.filter { rewards.contains(local[$0].product) } } ?? codeLines
        let lines = GroupApplication.Lines(
            byPriceDescending: codeLines.sorted { prices[$0] != prices[$1] ? prices[$0] > prices[$1] : $0 < $1 },
            rewardsAscending: rewardLines.sorted { prices[$0] != prices[$1] ? prices[$0] < prices[$1] : $0 < $1 },
            hasTargets: group.rewards != nil)
        return (free, prices, lines, local.map(\.line))
    }

    /// The discount of cart promotion `index` on a cart whose total after item promotions is
    /// `subtotal`: 0 below its minimum.
    public func cartDiscount(ofPromotion index: Int, subtotal: Int64) -> Int64 {
        engine.rules.compiled[index].cartDiscount(subtotal: subtotal)
    }
}

/// A line promotion's discount on a line whose units are all free (docs/pricing.md#line-promotions-combo-bulk-percent-amount, docs/pricing.md#applications),
/// exactly as the engine works it out; 0 for other types, and when quantity × unit price does not
/// fit in 64 bits.
public struct LineDiscount: Sendable {
    private let rule: CompiledRule
    private let isLine: Bool

    public init(_ rule: Promotion.Rule) {
        self.rule = CompiledRule(Promotion(id: "", name: "", rule: rule), coupon: -1)
        isLine = rule.type.scope == .line
    }

    public func callAsFunction(quantity: Int64, unitPrice: Int64) -> Int64 {
        guard isLine, quantity >= 0, unitPrice >= 0, !quantity.multipliedReportingOverflow(by: unitPrice).overflow
        else { return 0 }
        return rule.itemDiscount(quantity: quantity, unitPrice: unitPrice)
    }
}
