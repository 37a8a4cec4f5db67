import PlistReader
import Suggestions

extension Diagnostic {
    static func unknownKey(_ key: String, known: [String], at location: SourceLocation, promotion: String?)
        -> Diagnostic
    {
        let hint =
            closestMatch(to: key, in: known).map { "; did you mean `\($0)`?" } ?? "; known keys: "
            + known.joined(separator: ", ")
        return Diagnostic(
            .unknownKey, "unknown key `\(key.escapedForDisplay)` is ignored\(hint)", at: location, promotion: promotion)
    }
}
