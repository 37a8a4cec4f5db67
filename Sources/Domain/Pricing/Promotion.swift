/// A valid promotion definition (docs/promotions-file.md): what it does (its ``Rule``, a kind and
/// its parameters), which products it targets, and when it applies.
public struct Promotion: Sendable, Equatable {
    public var id: String
    public var name: String
    public var rule: Rule
    /// Target product codes; empty for cart promotions.
    public var codes: [String]
    /// The codes of the rewarded units, for kinds that reward other products than the ones bought
    /// (a buy-X-get-Y's `targets`); nil: its own `codes`.
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

    /// `start ≤ instant < end`, a missing bound being open.
    public func isActive(at instant: Instant) -> Bool {
        (start.map { $0 <= instant } ?? true) && (end.map { instant < $0 } ?? true)
    }
}
