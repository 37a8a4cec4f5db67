/// `combo`: of every `groupSize` units of a line, only `paid` are charged ("3 for 2").
///
/// Discount on q free units at U: ⌊q / N⌋ × (N − M) × U.
public struct Combo: LinePromotionKind {
    public var groupSize: Int64
    public var paid: Int64

    public init(groupSize: Int64, paid: Int64) {
        self.groupSize = groupSize
        self.paid = paid
    }

    public static let type = "combo"
    public static let scope = PromotionScope.line
    public static let label = "combo"
    public static let keys: Set<PromotionKey> = [.code, .codes, .products, .quantity, .paid]

    public var rule: Promotion.Rule { .combo(self) }

    @inlinable
    public static func decode(_ fields: inout some PromotionFields) -> Combo? {
        let n = fields.requiredInteger(.quantity, needed: "a combo needs `quantity`, the group size N ≥ 2")
        let m = fields.requiredInteger(
            .paid, needed: "a combo needs `paid`, the units paid per group (0 ≤ paid < quantity)")
        if let n, n < 2 {
            fields.reject(.quantity, "`quantity` of a combo is the group size and must be at least 2, not \(n)")
        }
        if let n, let m, n >= 2, !(0..<n).contains(m) {
            fields.reject(.paid, "`paid` must be from 0 to \(n - 1) (less than `quantity`, \(n)), not \(m)")
        }
        guard let n, let m else { return nil }
        return Combo(groupSize: n, paid: m)
    }

    @inline(__always)
    public func discount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        // The guards keep a definition that skipped validation from trapping or raising a price.
        guard groupSize > paid, paid >= 0 else { return 0 }
        return (q / groupSize) * (groupSize - paid) * u
    }

    /// ⌊q / N⌋ × (N − M) × u; a definition the engine prices at zero has no terms.
    public var shadowShape: ShadowShape {
        var shape = ShadowShape()
        guard groupSize > paid, paid >= 0 else { return shape }
        shape.groupSize = groupSize
        shape.freeUnits = groupSize - paid
        return shape
    }

    public func words(_ context: PromotionKindWords) -> String {
        "\(groupSize) for \(paid)"
    }

    public var missingUnits: MissingUnitsRule { .firstApplication(atMost: nil) }

    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
        freeProductFindings(context)
    }
}

extension Promotion.Rule {
    public static func combo(groupSize: Int64, paid: Int64) -> Self { .combo(Combo(groupSize: groupSize, paid: paid)) }
}

extension PromotionType {
    public static let combo = PromotionType(Combo.self)
}

/// Kinds whose discount is a share of the list price (or, for a cart promotion on part of the
/// cart, at most what its products cost): a free product can never get one.
func freeProductFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
    context.products.indices.compactMap { index in
        let product = context.products[index]
        guard product.price == 0 else { return nil }
        return NoDiscountFinding(
            context.dearestOfSeveral
                ? "every product it selects is free (list price \(context.money(0)))"
                : "`\(product.code)` is free (list price \(context.money(0)))", at: .product(index))
    }
}
