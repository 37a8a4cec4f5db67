import PlistReader
import Pricing

extension Diagnostic {
    static func expired(end: Instant, instant: Instant, at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(
            .expired,
            "the promotion ended at \(end), before \(instant): it no longer applies; remove it or move its `end`",
            at: location, promotion: promotion)
    }
}
