import PlistReader

extension Diagnostic {
    /// A selector's category, brand or tag (`what`) that no product of the catalog has; with the
    /// catalog's closest value when one is close enough to be a typo.
    static func unknownAttribute(
        _ what: String, _ value: String, suggestion: String?, at location: SourceLocation, promotion: String?
    ) -> Diagnostic {
        let hint = suggestion.map { "; did you mean \"\($0.escapedForDisplay)\"?" } ?? ""
        return Diagnostic(
            .unknownAttribute,
            "no product of the catalog has the \(what) \"\(value.escapedForDisplay)\": it selects nothing\(hint)",
            at: location, promotion: promotion)
    }
}
