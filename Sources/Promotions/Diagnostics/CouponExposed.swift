import PlistReader
import Pricing

extension Diagnostic {
    /// A promotion that needs a coupon, whose id or name contains that coupon: explanations and
    /// receipts show ids and names, and would give the coupon away. The message never repeats it.
    static func couponExposed(inID: Bool, inName: Bool, at location: SourceLocation, promotion: String?) -> Diagnostic {
        let what = inID && inName ? "id and name contain" : inID ? "id contains" : "name contains"
        return Diagnostic(
            .couponExposed,
            "the promotion's \(what) its coupon (in some letter case): receipts and explanations show them, so anyone would learn the coupon; choose words that do not contain it",
            at: location, promotion: promotion)
    }

    /// `promotion.coupon-exposed` for each coupon-gated promotion of `promotions` whose id or name
    /// contains its coupon, ignoring letter case; at the promotion's `<dict>` (`locations`, by id).
    static func couponsExposed(_ promotions: [Promotion], locations: [String: SourceLocation]) -> [Diagnostic] {
        promotions.compactMap { promotion in
            guard let coupon = promotion.coupon?.lowercased(), !coupon.isEmpty,
                let location = locations[promotion.id]
            else { return nil }
            let inID = promotion.id.lowercased().contains(coupon)
            let inName = promotion.name.lowercased().contains(coupon)
            guard inID || inName else { return nil }
            return .couponExposed(inID: inID, inName: inName, at: location, promotion: promotion.id)
        }
    }
}
