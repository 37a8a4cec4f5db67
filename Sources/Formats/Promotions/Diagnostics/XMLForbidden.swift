import PlistReader

extension Diagnostic {
    static func xmlForbidden(_ issue: PlistIssue) -> Diagnostic {
        Diagnostic(.xmlForbidden, "forbidden XML: \(issue.message)", at: issue.location)
    }
}
