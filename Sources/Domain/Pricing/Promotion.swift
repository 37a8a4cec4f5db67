/// A valid promotion definition (docs/promotions-file.md): what it does (its ``Rule``, a kind and
/// its parameters), which products it targets, and when it applies.
public struct Promotion: Sendable, Equatable {
    public var id: String
    public var name: String
    public var rule: Rule
    /// Target product codes (`code`/`codes`); empty for cart promotions and promotions that name
    /// their products with selectors.
    public var codes: [String]
    /// The codes of the rewarded units, for kinds that reward other products than the ones bought
    /// (a buy-X-get-Y's `targets`); nil: its own products, or selectors in ``targetSelectors``.
    public var targets: [String]?
    /// `products`: the promotion's products by selectors instead of `codes`; for a cart
    /// promotion, the lines it works on (docs/selectors.md). Nil: `codes`, or every line of a cart.
    public var productSelectors: [ProductSelector]?
    /// `targets` given as selectors.
    public var targetSelectors: [ProductSelector]?
    /// `customer_groups`: a candidate only for a cart whose customer has one of them.
    public var customerGroups: [String]?
    /// `uses`: at most this many orders may redeem it, all customers together (docs/store.md).
    public var uses: Int64?
    /// `uses_per_customer`: at most this many orders of one customer id; a cart without one is not eligible.
    public var usesPerCustomer: Int64?
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
        end: Instant? = nil, priority: Int64 = 0, isEnabled: Bool = true, coupon: String? = nil,
        productSelectors: [ProductSelector]? = nil, targetSelectors: [ProductSelector]? = nil,
        customerGroups: [String]? = nil, uses: Int64? = nil, usesPerCustomer: Int64? = nil
    ) {
        self.productSelectors = productSelectors
        self.targetSelectors = targetSelectors
        self.customerGroups = customerGroups
        self.uses = uses
        self.usesPerCustomer = usesPerCustomer
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

    /// Its products, as it names them.
    public var products: ProductChoice { productSelectors.map(ProductChoice.selectors) ?? .codes(codes) }

    /// Its rewarded products when it names them apart: codes or selectors.
    public var rewards: ProductChoice? {
        targetSelectors.map(ProductChoice.selectors) ?? targets.map(ProductChoice.codes)
    }

    /// Whether it can run out (`uses`, `uses_per_customer`): such a promotion never shadows another.
    public var isLimited: Bool { uses != nil || usesPerCustomer != nil }

    /// `start ≤ instant < end`, a missing bound being open.
    public func isActive(at instant: Instant) -> Bool {
        (start.map { $0 <= instant } ?? true) && (end.map { instant < $0 } ?? true)
    }
}
