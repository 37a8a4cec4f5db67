/// A valid promotion definition (SPEC §4): what it does, which products it targets, and when it applies.
public struct Promotion: Sendable, Equatable {
    /// What the promotion does. Amounts are minor units; percentages are in hundredths of a percent
    /// (12.5 % is 1250), so that every computation stays in integers.
    public enum Rule: Sendable, Equatable {
        /// Of every `groupSize` units, only `paid` are charged.
        case combo(groupSize: Int64, paid: Int64)
        /// From `threshold` units on, every unit costs `unitPrice`.
        case bulk(threshold: Int64, unitPrice: Int64)
        /// From `minimumQuantity` units on, the line is `hundredths`/10000 cheaper.
        case percent(minimumQuantity: Int64, hundredths: Int64)
        /// From `minimumQuantity` units on, each unit is `amountOff` cheaper (never below zero).
        case amount(minimumQuantity: Int64, amountOff: Int64)
        /// When the cart's total reaches `minimum`, it is `hundredths`/10000 cheaper.
        case cartPercent(minimum: Int64, hundredths: Int64)
        /// When the cart's total reaches `minimum`, it is `amountOff` cheaper (never below zero).
        case cartAmount(minimum: Int64, amountOff: Int64)

        /// The promotion type as written in files: `combo`, `bulk`, `percent`, `amount` or `cart`.
        public var type: String {
            switch self {
            case .combo: "combo"
            case .bulk: "bulk"
            case .percent: "percent"
            case .amount: "amount"
            case .cartPercent, .cartAmount: "cart"
            }
        }

        public var isCartRule: Bool {
            switch self {
            case .cartPercent, .cartAmount: true
            default: false
            }
        }
    }

    public var id: String
    public var name: String
    public var rule: Rule
    /// Target product codes; empty for cart promotions.
    public var codes: [String]
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
        id: String, name: String, rule: Rule, codes: [String] = [], start: Instant? = nil, end: Instant? = nil,
        priority: Int64 = 0, isEnabled: Bool = true, coupon: String? = nil
    ) {
        self.id = id
        self.name = name
        self.rule = rule
        self.codes = codes
        self.start = start
        self.end = end
        self.priority = priority
        self.isEnabled = isEnabled
        self.coupon = coupon
    }

    /// `start ≤ instant < end`, a missing bound being open.
    public func isActive(at instant: Instant) -> Bool {
        (start.map { $0 <= instant } ?? true) && (end.map { instant < $0 } ?? true)
    }
}
