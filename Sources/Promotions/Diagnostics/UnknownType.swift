import PlistReader
import Pricing

extension DiagnosticRule {
    /// `type` names no promotion type.
    public static let unknownType = DiagnosticRule("promotion.unknown-type", .error, "The promotion type is not one of combo, bulk, percent, amount, cart, bundle, bxgy.")
}

extension Diagnostic {
    static func unknownType(_ type: String, at location: SourceLocation, promotion: String?) -> Diagnostic {
        let types = PromotionType.allCases.map(\.rawValue)
        let hint = closestMatch(to: type, in: types).map { "; did you mean `\($0)`?" } ?? ""
        return Diagnostic(.unknownType, "unknown promotion type `\(type.escapedForDisplay)`; expected one of \(types.joined(separator: ", "))\(hint)",
                          at: location, promotion: promotion)
    }
}
