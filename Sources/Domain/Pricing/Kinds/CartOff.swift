/// `cart`: when the cart's total after item promotions reaches `minimum`, a percentage (at most
/// `cap`) or an amount off it ("10% off the cart from 50.00 €"). Uses no units.
///
/// Discount on a total S ≥ minimum: min(round(S × p / 100), cap), or min(A, S).
public struct CartOff: PromotionKind {
    public enum Offer: Sendable, Equatable {
        /// Hundredths of a percent, at most `cap`.
        case percent(Int64, cap: Int64?)
        case amount(Int64)
    }

    public var minimum: Int64
    public var offer: Offer

    public init(minimum: Int64, offer: Offer) {
        self.minimum = minimum
        self.offer = offer
    }

    public static let type = "cart"
    public static let scope = PromotionScope.cart
    public static let label = "cart"
    public static let keys: Set<PromotionKey> = [.percent, .amount, .minimum, .cap, .products]

    public var rule: Promotion.Rule { .cart(self) }

    @inlinable
    public static func decode(_ fields: inout some PromotionFields) -> CartOff? {
        let minimum = fields.has(.minimum) ? fields.money(.minimum, minimum: 0, positive: false) : 0
        switch (fields.has(.percent), fields.has(.amount)) {
        case (false, false):
            fields.missing(
                "key `percent` or `amount`",
                needed: "a cart promotion takes either a percentage or an amount off the cart")
            return nil
        case (true, true):
            fields.reject(
                fields.order(of: .percent)! > fields.order(of: .amount)! ? .percent : .amount,
                "a cart promotion takes `percent` or `amount`, not both; remove one")
            return nil
        case (true, false):
            let p = fields.percentage()
            let cap = fields.optionalCap()
            guard let p, let minimum, let cap else { return nil }
            return CartOff(minimum: minimum, offer: .percent(p, cap: cap))
        case (false, true):
            if fields.has(.cap) {
                fields.reject(
                    .cap, "`cap` bounds a percentage; a cart promotion with `amount` cannot take it; remove it")
            }
            guard let a = fields.money(.amount, minimum: nil, positive: true), let minimum else { return nil }
            return CartOff(minimum: minimum, offer: .amount(a))
        }
    }

    /// The discount on a cart whose total after item promotions is `s`: none below the minimum.
    @inline(__always)
    public func discount(subtotal s: Int64) -> Int64 {
        guard s >= minimum else { return 0 }
        switch offer {
        case .percent(let p, let cap):
            guard p > 0, p <= 10_000 else { return 0 }
            return min(percentage(s, p), max(0, cap ?? .max))
        case .amount(let a): return max(0, min(a, s))
        }
    }

    /// For an index of cart promotions ranked by what they give: uncapped percentages (family 0)
    /// and amounts (family 1) each grow with their value, so that a cart meets the best one first
    /// (the index skips those whose `minimum` a total does not reach); nil for a capped percentage,
    /// whose discount stops growing.
    var ranking: (family: Int, value: Int64)? {
        switch offer {
        case .percent(let p, nil): (0, p)
        case .percent: nil
        case .amount(let a): (1, a)
        }
    }

    /// "10% off the cart from 50.00 €"; on part of the cart, its minimum is of that part's total:
    /// "10% off products not tagged sale, when they come to 50.00 € or more".
    public func words(_ context: PromotionKindWords) -> String {
        let money = context.money
        let what = context.part.map { "off \($0)" } ?? "off the cart"
        var from = ""
        if minimum > 0 {
            from =
                context.part == nil
                ? " from \(money.format(minimum))" : ", when they come to \(money.format(minimum)) or more"
        }
        switch offer {
        case .percent(let p, let cap):
            return "\(percentWords(p)) \(what)" + from + (cap.map { ", at most \(money.format($0))" } ?? "")
        case .amount(let a):
            return "\(money.format(a)) \(what)" + from
        }
    }

    public var missingUnits: MissingUnitsRule { .spend }

    /// On part of the cart (`products`): the part's total is what its products cost, so when every
    /// product it selects is free it is 0 and there is nothing to take a discount off.
    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
        context.selected == nil ? [] : freeProductFindings(context)
    }
}

extension Promotion.Rule {
    public static func cartPercent(minimum: Int64, hundredths: Int64, cap: Int64? = nil) -> Self {
        .cart(CartOff(minimum: minimum, offer: .percent(hundredths, cap: cap)))
    }

    public static func cartAmount(minimum: Int64, amountOff: Int64) -> Self {
        .cart(CartOff(minimum: minimum, offer: .amount(amountOff)))
    }
}

extension PromotionType {
    public static let cart = PromotionType(CartOff.self)
}
