/// `amount`: from `minimumQuantity` units of a line on, each unit is `amountOff` cheaper, never
/// below zero ("1.00 € off each").
///
/// Discount on q free units at U: q × min(A, U) when q ≥ T.
public struct AmountOff: LinePromotionKind {
    public var minimumQuantity: Int64
    public var amountOff: Int64

    public init(minimumQuantity: Int64, amountOff: Int64) {
        self.minimumQuantity = minimumQuantity
        self.amountOff = amountOff
    }

    public static let type = "amount"
    public static let scope = PromotionScope.line
    public static let label = "amount off"
    public static let keys: Set<PromotionKey> = [.code, .codes, .products, .quantity, .amount]

    public var rule: Promotion.Rule { .amount(self) }

    @inlinable
    public static func decode(_ fields: inout some PromotionFields) -> AmountOff? {
        let t = fields.minimumQuantity()
        let a = fields.requiredMoney(
            .amount, positive: true, needed: "an amount promotion needs `amount`, the amount off each unit")
        guard let t, let a else { return nil }
        return AmountOff(minimumQuantity: t, amountOff: a)
    }

    @inline(__always)
    public func discount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        q >= minimumQuantity && amountOff > 0 ? q * min(amountOff, u) : 0
    }

    /// From the minimum quantity on, a saving per unit of min(A, u).
    public var shadowShape: ShadowShape {
        var shape = ShadowShape()
        guard amountOff > 0 else { return shape }
        shape.minimumQuantity = minimumQuantity
        shape.savesPerUnit = true
        shape.offEachUnit = amountOff
        return shape
    }

    public func words(_ context: PromotionKindWords) -> String {
        let money = context.money
        return "\(money.format(amountOff)) off each" + (minimumQuantity > 1 ? " from \(minimumQuantity)" : "")
    }

    public var missingUnits: MissingUnitsRule { .firstApplication(atMost: nil) }

    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
        freeProductFindings(context)
    }
}

extension Promotion.Rule {
    public static func amount(minimumQuantity: Int64, amountOff: Int64) -> Self {
        .amount(AmountOff(minimumQuantity: minimumQuantity, amountOff: amountOff))
    }
}

extension PromotionType {
    public static let amount = PromotionType(AmountOff.self)
}
