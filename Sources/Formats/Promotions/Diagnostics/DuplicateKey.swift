import PlistReader

extension Diagnostic {
    static func duplicateKey(_ key: String, first: SourceLocation, at location: SourceLocation, promotion: String?)
        -> Diagnostic
    {
        var diagnostic = Diagnostic(
            .duplicateKey, "key `\(key.escapedForDisplay)` appears twice (first at line \(first.line)); keep only one",
            at: location, promotion: promotion)
        diagnostic.notes = [Note("`\(key.escapedForDisplay)` first appears here", at: first)]
        return diagnostic
    }
}
