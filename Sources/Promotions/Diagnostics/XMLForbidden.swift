import PlistReader

extension DiagnosticRule {
    /// DTD and entity tricks (entity declarations, external DTDs, undeclared entities) and input beyond
    /// the reader's limits. Reading stops there; nothing is ever loaded from outside the file.
    public static let xmlForbidden = DiagnosticRule(
        "xml.forbidden", .error, "The file uses an XML construct a promotions file may not (DTD, entities) or exceeds a limit.")
}

extension Diagnostic {
    static func xmlForbidden(_ issue: PlistIssue) -> Diagnostic {
        Diagnostic(.xmlForbidden, "forbidden XML: \(issue.message)", at: issue.location)
    }
}
