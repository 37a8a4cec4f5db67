import PlistReader

extension Diagnostic {
    static func unknownCode(_ code: String, suggestion: String?, at location: SourceLocation, promotion: String?)
        -> Diagnostic
    {
        let hint = suggestion.map { "; did you mean `\($0)`?" } ?? ""
        return Diagnostic(
            .unknownCode, "unknown product code `\(code.escapedForDisplay)`: the catalog has no such product\(hint)",
            at: location, promotion: promotion)
    }
}
