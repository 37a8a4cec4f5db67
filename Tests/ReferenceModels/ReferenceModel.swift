import Pricing

/// SPEC §5 and §10 written the plain way, to check the engine against: every unit of the cart a
/// value of its own, every application of every candidate worked out again at every step, money
/// in 128 bits. Slow on purpose; nothing here is shared with the engine.
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

        public init(lines: [[Entry]], cartPromotion: String?, cartDiscount: Int64, cartShares: [Int64], total: Int64) {
            self.lines = lines
            self.cartPromotion = cartPromotion
            self.cartDiscount = cartDiscount
            self.cartShares = cartShares
            self.total = total
        }

        /// Equal in what a receipt says; the trace is not compared.
        public static func == (a: Result, b: Result) -> Bool {
            a.lines == b.lines && a.cartPromotion == b.cartPromotion && a.cartDiscount == b.cartDiscount
                && a.cartShares == b.cartShares
                && a.total == b.total
        }
    }

    public let catalog: Catalog
    public let promotions: [Promotion]

    public init(catalog: Catalog, promotions: [Promotion]) {
        self.catalog = catalog
        self.promotions = promotions
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
        let presented = Set((cart.coupons + extra).map { $0.uppercased() })
        func isCandidate(_ p: Promotion) -> Bool {
            p.isEnabled && p.isActive(at: instant) && (p.coupon.map { presented.contains($0.uppercased()) } ?? true)
        }
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
                    of: index, units: units, prices: prices, lineOf: lineOf, appliedLines: appliedLines,
                    appliedGroups: appliedGroups)
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

        // The cart promotion (§5.4, §10.5) and its allocation (§5.5).
        let subtotal = cart.lines.indices.reduce(Int64(0)) { $0 + cart.lines[$1].quantity * prices[$1] }
        let s = subtotal - itemDiscount
        var bestCart: (index: Int, discount: Int64)?
        for (index, p) in promotions.enumerated() where isCandidate(p) {
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
                if d > current.discount || (d == current.discount && p.priority > pc) { bestCart = (index, d) }
            } else {
                bestCart = (index, d)
            }
        }
        var shares = [Int64](repeating: 0, count: cart.lines.count)
        if let bestCart, s > 0 {
            let d = Int128(bestCart.discount)
            let t = cart.lines.indices.map {
                Int128($0 < 0 ? 0 : cart.lines[$0].quantity * prices[$0] - entries[$0].reduce(0) { $0 + $1.discount })
            }
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
        return result
    }

    /// Every application of promotion `index` on the free `units` (SPEC §10.3).
    private func applications(
        of index: Int, units: [Unit], prices: [Int64], lineOf: (String) -> Int?,
        appliedLines: Set<[Int]>, appliedGroups: Set<Int>
    ) -> [Application] {
        func rounded(_ x: Int128, _ d: Int128) -> Int64 { Int64((x + d / 2) / d) }
        let p = promotions[index]
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
            of: index, units: units, prices: prices, lineOf: lineOf, appliedLines: [], appliedGroups: []
        )
        .map { ($0.discount, Set($0.units.map { units[$0].line }).sorted()) }
    }

}
