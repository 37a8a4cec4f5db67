/// `bulk`: from `threshold` units of a line on, every unit costs `unitPrice` ("3 or more: 19.00 € each").
///
/// Discount on q free units at U: q × (U − P) when q ≥ T and P < U, else none.
public struct Bulk: LinePromotionKind {
    public var threshold: Int64
    public var unitPrice: Int64

    public init(threshold: Int64, unitPrice: Int64) {
        self.threshold = threshold
        self.unitPrice = unitPrice
    }

    public static let type = "bulk"
    public static let scope = PromotionScope.line
    public static let label = "bulk price"
    public static let keys: Set<PromotionKey> = [.code, .codes, .products, .quantity, .price]

    public var rule: Promotion.Rule { .bulk(self) }

    @inlinable
    public static func decode(_ fields: inout some PromotionFields) -> Bulk? {
        let t = fields.requiredInteger(.quantity, needed: "a bulk promotion needs `quantity`, the threshold (≥ 1)")
        if let t, t < 1 { fields.reject(.quantity, "`quantity` must be at least 1, not \(t)") }
        let p = fields.requiredMoney(
            .price, minimum: 0, needed: "a bulk promotion needs `price`, the unit price from the threshold on")
        guard let t, let p else { return nil }
        return Bulk(threshold: t, unitPrice: p)
    }

    @inline(__always)
    public func discount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        q >= threshold && unitPrice >= 0 && unitPrice < u ? q * (u - unitPrice) : 0
    }

    /// From the threshold on, a saving per unit of u − P.
    public var shadowShape: ShadowShape {
        var shape = ShadowShape()
        guard unitPrice >= 0 else { return shape }
        shape.minimumQuantity = threshold
        shape.savesPerUnit = true
        shape.lowestUnitPrice = unitPrice
        shape.offEachUnit = .max
        return shape
    }

    public func words(_ context: PromotionKindWords) -> String {
        let money = context.money
        return "\(threshold) or more: \(money.format(unitPrice)) each"
    }

    public var missingUnits: MissingUnitsRule { .firstApplication(atMost: nil) }

    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
        context.products.filter { unitPrice >= $0.price }.map { product in
            let price = context.money(product.price)
            return NoDiscountFinding(
                context.dearestOfSeveral
                    ? "bulk price \(context.money(unitPrice)) is not below the list price of any product it selects (the dearest, `\(product.code)`, is \(price))"
                    : "bulk price \(context.money(unitPrice)) is not below the list price of `\(product.code)` (\(price))",
                at: .key(.price))
        }
    }
}

extension Promotion.Rule {
    public static func bulk(threshold: Int64, unitPrice: Int64) -> Self {
        .bulk(Bulk(threshold: threshold, unitPrice: unitPrice))
    }
}

extension PromotionType {
    public static let bulk = PromotionType(Bulk.self)
}
