import Pricing
import PlistReader

extension DiagnosticRule {
    /// The promotion's window ended at or before the instant checked (`--at`, default now). A warning.
    public static let expired = DiagnosticRule("promotion.expired", .warning, "The promotion has ended.")
}

extension Diagnostic {
    static func expired(end: Instant, instant: Instant, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.expired, "the promotion ended at \(end), before \(instant): it no longer applies; remove it or move its `end`",
                   at: location, promotion: promotion)
    }
}
