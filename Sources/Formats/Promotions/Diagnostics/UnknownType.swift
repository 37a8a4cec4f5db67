import PlistReader
import Pricing
import Suggestions

extension Diagnostic {
    static func unknownType(_ type: String, at location: SourceLocation, promotion: String?) -> Diagnostic {
        let types = PromotionType.allCases.map(\.rawValue)
        let hint = closestMatch(to: type, in: types).map { "; did you mean `\($0)`?" } ?? ""
        return Diagnostic(
            .unknownType,
            "unknown promotion type `\(type.escapedForDisplay)`; expected one of \(types.joined(separator: ", "))\(hint)",
            at: location, promotion: promotion)
    }
}
