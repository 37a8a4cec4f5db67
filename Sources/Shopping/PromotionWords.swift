import Pricing

/// Promotions in the shoppers' words: "2 for 1", "3 or more: 19.00 € each", "12.5% off".
public enum PromotionWords {
    public static func describe(_ promotion: Promotion, currency: Currency) -> String {
        var words = promotion.rule.kind.words(money: MoneyStyle(currency: currency), rewards: promotion.targets)
        if let coupon = promotion.coupon { words += " with coupon \(coupon)" }
        return words
    }

    /// The promotions that can apply to `code` at `instant`, in file order.
    public static func active(for code: String, in rules: RuleSet, at instant: Instant) -> [Promotion] {
        rules.promotions.filter {
            $0.isEnabled && $0.isActive(at: instant) && !$0.rule.isCartRule
                && ($0.codes.contains(code) || $0.targets?.contains(code) == true)
        }
    }

    /// The cart promotions that can apply at `instant`.
    public static func activeCartPromotions(in rules: RuleSet, at instant: Instant) -> [Promotion] {
        rules.promotions.filter { $0.isEnabled && $0.isActive(at: instant) && $0.rule.isCartRule }
    }
}
