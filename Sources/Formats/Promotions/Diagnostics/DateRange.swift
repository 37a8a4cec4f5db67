import PlistReader
import Pricing

extension Diagnostic {
    static func dateRange(start: Instant, end: Instant, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(
            .dateRange, "`end` (\(end)) must be after `start` (\(start)): as written the promotion is never active",
            at: location, promotion: promotion)
    }
}
