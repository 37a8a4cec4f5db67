import PlistReader

extension Diagnostic {
    static func shadowed(
        by other: String, at otherLocation: SourceLocation, at location: SourceLocation, promotion: String
    ) -> Diagnostic {
        var diagnostic = Diagnostic(
            .shadowed,
            "`\(other.escapedForDisplay)` (line \(otherLocation.line)) beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them",
            at: location, promotion: promotion)
        diagnostic.notes = [Note("`\(other.escapedForDisplay)` always beats it", at: otherLocation)]
        return diagnostic
    }
}
