import PlistReader

extension Diagnostic {
    /// A selector's category, brand or tag (`what`) that no product of the catalog has; with the
    /// catalog's closest value when one is close enough to be a typo. Among an `exclude_` key's
    /// values (`excluding`), it leaves nothing out rather than selecting nothing.
    static func unknownAttribute(
        _ what: String, _ value: String, excluding: Bool = false, suggestion: String?, at location: SourceLocation,
        promotion: String?
    ) -> Diagnostic {
        let hint = suggestion.map { "; did you mean \"\($0.escapedForDisplay)\"?" } ?? ""
        let effect = excluding ? "it leaves nothing out" : "it selects nothing"
        return Diagnostic(
            .unknownAttribute,
            "no product of the catalog has the \(what) \"\(value.escapedForDisplay)\": \(effect)\(hint)",
            at: location, promotion: promotion)
    }
}
