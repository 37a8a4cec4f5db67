import PlistReader

extension Diagnostic {
    static func duplicateID(_ id: String, first: SourceLocation, at location: SourceLocation, defaulted: Bool)
        -> Diagnostic
    {
        let how = defaulted ? " (its id defaults to its name)" : ""
        var diagnostic = Diagnostic(
            .duplicateID,
            "duplicate promotion id `\(id.escapedForDisplay)`\(how): the promotion at line \(first.line) already uses it; give each promotion a unique `id`",
            at: location, promotion: id)
        diagnostic.notes = [Note("`\(id.escapedForDisplay)` is first used here", at: first)]
        return diagnostic
    }
}
