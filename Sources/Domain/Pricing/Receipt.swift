/// The priced cart (docs/receipts.md, docs/receipts.md#lines, docs/files.md#cart-ids): every line, the promotions that used its units and what
/// each saved, the cart promotion and its allocation to lines, and the totals. Amounts are minor
/// units of `currency`.
public struct Receipt: Sendable, Equatable {
    /// The cart's own id, echoed so that receipts can be joined back to orders.
    public var id: CartID?
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
    public var warnings: [ReceiptWarning]
    /// The taxes per rate when the catalog has taxes (docs/taxes.md), else nil.
    public var taxes: ReceiptTaxes?

    public init(
        id: CartID? = nil, currency: Currency, at: Instant, lines: [Line], cartPromotion: AppliedPromotion?,
        subtotal: Int64, itemDiscount: Int64, cartDiscount: Int64, warnings: [ReceiptWarning],
        taxes: ReceiptTaxes? = nil
    ) {
        self.id = id
        self.currency = currency
        self.at = at
        self.lines = lines
        self.cartPromotion = cartPromotion
        self.subtotal = subtotal
        self.itemDiscount = itemDiscount
        self.cartDiscount = cartDiscount
        self.warnings = warnings
        self.taxes = taxes
    }

    /// Everything saved: item and cart discounts.
    public var discount: Int64 { itemDiscount + cartDiscount }
    /// Σ the lines' totals: subtotal − discount, in the catalog's price basis.
    public var linesTotal: Int64 { subtotal - discount }
    /// What the shopper pays: Σ the lines' totals, plus the tax when prices exclude it.
    public var total: Int64 {
        guard case .some(let taxes) = taxes, !taxes.pricesIncludeTax else { return subtotal - discount }
        return subtotal - discount + taxes.tax
    }
    /// Σ the taxes, 0 without taxes.
    public var tax: Int64 { taxes?.tax ?? 0 }

    public struct Line: Sendable, Equatable {
        public var product: ProductID
        public var code: String
        public var name: String
        public var quantity: Int64
        public var unitPrice: Int64
        /// quantity × unit price.
        public var subtotal: Int64
        /// The item promotions that used units of this line, in the order they were applied.
        public var promotions: LinePromotions
        /// This line's share of the cart discount.
        public var cartDiscount: Int64
        /// Its product's tax rate in hundredths of a percent, in a taxed catalog; nil otherwise.
        public var taxRate: Int64?

        public init(
            product: ProductID, code: String, name: String, quantity: Int64, unitPrice: Int64, subtotal: Int64,
            promotions: LinePromotions = LinePromotions(), cartDiscount: Int64 = 0, taxRate: Int64? = nil
        ) {
            self.product = product
            self.code = code
            self.name = name
            self.quantity = quantity
            self.unitPrice = unitPrice
            self.subtotal = subtotal
            self.promotions = promotions
            self.cartDiscount = cartDiscount
            self.taxRate = taxRate
        }

        /// The promotion shown for the line: the one that saved the most (ties: the one applied
        /// first), or nil when none saved anything.
        public var promotion: AppliedPromotion? { promotions.largest }
        /// Σ the discounts of its promotions.
        public var itemDiscount: Int64 { promotions.discount }
        /// Item discount plus the share of the cart discount.
        public var discount: Int64 { itemDiscount + cartDiscount }
        public var total: Int64 { subtotal - discount }
    }
}

/// A cart's id (docs/files.md#cart-ids): a string, or an integer literal kept as its digits.
public enum CartID: Sendable, Hashable {
    case string(String)
    /// The literal as written: an optional minus sign and digits.
    case integer(String)
}

/// The promotions of one line, in the order they were applied. Most lines have at most one, which
/// is held inline: pricing a line allocates nothing. Their sum and the largest are kept as they are
/// appended, so that writing a receipt reads them without copying any promotion.
public struct LinePromotions: RandomAccessCollection, Sendable, Equatable {
    @usableFromInline var head: AppliedPromotion?
    @usableFromInline var tail: [AppliedPromotion] = []
    /// Σ their discounts.
    public private(set) var discount: Int64 = 0
    /// The position of the one with the largest discount (ties: the first), or -1.
    @usableFromInline var largestPosition = -1

    public init() {}

    public init(_ promotions: [AppliedPromotion]) {
        for promotion in promotions { append(promotion) }
    }

    @inlinable public var startIndex: Int { 0 }
    // `head == nil` would compare two optionals of an Equatable type: a copy of the head (its
    // strings retained) and a generic destroy, for every read of the count. A pattern reads it in place.
    @inlinable public var endIndex: Int {
        if case .none = head { return 0 }
        return 1 + tail.count
    }

    @inlinable public subscript(position: Int) -> AppliedPromotion {
        position == 0 ? head! : tail[position - 1]
    }

    public mutating func append(_ promotion: AppliedPromotion) {
        let position = endIndex
        if case .none = head { head = promotion } else { tail.append(promotion) }
        discount += promotion.discount
        if largestPosition < 0 || promotion.discount > self.discount(at: largestPosition) { largestPosition = position }
    }

    /// The one with the largest non-zero discount; ties: the one applied first.
    public var largest: AppliedPromotion? {
        guard largestPosition >= 0, discount(at: largestPosition) > 0 else { return nil }
        return self[largestPosition]
    }

    /// The position of ``largest``, or nil.
    @inlinable public var largestIndex: Int? {
        largestPosition >= 0 && discount(at: largestPosition) > 0 ? largestPosition : nil
    }

    // Single fields, read in place (no promotion copied, no string retained).
    @inlinable public func discount(at position: Int) -> Int64 {
        position == 0 ? head.unsafelyUnwrapped.discount : tail[position - 1].discount
    }
    @inlinable public func units(at position: Int) -> Int64 {
        position == 0 ? head.unsafelyUnwrapped.units : tail[position - 1].units
    }
    @inlinable public func ruleIndex(at position: Int) -> Int? {
        position == 0 ? head.unsafelyUnwrapped.ruleIndex : tail[position - 1].ruleIndex
    }

    public static func == (a: LinePromotions, b: LinePromotions) -> Bool { a.elementsEqual(b) }
}

/// A promotion that used units of a line (or, for a cart promotion, lowered the cart's total), and
/// what it saved there.
public struct AppliedPromotion: Sendable, Equatable {
    public var id: String
    public var name: String
    public var type: PromotionType
    /// The part of the promotion's discount attributed to this line (for a cart promotion: all of it).
    public var discount: Int64
    /// How many of the line's units the promotion used; 0 for a cart promotion.
    public var units: Int64
    /// The promotion's position in its rule set, when it came from one.
    public var ruleIndex: Int?

    public init(id: String, name: String, type: PromotionType, discount: Int64, units: Int64 = 0, ruleIndex: Int? = nil)
    {
        self.id = id
        self.name = name
        self.type = type
        self.discount = discount
        self.units = units
        self.ruleIndex = ruleIndex
    }

    /// Promotion `index` of `rules`, its fields read in place (no promotion is copied for every
    /// line priced).
    init(_ rules: RuleSet, _ index: Int, discount: Int64, units: Int64, ruleIndex: Int) {
        self.init(
            id: rules.promotions[index].id, name: rules.promotions[index].name, type: rules.compiled[index].type,
            discount: discount, units: units, ruleIndex: ruleIndex)
    }

    /// Equal when they say the same: which rule set position they came from does not matter.
    public static func == (a: AppliedPromotion, b: AppliedPromotion) -> Bool {
        a.id == b.id && a.name == b.name && a.type == b.type && a.discount == b.discount && a.units == b.units
    }
}
