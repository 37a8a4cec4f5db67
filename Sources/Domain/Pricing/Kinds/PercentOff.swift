/// `percent`: from `minimumQuantity` units of a line on, the line is `hundredths` / 10,000 cheaper,
/// by at most `cap` ("12.5% off").
///
/// Discount on q free units at U: min(round(q × U × p / 100), cap) when q ≥ T.
public struct PercentOff: LinePromotionKind {
    public var minimumQuantity: Int64
    /// Hundredths of a percent: 12.5 % is 1250.
    public var hundredths: Int64
    public var cap: Int64?

    public init(minimumQuantity: Int64, hundredths: Int64, cap: Int64? = nil) {
        self.minimumQuantity = minimumQuantity
        self.hundredths = hundredths
        self.cap = cap
    }

    public static let type = "percent"
    public static let scope = PromotionScope.line
    public static let label = "percent off"
    public static let keys: Set<PromotionKey> = [.code, .codes, .products, .quantity, .percent, .cap]

    public var rule: Promotion.Rule { .percent(self) }

    @inlinable
    public static func decode(_ fields: inout some PromotionFields) -> PercentOff? {
        let t = fields.minimumQuantity()
        let p =
            fields.has(.percent)
            ? fields.percentage() : fields.missing(.percent, "a percent promotion needs `percent`, from 0.01 to 100")
        let cap = fields.optionalCap()
        guard let t, let p, let cap else { return nil }
        return PercentOff(minimumQuantity: t, hundredths: p, cap: cap)
    }

    @inline(__always)
    public func discount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        guard q >= minimumQuantity, hundredths > 0, hundredths <= 10_000 else { return 0 }
        return min(percentage(q * u, hundredths), max(0, cap ?? .max))
    }

    /// From the minimum quantity on, a share of the line, at most the cap.
    public var shadowShape: ShadowShape {
        var shape = ShadowShape()
        guard hundredths > 0, hundredths <= 10_000 else { return shape }
        shape.minimumQuantity = minimumQuantity
        shape.hundredths = hundredths
        if let cap {
            shape.cap = cap
            shape.hasCap = true
        }
        return shape
    }

    public func words(_ context: PromotionKindWords) -> String {
        let money = context.money
        return "\(percentWords(hundredths)) off" + (minimumQuantity > 1 ? " from \(minimumQuantity)" : "")
            + (cap.map { ", at most \(money.format($0))" } ?? "")
    }

    public var missingUnits: MissingUnitsRule { .firstApplication(atMost: nil) }

    public func noDiscountFindings(_ context: NoDiscountContext) -> [NoDiscountFinding] {
        freeProductFindings(context)
    }
}

extension Promotion.Rule {
    public static func percent(minimumQuantity: Int64, hundredths: Int64, cap: Int64? = nil) -> Self {
        .percent(PercentOff(minimumQuantity: minimumQuantity, hundredths: hundredths, cap: cap))
    }
}

extension PromotionType {
    public static let percent = PromotionType(PercentOff.self)
}
