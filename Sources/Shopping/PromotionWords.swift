import Pricing

/// Promotions in the shoppers' words: "2 for 1", "3 or more: 19.00 € each", "12.5% off". A
/// promotion's coupon is never shown (coupons can be secret): "with a coupon".
public enum PromotionWords {
    /// `code`: the product the words are shown with; a buy-X-get-Y's reward product reads as the
    /// reward ("1 free with every 1 TSHIRT bought"), not as the offer on its triggers.
    public static func describe(_ promotion: Promotion, currency: Currency, for code: String? = nil) -> String {
        let money = MoneyStyle(currency: currency)
        var words: String
        switch promotion.rule {
        case .combo(let n, let m): words = "\(n) for \(m)"
        case .bulk(let t, let p): words = "\(t) or more: \(money.format(p)) each"
        case .percent(let t, let p, let cap):
            words =
                "\(percent(p)) off" + (t > 1 ? " from \(t)" : "") + (cap.map { ", at most \(money.format($0))" } ?? "")
        case .amount(let t, let a): words = "\(money.format(a)) off each" + (t > 1 ? " from \(t)" : "")
        case .bundle(let n, let offer, let limit):
            switch offer {
            case .price(let p): words = "any \(n) for \(money.format(p))"
            case .percent(let p): words = "any \(n): \(percent(p)) off"
            case .amount(let a): words = "any \(n): \(money.format(a)) off"
            }
            words += times(limit)
        case .bxgy(let n, let m, let reward, let limit):
            let rewarded = promotion.targets.map { " " + $0.joined(separator: "/") } ?? ""
            let isReward = code.map { promotion.targets?.contains($0) == true } ?? false
            let bought = " with every \(n) " + promotion.codes.joined(separator: "/") + " bought"
            switch reward {
            case .percent(10_000): words = isReward ? "\(m) free" + bought : "buy \(n), get \(m)\(rewarded) free"
            case .percent(let p):
                words =
                    isReward ? "\(m) at \(percent(p)) off" + bought : "buy \(n), get \(m)\(rewarded) \(percent(p)) off"
            case .price(let p):
                words =
                    isReward
                    ? "\(m) at \(money.format(p)) each" + bought
                    : "buy \(n), get \(m)\(rewarded) for \(money.format(p)) each"
            }
            words += times(limit)
        case .cartPercent(let minimum, let p, let cap):
            words =
                "\(percent(p)) off the cart" + (minimum > 0 ? " from \(money.format(minimum))" : "")
                + (cap.map { ", at most \(money.format($0))" } ?? "")
        case .cartAmount(let minimum, let a):
            words = "\(money.format(a)) off the cart" + (minimum > 0 ? " from \(money.format(minimum))" : "")
        }
        if promotion.coupon != nil { words += " with a coupon" }
        return words
    }

    /// ", at most twice per order".
    static func times(_ limit: Int64?) -> String {
        switch limit {
        case nil: ""
        case 1?: ", once per order"
        case 2?: ", at most twice per order"
        case let n?: ", at most \(n) times per order"
        }
    }

    /// 1250 hundredths → "12.5%".
    static func percent(_ hundredths: Int64) -> String {
        var text = Amount.format(hundredths, minorDigits: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
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
