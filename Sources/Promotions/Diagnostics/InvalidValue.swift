import PlistReader

extension DiagnosticRule {
    /// A value of the wrong plist type, out of range, not exact (money not a whole number of minor
    /// units, a percentage not a multiple of 0.01), or a key the promotion's type forbids.
    public static let invalidValue = DiagnosticRule("promotion.invalid-value", .error, "A value has the wrong type, is out of range, or is not allowed here.")
}

extension Diagnostic {
    static func invalidValue(_ message: String, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.invalidValue, message, at: location, promotion: promotion)
    }
}
