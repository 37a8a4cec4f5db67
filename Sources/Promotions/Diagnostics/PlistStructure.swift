import PlistReader

extension DiagnosticRule {
    /// Well-formed XML that is not the expected property list: unknown elements, keys without values,
    /// a root that is neither an array of promotions nor a dict holding one, a promotion that is not a dict.
    public static let plistStructure = DiagnosticRule(
        "plist.structure", .error, "The property list does not have the structure of a promotions file.")
}

extension Diagnostic {
    static func plistStructure(_ message: String, at location: SourceLocation, promotion: String? = nil) -> Diagnostic {
        Diagnostic(.plistStructure, message, at: location, promotion: promotion)
    }
}
