/// A valid promotion definition (SPEC §4, §10): what it does, which products it targets, and when it applies.
public struct Promotion: Sendable, Equatable {
    /// What the promotion does. Amounts are minor units; percentages are in hundredths of a percent
    /// (12.5 % is 1250), so that every computation stays in integers.
    public enum Rule: Sendable, Equatable {
        /// Of every `groupSize` units, only `paid` are charged.
        case combo(groupSize: Int64, paid: Int64)
        /// From `threshold` units on, every unit costs `unitPrice`.
        case bulk(threshold: Int64, unitPrice: Int64)
        /// From `minimumQuantity` units on, the line is `hundredths`/10000 cheaper, by at most `cap`.
        case percent(minimumQuantity: Int64, hundredths: Int64, cap: Int64? = nil)
        /// From `minimumQuantity` units on, each unit is `amountOff` cheaper (never below zero).
        case amount(minimumQuantity: Int64, amountOff: Int64)
        /// Groups of `size` units of the target products, most expensive first, each priced by `offer`;
        /// at most `limit` groups per cart.
        case bundle(size: Int64, offer: GroupOffer, limit: Int64? = nil)
        /// For every `buy` units of the target products, `get` units of the rewarded products
        /// (``Promotion/rewardCodes``) at `reward`; at most `limit` times per cart.
        case bxgy(buy: Int64, get: Int64 = 1, reward: Reward = .percent(10_000), limit: Int64? = nil)
        /// When the cart's total reaches `minimum`, it is `hundredths`/10000 cheaper, by at most `cap`.
        case cartPercent(minimum: Int64, hundredths: Int64, cap: Int64? = nil)
        /// When the cart's total reaches `minimum`, it is `amountOff` cheaper (never below zero).
        case cartAmount(minimum: Int64, amountOff: Int64)

        /// The promotion type as written in files.
        public var type: PromotionType {
            switch self {
            case .combo: .combo
            case .bulk: .bulk
            case .percent: .percent
            case .amount: .amount
            case .bundle: .bundle
            case .bxgy: .bxgy
            case .cartPercent, .cartAmount: .cart
            }
        }

        public var isCartRule: Bool { type.scope == .cart }
    }

    /// What a bundle's group costs: a set `price`, or `percent` / `amount` off its list value.
    public enum GroupOffer: Sendable, Equatable {
        case price(Int64)
        /// Hundredths of a percent.
        case percent(Int64)
        case amount(Int64)
    }

    /// What a rewarded unit of a buy-X-get-Y costs: `percent` off (hundredths; 10000 = free) or a set `price`.
    public enum Reward: Sendable, Equatable {
        case percent(Int64)
        case price(Int64)
    }

    public var id: String
    public var name: String
    public var rule: Rule
    /// Target product codes; empty for cart promotions.
    public var codes: [String]
    /// `bxgy` only: the codes of the rewarded units, when they are not the target codes.
    public var targets: [String]?
    /// Active from this instant on (inclusive); nil: since always.
    public var start: Instant?
    /// Active until this instant (exclusive); nil: forever.
    public var end: Instant?
    /// Breaks ties between equal discounts: higher wins.
    public var priority: Int64
    public var isEnabled: Bool
    /// The coupon a cart must present for this promotion to apply (any letter case).
    public var coupon: String?

    public init(
        id: String, name: String, rule: Rule, codes: [String] = [], targets: [String]? = nil, start: Instant? = nil,
        end: Instant? = nil, priority: Int64 = 0, isEnabled: Bool = true, coupon: String? = nil
    ) {
        self.id = id
        self.name = name
        self.rule = rule
        self.codes = codes
        self.targets = targets
        self.start = start
        self.end = end
        self.priority = priority
        self.isEnabled = isEnabled
        self.coupon = coupon
    }

    /// The codes of the units a `bxgy` rewards: its `targets`, else its own codes.
    public var rewardCodes: [String] { targets ?? codes }

    /// `start ≤ instant < end`, a missing bound being open.
    public func isActive(at instant: Instant) -> Bool {
        (start.map { $0 <= instant } ?? true) && (end.map { instant < $0 } ?? true)
    }
}
