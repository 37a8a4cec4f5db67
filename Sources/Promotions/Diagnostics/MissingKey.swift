import PlistReader

extension DiagnosticRule {
    /// A required key is absent. Reported at the `<dict>` that lacks it.
    public static let missingKey = DiagnosticRule("promotion.missing-key", .error, "A required key is missing.")
}

extension Diagnostic {
    static func missingKey(_ what: String, needed: String, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.missingKey, "missing \(what): \(needed)", at: location, promotion: promotion)
    }
}
