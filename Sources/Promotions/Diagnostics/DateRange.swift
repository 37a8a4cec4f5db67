import Pricing
import PlistReader

extension DiagnosticRule {
    /// `start` is not before `end`: the promotion could never be active. Reported at `end`.
    public static let dateRange = DiagnosticRule("promotion.date-range", .error, "The start date is not before the end date.")
}

extension Diagnostic {
    static func dateRange(start: Instant, end: Instant, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.dateRange, "`end` (\(end)) must be after `start` (\(start)): as written the promotion is never active",
                   at: location, promotion: promotion)
    }
}
