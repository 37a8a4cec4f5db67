import PlistReader

extension DiagnosticRule {
    /// A target product code is not in the catalog (checked with `--catalog`). Pricing ignores it.
    public static let unknownCode = DiagnosticRule("promotion.unknown-code", .error, "A product code is not in the catalog.")
}

extension Diagnostic {
    static func unknownCode(_ code: String, suggestions: [String], at location: SourceLocation, promotion: String?) -> Diagnostic {
        let hint = closestMatch(to: code, in: suggestions).map { "; did you mean `\($0)`?" } ?? ""
        return Diagnostic(.unknownCode, "unknown product code `\(code.escapedForDisplay)`: the catalog has no such product\(hint)", at: location, promotion: promotion)
    }
}
