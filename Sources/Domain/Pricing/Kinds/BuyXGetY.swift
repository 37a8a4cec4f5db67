/// `bxgy`: for every `buy` units of its products, `get` units of its rewarded products (its
/// `targets`, else its own products) at `reward` — free, a percentage off, or a set price; at most
/// `limit` times per cart ("buy 2, get 1 free").
///
/// On the free units: T = its products' units, R = the rewarded products' units (R = T without
/// targets); k = ⌊|T| / (N + M)⌋ without targets, min(⌊|T| / N⌋, ⌊|R| / M⌋) with them, at most
/// `limit`. The k × M cheapest units of R are rewarded, the k × N most expensive other units of T
/// are the triggers. The discount stays on the lines of the rewarded units.
public struct BuyXGetY: GroupPromotionKind {
    /// What a rewarded unit costs: a percentage off (hundredths; 10,000 = free) or a set price.
    public enum Reward: Sendable, Equatable {
        case percent(Int64)
        case price(Int64)
    }

    public var buy: Int64
    public var get: Int64
    public var reward: Reward
    public var limit: Int64?

    public init(buy: Int64, get: Int64 = 1, reward: Reward = .percent(10_000), limit: Int64? = nil) {
        self.buy = buy
        self.get = get
        self.reward = reward
        self.limit = limit
    }

    public static let type = "bxgy"
    public static let scope = PromotionScope.group
    public static let label = "buy X get Y"
    public static let keys: Set<PromotionKey> = [
        .code, .codes, .products, .quantity, .get, .targets, .percent, .price, .limit
    ]

    public var rule: Promotion.Rule { .bxgy(self) }

    @inlinable
    public static func decode(_ fields: inout some PromotionFields) -> BuyXGetY? {
        let n = fields.requiredInteger(.quantity, needed: "a buy-X-get-Y needs `quantity`, the units to buy (≥ 1)")
        if let n, n < 1 { fields.reject(.quantity, "`quantity` must be at least 1, not \(n)") }
        let get = fields.optionalCount(.get, what: "the units rewarded per application")
        let limit = fields.optionalCount(.limit, what: "the most applications per cart")
        let reward: Reward?
        switch fields.presence(of: [.percent, .price], kind: "a buy-X-get-Y", takes: "at most one of") {
        case .none: reward = .percent(10_000)
        case .one(.percent): reward = fields.percentage().map { .percent($0) }
        case .one: reward = fields.money(.price, minimum: 0, positive: false).map { .price($0) }
        case .several: reward = nil
        }
        guard let n, n >= 1, let get, let limit, let reward else { return nil }
        return BuyXGetY(buy: n, get: get ?? 1, reward: reward, limit: limit)
    }

    func unitsNeeded(hasRewards: Bool) -> (products: Int64, rewards: Int64) {
        hasRewards ? (buy, get) : (buy.addingSaturating(get), 0)
    }

    /// k on the free units of its lines.
    func applicationCount(lines: GroupApplication.Lines, free: [Int64]) -> Int64? {
        let n = buy
        let m = get
        guard n >= 1, m >= 1 else { return 0 }
        var triggers: Int64 = 0
        for line in lines.byPriceDescending { triggers = triggers.addingSaturating(free[line]) }
        var k: Int64
        if lines.hasTargets {
            var rewardable: Int64 = 0
            for line in lines.rewardsAscending { rewardable = rewardable.addingSaturating(free[line]) }
            k = min(triggers / n, rewardable / m)
        } else {
            k = triggers / n.addingSaturating(m)
        }
        return min(k, limit ?? .max)
    }

    /// The discount on `units` rewarded units of a line at `price`, rounded once per line.
    @inline(__always)
    func rewardDiscount(units: Int64, price: Int64) -> Int64 {
        switch reward {
        case .percent(let p): p > 0 && p <= 10_000 ? percentage(units * price, p) : 0
        case .price(let p): p >= 0 && price > p ? units * (price - p) : 0
        }
    }

    func application(lines: GroupApplication.Lines, free: [Int64], prices: [Int64], record: Bool)
        -> GroupApplication?
    {
        let k = applicationCount(lines: lines, free: free) ?? 0
        guard k > 0 else { return nil }
        var result = GroupApplication()
        var toReward = k * get  // ≤ the rewardable units
        var rewarded: [(line: Int, units: Int64)] = []
        for line in lines.rewardsAscending where toReward > 0 {
            let units = min(free[line], toReward)
            guard units > 0 else { continue }
            toReward -= units
            let discount = rewardDiscount(units: units, price: prices[line])
            result.discount += discount
            rewarded.append((line, units))
            if record { result.parts.append(GroupApplication.Part(line: line, units: units, amount: discount)) }
        }
        guard result.discount > 0 else { return nil }
        guard record else { return result }
        var toTrigger = k * buy
        for line in lines.byPriceDescending where toTrigger > 0 {
            let alreadyRewarded = lines.hasTargets ? 0 : rewarded.first { $0.line == line }?.units ?? 0
            let units = min(free[line] - alreadyRewarded, toTrigger)
            guard units > 0 else { continue }
            toTrigger -= units
            if let part = result.parts.firstIndex(where: { $0.line == line }) {
                result.parts[part].units += units
            } else {
                result.parts.append(GroupApplication.Part(line: line, units: units, amount: 0))
            }
        }
        return result
    }

    /// Each line keeps the discount of its rewarded units; trigger lines get 0.
    func shares(of application: GroupApplication, parts: [GroupApplication.Part]) -> [Int64] { parts.map(\.amount) }

    /// Next to a product it rewards, the words say what that product gets: "1 free with every 2
    /// TSHIRT bought"; elsewhere, the offer: "buy 2, get 1 MUG free".
    public func words(_ context: PromotionKindWords) -> String {
        let money = context.money
        let rewarded = context.rewards.map { " " + $0.joined(separator: "/") } ?? ""
        let isReward = context.shownWith.map { context.rewards?.contains($0) == true } ?? false
        let bought = " with every \(buy) " + context.codes.joined(separator: "/") + " bought"
        let words: String
        switch reward {
        case .percent(10_000): words = isReward ? "\(get) free" + bought : "buy \(buy), get \(get)\(rewarded) free"
        case .percent(let p):
            words =
                isReward
                ? "\(get) at \(percentWords(p)) off" + bought
                : "buy \(buy), get \(get)\(rewarded) \(percentWords(p)) off"
        case .price(let p):
            words =
                isReward
                ? "\(get) at \(money.format(p)) each" + bought
                : "buy \(buy), get \(get)\(rewarded) for \(money.format(p)) each"
        }
        return words + timesWords(limit)
    }

    public var missingUnits: MissingUnitsRule { .firstGroup(worthlessAtOrBelow: worthlessAtOrBelow) }

    /// The list price at or below which a rewarded unit is worth nothing: the reward `price` (a
    /// unit sold at it or for less saves nothing), 0 for a percentage off (a free product).
    public var worthlessAtOrBelow: Int64 {
        switch reward {
        case .price(let price): price
        case .percent: 0
        }
    }

    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
        // A percentage of free rewards is the free-product finding's (reported for every kind).
        guard case .price(let price) = reward, let highest = context.rewards.map(\.price).max(),
            highest <= worthlessAtOrBelow
        else { return [] }
        return [
            NoDiscountFinding(
                "reward price \(context.money(price)) is not below the list price of any unit it could reward (at most \(context.money(highest)))",
                at: .key(.price))
        ]
    }
}

extension Promotion.Rule {
    public static func bxgy(buy: Int64, get: Int64 = 1, reward: BuyXGetY.Reward = .percent(10_000), limit: Int64? = nil)
        -> Self
    {
        .bxgy(BuyXGetY(buy: buy, get: get, reward: reward, limit: limit))
    }
}

extension PromotionType {
    public static let bxgy = PromotionType(BuyXGetY.self)
}
