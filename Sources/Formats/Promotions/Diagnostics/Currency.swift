import PlistReader

extension Diagnostic {
    static func currencyMismatch(file: String, catalog: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .currency,
            "the promotions are in \(file) but the catalog is in \(catalog); use the catalog's currency or remove `currency`",
            at: location)
    }

    static func invalidCurrency(_ text: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(
            .currency,
            "`currency` must be an ISO 4217 code of three upper-case letters such as EUR, not \"\(text.escapedForDisplay)\"",
            at: location)
    }
}
