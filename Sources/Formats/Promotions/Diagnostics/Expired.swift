import PlistReader
import Pricing

extension Diagnostic {
    /// `promotion.expired` when the promotion's window ended at or before `instant` (`--at`, else
    /// now; nil: not checked), reported at `end`.
    static func expired(end: Instant?, instant: Instant?, at location: SourceLocation, promotion: String?)
        -> Diagnostic?
    {
        guard let end, let instant, end <= instant else { return nil }
        return Diagnostic(
            .expired,
            end == instant
                ? "the promotion ended at \(end), the instant checked: it no longer applies; remove it or move its `end`"
                : "the promotion ended at \(end), before \(instant): it no longer applies; remove it or move its `end`",
            at: location, promotion: promotion)
    }
}
