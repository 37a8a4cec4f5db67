import PlistReader

extension DiagnosticRule {
    /// Two promotions share an id (an id defaults to the name). Reported at the later one.
    public static let duplicateID = DiagnosticRule("promotion.duplicate-id", .error, "Two promotions have the same id.")
}

extension Diagnostic {
    static func duplicateID(_ id: String, first: SourceLocation, at location: SourceLocation, defaulted: Bool) -> Diagnostic {
        let how = defaulted ? " (its id defaults to its name)" : ""
        return Diagnostic(.duplicateID, "duplicate promotion id `\(id.escapedForDisplay)`\(how): the promotion at line \(first.line) already uses it; give each promotion a unique `id`",
                          at: location, promotion: id)
    }
}
