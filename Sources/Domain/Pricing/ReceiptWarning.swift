/// A note for the shopper on a receipt. Kept as what happened, not as text, so that pricing a cart
/// builds no string for it; ``description`` is the text receipts show.
public enum ReceiptWarning: Sendable, Equatable, CustomStringConvertible {
    /// A coupon the cart presented (as spelled there) that no active promotion carries.
    case unmatchedCoupon(String)

    public var description: String {
        switch self {
        case .unmatchedCoupon(let coupon): Self.unmatchedCouponText.before + coupon + Self.unmatchedCouponText.after
        }
    }

    /// The fixed text around an unmatched coupon: writers escape it once and write a warning
    /// without building its text.
    public static let unmatchedCouponText = (before: "coupon \"", after: "\" matches no active promotion")
}
