import PlistReader

extension DiagnosticRule {
    /// The file is not well-formed XML. Reading stops there; line and column are libxml2's.
    public static let xmlMalformed = DiagnosticRule("xml.malformed", .error, "The file is not well-formed XML.")
}

extension Diagnostic {
    static func xmlMalformed(_ issue: PlistIssue) -> Diagnostic {
        Diagnostic(.xmlMalformed, "malformed XML: \(issue.message)", at: issue.location)
    }
}
