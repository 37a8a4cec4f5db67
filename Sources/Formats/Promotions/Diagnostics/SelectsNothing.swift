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

extension Diagnostic {
    /// A `bxgy`'s `targets` that select products, but only products its `products` (or codes)
    /// name too: such a product counts as one it buys, never as a reward, so it rewards nothing.
    static func targetsOnlyOwnProducts(at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(
            .selectsNothing,
            "`targets` selects only products the promotion buys, and a product it buys is never its reward: the promotion can never apply; target other products",
            at: location, promotion: promotion)
    }
}
