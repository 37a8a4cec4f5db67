/// A note for the shopper on a receipt. Kept as what happened, not as text, so that pricing a cart
/// builds no string for it; ``description`` is the text receipts show.
public enum ReceiptWarning: Sendable, Equatable, CustomStringConvertible {
    /// A coupon the cart presented (as spelled there) that no active promotion carries.
    case unmatchedCoupon(String)
    /// A coupon whose promotions the cart could have had, but whose usage limits are reached.
    case couponLimitReached(String)

    public var description: String {
        switch self {
        case .unmatchedCoupon(let coupon): Self.unmatchedCouponText.before + coupon + Self.unmatchedCouponText.after
        case .couponLimitReached(let coupon): "coupon \"" + coupon + "\" has reached its usage limit"
        }
    }

    /// The fixed text around an unmatched coupon: writers escape it once and write a warning
    /// without building its text.
    public static let unmatchedCouponText = (before: "coupon \"", after: "\" matches no active promotion")
}
