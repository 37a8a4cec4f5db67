import PlistReader

extension Diagnostic {
    static func missingKey(_ what: String, needed: String, at location: SourceLocation, promotion: String?)
        -> Diagnostic
    {
        Diagnostic(.missingKey, "missing \(what): \(needed)", at: location, promotion: promotion)
    }
}
