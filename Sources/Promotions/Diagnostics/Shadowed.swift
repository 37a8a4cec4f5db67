import PlistReader

extension DiagnosticRule {
    /// With a catalog: a line promotion that another always beats, so that it can never apply.
    public static let shadowed = DiagnosticRule("promotion.shadowed", .warning, "Another promotion always beats this one: it can never apply.")
}

extension Diagnostic {
    static func shadowed(by other: String, otherLine: Int, at location: SourceLocation, promotion: String) -> Diagnostic {
        Diagnostic(.shadowed, "`\(other.escapedForDisplay)` (line \(otherLine)) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them",
                   at: location, promotion: promotion)
    }
}
