import PlistReader

extension Diagnostic {
    /// `products` or `targets` (`key`) whose selectors select no product of the catalog.
    static func selectsNothing(_ key: String, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(
            .selectsNothing,
            "`\(key)` selects no product of the catalog: the promotion can never apply; check its categories, brands, tags and exclusions",
            at: location, promotion: promotion)
    }
}
