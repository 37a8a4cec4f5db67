import PlistReader
import Pricing

extension Diagnostic {
    /// `promotion.date-range` when `start` is not before `end` (reported at `end`): as written the
    /// promotion is never active.
    static func dateRange(start: Instant?, end: Instant?, at location: SourceLocation, promotion: String?)
        -> Diagnostic?
    {
        guard let start, let end, start >= end else { return nil }
        return Diagnostic(
            .dateRange, "`end` (\(end)) must be after `start` (\(start)): as written the promotion is never active",
            at: location, promotion: promotion)
    }
}
