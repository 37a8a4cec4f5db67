import Pricing

/// Why a promotion did or did not apply to a cart (docs/explanations.md), and what would make it apply.
public struct Explanation: Sendable, Equatable {
    /// The first of these that holds, in this order.
    public enum Status: String, Sendable, CaseIterable {
        /// `enabled` is false.
        case disabled
        /// The instant is before `start`.
        case notStarted = "not-started"
        /// The instant is at or after `end`.
        case ended
        /// The cart does not present its coupon.
        case needsCoupon = "needs-coupon"
        /// The cart's customer does not have one of its `customer_groups`, or it has
        /// `uses_per_customer` and the cart has no customer id.
        case notEligible = "not-eligible"
        /// Its usage limit (`uses`, or `uses_per_customer` for the cart's customer) is reached.
        case exhausted
        case applied
        /// It could have applied on the cart as it was, but others took the units it needed (or,
        /// for a cart promotion, another gave more).
        case outranked
        /// More units of one of its products, or more spend, would make it apply.
        case belowThreshold = "below-threshold"
        /// Nothing about this cart lets it lower a price.
        case noDiscount = "no-discount"
    }

    /// What is missing for a promotion below its threshold.
    public enum Missing: Sendable, Equatable {
        /// That many more units of the product with this code.
        case units(code: String, units: Int64)
        /// That much more spend, in minor units.
        case amount(Int64)
    }

    /// The promotion's position in its file.
    public var promotion: Int
    public var id: String
    public var name: String
    public var type: PromotionType
    public var status: Status
    /// not-started: when it starts.
    public var start: Instant?
    /// ended: when it ended.
    public var end: Instant?
    /// applied: its whole discount in this cart.
    public var discount: Int64?
    /// outranked: the id of the promotion that took its place.
    public var by: String?
    /// below-threshold: what would make it apply.
    public var missing: Missing?

    init(_ promotion: Promotion, at index: Int, status: Status) {
        self.promotion = index
        id = promotion.id
        name = promotion.name
        type = promotion.rule.type
        self.status = status
    }
}

/// A near miss worth telling the shopper: adding `units` of `code` makes a promotion apply, saving
/// `saving` (minor units) as the cart would then be priced.
public struct Hint: Sendable, Equatable {
    /// The promotion's position in its file.
    public var promotion: Int
    public var promotionName: String
    public var code: String
    public var productName: String
    public var units: Int64
    public var saving: Int64
}
