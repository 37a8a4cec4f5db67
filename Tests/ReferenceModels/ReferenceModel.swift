import Pricing

/// docs/pricing.md, docs/selectors.md (with the candidate side of docs/store.md) written the plain way, to check the engine
/// against: every unit of the cart a value of its own, every application of every candidate worked
/// out again at every step, money in 128 bits, selectors resolved for every cart by testing every
/// product (``NaiveSelection``). Slow on purpose; nothing here is shared with the engine.
public struct ReferenceModel {
    public struct Entry: Equatable, CustomStringConvertible, Sendable {
        public var id: String
        public var discount: Int64
        public var units: Int64
        public var description: String { "\(id) \(discount)/\(units)" }

        public init(id: String, discount: Int64, units: Int64) {
            self.id = id
            self.discount = discount
            self.units = units
        }
    }

    public struct Result: Equatable, Sendable {
        public var lines: [[Entry]]
        public var cartPromotion: String?
        public var cartDiscount: Int64
        public var cartShares: [Int64]
        public var total: Int64
        /// The item promotions applied, in order (their positions in the file).
        public var order: [Int] = []
        /// The position in `order` of the first application that used units of each line.
        public var firstUse: [Int] = []
        /// The cart promotion applied (its position in the file), and the total it worked on.
        public var cartWinner: Int?
        public var afterItems: Int64 = 0
        /// The receipt's warnings, as receipts word them.
        public var warnings: [String] = []

        public init(
            lines: [[Entry]], cartPromotion: String?, cartDiscount: Int64, cartShares: [Int64], total: Int64,
            warnings: [String] = []
        ) {
            self.lines = lines
            self.cartPromotion = cartPromotion
            self.cartDiscount = cartDiscount
            self.cartShares = cartShares
            self.total = total
            self.warnings = warnings
        }

        /// Equal in what a receipt says; the trace is not compared.
        public static func == (a: Result, b: Result) -> Bool {
            a.lines == b.lines && a.cartPromotion == b.cartPromotion && a.cartDiscount == b.cartDiscount
                && a.cartShares == b.cartShares
                && a.total == b.total && a.warnings == b.warnings
        }
    }

    public let catalog: Catalog
    public let promotions: [Promotion]
    /// The store's counts of redemptions; nil: no usage limit binds.
    public let ledger: RedemptionCounts?

    public init(catalog: Catalog, promotions: [Promotion], ledger: RedemptionCounts? = nil) {
        self.catalog = catalog
        self.promotions = promotions
        self.ledger = ledger
    }

    /// What the cart's customer may have of a promotion, its window and coupon aside.
    public enum Standing: Equatable, Sendable {
        case eligible
        /// Not one of its `customer_groups`, or `uses_per_customer` and no customer id.
        case notEligible
        /// Its `uses`, or its `uses_per_customer` for the cart's customer id, are used up.
        case exhausted
    }

    public func standing(of p: Promotion, in cart: Cart) -> Standing {
        if let groups = p.customerGroups {
            let held = cart.customer?.groups ?? []
            guard held.contains(where: { NaiveSelection.oneOf($0, groups) }) else { return .notEligible }
        }
        if p.usesPerCustomer != nil, cart.customer?.id == nil { return .notEligible }
        guard let ledger else { return .eligible }
        if let uses = p.uses, ledger.orders[p.id, default: 0] >= uses { return .exhausted }
        if let perCustomer = p.usesPerCustomer, let customer = cart.customer?.id,
            ledger.ordersByCustomer.first(where: { Array($0.key.text.utf8) == Array(customer.utf8) })?.value[p.id]
                ?? 0 >= perCustomer
        {
            return .exhausted
        }
        return .eligible
    }

    /// ASCII letters upper-cased, nothing else touched: how coupons compare.
    static func couponKey(_ coupon: String) -> [UInt8] { coupon.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 } }

    /// Whether the cart (with `extra` coupons) presents promotion `p`'s coupon, if it has one.
    func presents(_ p: Promotion, _ cart: Cart, _ extra: [String]) -> Bool {
        guard let coupon = p.coupon else { return true }
        return (cart.coupons + extra).contains { Self.couponKey($0) == Self.couponKey(coupon) }
    }

    /// A candidate (docs/pricing.md#candidates-and-coupons, docs/selectors.md#customer-groups, docs/store.md): enabled, active, its coupon presented, its customer eligible
    /// and not used up.
    public func isCandidate(_ p: Promotion, _ cart: Cart, coupons extra: [String] = [], at instant: Instant) -> Bool {
        p.isEnabled && p.isActive(at: instant) && presents(p, cart, extra) && standing(of: p, in: cart) == .eligible
    }

    /// One warning per presented coupon (repeats in any letter case once, the first spelling kept)
    /// that no candidate carries: used up when an enabled, active promotion the customer may have
    /// carries it but has run out, else matching none.
    public func warnings(_ cart: Cart, coupons extra: [String] = [], at instant: Instant) -> [String] {
        var seen: [[UInt8]] = []
        var warnings: [String] = []
        for coupon in cart.coupons + extra {
            let key = Self.couponKey(coupon)
            guard !seen.contains(key) else { continue }
            seen.append(key)
            let carriers = promotions.filter {
                $0.isEnabled && $0.isActive(at: instant) && $0.coupon.map(Self.couponKey) == key
            }
            if carriers.contains(where: { standing(of: $0, in: cart) == .eligible }) { continue }
            if carriers.contains(where: { standing(of: $0, in: cart) == .exhausted }) {
                warnings.append("coupon \"\(coupon)\" has reached its usage limit")
            } else {
                warnings.append("coupon \"\(coupon)\" matches no active promotion")
            }
        }
        return warnings
    }

    /// Every promotion's products and rewarded products as code lists, selectors resolved now.
    func resolvedProducts() -> [(codes: [String], targets: [String]?)] {
        promotions.map { NaiveSelection.products(of: $0, in: catalog) }
    }

    /// Promotion `p`'s products and rewarded products as code lists, its selectors resolved now.
    public func products(of p: Promotion) -> (codes: [String], targets: [String]?) {
        NaiveSelection.products(of: p, in: catalog)
    }

    private struct Unit {
        var line: Int
        var price: Int64
        var used = false
    }

    private struct Application {
        var promotion: Int
        var line: Int  // line promotions; -1 for groups
        var discount: Int64
        /// Units it uses, and per line the discount attributed there.
        var units: [Int]
        var perLine: [Int: Int64]
    }

    public func price(_ cart: Cart, coupons extra: [String] = [], at instant: Instant) -> Result {
        var units: [Unit] = []
        var prices: [Int64] = []
        for (index, line) in cart.lines.enumerated() {
            let price = catalog[line.product].price
            prices.append(price)
            for _ in 0..<line.quantity { units.append(Unit(line: index, price: price)) }
        }
        let resolved = resolvedProducts()
        func isCandidate(_ p: Promotion) -> Bool { self.isCandidate(p, cart, coupons: extra, at: instant) }
        func lineOf(code: String) -> Int? {
            guard let id = catalog.productID(for: code) else { return nil }
            return cart.lines.firstIndex { $0.product == id }
        }
        func rounded(_ x: Int128, _ d: Int128) -> Int64 { Int64((x + d / 2) / d) }

        var entries = [[Entry]](repeating: [], count: cart.lines.count)
        var order: [Int] = []
        var firstUse = [Int](repeating: Int.max, count: cart.lines.count)
        var appliedGroups = Set<Int>()
        var appliedLines = Set<[Int]>()
        var itemDiscount: Int64 = 0
        while true {
            var applications: [Application] = []
            for (index, p) in promotions.enumerated() where isCandidate(p) {
                applications += self.applications(
                    of: index, products: resolved[index], units: units, prices: prices, lineOf: lineOf,
                    appliedLines: appliedLines, appliedGroups: appliedGroups)
            }
            guard
                let best = applications.min(by: { a, b in
                    if a.discount != b.discount { return a.discount > b.discount }
                    let pa = promotions[a.promotion].priority
                    let pb = promotions[b.promotion].priority
                    if pa != pb { return pa > pb }
                    if a.promotion != b.promotion { return a.promotion < b.promotion }
                    return a.line < b.line
                })
            else { break }
            for unit in best.units {
                units[unit].used = true
                firstUse[units[unit].line] = min(firstUse[units[unit].line], order.count)
            }
            order.append(best.promotion)
            if best.line >= 0 {
                appliedLines.insert([best.promotion, best.line])
            } else {
                appliedGroups.insert(best.promotion)
            }
            for line in best.perLine.keys.sorted() {
                let usedHere = best.units.filter { units[$0].line == line }.count
                entries[line].append(
                    Entry(id: promotions[best.promotion].id, discount: best.perLine[line]!, units: Int64(usedHere)))
            }
            itemDiscount += best.discount
        }

        // The cart promotion (docs/pricing.md#cart-promotions, docs/pricing.md#attributing-a-discount-to-lines) and its allocation (docs/pricing.md#allocation).
        let subtotal = cart.lines.indices.reduce(Int64(0)) { $0 + cart.lines[$1].quantity * prices[$1] }
        let s = subtotal - itemDiscount
        // Each line's total after item promotions.
        let lineTotals = cart.lines.indices.map {
            cart.lines[$0].quantity * prices[$0] - entries[$0].reduce(0) { $0 + $1.discount }
        }
        /// The lines a cart promotion works on (docs/selectors.md#cart-promotions-on-part-of-the-cart): those of its products, or every line.
        func works(_ p: Promotion, on line: Int) -> Bool {
            NaiveSelection.cartProducts(of: p, in: catalog)?.contains(cart.lines[line].product) ?? true
        }
        var bestCart: (index: Int, discount: Int64, s: Int64)?
        for (index, p) in promotions.enumerated() where isCandidate(p) {
            guard p.rule.isCartRule else { continue }
            let s = lineTotals.indices.filter { works(p, on: $0) }.reduce(Int64(0)) { $0 + lineTotals[$1] }
            var d: Int64 = 0
            switch NaiveRule(p.rule) {
            case .cartPercent(let minimum, let h, let cap):
                if s >= minimum { d = rounded(Int128(s) * Int128(h), 10_000) }
                if let cap { d = min(d, cap) }
            case .cartAmount(let minimum, let a):
                if s >= minimum { d = min(a, s) }
            default: continue
            }
            guard d > 0 else { continue }
            if let current = bestCart {
                let pc = promotions[current.index].priority
                if d > current.discount || (d == current.discount && p.priority > pc) { bestCart = (index, d, s) }
            } else {
                bestCart = (index, d, s)
            }
        }
        var shares = [Int64](repeating: 0, count: cart.lines.count)
        if let bestCart, bestCart.s > 0 {
            // Among the lines it works on only (docs/selectors.md#cart-promotions-on-part-of-the-cart), by their totals after item promotions.
            let d = Int128(bestCart.discount)
            let s = bestCart.s
            let t = cart.lines.indices.map { works(promotions[bestCart.index], on: $0) ? Int128(lineTotals[$0]) : 0 }
            var given: Int64 = 0
            for i in t.indices {
                shares[i] = Int64(d * t[i] / Int128(s))
                given += shares[i]
            }
            let order = t.indices.filter { t[$0] > 0 }.sorted { a, b in
                let ra = d * t[a] % Int128(s)
                let rb = d * t[b] % Int128(s)
                return ra != rb ? ra > rb : a < b
            }
            for i in order where given < bestCart.discount {
                shares[i] += 1
                given += 1
            }
        }
        let cartDiscount = bestCart?.discount ?? 0
        var result = Result(
            lines: entries, cartPromotion: bestCart.map { promotions[$0.index].id }, cartDiscount: cartDiscount,
            cartShares: shares, total: subtotal - itemDiscount - cartDiscount)
        result.order = order
        result.firstUse = firstUse
        result.cartWinner = bestCart?.index
        result.afterItems = s
        result.warnings = warnings(cart, coupons: extra, at: instant)
        return result
    }

    /// Every application of promotion `index` on the free `units` (docs/pricing.md#applications).
    private func applications(
        of index: Int, products: (codes: [String], targets: [String]?), units: [Unit], prices: [Int64],
        lineOf: (String) -> Int?, appliedLines: Set<[Int]>, appliedGroups: Set<Int>
    ) -> [Application] {
        func rounded(_ x: Int128, _ d: Int128) -> Int64 { Int64((x + d / 2) / d) }
        let p = (rule: promotions[index].rule, codes: products.codes, targets: products.targets)
        var applications: [Application] = []
        switch NaiveRule(p.rule) {
        case .combo, .bulk, .percent, .amount:
            for line in Set(p.codes.compactMap(lineOf)).sorted() where !appliedLines.contains([index, line]) {
                let free = units.indices.filter { units[$0].line == line && !units[$0].used }
                guard !free.isEmpty else { continue }
                let f = Int128(free.count)
                let u = Int128(prices[line])
                var d: Int128 = 0
                switch NaiveRule(p.rule) {
                case .combo(let n, let m): d = (f / Int128(n)) * Int128(n - m) * u
                case .bulk(let t, let price): if f >= Int128(t), Int128(price) < u { d = f * (u - Int128(price)) }
                case .percent(let t, let h, let cap):
                    if f >= Int128(t) { d = Int128(rounded(f * u * Int128(h), 10_000)) }
                    if let cap { d = min(d, Int128(cap)) }
                case .amount(let t, let a): if f >= Int128(t) { d = f * min(Int128(a), u) }
                default: break
                }
                if d > 0 {
                    applications.append(
                        Application(
                            promotion: index, line: line, discount: Int64(d), units: free, perLine: [line: Int64(d)]))
                }
            }
        case .bundle(let n, let offer, let limit):
            guard !appliedGroups.contains(index) else { return [] }
            let lines = Set(p.codes.compactMap(lineOf))
            // Most expensive first; ties to the earlier line (units are in line order).
            let e = units.indices.filter { lines.contains(units[$0].line) && !units[$0].used }
                .sorted { units[$0].price != units[$1].price ? units[$0].price > units[$1].price : $0 < $1 }
            var used: [Int] = []
            var total: Int64 = 0
            var groups: Int64 = 0
            var start = 0
            while start + Int(n) <= e.count, groups < (limit ?? .max) {
                let group = Array(e[start..<(start + Int(n))])
                let v = group.reduce(Int128(0)) { $0 + Int128(units[$1].price) }
                var d: Int128
                switch offer {
                case .price(let price): d = v > Int128(price) ? v - Int128(price) : 0
                case .percent(let h): d = Int128(rounded(v * Int128(h), 10_000))
                case .amount(let a): d = min(Int128(a), v)
                }
                if d == 0 { break }
                total += Int64(d)
                used += group
                groups += 1
                start += Int(n)
            }
            guard total > 0 else { return [] }
            // Shared by the list value of each line's grouped units, largest remainders.
            var value: [Int: Int128] = [:]
            for unit in used { value[units[unit].line, default: 0] += Int128(units[unit].price) }
            let sum = value.values.reduce(0, +)
            var perLine: [Int: Int64] = [:]
            var given: Int64 = 0
            for (line, t) in value {
                perLine[line] = sum == 0 ? 0 : Int64(Int128(total) * t / sum)
                given += perLine[line]!
            }
            let byRemainder = value.keys.sorted { a, b in
                let ra = sum == 0 ? 0 : Int128(total) * value[a]! % sum
                let rb = sum == 0 ? 0 : Int128(total) * value[b]! % sum
                return ra != rb ? ra > rb : a < b
            }
            for line in byRemainder where given < total && value[line]! > 0 {
                perLine[line]! += 1
                given += 1
            }
            applications.append(Application(promotion: index, line: -1, discount: total, units: used, perLine: perLine))
        case .bxgy(let n, let m, let reward, let limit):
            guard !appliedGroups.contains(index) else { return [] }
            let codeLines = Set(p.codes.compactMap(lineOf))
            let rewardLines = p.targets.map { Set($0.compactMap(lineOf)) } ?? codeLines
            let t = units.indices.filter { codeLines.contains(units[$0].line) && !units[$0].used }
            let r = units.indices.filter { rewardLines.contains(units[$0].line) && !units[$0].used }
            var k = p.targets == nil ? t.count / Int(n + m) : min(t.count / Int(n), r.count / Int(m))
            k = min(k, Int(limit ?? Int64(Int.max)))
            guard k > 0 else { return [] }
            let rewarded = Array(
                r.sorted { units[$0].price != units[$1].price ? units[$0].price < units[$1].price : $0 < $1 }.prefix(
                    k * Int(m)))
            let rewardedSet = Set(rewarded)
            let triggers = Array(
                t.filter { !rewardedSet.contains($0) }
                    .sorted { units[$0].price != units[$1].price ? units[$0].price > units[$1].price : $0 < $1 }.prefix(
                        k * Int(n)))
            var perLine: [Int: Int64] = [:]
            var count: [Int: Int128] = [:]
            for unit in rewarded { count[units[unit].line, default: 0] += 1 }
            var total: Int64 = 0
            for (line, rc) in count {
                let u = Int128(prices[line])
                let d: Int64
                switch reward {
                case .percent(let h): d = rounded(rc * u * Int128(h), 10_000)
                case .price(let price): d = Int64(rc * max(0, u - Int128(price)))
                }
                perLine[line] = d
                total += d
            }
            for unit in triggers where perLine[units[unit].line] == nil { perLine[units[unit].line] = 0 }
            guard total > 0 else { return [] }
            applications.append(
                Application(promotion: index, line: -1, discount: total, units: rewarded + triggers, perLine: perLine))
        case .cartPercent, .cartAmount:
            break
        }

        return applications
    }

    /// Each first-step application of promotion `index` (every unit free): its discount and the lines it would use.
    public func firstStep(_ cart: Cart, promotion index: Int) -> [(discount: Int64, lines: [Int])] {
        var units: [Unit] = []
        var prices: [Int64] = []
        for (line, item) in cart.lines.enumerated() {
            prices.append(catalog[item.product].price)
            for _ in 0..<item.quantity { units.append(Unit(line: line, price: prices[line])) }
        }
        func lineOf(code: String) -> Int? {
            guard let id = catalog.productID(for: code) else { return nil }
            return cart.lines.firstIndex { $0.product == id }
        }
        return applications(
            of: index, products: products(of: promotions[index]), units: units, prices: prices, lineOf: lineOf,
            appliedLines: [], appliedGroups: []
        )
        .map { ($0.discount, Set($0.units.map { units[$0].line }).sorted()) }
    }

}
