/// `bundle`: any `size` units of its products together for a price, or a percentage or an amount
/// off the group ("any 3 for 20.00 €"); at most `limit` groups per cart.
///
/// Its units, most expensive first, form groups of `size` consecutive units (no incomplete group);
/// forming stops before the first group whose discount would be zero. A group of list value V gets
/// V − P (zero when V ≤ P), round(V × p / 100), or min(A, V). The discount is shared among the
/// lines of its groups in proportion to the list value of each line's grouped units.
public struct ProductBundle: GroupPromotionKind {
    /// What a group costs: a set price, or a percentage (hundredths) or an amount off its list value.
    public enum Offer: Sendable, Equatable {
        case price(Int64)
        case percent(Int64)
        case amount(Int64)
    }

    public var size: Int64
    public var offer: Offer
    public var limit: Int64?

    public init(size: Int64, offer: Offer, limit: Int64? = nil) {
        self.size = size
        self.offer = offer
        self.limit = limit
    }

    public static let type = "bundle"
    public static let scope = PromotionScope.group
    public static let label = "bundle"
    public static let keys: Set<PromotionKey> = [.code, .codes, .products, .quantity, .price, .percent, .amount, .limit]

    public var rule: Promotion.Rule { .bundle(self) }

    @inlinable
    public static func decode(_ fields: inout some PromotionFields) -> ProductBundle? {
        let n = fields.requiredInteger(
            .quantity, needed: "a bundle needs `quantity`, the number of units in a group (≥ 2)")
        if let n, n < 2 {
            fields.reject(.quantity, "`quantity` of a bundle is the group size and must be at least 2, not \(n)")
        }
        let limit = fields.optionalCount(.limit, what: "the most groups per cart")
        let offer: Offer?
        switch fields.presence(of: [.price, .percent, .amount], kind: "a bundle", takes: "one of") {
        case .none:
            fields.missing(
                "key `price`, `percent` or `amount`",
                needed: "a bundle takes a price for its group, or a percentage or an amount off it")
            offer = nil
        case .one(.price): offer = fields.money(.price, minimum: 0, positive: false).map { .price($0) }
        case .one(.percent): offer = fields.percentage().map { .percent($0) }
        case .one: offer = fields.money(.amount, minimum: nil, positive: true).map { .amount($0) }
        case .several: offer = nil
        }
        guard let n, n >= 2, let offer, let limit else { return nil }
        return ProductBundle(size: n, offer: offer, limit: limit)
    }

    /// The discount of a group of list value `value`.
    @inline(__always)
    func groupDiscount(value: Int64) -> Int64 {
        switch offer {
        case .price(let p): value > p ? value - p : 0
        case .percent(let p): p > 0 && p <= 10_000 ? percentage(value, p) : 0
        case .amount(let a): max(0, min(a, value))
        }
    }

    func unitsNeeded(hasRewards: Bool) -> (products: Int64, rewards: Int64) { (size, 0) }

    func application(lines: GroupApplication.Lines, free: [Int64], prices: [Int64], record: Bool)
        -> GroupApplication?
    {
        let n = size
        let limit = limit ?? .max
        guard n >= 1 else { return nil }
        var result = GroupApplication()
        var groups: Int64 = 0
        let order = lines.byPriceDescending
        var index = 0
        var remaining = order.isEmpty ? 0 : free[order[0]]
        func add(_ line: Int, _ units: Int64) {
            guard record, units > 0 else { return }
            if let last = result.parts.last, last.line == line {
                result.parts[result.parts.count - 1].units += units
                result.parts[result.parts.count - 1].amount += units * prices[line]
            } else {
                result.parts.append(GroupApplication.Part(line: line, units: units, amount: units * prices[line]))
            }
        }
        // Runs of whole groups inside one line are counted arithmetically; only groups that
        // straddle lines are walked, and there are fewer of those than lines.
        while groups < limit {
            while remaining == 0, index + 1 < order.count {
                index += 1
                remaining = free[order[index]]
            }
            guard remaining > 0 else { break }
            let line = order[index]
            if remaining >= n {
                // Whole groups inside this line: all worth the same.
                let each = groupDiscount(value: n * prices[line])
                guard each > 0 else { break }
                let count = min(remaining / n, limit - groups)
                result.discount += count * each
                groups += count
                remaining -= count * n
                add(line, count * n)
                continue
            }
            // A group across lines: the next n units, from this line on.
            var need = n
            var value: Int64 = 0
            var j = index
            var left = remaining
            var taken: [(Int, Int64)] = []
            while need > 0 {
                if left == 0 {
                    guard j + 1 < order.count else { break }
                    j += 1
                    left = free[order[j]]
                    continue
                }
                let take = min(left, need)
                value += take * prices[order[j]]
                need -= take
                left -= take
                taken.append((order[j], take))
            }
            guard need == 0 else { break }  // no complete group is left
            let each = groupDiscount(value: value)
            guard each > 0 else { break }
            result.discount += each
            groups += 1
            for (line, units) in taken { add(line, units) }
            index = j
            remaining = left
        }
        return result.discount > 0 ? result : nil
    }

    func shares(of application: GroupApplication, parts: [GroupApplication.Part]) -> [Int64] {
        largestRemainderShares(application.discount, weights: parts.map(\.amount))
    }

    func applicationCount(lines: GroupApplication.Lines, free: [Int64]) -> Int64? { nil }

    public func words(_ context: PromotionKindWords) -> String {
        let money = context.money
        let words: String
        switch offer {
        case .price(let p): words = "any \(size) for \(money.format(p))"
        case .percent(let p): words = "any \(size): \(percentWords(p)) off"
        case .amount(let a): words = "any \(size): \(money.format(a)) off"
        }
        return words + timesWords(limit)
    }

    /// A bundle adds at most one group's units.
    public var missingUnits: MissingUnitsRule { .firstApplication(atMost: size) }

    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
        // No group can cost less than its list value when the price reaches N × the dearest unit.
        guard case .price(let price) = offer, let highest = context.products.map(\.price).max() else { return [] }
        let most = Int128(size) * Int128(highest)
        guard Int128(price) >= most else { return [] }
        let bound = most <= Int128(Int64.max) ? context.money(Int64(most)) : "more than the largest amount"
        return [
            NoDiscountFinding(
                "bundle price \(context.money(price)) is not below \(size) × the highest list price of its products (\(bound))",
                at: .key(.price))
        ]
    }
}

extension Promotion.Rule {
    public static func bundle(size: Int64, offer: ProductBundle.Offer, limit: Int64? = nil) -> Self {
        .bundle(ProductBundle(size: size, offer: offer, limit: limit))
    }
}

extension PromotionType {
    public static let bundle = PromotionType(ProductBundle.self)
}
