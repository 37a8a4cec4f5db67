/// The priced cart (SPEC §7): every line, the promotion applied to it and what it saved, the cart
/// promotion and its allocation to lines, and the totals. Amounts are minor units of `currency`.
public struct Receipt: Sendable, Equatable {
    public var currency: Currency
    /// The instant the cart was priced at.
    public var at: Instant
    public var lines: [Line]
    public var cartPromotion: AppliedPromotion?
    /// Σ line subtotals (quantity × list price).
    public var subtotal: Int64
    /// Σ item promotion discounts.
    public var itemDiscount: Int64
    public var cartDiscount: Int64
    /// Notes for the shopper, such as a coupon that matched nothing.
    public var warnings: [String]

    /// Everything saved: item and cart discounts.
    public var discount: Int64 { itemDiscount + cartDiscount }
    /// What the shopper pays.
    public var total: Int64 { subtotal - discount }

    public struct Line: Sendable, Equatable {
        public var product: ProductID
        public var code: String
        public var name: String
        public var quantity: Int64
        public var unitPrice: Int64
        /// quantity × unit price.
        public var subtotal: Int64
        /// The item promotion applied to this line, if any.
        public var promotion: AppliedPromotion?
        /// This line's share of the cart discount.
        public var cartDiscount: Int64

        public var itemDiscount: Int64 { promotion?.discount ?? 0 }
        /// Item discount plus the share of the cart discount.
        public var discount: Int64 { itemDiscount + cartDiscount }
        public var total: Int64 { subtotal - discount }
    }
}

/// A promotion that lowered a price, and by how much.
public struct AppliedPromotion: Sendable, Equatable {
    public var id: String
    public var name: String
    /// `combo`, `bulk`, `percent`, `amount` or `cart`.
    public var type: String
    public var discount: Int64
    /// The promotion's position in its rule set, when it came from one.
    public var ruleIndex: Int?

    public init(id: String, name: String, type: String, discount: Int64, ruleIndex: Int? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.discount = discount
        self.ruleIndex = ruleIndex
    }

    init(_ promotion: Promotion, discount: Int64, ruleIndex: Int) {
        self.init(id: promotion.id, name: promotion.name, type: promotion.rule.type, discount: discount, ruleIndex: ruleIndex)
    }

    /// Equal when they say the same: which rule set position they came from does not matter.
    public static func == (a: AppliedPromotion, b: AppliedPromotion) -> Bool {
        a.id == b.id && a.name == b.name && a.type == b.type && a.discount == b.discount
    }
}
