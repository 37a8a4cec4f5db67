import PlistReader

extension DiagnosticRule {
    /// A key appears twice in one `<dict>`. Reported at the repeated `<key>`; the first one counts.
    public static let duplicateKey = DiagnosticRule("promotion.duplicate-key", .error, "A key appears twice in one dict.")
}

extension Diagnostic {
    static func duplicateKey(_ key: String, first: SourceLocation, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.duplicateKey, "key `\(key.escapedForDisplay)` appears twice (first at line \(first.line)); keep only one", at: location, promotion: promotion)
    }
}
