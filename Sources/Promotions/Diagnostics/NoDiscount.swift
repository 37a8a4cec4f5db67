import PlistReader

extension DiagnosticRule {
    /// The promotion can never lower the price of a product it targets: a bulk price at or above
    /// the list price, or any discount on a free product. A warning, per product.
    public static let noDiscount = DiagnosticRule("promotion.no-discount", .warning, "The promotion can never lower a price.")
}

extension Diagnostic {
    static func noDiscount(_ reason: String, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.noDiscount, "\(reason): the promotion never lowers its price", at: location, promotion: promotion)
    }
}
