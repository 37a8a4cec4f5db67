import PlistReader

extension Diagnostic {
    static func xmlMalformed(_ issue: PlistIssue) -> Diagnostic {
        Diagnostic(.xmlMalformed, "malformed XML: \(issue.message)", at: issue.location)
    }
}
